package main

import (
	"context"
	"encoding/json"
	"math/big"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// sweepListing is what `cashier sweep list` and `cashier sweep native` print.
type sweepListing struct {
	Total  int `json:"total"`
	Sweeps []struct {
		Status, TxID, Amount, Token, Symbol string
		Native                              bool
		Addresses                           []struct{ Address, Amount string }
	} `json:"sweeps"`
	NativeDeposits []struct{ ChainID, Address, Symbol, Received string } `json:"nativeDeposits"`
}

func sweepCmd(t *testing.T, args ...string) sweepListing {
	t.Helper()
	out, err := exec.Command(binary, append([]string{"sweep"}, args...)...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("sweep %v: %v\n%s", args, err, stderr)
	}
	var l sweepListing
	if err := json.Unmarshal(out, &l); err != nil {
		t.Fatalf("sweep %v printed %q: %v", args, out, err)
	}
	return l
}

// TestSweepNativeOnTheBinary: ether sent to a deposit address by mistake
// shows in `sweep list` as waiting; `sweep native` moves it into the
// payout contract once, records it, and a second run finds nothing.
func TestSweepNativeOnTheBinary(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true, Wait: 2 * time.Minute})
	data, info, api := tw.Data, tw.Info, tw.API
	ctx := context.Background()
	tw.order(ctx, "NAT-1", "4.20", "ETH")
	p := cli(t, "sandbox", "pay", "--data", data, "--order", "NAT-1", "--symbol", "ETH", "--amount", "0.125")
	if p["symbol"] != "ETH" || p["amount"] != "0.125" {
		t.Fatalf("sandbox pay printed %v", p)
	}
	waitFor(t, "the native payment", time.Minute, func() bool {
		l := sweepCmd(t, "list", "--data", data, "--chain", "ETH")
		return len(l.NativeDeposits) == 1 && l.NativeDeposits[0].Received == "125000000000000000"
	})
	d, err := api.CollectionDetail(ctx, "NAT-1")
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != "PENDING" || d.PaidAmount != "0.00" || len(d.Payments) != 1 || d.Payments[0].Symbol != "ETH" ||
		d.Payments[0].Amount != "0.125" || d.Payments[0].Effect != "NATIVE" || d.Payments[0].TxID != p["txId"] {
		t.Fatalf("order after the native payment: %+v", d)
	}

	eth, err := ethclient.Dial(info.Networks["ETH"].RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	vault := common.HexToAddress(info.Networks["ETH"].PayoutContract)
	before, err := eth.BalanceAt(ctx, vault, nil)
	if err != nil {
		t.Fatal(err)
	}

	for _, bad := range [][]string{{"native", "--data", data}, {"native", "--data", data, "--chain", "DOGE"},
		{"native", "--data", data, "--chain", "ETH", "--address", "0x12"}, {"native", "--data", data, "--chain", "ETH", "extra"}} {
		if out, err := exec.Command(binary, append([]string{"sweep"}, bad...)...).CombinedOutput(); err == nil {
			t.Fatalf("sweep %v succeeded: %s", bad, out)
		}
	}
	got := sweepCmd(t, "native", "--data", data, "--chain", "ETH")
	if got.Total != 1 || got.Sweeps[0].Status != "DONE" || !got.Sweeps[0].Native || got.Sweeps[0].Symbol != "ETH" ||
		got.Sweeps[0].Amount != "125000000000000000" || len(got.Sweeps[0].Addresses) != 1 || !strings.EqualFold(got.Sweeps[0].Addresses[0].Address, p["to"]) {
		t.Fatalf("sweep native printed %+v", got)
	}
	after, err := eth.BalanceAt(ctx, vault, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := new(big.Int).Sub(after, before); diff.String() != "125000000000000000" {
		t.Fatalf("the payout contract gained %s wei", diff)
	}
	if left, err := eth.BalanceAt(ctx, common.HexToAddress(p["to"]), nil); err != nil || left.Sign() != 0 {
		t.Fatalf("deposit address keeps %v wei, %v", left, err)
	}
	if again := sweepCmd(t, "native", "--data", data, "--chain", "ETH"); again.Total != 0 {
		t.Fatalf("second sweep native printed %+v", again)
	}
	l := sweepCmd(t, "list", "--data", data, "--chain", "ETH")
	if len(l.NativeDeposits) != 0 || l.Total != 1 || !l.Sweeps[0].Native || l.Sweeps[0].Status != "DONE" {
		t.Fatalf("sweep list after the native sweep: %+v", l)
	}
	tw.Svc.stop(t)
}
