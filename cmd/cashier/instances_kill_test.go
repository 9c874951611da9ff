package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
)

// databaseEnv is the environment that points every process of a
// multi-instance test at its database: empty for SQLite in the shared
// data directory, or CASHIER_DATABASE_URL from CASHIER_TEST_DATABASE_URL
// to run the same test against a database server.
func databaseEnv() []string {
	if u := os.Getenv("CASHIER_TEST_DATABASE_URL"); u != "" {
		return []string{"CASHIER_DATABASE_URL=" + u}
	}
	return nil
}

// onPostgres reports whether the black-box tests run on PostgreSQL.
func onPostgres() bool {
	return os.Getenv("CASHIER_TEST_DATABASE") == "postgres" || os.Getenv("CASHIER_TEST_DATABASE_URL") != ""
}

var (
	instanceLine = regexp.MustCompile(`"msg":"instance","instance":"([^"]+)"`)
	metricsLine  = regexp.MustCompile(`"msg":"metrics endpoint","addr":"([^"]+)"`)
	ownerLine    = regexp.MustCompile(`^cashier_lease_owner\{holder="([^"]+)",lease="([^"]+)"\} 1$`)
)

// leaseOwners scrapes an instance's /metrics for the holder of each
// unexpired lease.
func leaseOwners(addr string) (map[string]string, error) {
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	owners := map[string]string{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := ownerLine.FindStringSubmatch(sc.Text()); m != nil {
			owners[m[2]] = m[1]
		}
	}
	return owners, sc.Err()
}

// countPayouts counts the payouts in status through the CLI.
func countPayouts(t *testing.T, data string, dbEnv []string, status string) (l struct{ Total int }) {
	t.Helper()
	cmd := exec.Command(binary, "payout", "list", "--data", data, "--status", status)
	cmd.Env = append(os.Environ(), dbEnv...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &l); err != nil {
		t.Fatalf("payout list: %v", err)
	}
	return l
}

// TestInstancesTakeOverWork runs three `cashier serve` instances on one
// database, with the sandbox's chains in another process. While payments
// to collection orders are being detected, paid deposit addresses swept
// and approved payouts executed, the instance holding the leases is killed
// with SIGKILL. The others take its leases over within seconds, and in the
// end every order is credited once, every deposit address swept, every
// payout paid exactly once on chain, each payout contract's balance moved
// by exactly the payouts, fees and sweeps, and every webhook arrived.
func TestInstancesTakeOverWork(t *testing.T) {
	ctx := context.Background()
	dbEnv := databaseEnv()

	// Webhook receiver, verifying signatures: SUCCESS events by order.
	var hookMu sync.Mutex
	success := map[string]map[string]string{"payment": {}, "payout": {}} // type → orderNo → amount field
	hook := newReceiver(t, func(ev *client.WebhookEvent) {
		hookMu.Lock()
		defer hookMu.Unlock()
		if ev.Status == "SUCCESS" && success[ev.Type] != nil {
			amount, _ := ev.Fields["paidAmount"].(string)
			if ev.Type == "payout" {
				amount, _ = ev.Fields["amount"].(string)
			}
			success[ev.Type][ev.OrderNo] = amount
		}
	})

	// One service run provisions the demo merchant, its contracts and the
	// service's keys into the database, then stops.
	tw := newWorld(t, worldOpts{Chains: []string{"--tron-block-interval", "300ms"}, Env: dbEnv, ProvisionOnly: true,
		Service: []string{"--webhook-url", hook.URL}})
	data, info := tw.Data, tw.Info
	hook.setKey(info.WebhookKey)

	// Three confirmations at the chains' one-second blocks keep each
	// payout batch in flight for seconds: on a quiet machine one
	// confirmation let every payout finish before the kill.
	regPath := writeRegistry(t, data, info, 3)

	env := append([]string{"CASHIER_MODE=sandbox", "CASHIER_REGISTRY=" + regPath,
		"CASHIER_ETH_RPC=" + info.Networks["ETH"].RPCURL, "CASHIER_TRON_API=" + info.Networks["TRON"].RPCURL,
		"CASHIER_LEASE_TTL=3s", "CASHIER_PAYOUT_BATCH_SIZE=4", "CASHIER_PAYOUT_WINDOW=300ms",
		"CASHIER_METRICS_ADDR=127.0.0.1:0", "CASHIER_LOG_LEVEL=info",
		// Every paid deposit address is swept into the payout contract
		// soon after, so the sweepers' leases are taken over too.
		"CASHIER_SWEEP_MIN=0", "CASHIER_SWEEP_INTERVAL=2s"}, dbEnv...)
	// On PostgreSQL each instance has a data directory of its own, as on
	// three hosts: the master key and the remembered settings copied, and
	// nothing else shared but the database (nonce journals included).
	instEnv := env
	if onPostgres() {
		b, err := os.ReadFile(filepath.Join(data, "settings.json"))
		if err != nil {
			t.Fatal(err)
		}
		var saved map[string]string
		if err := json.Unmarshal(b, &saved); err != nil || saved["database-url"] == "" {
			t.Fatalf("the data directory does not remember its database: %s (%v)", b, err)
		}
		instEnv = append(append([]string{}, env...), "CASHIER_DATABASE_URL="+saved["database-url"])
	}
	insts, dirs := tw.instances(3, instEnv, onPostgres())
	// Every one-owner lease is held, by one of the three.
	wanted := []string{"watch/ETH", "watch/TRON", "payouts/ETH", "payouts/TRON", "sweep/ETH", "sweep/TRON", "expiry"}
	var owners map[string]string
	waitFor(t, "the leases taken", 30*time.Second, func() bool {
		owners, _ = leaseOwners(insts[0].metrics)
		for _, l := range wanted {
			if owners[l] == "" {
				return false
			}
		}
		return true
	})
	t.Logf("lease owners at start: %v", owners)

	// Requests go to the instances in turn, as through a load balancer.
	sdks := make([]*client.Client, len(insts))
	for i, p := range insts {
		sdks[i] = client.New(p.base, info.APIKey, info.SecretKey)
	}
	next := 0
	sdk := func() *client.Client { next++; return sdks[next%len(sdks)] }

	balance := usdtBalances(t, info)
	// The payout contracts' balances before anything is paid or swept.
	before := map[cashier.Chain]*big.Int{}
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		before[c] = balance(c, info.Networks[string(c)].PayoutContract)
	}

	// Collection orders on ETH and TRON, half paid before the kill.
	type order struct {
		chain             cashier.Chain
		no, amount, depot string
		value             *big.Int
	}
	var orders []order
	for _, c := range []string{"ETH", "TRON"} {
		for i := 0; i < 6; i++ {
			o := order{chain: cashier.Chain(c), no: fmt.Sprintf("MI-%s-%d", c, i), amount: fmt.Sprintf("%d.%02d", 2+mrand.IntN(20), mrand.IntN(100))}
			r, err := sdk().CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: o.no,
				Amount: o.amount, Symbol: "USDT", ChainID: c})
			if err != nil {
				t.Fatalf("create %s: %v", o.no, err)
			}
			o.depot = r.Address
			o.value, _ = cashier.ParseAmount(o.amount, 6)
			orders = append(orders, o)
		}
	}

	for _, o := range orders[:3] {
		payOrder(t, data, o.no)
	}
	for _, o := range orders[6:9] {
		payOrder(t, data, o.no)
	}

	// Payouts on ETH and TRON, approved where the policy holds them, so
	// they execute at once.
	type payout struct {
		chain         cashier.Chain
		id, to, no    string
		amount        *big.Int
		amountText    string
		contractStart *big.Int
	}
	var payouts []payout
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		for i := 0; i < map[cashier.Chain]int{cashier.ChainETH: 32, cashier.ChainTRON: 16}[c]; i++ {
			no := fmt.Sprintf("MIP-%s-%d", c, i)
			r := createRandomPayout(t, ctx, sdk(), info, c, no, 50)
			payouts = append(payouts, payout{chain: c, id: r.ID, to: r.To, no: no, amount: r.Value, amountText: r.Amount})
		}
	}
	args := append([]string{"payout", "approve", "--data", data}, func() []string {
		var ids []string
		for _, p := range payouts {
			ids = append(ids, "--id", p.id)
		}
		return ids
	}()...)
	approve := exec.Command(binary, args...)
	approve.Env = append(os.Environ(), dbEnv...)
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}

	// Kill the instance holding the payout executor of ETH (and whatever
	// else it holds) while batches are in flight.
	waitFor(t, "payouts executing", time.Minute, func() bool { return countPayouts(t, data, dbEnv, "PROCESSING").Total > 0 })
	time.Sleep(time.Duration(mrand.IntN(200)) * time.Millisecond)
	owners, err := leaseOwners(insts[0].metrics)
	if err != nil {
		t.Fatal(err)
	}
	victim := -1
	for i, p := range insts {
		if p.id == owners["payouts/ETH"] {
			victim = i
		}
	}
	if victim < 0 {
		t.Fatalf("payouts/ETH held by %q, none of the instances", owners["payouts/ETH"])
	}
	var held []string
	for l, h := range owners {
		if h == insts[victim].id {
			held = append(held, l)
		}
	}
	insts[victim].cmd.Process.Signal(syscall.SIGKILL)
	<-insts[victim].done
	insts[victim].done <- nil
	killedAt := time.Now()
	// Without its lock file the survivors cannot tell it exited (as with
	// instances on other hosts sharing a database server): its leases
	// must run out first.
	if err := os.Remove(filepath.Join(dirs[victim], "instances", insts[victim].id+".lock")); err != nil {
		t.Fatalf("the instance's lock file: %v", err)
	}
	done := countPayouts(t, data, dbEnv, "SUCCESS").Total
	inFlight := len(payouts) - done
	survivors := append(append([]*instanceProc{}, insts[:victim]...), insts[victim+1:]...)
	t.Logf("killed %s holding %v, %d of %d payouts not yet SUCCESS", insts[victim].id, held, inFlight, len(payouts))
	if inFlight == 0 {
		t.Error("every payout was done before the kill: nothing was in flight")
	}

	// Its leases pass to the survivors within seconds (TTL 3 s).
	waitFor(t, "the leases taken over", 30*time.Second, func() bool {
		o, err := leaseOwners(survivors[0].metrics)
		if err != nil {
			return false
		}
		for _, l := range held {
			if h := o[l]; h == "" || h == insts[victim].id {
				return false
			}
		}
		owners = o
		return true
	})
	took := time.Since(killedAt)
	t.Logf("leases taken over after %s: %v", took.Round(100*time.Millisecond), owners)
	// 3 s to expire, attempts every second; the rest is slack for a
	// loaded machine.
	if took > 15*time.Second {
		t.Errorf("takeover took %s with a 3 s lease", took)
	}
	sdks = []*client.Client{client.New(survivors[0].base, info.APIKey, info.SecretKey), client.New(survivors[1].base, info.APIKey, info.SecretKey)}

	// The rest of the customers pay now.
	for _, o := range append(append([]order{}, orders[3:6]...), orders[9:]...) {
		payOrder(t, data, o.no)
	}

	// Everything completes.
	deadline := time.Now().Add(4 * time.Minute)
	for {
		l := countPayouts(t, data, dbEnv, "SUCCESS")
		paid := 0
		for _, o := range orders {
			d, err := sdk().CollectionDetail(ctx, o.no)
			if err == nil && d.Status == "SUCCESS" {
				paid++
			}
		}
		hookMu.Lock()
		hooks := len(success["payment"]) + len(success["payout"])
		hookMu.Unlock()
		swept := 0
		for _, o := range orders {
			if balance(o.chain, o.depot).Sign() == 0 {
				swept++
			}
		}
		if l.Total == len(payouts) && paid == len(orders) && hooks == len(payouts)+len(orders) && swept == len(orders) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the kill: %d of %d payouts SUCCESS, %d of %d orders SUCCESS, %d of %d SUCCESS webhooks, %d of %d deposit addresses swept",
				l.Total, len(payouts), paid, len(orders), hooks, len(payouts)+len(orders), swept, len(orders))
		}
		time.Sleep(500 * time.Millisecond)
	}

	// Each order credited once, with its webhook.
	for _, o := range orders {
		d, err := sdk().CollectionDetail(ctx, o.no)
		if err != nil {
			t.Fatal(err)
		}
		if d.PaidAmount != o.amount || len(d.Payments) != 1 || d.Payments[0].Status != "CONFIRMED" || d.Payments[0].Effect != "CREDITED" {
			t.Errorf("%s: paid %s of %s, payments %+v", o.no, d.PaidAmount, o.amount, d.Payments)
		}
		if got := success["payment"][o.no]; got != o.amount {
			t.Errorf("%s: SUCCESS webhook paidAmount %q, want %s", o.no, got, o.amount)
		}
	}
	// Each payout paid exactly once on chain, with its webhook; each
	// contract paid exactly the amounts and fees, less what the sweeps of
	// the paid deposit addresses brought in.
	fee := big.NewInt(1_000_000) // the registry's withdrawFee: 1 token per order
	spent := map[cashier.Chain]*big.Int{cashier.ChainETH: new(big.Int), cashier.ChainTRON: new(big.Int)}
	for _, o := range orders {
		spent[o.chain].Sub(spent[o.chain], o.value)
	}
	for _, p := range payouts {
		if got := balance(p.chain, p.to); got.Cmp(p.amount) != 0 {
			t.Errorf("%s recipient of %s holds %s base units, want %s", p.chain, p.no, got, p.amount)
		}
		spent[p.chain].Add(spent[p.chain], p.amount)
		spent[p.chain].Add(spent[p.chain], fee)
		if _, ok := success["payout"][p.no]; !ok {
			t.Errorf("%s: no SUCCESS webhook", p.no)
		}
	}
	for c, want := range spent {
		if got := new(big.Int).Sub(before[c], balance(c, info.Networks[string(c)].PayoutContract)); got.Cmp(want) != 0 {
			t.Errorf("%s contract paid out %s base units net, want amounts plus fees less sweeps %s", c, got, want)
		}
	}
	for _, p := range survivors {
		p.stop(t)
	}
	if onPostgres() {
		// Nothing an instance needs after a takeover stayed on its disk:
		// no nonce journal was written to a data directory.
		for _, d := range dirs {
			if js, _ := filepath.Glob(filepath.Join(d, "journal", "*", "txjournal-*")); len(js) > 0 {
				t.Errorf("nonce journals on an instance's disk: %v", js)
			}
			if js, _ := filepath.Glob(filepath.Join(d, "journal", "txjournal-*")); len(js) > 0 {
				t.Errorf("nonce journals on an instance's disk: %v", js)
			}
		}
	}
}
