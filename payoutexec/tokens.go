package payoutexec

import (
	"context"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
)

// Probes of the real tokens' own switches (USDT and USDC both have them;
// a token without them answers with an error, read as "no").
var (
	selPaused        = crypto.Keccak256([]byte("paused()"))[:4]
	selIsBlacklisted = crypto.Keccak256([]byte("isBlacklisted(address)"))[:4] // USDC
	selIsBlackListed = crypto.Keccak256([]byte("isBlackListed(address)"))[:4] // USDT
)

// tokenPaused reports whether e's token is paused, telling the operator
// (at most once a minute per token) that its payouts wait.
func (x *Executor) tokenPaused(ctx context.Context, e *cashier.PayoutExec) bool {
	token := x.tokenAddress(e)
	if token == "" {
		return false
	}
	v, err := x.Networks[e.Chain].Client.ViewUint(ctx, token, selPaused)
	if err != nil || v.Sign() == 0 {
		return false
	}
	if x.Alerts != nil {
		x.Alerts.Set(cashier.TokenAlert{Chain: e.Chain, Symbol: e.Symbol, Token: token, Kind: cashier.TokenPaused, Since: x.Clock.Now()})
	}
	if x.pausedLogged == nil {
		x.pausedLogged = map[string]time.Time{}
	}
	if now := x.Clock.Now(); now.Sub(x.pausedLogged[token]) >= time.Minute {
		x.pausedLogged[token] = now
		x.Logger.Error("token contract paused: its payouts wait until it is unpaused", "chain", e.Chain, "symbol", e.Symbol, "token", token, "exec", e.ID)
	}
	return true
}

// blacklisted reports whether addr is on e's token's blacklist.
func (x *Executor) blacklisted(ctx context.Context, e *cashier.PayoutExec, addr common.Address) bool {
	token := x.tokenAddress(e)
	if token == "" || addr == (common.Address{}) {
		return false
	}
	arg := common.LeftPadBytes(addr.Bytes(), 32)
	for _, sel := range [][]byte{selIsBlacklisted, selIsBlackListed} {
		v, err := x.Networks[e.Chain].Client.ViewUint(ctx, token, append(slices.Clone(sel), arg...))
		if err == nil && v.Sign() != 0 {
			return true
		}
	}
	return false
}

func (x *Executor) tokenAddress(e *cashier.PayoutExec) string {
	if x.Registry == nil {
		return ""
	}
	t, ok := x.Registry.Token(e.Chain, e.Symbol)
	if !ok {
		return ""
	}
	return t.ContractAddress
}
