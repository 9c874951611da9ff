package cashier

import (
	"math/big"
	"strings"
)

// Chain is the canonical name of a supported network inside the service.
// Requests name networks TRON, ETH or ARB; the configuration endpoints name
// them by chainId 1, 42161 or TRON. Both spellings map to one Chain.
type Chain string

const (
	ChainTRON Chain = "TRON"
	ChainETH  Chain = "ETH"
	ChainARB  Chain = "ARB"
)

// Chains lists the supported networks in display order.
var Chains = []Chain{ChainTRON, ChainETH, ChainARB}

// ConfigID is the chainId the configuration endpoints use for c.
func (c Chain) ConfigID() string {
	switch c {
	case ChainETH:
		return "1"
	case ChainARB:
		return "42161"
	}
	return string(c)
}

// IsEVM reports whether c is an EVM network reached through JSON-RPC.
func (c Chain) IsEVM() bool { return c == ChainETH || c == ChainARB }

// ParseChain accepts either naming scheme, case-insensitively: TRON, ETH, ARB
// (order requests) and 1, 42161 (configuration), plus the common names TRX,
// ETHEREUM and ARBITRUM.
func ParseChain(s string) (Chain, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "TRON", "TRX":
		return ChainTRON, nil
	case "ETH", "1", "ETHEREUM":
		return ChainETH, nil
	case "ARB", "42161", "ARBITRUM":
		return ChainARB, nil
	}
	return "", Errorf(EUnsupported, "chainId %q is not supported; use TRON, ETH or ARB (or 1, 42161)", s)
}

// NetworkStatus is the operating status of a network.
type NetworkStatus string

const (
	NetworkActive      NetworkStatus = "active"
	NetworkMaintenance NetworkStatus = "maintenance"
)

// Network describes one supported blockchain.
type Network struct {
	Chain         Chain         `json:"chain"`
	NetworkName   string        `json:"networkName"`
	ShortName     string        `json:"shortName"`
	Symbol        string        `json:"symbol"` // native coin
	Decimals      int           `json:"decimals"`
	ExplorerURL   string        `json:"explorerUrl"`
	RPCURL        string        `json:"rpcUrl"` // public RPC shown to clients
	Status        NetworkStatus `json:"status"`
	AvgBlockTime  int           `json:"avgBlockTime"` // seconds
	AvgGasFee     string        `json:"avgGasFee"`
	Confirmations int           `json:"confirmations"` // blocks before a payment counts
	// Finalized: payments count once the chain's finalized block reaches
	// them (the eth-finality / arb-finality settings), not after
	// Confirmations blocks.
	Finalized  bool  `json:"-"`
	EVMChainID int64 `json:"evmChainId,omitempty"`
	// GenesisBlockID identifies a TRON network: every node URL's block 0
	// must have this id (TRON has no eth_chainId). Empty: not checked.
	GenesisBlockID string `json:"genesisBlockId,omitempty"`
	// Create2Prefix is the first byte of the CREATE2 address preimage on
	// this network: 0xff on EVM chains, 0x41 on TRON's TVM. Deposit
	// addresses are computed off chain with it.
	Create2Prefix byte `json:"create2Prefix"`
}

// Token is one token on one network.
type Token struct {
	Symbol          string   `json:"symbol"`
	Name            string   `json:"name"`
	Chain           Chain    `json:"chain"`
	ContractAddress string   `json:"contractAddress"`
	Decimals        int      `json:"decimals"`
	MinAmount       *big.Int `json:"minAmount"`   // base units
	MaxAmount       *big.Int `json:"maxAmount"`   // base units
	WithdrawFee     *big.Int `json:"withdrawFee"` // base units, payout fee per order
}

// Registry is the service's configuration of networks and tokens. It is
// built in and can be overridden by the operator (see package config).
type Registry struct {
	Networks []Network
	Tokens   []Token
}

// Network returns the network for c.
func (r *Registry) Network(c Chain) (Network, bool) {
	for _, n := range r.Networks {
		if n.Chain == c {
			return n, true
		}
	}
	return Network{}, false
}

// Token returns the token with the symbol (case-insensitive) on c.
func (r *Registry) Token(c Chain, symbol string) (Token, bool) {
	for _, t := range r.Tokens {
		if t.Chain == c && strings.EqualFold(t.Symbol, symbol) {
			return t, true
		}
	}
	return Token{}, false
}

// TokenByAddress returns the token whose contract is addr on c.
func (r *Registry) TokenByAddress(c Chain, addr string) (Token, bool) {
	for _, t := range r.Tokens {
		if t.Chain == c && strings.EqualFold(t.ContractAddress, addr) {
			return t, true
		}
	}
	return Token{}, false
}

// LookupToken resolves symbol on c for an order and checks that the network
// is usable, returning a domain error that names what is wrong.
func (r *Registry) LookupToken(c Chain, symbol string) (Token, error) {
	n, ok := r.Network(c)
	if !ok {
		return Token{}, Errorf(EUnsupported, "network %s is not supported", c)
	}
	if n.Status == NetworkMaintenance {
		return Token{}, Errorf(ENetworkMaintenance, "network %s is in maintenance", c)
	}
	t, ok := r.Token(c, symbol)
	if !ok {
		return Token{}, Errorf(EUnsupported, "token %q is not supported on %s; use USDT or USDC", symbol, c)
	}
	return t, nil
}

// ParseOrderAmount parses s for token t and checks the token's bounds.
func (t Token) ParseOrderAmount(s string) (*big.Int, error) {
	v, err := ParseAmount(s, t.Decimals)
	if err != nil {
		return nil, err
	}
	if v.Sign() <= 0 {
		return nil, Errorf(EInvalidAmount, "amount must be greater than zero")
	}
	if t.MinAmount != nil && v.Cmp(t.MinAmount) < 0 {
		return nil, Errorf(EInvalidAmount, "amount %s is below the minimum %s %s", s, FormatAmount(t.MinAmount, t.Decimals), t.Symbol)
	}
	if t.MaxAmount != nil && t.MaxAmount.Sign() > 0 && v.Cmp(t.MaxAmount) > 0 {
		return nil, Errorf(EInvalidAmount, "amount %s is above the maximum %s %s", s, FormatAmount(t.MaxAmount, t.Decimals), t.Symbol)
	}
	return v, nil
}
