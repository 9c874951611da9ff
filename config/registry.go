// Package config holds the service's settings: the built-in registry of
// networks and tokens with the operator's overrides, and the process
// configuration read from flags and CASHIER_* environment variables.
package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/stablecashier/cashier"
)

// units is whole tokens in base units of a token with decimals places.
func units(whole int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// TRONMainnetGenesis is the id of TRON mainnet's block 0: a node whose
// block 0 differs serves another network (Nile, Shasta, a private chain).
const TRONMainnetGenesis = "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc"

// DefaultRegistry is the built-in configuration: the networks and the
// issuers' USDT and USDC contracts on each, with their decimals (6, but 18
// on BNB Smart Chain). Every network is on; the registry file switches one
// off ("enabled": false). Bounds: 1 to 1,000,000 tokens per order; payout
// fee 1 token (1 USD) per order.
func DefaultRegistry() *cashier.Registry {
	r := &cashier.Registry{
		Networks: []cashier.Network{
			{Chain: cashier.ChainTRON, NetworkName: "TRON", ShortName: "TRX", Symbol: "TRX", Decimals: 6,
				ExplorerURL: "https://tronscan.org", RPCURL: "https://api.trongrid.io", Status: cashier.NetworkActive,
				AvgBlockTime: 3, AvgGasFee: "1-15 TRX", Confirmations: 19, Create2Prefix: 0x41,
				GenesisBlockID: TRONMainnetGenesis},
			{Chain: cashier.ChainETH, NetworkName: "Ethereum", ShortName: "ETH", Symbol: "ETH", Decimals: 18,
				ExplorerURL: "https://etherscan.io", RPCURL: "https://ethereum-rpc.publicnode.com", Status: cashier.NetworkActive,
				AvgBlockTime: 12, AvgGasFee: "0.5-5 USD", Confirmations: 12, EVMChainID: 1, Create2Prefix: 0xff},
			{Chain: cashier.ChainARB, NetworkName: "Arbitrum One", ShortName: "ARB", Symbol: "ETH", Decimals: 18,
				ExplorerURL: "https://arbiscan.io", RPCURL: "https://arb1.arbitrum.io/rpc", Status: cashier.NetworkActive,
				AvgBlockTime: 1, AvgGasFee: "0.01-0.1 USD", Confirmations: 20, EVMChainID: 42161, Create2Prefix: 0xff},
			// BNB Smart Chain: blocks under 1-3 s with fast finality;
			// 15 blocks is what exchanges wait for BEP-20 deposits.
			{Chain: cashier.ChainBSC, NetworkName: "BNB Smart Chain", ShortName: "BSC", Symbol: "BNB", Decimals: 18,
				ExplorerURL: "https://bscscan.com", RPCURL: "https://bsc-dataseed.bnbchain.org", Status: cashier.NetworkActive,
				AvgBlockTime: 1, AvgGasFee: "0.01-0.05 USD", Confirmations: 15, EVMChainID: 56, Create2Prefix: 0xff},
			// Polygon PoS: 2 s blocks; its history of deep reorganisations
			// asks for more blocks than the others (or polygon-finality
			// finalized: the milestone-finalized block).
			{Chain: cashier.ChainPOLYGON, NetworkName: "Polygon PoS", ShortName: "POLYGON", Symbol: "POL", Decimals: 18,
				ExplorerURL: "https://polygonscan.com", RPCURL: "https://polygon-rpc.com", Status: cashier.NetworkActive,
				AvgBlockTime: 2, AvgGasFee: "0.001-0.02 USD", Confirmations: 128, EVMChainID: 137, Create2Prefix: 0xff},
			// Base: an OP-stack rollup with 2 s blocks.
			{Chain: cashier.ChainBASE, NetworkName: "Base", ShortName: "BASE", Symbol: "ETH", Decimals: 18,
				ExplorerURL: "https://basescan.org", RPCURL: "https://mainnet.base.org", Status: cashier.NetworkActive,
				AvgBlockTime: 2, AvgGasFee: "0.001-0.02 USD", Confirmations: 20, EVMChainID: 8453, Create2Prefix: 0xff},
		},
	}
	tokd := func(c cashier.Chain, sym, name, addr string, decimals int) cashier.Token {
		return cashier.Token{Symbol: sym, Name: name, Chain: c, ContractAddress: addr, Decimals: decimals,
			MinAmount: units(1, decimals), MaxAmount: units(1_000_000, decimals), WithdrawFee: units(1, decimals)}
	}
	tok := func(c cashier.Chain, sym, name, addr string) cashier.Token { return tokd(c, sym, name, addr, 6) }
	r.Tokens = []cashier.Token{
		tok(cashier.ChainTRON, "USDT", "Tether USD", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
		tok(cashier.ChainTRON, "USDC", "USD Coin", "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8"),
		tok(cashier.ChainETH, "USDT", "Tether USD", "0xdAC17F958D2ee523a2206206994597C13D831ec7"),
		tok(cashier.ChainETH, "USDC", "USD Coin", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
		tok(cashier.ChainARB, "USDT", "Tether USD", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"),
		tok(cashier.ChainARB, "USDC", "USD Coin", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
		// Binance-Peg tokens: 18 decimals, unlike USDT and USDC elsewhere.
		tokd(cashier.ChainBSC, "USDT", "Tether USD", "0x55d398326f99059fF775485246999027B3197955", 18),
		tokd(cashier.ChainBSC, "USDC", "USD Coin", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18),
		tok(cashier.ChainPOLYGON, "USDT", "Tether USD", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F"),
		tok(cashier.ChainPOLYGON, "USDC", "USD Coin", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
		tok(cashier.ChainBASE, "USDC", "USD Coin", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
	}
	return r
}

// Override is the operator's registry file (JSON). Networks and tokens are
// matched by chain (either naming scheme) and symbol; a given field replaces
// the built-in value, an absent one keeps it. Amounts are decimal strings in
// whole tokens ("1.00"), like everywhere on the wire.
type Override struct {
	Networks []NetworkOverride `json:"networks"`
	Tokens   []TokenOverride   `json:"tokens"`
}

// NetworkOverride changes one network.
type NetworkOverride struct {
	ChainID string `json:"chainId"`
	// Enabled false switches the network off: it and its tokens leave
	// the registry (not listed, orders refused, no node needed).
	Enabled       *bool   `json:"enabled"`
	NetworkName   *string `json:"networkName"`
	ShortName     *string `json:"shortName"`
	ExplorerURL   *string `json:"explorerUrl"`
	RPCURL        *string `json:"rpcUrl"`
	Status        *string `json:"status"`
	AvgBlockTime  *int    `json:"avgBlockTime"`
	AvgGasFee     *string `json:"avgGasFee"`
	Confirmations *int    `json:"confirmations"`
	EVMChainID    *int64  `json:"evmChainId"`
	// GenesisBlockID is a TRON network's block 0 id, checked against
	// every node ("" turns the check off).
	GenesisBlockID *string `json:"genesisBlockId"`
	Create2Prefix  *string `json:"create2Prefix"` // "0xff" or "0x41"
}

// TokenOverride changes or adds one token on one network.
type TokenOverride struct {
	ChainID         string  `json:"chainId"`
	Symbol          string  `json:"symbol"`
	Name            *string `json:"name"`
	ContractAddress *string `json:"contractAddress"`
	Decimals        *int    `json:"decimals"`
	MinAmount       *string `json:"minAmount"`
	MaxAmount       *string `json:"maxAmount"`
	WithdrawFee     *string `json:"withdrawFee"`
}

// LoadRegistry returns the built-in registry with the override file at
// path applied ("" means none).
func LoadRegistry(path string) (*cashier.Registry, error) {
	return applyFile(DefaultRegistry(), path)
}

// applyFile applies the override file at path to r ("" means none).
func applyFile(r *cashier.Registry, path string) (*cashier.Registry, error) {
	if path == "" {
		return r, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("registry override: %w", err)
	}
	var o Override
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return nil, fmt.Errorf("registry override %s: %w", path, err)
	}
	if err := Apply(r, o); err != nil {
		return nil, fmt.Errorf("registry override %s: %w", path, err)
	}
	return r, nil
}

// Apply applies o to r.
func Apply(r *cashier.Registry, o Override) error {
	for _, no := range o.Networks {
		c, err := cashier.ParseChain(no.ChainID)
		if err != nil {
			return err
		}
		i := -1
		for j := range r.Networks {
			if r.Networks[j].Chain == c {
				i = j
			}
		}
		if i < 0 {
			return fmt.Errorf("network %s is not built in (or switched off above)", c)
		}
		if no.Enabled != nil && !*no.Enabled {
			r.Disable(c)
			continue
		}
		n := &r.Networks[i]
		set(&n.NetworkName, no.NetworkName)
		set(&n.ShortName, no.ShortName)
		set(&n.ExplorerURL, no.ExplorerURL)
		set(&n.RPCURL, no.RPCURL)
		set(&n.AvgBlockTime, no.AvgBlockTime)
		set(&n.AvgGasFee, no.AvgGasFee)
		set(&n.Confirmations, no.Confirmations)
		set(&n.EVMChainID, no.EVMChainID)
		if no.GenesisBlockID != nil {
			n.GenesisBlockID = strings.ToLower(strings.TrimPrefix(*no.GenesisBlockID, "0x"))
		}
		if no.Create2Prefix != nil {
			switch strings.ToLower(*no.Create2Prefix) {
			case "0xff":
				n.Create2Prefix = 0xff
			case "0x41":
				n.Create2Prefix = 0x41
			default:
				return fmt.Errorf("network %s: create2Prefix must be 0xff or 0x41", c)
			}
		}
		if no.Status != nil {
			st := cashier.NetworkStatus(*no.Status)
			if st != cashier.NetworkActive && st != cashier.NetworkMaintenance {
				return fmt.Errorf("network %s: status must be active or maintenance", c)
			}
			n.Status = st
		}
	}
	for _, to := range o.Tokens {
		c, err := cashier.ParseChain(to.ChainID)
		if err != nil {
			return err
		}
		if _, ok := r.Network(c); !ok {
			return fmt.Errorf("token %s: network %s is switched off or not built in", to.Symbol, c)
		}
		if to.Symbol == "" {
			return fmt.Errorf("token on %s: symbol is required", c)
		}
		i := -1
		for j := range r.Tokens {
			if r.Tokens[j].Chain == c && strings.EqualFold(r.Tokens[j].Symbol, to.Symbol) {
				i = j
			}
		}
		if i < 0 {
			r.Tokens = append(r.Tokens, cashier.Token{Symbol: to.Symbol, Chain: c, Decimals: 6, WithdrawFee: new(big.Int)})
			i = len(r.Tokens) - 1
		}
		t := &r.Tokens[i]
		set(&t.Name, to.Name)
		set(&t.ContractAddress, to.ContractAddress)
		if to.Decimals != nil {
			if err := setDecimals(t, *to.Decimals); err != nil {
				return fmt.Errorf("token %s on %s: %v", t.Symbol, c, err)
			}
		}
		for _, a := range []struct {
			dst  **big.Int
			src  *string
			name string
		}{{&t.MinAmount, to.MinAmount, "minAmount"}, {&t.MaxAmount, to.MaxAmount, "maxAmount"}, {&t.WithdrawFee, to.WithdrawFee, "withdrawFee"}} {
			if a.src == nil {
				continue
			}
			v, err := cashier.ParseAmount(*a.src, t.Decimals)
			if err != nil {
				return fmt.Errorf("token %s on %s: %s: %v", t.Symbol, c, a.name, err)
			}
			*a.dst = v
		}
		if t.ContractAddress == "" {
			return fmt.Errorf("token %s on %s: contractAddress is required", t.Symbol, c)
		}
		if t.MinAmount != nil && t.MaxAmount != nil && t.MaxAmount.Sign() > 0 && t.MinAmount.Cmp(t.MaxAmount) > 0 {
			return fmt.Errorf("token %s on %s: minAmount is above maxAmount", t.Symbol, c)
		}
	}
	return Validate(r)
}

// Validate checks that the registry can serve orders: every EVM network has
// a chain id (payment QR codes and signatures need it) and every network a
// valid CREATE2 prefix (deposit addresses need it); every token has a
// contract and sane bounds.
func Validate(r *cashier.Registry) error {
	for _, n := range r.Networks {
		if n.Chain.IsEVM() && n.EVMChainID <= 0 {
			return fmt.Errorf("network %s: evmChainId must be set", n.Chain)
		}
		if n.Create2Prefix != 0xff && n.Create2Prefix != 0x41 {
			return fmt.Errorf("network %s: create2Prefix must be 0xff or 0x41", n.Chain)
		}
	}
	for _, t := range r.Tokens {
		if _, ok := r.Network(t.Chain); !ok {
			return fmt.Errorf("token %s: network %s is not configured", t.Symbol, t.Chain)
		}
		if t.ContractAddress == "" {
			return fmt.Errorf("token %s on %s: contractAddress is required", t.Symbol, t.Chain)
		}
		switch {
		case t.MinAmount == nil || t.MaxAmount == nil:
			return fmt.Errorf("token %s on %s: minAmount and maxAmount are required", t.Symbol, t.Chain)
		case t.MinAmount.Sign() <= 0:
			return fmt.Errorf("token %s on %s: minAmount must be positive", t.Symbol, t.Chain)
		case t.WithdrawFee == nil || t.WithdrawFee.Sign() < 0:
			return fmt.Errorf("token %s on %s: withdrawFee must not be negative", t.Symbol, t.Chain)
		}
	}
	return nil
}

// setDecimals changes t's precision. Bounds and fee already held are base
// units of the old precision, so they are rescaled to keep their value in
// tokens; one that the new precision cannot express exactly is refused.
func setDecimals(t *cashier.Token, d int) error {
	if d < 0 || d > 255 {
		return fmt.Errorf("decimals must be between 0 and 255, not %d", d)
	}
	shift := d - t.Decimals
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(shift, -shift))), nil)
	for _, v := range []*big.Int{t.MinAmount, t.MaxAmount, t.WithdrawFee} {
		switch {
		case v == nil:
		case shift >= 0:
			v.Mul(v, scale)
		case new(big.Int).Rem(v, scale).Sign() != 0:
			return fmt.Errorf("%d decimals cannot express %s (set minAmount, maxAmount and withdrawFee too)", d, cashier.FormatAmount(v, t.Decimals))
		default:
			v.Quo(v, scale)
		}
	}
	t.Decimals = d
	return nil
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}
