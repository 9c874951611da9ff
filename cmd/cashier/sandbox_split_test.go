package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

// TestSandboxSplit runs the sandbox's chains and service as two processes
// of the real binary: an order created through the SDK is paid with
// `sandbox pay`; the service is killed with SIGKILL while the chains go on
// producing blocks; a payment is made while the service is down; the
// restarted service serves the same merchant and orders.
func TestSandboxSplit(t *testing.T) {
	tw := newWorld(t, worldOpts{Chains: []string{"--tron-block-interval", "200ms"}, ChainsOnly: true, Timeout: 3 * time.Minute})
	ctx := tw.Ctx
	data := tw.Data
	infoPath := filepath.Join(data, sandbox.InfoFile)
	info, err := sandbox.ReadInfo(infoPath)
	if err != nil {
		t.Fatal(err)
	}
	if info.BaseURL != "" || info.MerchantID != "" {
		t.Fatalf("the chains alone wrote a service: baseUrl %q merchant %q", info.BaseURL, info.MerchantID)
	}
	if _, err := os.Stat(filepath.Join(data, "cashier.db")); err == nil {
		t.Fatal("the chains alone created the service's database")
	}

	tw.serve()
	info = tw.Info
	if info.BaseURL == "" || info.MerchantID == "" || info.APIKey == "" || len(info.ContractIDs) != 4 {
		t.Fatalf("the service did not write its part of sandbox.json: %+v", info)
	}
	api := tw.API
	create := func(orderNo, chain, amount string) *client.CollectionCreated {
		t.Helper()
		o, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: orderNo,
			Amount: amount, Symbol: "USDT", ChainID: chain})
		if err != nil {
			t.Fatalf("create %s: %v", orderNo, err)
		}
		return o
	}
	create("SPLIT-ETH", "ETH", "12.345678")
	create("SPLIT-TRON", "TRON", "7.5")
	ethDetail, err := api.CollectionDetail(ctx, "SPLIT-ETH")
	if err != nil {
		t.Fatal(err)
	}

	eth, err := ethclient.DialContext(ctx, info.Networks["ETH"].RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	usdt := info.Networks["ETH"].Tokens["USDT"]
	balance := func(holder string) *big.Int {
		t.Helper()
		out, err := eth.CallContract(ctx, ethCall(usdt, holder), nil)
		if err != nil {
			t.Fatal(err)
		}
		return new(big.Int).SetBytes(out)
	}
	customerBefore := balance(info.Wallets["customer"].EVMAddress)

	p := cli(t, "sandbox", "pay", "--data", data, "--order", "SPLIT-ETH")
	want := map[string]string{"chain": "ETH", "from": info.Wallets["customer"].EVMAddress, "to": ethDetail.DepositAddress,
		"symbol": "USDT", "amount": "12.345678"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("pay printed %s = %q, want %q", k, p[k], v)
		}
	}
	rc, err := eth.TransactionReceipt(ctx, hexHash(p["txId"]))
	if err != nil || rc.Status != 1 {
		t.Fatalf("receipt of %s: %v, %v", p["txId"], rc, err)
	}
	if got := balance(ethDetail.DepositAddress); got.Cmp(big.NewInt(12_345_678)) != 0 {
		t.Fatalf("deposit address holds %s base units, want 12345678", got)
	}
	if got := new(big.Int).Sub(customerBefore, balance(info.Wallets["customer"].EVMAddress)); got.Cmp(big.NewInt(12_345_678)) != 0 {
		t.Fatalf("customer paid %s base units, want 12345678", got)
	}

	// SIGKILL the service; the chains go on making blocks without it.
	tw.Svc.kill()
	head, err := eth.BlockNumber(ctx)
	if err != nil {
		t.Fatalf("the chains stopped answering with the service: %v", err)
	}
	waitFor(t, "a block on the period", 30*time.Second, func() bool {
		n, err := eth.BlockNumber(ctx)
		return err == nil && n > head
	})

	// A payment while the service is down, on TRON, with an explicit amount.
	tronDetail := cli(t, "sandbox", "pay", "--data", data, "--order", "SPLIT-TRON", "--amount", "7.50")
	if tronDetail["chain"] != "TRON" || tronDetail["amount"] != "7.50" || tronDetail["from"] != info.Wallets["customer"].TRONAddress {
		t.Fatalf("TRON pay printed %v", tronDetail)
	}
	tc, err := tron.New(tron.Config{URLs: []string{info.Networks["TRON"].RPCURL}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tc.TokenBalance(ctx, info.Networks["TRON"].Tokens["USDT"], tronDetail["to"]); err != nil || got.Cmp(big.NewInt(7_500_000)) != 0 {
		t.Fatalf("TRON deposit address holds %v, %v; want 7500000", got, err)
	}

	// The restarted service has the same address, merchant and orders.
	tw.Svc = tw.startService()
	again, err := sandbox.ReadInfo(infoPath)
	if err != nil {
		t.Fatal(err)
	}
	if again.BaseURL != info.BaseURL || again.MerchantID != info.MerchantID || again.APIKey != info.APIKey {
		t.Fatalf("restart changed the service: %s %s, was %s %s", again.BaseURL, again.MerchantID, info.BaseURL, info.MerchantID)
	}
	d, err := api.CollectionDetail(ctx, "SPLIT-TRON")
	if err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	if d.DepositAddress != tronDetail["to"] || d.Amount != "7.50" {
		t.Fatalf("after the restart SPLIT-TRON is %+v", d)
	}
	tw.Svc.stop(t)
	tw.Chains.stop(t)
}

// TestSandboxFlagErrors: bad flags give a clear error and start nothing.
func TestSandboxFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sandbox", "--only", "both"}, `--only "both"`},
		{[]string{"sandbox", "--only", "service", "--block-period", "2s"}, "--block-period applies to the chains"},
		{[]string{"sandbox", "--only", "chains", "--webhook-url", "http://127.0.0.1:1/h"}, "--webhook-url applies to the service"},
		{[]string{"sandbox", "--only", "chains", "--confirmations", "3"}, "--confirmations applies to the service"},
		{[]string{"sandbox", "--block-period", "0s"}, "--block-period 0s"},
		{[]string{"sandbox", "--confirmations", "0"}, "--confirmations 0"},
		{[]string{"sandbox", "--webhook-url", "ftp://127.0.0.1/h"}, "--webhook-url"},
		{[]string{"sandbox", "--network-preset", "testnet"}, "the sandbox runs its own dev chains"},
		{[]string{"sandbox", "--only", "service"}, "start the chains first"},
		{[]string{"sandbox", "extra"}, "unexpected arguments"},
		{[]string{"sandbox", "pay"}, "--order is required"},
		{[]string{"sandbox", "pay", "--order", "X"}, "a sandbox's data directory"},
		{[]string{"sandbox", "pay", "--order", "X", "surplus"}, "unexpected arguments"},
	} {
		data := t.TempDir()
		n := 1 // --data goes right after the command words
		if len(c.args) > 1 && c.args[1] == "pay" {
			n = 2
		}
		args := append(append(append([]string{}, c.args[:n]...), "--data", data), c.args[n:]...)
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cashier %v: error %v, want one saying %q", c.args, err, c.want)
		}
		if entries, _ := os.ReadDir(data); len(entries) != 0 {
			t.Errorf("cashier %v left %d files in the data directory", c.args, len(entries))
		}
	}
}

// TestSandboxPayRefusals: pay refuses what it cannot do before sending.
func TestSandboxPayRefusals(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true, Wait: 2 * time.Minute})
	data, info := tw.Data, tw.Info
	ctx := context.Background()
	tw.order(ctx, "R-1", "1.00", "ARB")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--order", "NOPE"}, `no collection order "NOPE"`},
		{[]string{"--order", "R-1", "--amount", "1.0000001"}, "--amount"},
		{[]string{"--order", "R-1", "--amount", "-1"}, "--amount"},
		{[]string{"--order", "R-1", "--amount", "0"}, "above zero"},
		{[]string{"--order", "R-1", "--symbol", "DAI"}, "no DAI token on ARB"},
		{[]string{"--order", "R-1", "--merchant", "m_other"}, "has no collection order"},
	} {
		out, err := exec.Command(binary, append([]string{"sandbox", "pay", "--data", data}, c.args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("sandbox pay %v: %v\n%s\nwant an error saying %q", c.args, err, out, c.want)
		}
	}
	// A wrong-token payment is possible on purpose: USDC to a USDT order.
	p := cli(t, "sandbox", "pay", "--data", data, "--order", "R-1", "--symbol", "USDC", "--amount", "0.25")
	if p["symbol"] != "USDC" || p["amount"] != "0.25" || p["chain"] != "ARB" {
		t.Fatalf("wrong-token pay printed %v", p)
	}
	arb, err := ethclient.Dial(info.Networks["ARB"].RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer arb.Close()
	out, err := arb.CallContract(ctx, ethCall(info.Networks["ARB"].Tokens["USDC"], p["to"]), nil)
	if err != nil || new(big.Int).SetBytes(out).Cmp(big.NewInt(250_000)) != 0 {
		t.Fatalf("deposit address holds %x USDC, %v; want 250000 base units", out, err)
	}
	tw.Svc.stop(t)
}

// ethCall is an ERC-20 balanceOf(holder) call.
func ethCall(token, holder string) ethereum.CallMsg {
	to := common.HexToAddress(token)
	return ethereum.CallMsg{To: &to, Data: bindings.NewTestUSDC().PackBalanceOf(common.HexToAddress(holder))}
}

func hexHash(s string) common.Hash { return common.HexToHash(s) }

// TestSweepOnTheBinary: the sandbox's service sweeps a paid order's
// deposit address into the payout contract, and `sweep list` reports it.
func TestSweepOnTheBinary(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true, Wait: 2 * time.Minute, Service: []string{"--sweep-interval", "300ms", "--sweep-min", "1"}})
	data, info := tw.Data, tw.Info
	ctx := context.Background()
	tw.order(ctx, "SWP-1", "4.20", "ETH")
	p := cli(t, "sandbox", "pay", "--data", data, "--order", "SWP-1")
	var list struct {
		Total  int `json:"total"`
		Sweeps []struct {
			Status, TxID, Amount string
			Addresses            []struct{ Address, Amount string }
		} `json:"sweeps"`
	}
	waitFor(t, "the sweep", time.Minute, func() bool {
		out, err := exec.Command(binary, "sweep", "list", "--data", data, "--chain", "ETH").Output()
		if err != nil {
			t.Fatalf("sweep list: %v", err)
		}
		if err := json.Unmarshal(out, &list); err != nil {
			t.Fatalf("sweep list printed %q: %v", out, err)
		}
		return list.Total == 1 && list.Sweeps[0].Status == "DONE"
	})
	s := list.Sweeps[0]
	if s.Amount != "4200000" || s.TxID == "" || len(s.Addresses) != 1 || !strings.EqualFold(s.Addresses[0].Address, p["to"]) {
		t.Fatalf("sweep %+v, want 4200000 base units from %s", s, p["to"])
	}
	eth, err := ethclient.Dial(info.Networks["ETH"].RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	out, err := eth.CallContract(ctx, ethCall(info.Networks["ETH"].Tokens["USDT"], p["to"]), nil)
	if err != nil || new(big.Int).SetBytes(out).Sign() != 0 {
		t.Fatalf("deposit address still holds %x, %v", out, err)
	}
	if out, err := exec.Command(binary, "sweep", "list", "--data", data, "--chain", "DOGE").CombinedOutput(); err == nil || !strings.Contains(string(out), "--chain") {
		t.Fatalf("sweep list --chain DOGE: %v %s", err, out)
	}
	tw.Svc.stop(t)
}
