package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier/devchain"
)

// getData fetches a configuration endpoint and returns its data array.
func getData(t *testing.T, url string) []map[string]any {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env struct {
		Code string           `json:"code"`
		Data []map[string]any `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil || res.StatusCode != 200 || env.Code != "0" {
		t.Fatalf("GET %s: %d %+v %v", url, res.StatusCode, env, err)
	}
	return env.Data
}

// A production-mode service started with --network-preset testnet serves
// Ethereum Sepolia, Arbitrum Sepolia, TRON Nile, the BSC testnet, Polygon
// Amoy and Base Sepolia with Circle's test USDC
// in the public configuration endpoints, and no mainnet contract; the data
// directory remembers the preset and refuses to be switched to mainnet.
func TestNetworkPresetTestnet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	data := t.TempDir()
	if out, err := exec.Command(binary, "init", "--data", data, "--network-preset", "testnet").CombinedOutput(); err != nil {
		t.Fatalf("init: %v %s", err, out)
	}
	// The preset comes from the directory. A node URL for every network
	// (nothing answers there): active networks, so their coins are listed.
	env := databaseEnv()
	for _, n := range []string{"ETH", "ARB", "TRON", "BSC", "POLYGON", "BASE"} {
		name := "CASHIER_" + n + "_RPC"
		if n == "TRON" {
			name = "CASHIER_TRON_API"
		}
		env = append(env, name+"=http://127.0.0.1:9")
	}
	srv, base := serveBase(t, env, "--data", data)

	nets := map[string]map[string]any{}
	for _, n := range getData(t, base+"/admin/api/v2/pub/network/list") {
		nets[n["chainId"].(string)] = n
	}
	want := map[string][2]string{
		"1":     {"Ethereum Sepolia", "https://sepolia.etherscan.io"},
		"42161": {"Arbitrum Sepolia", "https://sepolia.arbiscan.io"},
		"TRON":  {"TRON Nile", "https://nile.tronscan.org"},
		"56":    {"BNB Smart Chain Testnet", "https://testnet.bscscan.com"},
		"137":   {"Polygon Amoy", "https://amoy.polygonscan.com"},
		"8453":  {"Base Sepolia", "https://sepolia.basescan.org"},
	}
	if len(nets) != len(want) {
		t.Fatalf("network list: %v", nets)
	}
	for id, w := range want {
		if n := nets[id]; n == nil || n["networkName"] != w[0] || n["explorerUrl"] != w[1] {
			t.Errorf("network %s: %v, want %v", id, n, w)
		}
	}

	coins := getData(t, base+"/admin/api/v2/pub/coin/list")
	got := map[string]string{} // symbol on network name: contract
	for _, c := range coins {
		for _, n := range c["networks"].([]any) {
			n := n.(map[string]any)
			got[c["symbol"].(string)+" on "+n["networkName"].(string)] = n["contractAddress"].(string)
		}
	}
	wantCoins := map[string]string{
		"USDC on Ethereum Sepolia": "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
		"USDC on Arbitrum Sepolia": "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
		"USDC on Polygon Amoy":     "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582",
		"USDC on Base Sepolia":     "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
	}
	if len(got) != len(wantCoins) {
		t.Fatalf("coin list: %v, want %v", got, wantCoins)
	}
	for k, addr := range wantCoins {
		if got[k] != addr {
			t.Errorf("%s: %q, want %q", k, got[k], addr)
		}
	}
	srv.stop(t)

	out, err := exec.Command(binary, "serve", "--data", data, "--addr", "127.0.0.1:0", "--network-preset", "mainnet").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "of network preset testnet, not mainnet") {
		t.Fatalf("a testnet directory served mainnet: %v %s", err, out)
	}
}

// contract deploy --dry-run prices the deployment on a testnet chain (a
// dev chain with Sepolia's chain id) when the data directory's preset is
// testnet; with the mainnet preset the same node is refused as another
// chain.
func TestContractDeployDryRunOnTestnet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	getenv := func(string) string { return "" }
	cmd := func(args ...string) (map[string]any, string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, args, getenv, &out, &errOut)
		var m map[string]any
		if err == nil {
			if jerr := json.Unmarshal(out.Bytes(), &m); jerr != nil {
				t.Fatalf("%v printed %q", args, out.String())
			}
		}
		if err != nil {
			errOut.WriteString(err.Error())
		}
		return m, errOut.String(), err
	}
	for _, preset := range []string{"mainnet", "testnet"} {
		// A node of its own each: the process keeps one health record per
		// node URL, wrong chain included.
		chain, err := devchain.Start(devchain.Options{ChainID: 11155111, Period: time.Second, OnDemand: true})
		if err != nil {
			t.Fatal(err)
		}
		defer chain.Close()
		owner := crypto.PubkeyToAddress(chain.Faucet.PublicKey).Hex()
		data := t.TempDir()
		if _, stderr, err := cmd("init", "--data", data, "--network-preset", preset); err != nil {
			t.Fatalf("init: %s", stderr)
		}
		m, stderr, err := cmd("merchant", "create", "--data", data, "--name", "Rehearsal Shop")
		if err != nil {
			t.Fatalf("merchant create: %s", stderr)
		}
		executor, stderr, err := cmd("key", "generate", "--data", data, "--chain", "ETH", "--role", "executor")
		if err != nil {
			t.Fatalf("key generate: %s", stderr)
		}
		if _, stderr, err := cmd("key", "generate", "--data", data, "--chain", "ETH", "--role", "sweeper"); err != nil {
			t.Fatalf("key generate: %s", stderr)
		}
		if err := chain.Fund(ctx, common.HexToAddress(executor["address"].(string)), new(big.Int).Mul(big.NewInt(1), big.NewInt(params.Ether))); err != nil {
			t.Fatal(err)
		}
		dry, stderr, err := cmd("contract", "deploy", "--data", data, "--chain", "ETH", "--merchant", m["merchantId"].(string),
			"--owner", owner, "--rpc", chain.URL, "--dry-run")
		if preset == "mainnet" {
			if err == nil || !strings.Contains(stderr, "another") {
				t.Fatalf("mainnet preset against a Sepolia node: %v %s", dry, stderr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("dry run on the testnet: %s", stderr)
		}
		if dry["dryRun"] != true || len(dry["transactions"].([]any)) != 2 || dry["payoutContract"] == "" {
			t.Fatalf("dry run printed %v", dry)
		}
	}
}
