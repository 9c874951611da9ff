package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// TestSweepsSurviveKills runs the sandbox's chains in one process and the
// service in another, with its sweeper on, pays collection orders on
// Ethereum and TRON one after another, and SIGKILLs the service at random
// moments while it detects and sweeps them (every other kill aimed at a
// sweep in flight), restarting it each time. In
// the end every paid deposit address is empty, the payout contract gained
// exactly the sum paid, on Ethereum each address shows exactly one Swept
// event with its amount, and the sweep records agree: each address in
// exactly one completed sweep, with the amount it received.
// CASHIER_KILL_POINTS sets the number of kills (default 12).
func TestSweepsSurviveKills(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, worldOpts{Chains: []string{"--tron-block-interval", "300ms", "--block-period", "300ms"},
		Env: []string{"CASHIER_SWEEP_INTERVAL=700ms", "CASHIER_SWEEP_MIN=1", "CASHIER_WATCH_INTERVAL=100ms"}})
	data, info, api := w.Data, w.Info, w.API
	balance := usdtBalances(t, info)

	type order struct {
		chain   cashier.Chain
		no, to  string
		amount  *big.Int
		display string
	}
	var all []*order
	before := map[cashier.Chain]*big.Int{}
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		before[c] = balance(c, info.Networks[string(c)].PayoutContract)
		for i := range map[cashier.Chain]int{cashier.ChainETH: 16, cashier.ChainTRON: 8}[c] {
			amt := fmt.Sprintf("%d.%02d", 1+mrand.IntN(9), mrand.IntN(100))
			no := fmt.Sprintf("SK-%s-%d", c, i)
			if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: no,
				Amount: amt, Symbol: "USDT", ChainID: string(c)}); err != nil {
				t.Fatalf("create %s: %v", no, err)
			}
			v, _ := cashier.ParseAmount(amt, 6)
			all = append(all, &order{chain: c, no: no, amount: v, display: amt})
		}
	}
	mrand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })

	// Pay a few orders, kill at a random moment, restart; the customer's
	// wallet does not care whether the service runs.
	next, midSweep := 0, 0
	kills := killPoints(t, 12)
	for k := 0; k < kills; k++ {
		for n := 0; n < 2 && next < len(all); n++ {
			o := all[next]
			p := cli(t, "sandbox", "pay", "--data", data, "--order", o.no)
			o.to = p["to"]
			next++
		}
		if k%2 == 0 {
			// Aim at a sweep: wait until one is in flight (3 s at most),
			// then kill a moment later, before or after it is sent.
			for end := time.Now().Add(3 * time.Second); time.Now().Before(end) && !sweepInFlight(data); {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(time.Duration(mrand.IntN(500)) * time.Millisecond)
		} else {
			time.Sleep(time.Duration(mrand.IntN(1500)) * time.Millisecond)
		}
		w.Svc.kill()
		if sweepInFlight(data) {
			midSweep++
		}
		w.Svc = w.startService()
	}
	for ; next < len(all); next++ {
		o := all[next]
		o.to = cli(t, "sandbox", "pay", "--data", data, "--order", o.no)["to"]
	}
	t.Logf("%d kills done, %d of them with a sweep in flight", kills, midSweep)

	// The last run sweeps everything.
	type listed struct {
		Sweeps []struct {
			Status, Token, Amount, ChainID string
			Addresses                      []struct{ Address, Amount string }
		}
	}
	var l listed
	deadline := time.Now().Add(4 * time.Minute)
	for {
		empty := true
		for _, o := range all {
			if balance(o.chain, o.to).Sign() != 0 {
				empty = false
				break
			}
		}
		out, err := exec.Command(binary, "sweep", "list", "--data", data).Output()
		if err != nil {
			t.Fatal(err)
		}
		l = listed{}
		if err := json.Unmarshal(out, &l); err != nil {
			t.Fatal(err)
		}
		inFlight := false
		for _, s := range l.Sweeps {
			inFlight = inFlight || s.Status == "PREPARED" || s.Status == "SENT"
		}
		if empty && !inFlight {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not all swept after the kills (empty %v, in flight %v):\n%s", empty, inFlight, out)
		}
		time.Sleep(500 * time.Millisecond)
	}
	w.Svc.stop(t)
	statuses := map[string]int{}
	for _, s := range l.Sweeps {
		statuses[s.Status]++
	}
	t.Logf("sweeps recorded: %v", statuses)

	// On chain: each contract gained exactly what its addresses received.
	paid := map[cashier.Chain]*big.Int{cashier.ChainETH: new(big.Int), cashier.ChainTRON: new(big.Int)}
	for _, o := range all {
		paid[o.chain].Add(paid[o.chain], o.amount)
	}
	for c, want := range paid {
		if got := new(big.Int).Sub(balance(c, info.Networks[string(c)].PayoutContract), before[c]); got.Cmp(want) != 0 {
			t.Errorf("%s payout contract gained %s base units, want %s", c, got, want)
		}
	}
	// On Ethereum, one Swept event per address, with its amount.
	eth, err := ethclient.Dial(info.Networks["ETH"].RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	factory := bindings.NewDepositFactory()
	logs, err := eth.FilterLogs(ctx, ethereum.FilterQuery{Addresses: []common.Address{common.HexToAddress(info.Networks["ETH"].DepositFactory)}})
	if err != nil {
		t.Fatal(err)
	}
	swept := map[common.Address][]*big.Int{}
	for i := range logs {
		if e, err := factory.UnpackSweptEvent(&logs[i]); err == nil {
			swept[e.DepositAddress] = append(swept[e.DepositAddress], e.Amount)
		}
	}
	// The records: each address in exactly one completed sweep.
	done := map[string][]string{}
	for _, s := range l.Sweeps {
		if s.Status != "DONE" {
			continue
		}
		for _, a := range s.Addresses {
			done[strings.ToLower(a.Address)] = append(done[strings.ToLower(a.Address)], a.Amount)
		}
	}
	for _, o := range all {
		if got := done[strings.ToLower(o.to)]; len(got) != 1 || got[0] != o.amount.String() {
			t.Errorf("%s (%s %s): completed sweeps record %v, want one of %s", o.no, o.chain, o.to, got, o.amount)
		}
		if o.chain != cashier.ChainETH {
			continue
		}
		if got := swept[common.HexToAddress(o.to)]; len(got) != 1 || got[0].Cmp(o.amount) != 0 {
			t.Errorf("%s: Swept events %v, want one of %s", o.no, got, o.amount)
		}
	}
}

// sweepInFlight reports whether `sweep list` shows a sweep PREPARED or SENT.
func sweepInFlight(data string) bool {
	out, err := exec.Command(binary, "sweep", "list", "--data", data).Output()
	return err == nil && (strings.Contains(string(out), `"PREPARED"`) || strings.Contains(string(out), `"SENT"`))
}
