package app

import (
	"context"
	"math/big"

	"github.com/stablecashier/cashier"
)

// decimalsCall is the ERC-20 (and TRC-20) decimals() selector.
var decimalsCall = []byte{0x31, 0x3c, 0xe5, 0x67}

// TokenDecimalsMismatch is a token whose contract reports other decimals
// than the registry's: every amount of it would be off by a power of ten.
type TokenDecimalsMismatch struct {
	Chain    cashier.Chain
	Symbol   string
	Contract string
	Registry int
	OnChain  *big.Int
}

// CheckTokenDecimals reads decimals() of every token of reg on a network
// with a client in chains and refuses (removes from reg) each whose answer
// differs from the registry's. A token that cannot be read (node down, no
// contract at the address) is left as it is and reported in unchecked: its
// orders meet the node's own errors, not a wrong scale.
func CheckTokenDecimals(ctx context.Context, reg *cashier.Registry, chains map[cashier.Chain]cashier.ChainClient) (refused []TokenDecimalsMismatch, unchecked map[string]error) {
	unchecked = map[string]error{}
	for _, t := range append([]cashier.Token(nil), reg.Tokens...) {
		v, ok := chains[t.Chain].(Viewer)
		if !ok {
			continue
		}
		d, err := v.ViewUint(ctx, t.ContractAddress, decimalsCall)
		if err != nil {
			unchecked[string(t.Chain)+" "+t.Symbol] = err
			continue
		}
		if d.Cmp(big.NewInt(int64(t.Decimals))) != 0 {
			refused = append(refused, TokenDecimalsMismatch{Chain: t.Chain, Symbol: t.Symbol, Contract: t.ContractAddress, Registry: t.Decimals, OnChain: d})
			reg.DisableToken(t.Chain, t.Symbol)
		}
	}
	return refused, unchecked
}

// checkDecimals runs CheckTokenDecimals at start and logs what it found.
func (s *Service) checkDecimals(ctx context.Context) {
	refused, unchecked := CheckTokenDecimals(ctx, s.Registry, s.Chains)
	for _, m := range refused {
		s.Logger.Error("token refused: its contract's decimals differ from the registry's", "chain", string(m.Chain), "symbol", m.Symbol,
			"contract", m.Contract, "registryDecimals", m.Registry, "chainDecimals", m.OnChain.String())
	}
	for k, err := range unchecked {
		s.Logger.Warn("token decimals not checked: decimals() not read at start", "token", k, "err", err)
	}
}
