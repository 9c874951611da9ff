package main

import (
	"context"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/faultproxy"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

// TestProviderFaultsAndKills puts the fault proxy between `cashier serve`
// and the sandbox's three chains (two faulty URLs for Ethereum), with
// rate limits, 5xx, stalls, cut connections, lagging nodes and lost send
// answers all on, and kills the service with SIGKILL twice while payments
// arrive and payouts execute. Every paid collection order ends SUCCESS
// once with its exact amount, every approved payout is paid exactly once
// on chain, each payout contract's balance moved by exactly the payouts,
// fees and sweeps, and every fault was injected.
func TestProviderFaultsAndKills(t *testing.T) {
	ctx := context.Background()
	dbEnv := databaseEnv()
	tw := newWorld(t, worldOpts{Chains: []string{"--tron-block-interval", "300ms"}, Env: dbEnv, ProvisionOnly: true, Serve: true})
	data, info := tw.Data, tw.Info
	all := []cashier.Chain{cashier.ChainETH, cashier.ChainARB, cashier.ChainTRON}

	rates := map[faultproxy.Fault]float64{faultproxy.RateLimit: 0.01, faultproxy.Upstream: 0.03, faultproxy.Delay: 0.02,
		faultproxy.Cut: 0.03, faultproxy.Lag: 0.15, faultproxy.LostSend: 0.3}
	var proxies []*faultproxy.Proxy
	proxy := func(target string, p faultproxy.Protocol) string {
		px, err := faultproxy.New(faultproxy.Config{Target: target, Protocol: p, Rates: rates,
			RetryAfter: time.Second, Delay: 2 * time.Second, Lag: 3})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(px)
		t.Cleanup(srv.Close)
		proxies = append(proxies, px)
		return srv.URL
	}
	ethURLs := proxy(info.Networks["ETH"].RPCURL, faultproxy.EVM) + "," + proxy(info.Networks["ETH"].RPCURL, faultproxy.EVM)
	arbURL := proxy(info.Networks["ARB"].RPCURL, faultproxy.EVM)
	tronURL := proxy(info.Networks["TRON"].RPCURL, faultproxy.TRON)

	regPath := writeRegistry(t, data, info, 2)
	env := []string{"CASHIER_MODE=sandbox", "CASHIER_REGISTRY=" + regPath,
		"CASHIER_ETH_RPC=" + ethURLs, "CASHIER_ARB_RPC=" + arbURL, "CASHIER_TRON_API=" + tronURL,
		"CASHIER_LEASE_TTL=3s", "CASHIER_PAYOUT_BATCH_SIZE=3", "CASHIER_PAYOUT_WINDOW=300ms", "CASHIER_LOG_LEVEL=info",
		"CASHIER_SWEEP_MIN=0", "CASHIER_SWEEP_INTERVAL=2s"}
	tw.Env = append(env, dbEnv...)
	var sdk *client.Client
	serve := func() {
		tw.serve()
		sdk = tw.API
	}
	kill := func() {
		tw.Svc.kill()
		// The next instance must not wait for this one's leases to run out.
		os.RemoveAll(filepath.Join(data, "instances"))
	}
	serve()

	balance := usdtBalances(t, info)
	before := map[cashier.Chain]*big.Int{}
	for _, c := range all {
		before[c] = balance(c, info.Networks[string(c)].PayoutContract)
	}

	type order struct {
		chain             cashier.Chain
		no, amount, depot string
		value             *big.Int
	}
	var orders []order
	for _, c := range all {
		for i := range 2 {
			o := order{chain: c, no: fmt.Sprintf("PF-%s-%d", c, i), amount: fmt.Sprintf("%d.%02d", 2+mrand.IntN(20), mrand.IntN(100))}
			r, err := sdk.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: o.no,
				Amount: o.amount, Symbol: "USDT", ChainID: string(c)})
			if err != nil {
				t.Fatalf("create %s: %v", o.no, err)
			}
			o.depot = r.Address
			o.value, _ = cashier.ParseAmount(o.amount, 6)
			orders = append(orders, o)
		}
	}
	for _, o := range orders {
		if strings.HasSuffix(o.no, "-0") {
			payOrder(t, data, o.no)
		}
	}

	type payout struct {
		chain  cashier.Chain
		id, to string
		no     string
		amount *big.Int
	}
	var payouts []payout
	for _, c := range all {
		for i := range map[cashier.Chain]int{cashier.ChainETH: 6, cashier.ChainARB: 4, cashier.ChainTRON: 4}[c] {
			no := fmt.Sprintf("PFP-%s-%d", c, i)
			r := createRandomPayout(t, ctx, sdk, info, c, no, 50)
			payouts = append(payouts, payout{chain: c, id: r.ID, to: r.To, no: no, amount: r.Value})
		}
	}
	args := []string{"payout", "approve", "--data", data}
	for _, p := range payouts {
		args = append(args, "--id", p.id)
	}
	approve := exec.Command(binary, args...)
	approve.Env = append(os.Environ(), dbEnv...)
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}

	// First kill: while payouts execute.
	waitFor(t, "payouts executing", 2*time.Minute, func() bool { return countPayouts(t, data, dbEnv, "PROCESSING").Total > 0 })
	time.Sleep(time.Duration(mrand.IntN(500)) * time.Millisecond)
	kill()
	t.Logf("first kill: %d of %d payouts SUCCESS", countPayouts(t, data, dbEnv, "SUCCESS").Total, len(payouts))
	for _, o := range orders {
		if strings.HasSuffix(o.no, "-1") && o.chain != cashier.ChainTRON {
			payOrder(t, data, o.no) // while the service is down
		}
	}
	serve()
	// Second kill: a few seconds into the second run.
	time.Sleep(time.Duration(3000+mrand.IntN(3000)) * time.Millisecond)
	kill()
	t.Logf("second kill: %d of %d payouts SUCCESS", countPayouts(t, data, dbEnv, "SUCCESS").Total, len(payouts))
	serve()
	payOrder(t, data, orders[len(orders)-1].no) // the second TRON order

	deadline := time.Now().Add(5 * time.Minute)
	for {
		done := countPayouts(t, data, dbEnv, "SUCCESS").Total
		paid := 0
		for _, o := range orders {
			if d, err := sdk.CollectionDetail(ctx, o.no); err == nil && d.Status == "SUCCESS" {
				paid++
			}
		}
		if done == len(payouts) && paid == len(orders) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d payouts SUCCESS, %d of %d orders SUCCESS", done, len(payouts), paid, len(orders))
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, o := range orders {
		d, err := sdk.CollectionDetail(ctx, o.no)
		if err != nil {
			t.Fatal(err)
		}
		if d.PaidAmount != o.amount || len(d.Payments) != 1 || d.Payments[0].Status != "CONFIRMED" || d.Payments[0].Effect != "CREDITED" {
			t.Errorf("%s: paid %s of %s, payments %+v", o.no, d.PaidAmount, o.amount, d.Payments)
		}
	}
	// Sweeps may still be moving deposits: wait until each deposit address
	// holds either its whole payment or nothing, then account exactly.
	fee := big.NewInt(1_000_000) // the registry's withdrawFee: 1 token per order
	var spent map[cashier.Chain]*big.Int
	waitFor(t, "sweeps settled", time.Minute, func() bool {
		spent = map[cashier.Chain]*big.Int{}
		for _, c := range all {
			spent[c] = new(big.Int)
		}
		for _, o := range orders {
			switch b := balance(o.chain, o.depot); {
			case b.Sign() == 0:
				spent[o.chain].Sub(spent[o.chain], o.value) // swept into the contract
			case b.Cmp(o.value) != 0:
				return false
			}
		}
		return true
	})
	for _, p := range payouts {
		if got := balance(p.chain, p.to); got.Cmp(p.amount) != 0 {
			t.Errorf("%s recipient of %s holds %s base units, want %s (paid once)", p.chain, p.no, got, p.amount)
		}
		spent[p.chain].Add(spent[p.chain], p.amount)
		spent[p.chain].Add(spent[p.chain], fee)
	}
	for _, c := range all {
		if got := new(big.Int).Sub(before[c], balance(c, info.Networks[string(c)].PayoutContract)); got.Cmp(spent[c]) != 0 {
			t.Errorf("%s contract paid out %s base units net, want payouts plus fees less sweeps %s", c, got, spent[c])
		}
	}
	counts := map[string]int64{}
	for _, px := range proxies {
		for k, v := range px.Counts() {
			counts[k] += v
		}
	}
	for _, f := range faultproxy.Faults {
		if counts[string(f)] == 0 {
			t.Errorf("fault %s never injected: %v", f, counts)
		}
	}
	t.Logf("faults injected: %v", counts)
	tw.Svc.stop(t)
}

// usdtBalances returns a reader of USDT balances on the sandbox's three
// chains, straight from the chains (not through a test's faulty proxies).
func usdtBalances(t *testing.T, info *sandbox.Info) func(c cashier.Chain, owner string) *big.Int {
	t.Helper()
	readers := map[cashier.Chain]cashier.ChainClient{}
	for c, id := range map[cashier.Chain]uint64{cashier.ChainETH: devchain.ChainIDETH, cashier.ChainARB: devchain.ChainIDARB} {
		ec, err := evm.New(evm.Config{Chain: c, ChainID: id, URLs: []string{info.Networks[string(c)].RPCURL}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ec.Close)
		readers[c] = ec
	}
	var err error
	if readers[cashier.ChainTRON], err = tron.New(tron.Config{URLs: []string{info.Networks["TRON"].RPCURL}}); err != nil {
		t.Fatal(err)
	}
	return func(c cashier.Chain, owner string) *big.Int {
		t.Helper()
		b, err := readers[c].TokenBalance(context.Background(), info.Networks[string(c)].Tokens["USDT"], owner)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}
