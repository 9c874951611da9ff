package config

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// The testnet preset is Sepolia, Arbitrum Sepolia, Nile (told by its block
// 0), the BSC testnet, Amoy and Base Sepolia, with Circle's test USDC
// where Circle publishes one and nothing else;
// the mainnet preset is the default registry.
func TestTestnetPreset(t *testing.T) {
	r, err := LoadPreset(PresetTestnet, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(r); err != nil {
		t.Fatal(err)
	}
	eth, _ := r.Network(cashier.ChainETH)
	arb, _ := r.Network(cashier.ChainARB)
	tron, _ := r.Network(cashier.ChainTRON)
	if eth.EVMChainID != 11155111 || arb.EVMChainID != 421614 || eth.NetworkName != "Ethereum Sepolia" || arb.NetworkName != "Arbitrum Sepolia" {
		t.Fatalf("EVM networks: %+v %+v", eth, arb)
	}
	if tron.NetworkName != "TRON Nile" || tron.GenesisBlockID != "0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc" ||
		tron.GenesisBlockID == TRONMainnetGenesis || tron.Create2Prefix != 0x41 || tron.EVMChainID != 3448148188 {
		t.Fatalf("TRON: %+v", tron)
	}
	for c, id := range map[cashier.Chain]int64{cashier.ChainBSC: 97, cashier.ChainPOLYGON: 80002, cashier.ChainBASE: 84532} {
		if n, ok := r.Network(c); !ok || n.EVMChainID != id {
			t.Fatalf("%s: %+v", c, n)
		}
	}
	want := map[string]string{
		"ETH USDC":     "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
		"ARB USDC":     "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
		"POLYGON USDC": "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582",
		"BASE USDC":    "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
	}
	if len(r.Tokens) != len(want) {
		t.Fatalf("tokens: %+v", r.Tokens)
	}
	for _, tok := range r.Tokens {
		if want[string(tok.Chain)+" "+tok.Symbol] != tok.ContractAddress || tok.Decimals != 6 {
			t.Errorf("token %+v", tok)
		}
	}
	main, err := LoadPreset(PresetMainnet, "")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := main.Network(cashier.ChainETH); n.EVMChainID != 1 || len(main.Tokens) != len(DefaultRegistry().Tokens) {
		t.Fatalf("mainnet preset: %+v", main)
	}
	if _, err := LoadPreset("goerli", ""); err == nil {
		t.Fatal("an unknown preset was accepted")
	}
}

// The setting takes mainnet or testnet, from a flag or the environment,
// and is remembered by the data directory, which refuses to be switched to
// the other preset.
func TestNetworkPresetSetting(t *testing.T) {
	load := func(args []string, env map[string]string) (Config, error) {
		c := Default()
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		_, err := c.Load(fs, args, func(k string) string { return env[k] })
		return c, err
	}
	if c, err := load(nil, nil); err != nil || c.NetworkPreset != PresetMainnet {
		t.Fatalf("default: %q %v", c.NetworkPreset, err)
	}
	if c, err := load(nil, map[string]string{"CASHIER_NETWORK_PRESET": "testnet"}); err != nil || c.NetworkPreset != PresetTestnet {
		t.Fatalf("environment: %q %v", c.NetworkPreset, err)
	}
	if _, err := load([]string{"--network-preset", "sepolia"}, nil); err == nil || !strings.Contains(err.Error(), "network-preset must be one of mainnet, testnet") {
		t.Fatalf("sepolia: %v", err)
	}

	dir := t.TempDir()
	c, err := load([]string{"--data", dir, "--network-preset", "testnet"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Remember(false); err != nil {
		t.Fatal(err)
	}
	if c, err := load([]string{"--data", dir}, nil); err != nil || c.NetworkPreset != PresetTestnet {
		t.Fatalf("remembered: %q %v", c.NetworkPreset, err)
	}
	if _, err := load([]string{"--data", dir, "--network-preset", "mainnet"}, nil); err == nil || !strings.Contains(err.Error(), "is a data directory of network preset testnet") {
		t.Fatalf("switch to mainnet: %v", err)
	}
	if _, err := load([]string{"--data", dir, "--network-preset", "testnet"}, nil); err != nil {
		t.Fatalf("the same preset again: %v", err)
	}
}

// The override file example in docs/chains.md is complete and valid: it
// applies to the testnet preset, adds the token it says it adds, and
// changes the fields it names.
func TestDocumentedOverrideExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/chains.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- registry override example -->\n```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/chains.md has no marked registry override example")
	}
	path := filepath.Join(t.TempDir(), "registry.json")
	if err := os.WriteFile(path, []byte(example), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := LoadPreset(PresetTestnet, path)
	if err != nil {
		t.Fatalf("the documented example: %v", err)
	}
	usdt, ok := r.Token(cashier.ChainTRON, "USDT")
	if !ok || usdt.ContractAddress != "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" || usdt.WithdrawFee.Sign() <= 0 {
		t.Fatalf("Nile USDT from the example: %+v", usdt)
	}
	if n, _ := r.Network(cashier.ChainETH); !strings.Contains(n.RPCURL, "sepolia") {
		t.Fatalf("Sepolia RPC URL from the example: %q", n.RPCURL)
	}
	// Every field of the format appears in the example.
	for _, field := range []string{"chainId", "networkName", "shortName", "explorerUrl", "rpcUrl", "status", "avgBlockTime", "avgGasFee",
		"confirmations", "evmChainId", "genesisBlockId", "create2Prefix", "symbol", "name", "contractAddress", "decimals", "minAmount", "maxAmount", "withdrawFee"} {
		if !strings.Contains(example, `"`+field+`"`) {
			t.Errorf("the example lacks %q", field)
		}
	}
}
