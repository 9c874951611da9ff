package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
)

// runCommands runs commands in this process with env as the environment:
// runJSON returns a command's error or its one JSON object of strings,
// must fails the test on an error.
func runCommands(t *testing.T, ctx context.Context, env map[string]string) (runJSON func(...string) (map[string]string, error), must func(...string) map[string]string) {
	getenv := func(k string) string { return env[k] }
	runJSON = func(args ...string) (map[string]string, error) {
		var out, errOut bytes.Buffer
		if err := run(ctx, args, getenv, &out, &errOut); err != nil {
			return nil, err
		}
		var m map[string]string
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("%q printed %q: %v", args, out.String(), err)
		}
		return m, nil
	}
	must = func(args ...string) map[string]string {
		t.Helper()
		m, err := runJSON(args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return m
	}
	return runJSON, must
}

// An on-chain contract is registered once; its webhook URL and status
// change in place; bad input changes nothing.
func TestContractRegisteredOnceUpdateDisable(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	env := map[string]string{"CASHIER_DATA": data}
	runJSON, must := runCommands(t, ctx, env)
	m1 := must("merchant", "create", "--name", "One")["merchantId"]
	m2 := must("merchant", "create", "--name", "Two")["merchantId"]
	const addr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	k := registerUnchecked(t, data, m1, "ETH", addr, "", "")
	for _, m := range []string{m1, m2} {
		// The same address in lower case is the same contract.
		if _, err := runJSON("contract", "create", "--merchant", m, "--chain", "ETH", "--address", strings.ToLower(addr)); err == nil || !strings.Contains(err.Error(), "registered") {
			t.Fatalf("second registration by %s: %v, want refused as registered", m, err)
		}
	}
	// Without a node of the network nothing can be proven: refused, saying so.
	if _, err := runJSON("contract", "create", "--merchant", m2, "--chain", "ARB", "--address", addr); err == nil || !strings.Contains(err.Error(), "CASHIER_ARB_RPC") {
		t.Fatalf("registration without a node: %v", err)
	}
	got := must("contract", "update", "--id", k, "--webhook-url", "https://shop.example/payouts")
	if got["webhookUrl"] != "https://shop.example/payouts" || got["status"] != "active" {
		t.Fatalf("update printed %v", got)
	}
	for _, bad := range [][]string{
		{"contract", "update", "--id", k, "--webhook-url", "ftp://shop.example/x"},
		{"contract", "update", "--id", k},
		{"contract", "update", "--id", "k_nobody", "--webhook-url", "https://shop.example/y"},
		{"contract", "disable"},
	} {
		if _, err := runJSON(bad...); err == nil {
			t.Fatalf("%q succeeded", bad)
		}
	}
	got = must("contract", "disable", "--id", k)
	if got["status"] != "disabled" || got["webhookUrl"] != "https://shop.example/payouts" {
		t.Fatalf("disable printed %v (the refused updates must not have changed it)", got)
	}
	if got = must("contract", "enable", "--id", k); got["status"] != "active" {
		t.Fatalf("enable printed %v", got)
	}
}

// `contract create` registers a contract only when the chain proves it is
// the merchant's: a CashierPayout deployed by an unrelated owner, naming
// the service's executor and another signer and holding tokens, is refused
// for a second merchant, as is an address without code; the merchant whose
// signer (`key signer`) the contract names registers it.
func TestContractCreateProvesOwnership(t *testing.T) {
	ctx := context.Background()
	eth, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	data := t.TempDir()
	reg, _ := json.Marshal(map[string]any{"networks": []any{map[string]any{"chainId": "ETH", "evmChainId": devchain.ChainIDETH}}})
	regPath := filepath.Join(data, "registry.json")
	if err := os.WriteFile(regPath, reg, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CASHIER_DATA": data, "CASHIER_ETH_RPC": eth.URL, "CASHIER_REGISTRY": regPath}
	runJSON, must := runCommands(t, ctx, env)
	honest := must("merchant", "create", "--name", "Honest")["merchantId"]
	thief := must("merchant", "create", "--name", "Thief")["merchantId"]
	executor := must("key", "generate", "--chain", "ETH", "--role", "executor")["address"]
	shared := must("key", "generate", "--chain", "ETH", "--role", "signer")["address"]

	owner, _ := crypto.GenerateKey()
	if err := eth.Fund(ctx, crypto.PubkeyToAddress(owner.PublicKey), big.NewInt(1e18)); err != nil {
		t.Fatal(err)
	}
	deploy := func(signer string) string {
		code := append(common.FromHex(bindings.CashierPayoutMetaData.Bin), bindings.NewCashierPayout().PackConstructor(
			crypto.PubkeyToAddress(owner.PublicKey), common.HexToAddress(executor), common.HexToAddress(signer), common.HexToAddress("0xfe"))...)
		a, err := eth.Deploy(ctx, owner, code)
		if err != nil {
			t.Fatal(err)
		}
		return a.Hex()
	}
	victim := deploy(shared)
	token, err := eth.Deploy(ctx, owner, append(common.FromHex(bindings.TestUSDCMetaData.Bin), bindings.NewTestUSDC().PackConstructor("Tether USD", "USDT")...))
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress(victim)
	if _, err := eth.Transact(ctx, owner, &token, nil, bindings.NewTestUSDC().PackMint(to, big.NewInt(500_000_000)), 0); err != nil {
		t.Fatal(err)
	}

	for _, m := range []string{thief, honest} {
		_, err := runJSON("contract", "create", "--merchant", m, "--chain", "ETH", "--address", victim)
		if err == nil || !strings.Contains(err.Error(), "names signer "+shared) {
			t.Fatalf("merchant %s registering a contract naming the shared signer: %v", m, err)
		}
	}
	if _, err := runJSON("contract", "create", "--merchant", thief, "--chain", "ETH", "--address", "0x000000000000000000000000000000000000dEaD"); err == nil ||
		!strings.Contains(err.Error(), "no contract at this address") {
		t.Fatalf("an address without code: %v", err)
	}

	signer := must("key", "signer", "--merchant", honest, "--chain", "ETH")["address"]
	if again := must("key", "signer", "--merchant", honest, "--chain", "ETH")["address"]; again != signer || signer == shared {
		t.Fatalf("merchant signer %s, then %s (shared %s)", signer, again, shared)
	}
	mine := deploy(signer)
	if _, err := runJSON("contract", "create", "--merchant", thief, "--chain", "ETH", "--address", mine); err == nil || !strings.Contains(err.Error(), "names signer "+signer) {
		t.Fatalf("the thief registering the honest merchant's contract: %v", err)
	}
	k := must("contract", "create", "--merchant", honest, "--chain", "ETH", "--address", mine)
	if k["signer"] != signer || k["merchantId"] != honest {
		t.Fatalf("registered %v", k)
	}
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"key", "list", "--merchant", honest}, func(k string) string { return env[k] }, &out, &errOut); err != nil || !strings.Contains(out.String(), signer) {
		t.Fatalf("key list --merchant: %s %v", out.String(), err)
	}
	// The registered contract checks again; the victim stays unregistered.
	if c := must("contract", "check", "--id", k["contractId"]); c["signer"] != signer {
		t.Fatalf("check: %v", c)
	}
	if _, err := runJSON("contract", "create", "--merchant", thief, "--chain", "ETH", "--address", victim); err == nil {
		t.Fatal("the victim's contract was registered")
	}
}
