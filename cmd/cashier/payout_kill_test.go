package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// TestPayoutsSurviveKills runs the sandbox's chains in one process and the
// service in another, approves dozens of payouts on Ethereum and TRON, and
// SIGKILLs the service at random moments while they execute, restarting it
// each time. Afterwards every recipient holds exactly its amount and each
// payout contract paid exactly the sum of amounts and fees: nothing lost,
// nothing paid twice. CASHIER_KILL_POINTS sets the number of kills (default
// 20; the documented long run uses 100).
func TestPayoutsSurviveKills(t *testing.T) {
	ctx := context.Background()
	// Small batches: more executions, more states to be killed in.
	w := newWorld(t, worldOpts{Chains: []string{"--tron-block-interval", "300ms"},
		Env: []string{"CASHIER_PAYOUT_BATCH_SIZE=4", "CASHIER_PAYOUT_WINDOW=300ms"}})
	data, info, api := w.Data, w.Info, w.API

	type payout struct {
		chain     cashier.Chain
		id, to    string
		amount    *big.Int
		orderNo   string
		amountStr string
	}
	balance := usdtBalances(t, info)
	counts := map[cashier.Chain]int{cashier.ChainETH: 24, cashier.ChainTRON: 16}
	before := map[cashier.Chain]*big.Int{}
	var all []payout
	fee := big.NewInt(1_000_000) // the registry's withdrawFee: 1 token per order
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		before[c] = balance(c, info.Networks[string(c)].PayoutContract)
		for i := 0; i < counts[c]; i++ {
			no := fmt.Sprintf("KILL-%s-%d", c, i)
			r := createRandomPayout(t, ctx, api, info, c, no, 50)
			all = append(all, payout{chain: c, id: r.ID, to: r.To, amount: r.Value, orderNo: no, amountStr: r.Amount})
		}
	}
	args := []string{"payout", "approve", "--data", data}
	for _, p := range all {
		args = append(args, "--id", p.id)
	}
	if out, err := exec.Command(binary, args...).CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}

	// Kill at random moments while the batches are signed, sent, mined and
	// confirmed; restart each time.
	kills := killPoints(t, 20)
	for k := 0; k < kills; k++ {
		time.Sleep(time.Duration(mrand.IntN(1500)) * time.Millisecond)
		w.restart()
	}
	t.Logf("%d kills done", kills)

	// Let the last run finish everything.
	deadline := time.Now().Add(4 * time.Minute)
	for {
		out, err := exec.Command(binary, "payout", "list", "--data", data, "--status", "SUCCESS").Output()
		if err != nil {
			t.Fatal(err)
		}
		var l struct{ Total int }
		json.Unmarshal(out, &l)
		if l.Total == len(all) {
			break
		}
		if time.Now().After(deadline) {
			out, _ := exec.Command(binary, "payout", "list", "--data", data).Output()
			t.Fatalf("%d of %d payouts SUCCESS after the kills:\n%s", l.Total, len(all), out)
		}
		time.Sleep(500 * time.Millisecond)
	}
	w.Svc.stop(t)

	// On chain: each recipient exactly its amount, each contract exactly
	// the sum of amounts and fees.
	spent := map[cashier.Chain]*big.Int{cashier.ChainETH: new(big.Int), cashier.ChainTRON: new(big.Int)}
	for _, p := range all {
		if got := balance(p.chain, p.to); got.Cmp(p.amount) != 0 {
			t.Errorf("%s recipient of %s holds %s base units, want %s", p.chain, p.orderNo, got, p.amount)
		}
		spent[p.chain].Add(spent[p.chain], p.amount)
		spent[p.chain].Add(spent[p.chain], fee)
	}
	for c, want := range spent {
		got := new(big.Int).Sub(before[c], balance(c, info.Networks[string(c)].PayoutContract))
		if got.Cmp(want) != 0 {
			t.Errorf("%s contract paid %s base units, want amounts plus fees %s", c, got, want)
		}
	}
}

// killPoints is the number of kills a kill test makes: CASHIER_KILL_POINTS,
// or def.
func killPoints(t *testing.T, def int) int {
	t.Helper()
	s := os.Getenv("CASHIER_KILL_POINTS")
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("CASHIER_KILL_POINTS=%q", s)
	}
	return n
}
