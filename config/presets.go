package config

import (
	"fmt"

	"github.com/stablecashier/cashier"
)

// Network presets: the built-in registry the service starts from
// (--network-preset). The override file (--registry) applies on top of
// either.
const (
	PresetMainnet = "mainnet"
	PresetTestnet = "testnet"
)

// TRONNileGenesis is the id of block 0 of TRON's Nile testnet: a node on
// mainnet, Shasta or a private chain answers another one. Its last four
// bytes (cd8690dc) are the chain id Nile's nodes report through eth_chainId.
const TRONNileGenesis = "0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc"

// TRONNileChainID is what the TVM's CHAINID answers on Nile: the payout
// contract's EIP-712 domain there, so the payout signatures name it
// (mainnet's 0x2b6653dc would not verify).
const TRONNileChainID = 0xcd8690dc

// TestnetRegistry is the built-in configuration of the testnet preset:
// Ethereum Sepolia, Arbitrum Sepolia, TRON Nile, BNB Smart Chain Testnet,
// Polygon Amoy and Base Sepolia, in the same network slots (ETH, ARB,
// TRON, BSC, POLYGON, BASE) as mainnet so an integration rehearsed on them
// runs unchanged on mainnet. Tokens are only those their issuers publish
// on these networks: Circle's test USDC on the two Sepolias, Amoy and Base
// Sepolia. Tether publishes no test USDT on any of them, and Circle none
// on Nile or the BSC testnet, so those carry no token here; an operator adds one with the override
// file (docs/chains.md). Confirmation depths, bounds and fees are
// mainnet's, so a rehearsal behaves like the real thing.
func TestnetRegistry() *cashier.Registry {
	r := &cashier.Registry{
		Networks: []cashier.Network{
			{Chain: cashier.ChainTRON, NetworkName: "TRON Nile", ShortName: "TRX", Symbol: "TRX", Decimals: 6,
				ExplorerURL: "https://nile.tronscan.org", RPCURL: "https://nile.trongrid.io", Status: cashier.NetworkActive,
				AvgBlockTime: 3, AvgGasFee: "free (test TRX)", Confirmations: 19, Create2Prefix: 0x41,
				GenesisBlockID: TRONNileGenesis, EVMChainID: TRONNileChainID},
			{Chain: cashier.ChainETH, NetworkName: "Ethereum Sepolia", ShortName: "ETH", Symbol: "ETH", Decimals: 18,
				ExplorerURL: "https://sepolia.etherscan.io", RPCURL: "https://ethereum-sepolia-rpc.publicnode.com", Status: cashier.NetworkActive,
				AvgBlockTime: 12, AvgGasFee: "free (test ETH)", Confirmations: 12, EVMChainID: 11155111, Create2Prefix: 0xff},
			{Chain: cashier.ChainARB, NetworkName: "Arbitrum Sepolia", ShortName: "ARB", Symbol: "ETH", Decimals: 18,
				ExplorerURL: "https://sepolia.arbiscan.io", RPCURL: "https://sepolia-rollup.arbitrum.io/rpc", Status: cashier.NetworkActive,
				AvgBlockTime: 1, AvgGasFee: "free (test ETH)", Confirmations: 20, EVMChainID: 421614, Create2Prefix: 0xff},
			{Chain: cashier.ChainBSC, NetworkName: "BNB Smart Chain Testnet", ShortName: "BSC", Symbol: "BNB", Decimals: 18,
				ExplorerURL: "https://testnet.bscscan.com", RPCURL: "https://data-seed-prebsc-1-s1.bnbchain.org:8545", Status: cashier.NetworkActive,
				AvgBlockTime: 1, AvgGasFee: "free (test BNB)", Confirmations: 15, EVMChainID: 97, Create2Prefix: 0xff},
			{Chain: cashier.ChainPOLYGON, NetworkName: "Polygon Amoy", ShortName: "POLYGON", Symbol: "POL", Decimals: 18,
				ExplorerURL: "https://amoy.polygonscan.com", RPCURL: "https://rpc-amoy.polygon.technology", Status: cashier.NetworkActive,
				AvgBlockTime: 2, AvgGasFee: "free (test POL)", Confirmations: 128, EVMChainID: 80002, Create2Prefix: 0xff},
			{Chain: cashier.ChainBASE, NetworkName: "Base Sepolia", ShortName: "BASE", Symbol: "ETH", Decimals: 18,
				ExplorerURL: "https://sepolia.basescan.org", RPCURL: "https://sepolia.base.org", Status: cashier.NetworkActive,
				AvgBlockTime: 2, AvgGasFee: "free (test ETH)", Confirmations: 20, EVMChainID: 84532, Create2Prefix: 0xff},
		},
	}
	tok := func(c cashier.Chain, sym, name, addr string) cashier.Token {
		return cashier.Token{Symbol: sym, Name: name, Chain: c, ContractAddress: addr, Decimals: 6,
			MinAmount: units(1, 6), MaxAmount: units(1_000_000, 6), WithdrawFee: units(1, 6)}
	}
	r.Tokens = []cashier.Token{
		tok(cashier.ChainETH, "USDC", "USD Coin", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"),
		tok(cashier.ChainARB, "USDC", "USD Coin", "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d"),
		tok(cashier.ChainPOLYGON, "USDC", "USD Coin", "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582"),
		tok(cashier.ChainBASE, "USDC", "USD Coin", "0x036CbD53842c5426634e7929541eC2318f3dCF7e"),
	}
	return r
}

// PresetRegistry is the built-in registry of a preset.
func PresetRegistry(preset string) (*cashier.Registry, error) {
	switch preset {
	case PresetMainnet, "":
		return DefaultRegistry(), nil
	case PresetTestnet:
		return TestnetRegistry(), nil
	}
	return nil, fmt.Errorf("network-preset must be %s or %s, not %q", PresetMainnet, PresetTestnet, preset)
}

// LoadPreset returns a preset's built-in registry with the override file
// at path applied ("" means none).
func LoadPreset(preset, path string) (*cashier.Registry, error) {
	r, err := PresetRegistry(preset)
	if err != nil {
		return nil, err
	}
	return applyFile(r, path)
}

// Networks is the registry c runs with: its preset with its override file.
func (c Config) Networks() (*cashier.Registry, error) {
	return LoadPreset(c.NetworkPreset, c.Registry)
}
