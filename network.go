package cashier

import (
	"math/big"
	"slices"
	"strings"
)

// Chain is the canonical name of a supported network inside the service.
// Requests name networks TRON, ETH, ARB, BSC, POLYGON or BASE; the
// configuration endpoints name EVM networks by their numeric chain id (1,
// 42161, 56, 137, 8453) and TRON as TRON. Both spellings map to one Chain.
type Chain string

const (
	ChainTRON    Chain = "TRON"
	ChainETH     Chain = "ETH"
	ChainARB     Chain = "ARB"
	ChainBSC     Chain = "BSC"
	ChainPOLYGON Chain = "POLYGON"
	ChainBASE    Chain = "BASE"
)

// ChainInfo is a network's identity: its names and whether it is an EVM
// network. Everything else about it (chain id on the node, contracts,
// decimals, confirmations, whether it is on) is the registry's.
type ChainInfo struct {
	Chain    Chain
	ConfigID string   // the configuration endpoints' chainId
	EVM      bool     // reached through JSON-RPC; CASHIER_<CHAIN>_RPC
	Aliases  []string // further accepted spellings, upper case
	Name     string   // in help texts and messages
	Coin     string   // the network's own coin, the unit gas is paid in
}

// chainInfos lists every network the service knows, in display order. A
// further EVM network is one line here and one entry in the registry
// (config.DefaultRegistry); its settings (--<chain>-rpc, --<chain>-finality)
// follow from the line.
var chainInfos = []ChainInfo{
	{ChainTRON, "TRON", false, []string{"TRX"}, "TRON", "TRX"},
	{ChainETH, "1", true, []string{"ETHEREUM"}, "Ethereum", "ETH"},
	{ChainARB, "42161", true, []string{"ARBITRUM"}, "Arbitrum", "ETH"},
	{ChainBSC, "56", true, []string{"BNB", "BEP20", "BNB SMART CHAIN"}, "BNB Smart Chain", "BNB"},
	{ChainPOLYGON, "137", true, []string{"MATIC", "POL", "POLYGON POS"}, "Polygon PoS", "POL"},
	{ChainBASE, "8453", true, nil, "Base", "ETH"},
}

// Chains lists the networks the service knows, in display order. Which of
// them a running service serves is its registry's (Registry.Networks).
var Chains = func() []Chain {
	out := make([]Chain, len(chainInfos))
	for i, ci := range chainInfos {
		out[i] = ci.Chain
	}
	return out
}()

// EVMChains lists the known EVM networks, in display order.
var EVMChains = func() []Chain {
	var out []Chain
	for _, ci := range chainInfos {
		if ci.EVM {
			out = append(out, ci.Chain)
		}
	}
	return out
}()

// Info returns c's identity; ok is false for an unknown name.
func (c Chain) Info() (ChainInfo, bool) {
	for _, ci := range chainInfos {
		if ci.Chain == c {
			return ci, true
		}
	}
	return ChainInfo{}, false
}

// ConfigID is the chainId the configuration endpoints use for c.
func (c Chain) ConfigID() string {
	if ci, ok := c.Info(); ok {
		return ci.ConfigID
	}
	return string(c)
}

// IsEVM reports whether c is an EVM network reached through JSON-RPC.
func (c Chain) IsEVM() bool {
	ci, ok := c.Info()
	return ok && ci.EVM
}

// CoinSymbol is c's own coin (ETH, TRX, BNB, POL), the unit gas is paid in.
func (c Chain) CoinSymbol() string {
	if ci, ok := c.Info(); ok {
		return ci.Coin
	}
	return "ETH"
}

// DisplayName is c's common name ("BNB Smart Chain").
func (c Chain) DisplayName() string {
	if ci, ok := c.Info(); ok {
		return ci.Name
	}
	return string(c)
}

// ParseChain accepts either naming scheme, case-insensitively: the request
// names (TRON, ETH, ARB, BSC, POLYGON, BASE), the configuration chainIds
// (1, 42161, 56, 137, 8453), and common names (TRX, ETHEREUM, ARBITRUM, BNB,
// MATIC, ...).
func ParseChain(s string) (Chain, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	for _, ci := range chainInfos {
		if u == string(ci.Chain) || u == ci.ConfigID || slices.Contains(ci.Aliases, u) {
			return ci.Chain, nil
		}
	}
	return "", Errorf(EUnsupported, "chainId %q is not supported; use TRON, ETH, ARB, BSC, POLYGON or BASE (or 1, 42161, 56, 137, 8453)", s)
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

// Disable removes network c and its tokens from r: a network switched off
// is not listed and takes no orders.
func (r *Registry) Disable(c Chain) {
	r.Networks = slices.DeleteFunc(r.Networks, func(n Network) bool { return n.Chain == c })
	r.Tokens = slices.DeleteFunc(r.Tokens, func(t Token) bool { return t.Chain == c })
}

// DisableToken removes token symbol on c from r (its decimals on chain
// differ from the registry's, say).
func (r *Registry) DisableToken(c Chain, symbol string) {
	r.Tokens = slices.DeleteFunc(r.Tokens, func(t Token) bool { return t.Chain == c && strings.EqualFold(t.Symbol, symbol) })
}
