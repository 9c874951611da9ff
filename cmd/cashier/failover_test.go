package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/postgres/pgtest"
)

// TestPostgresFailover is the database an operator should run, crashed:
// a primary with a synchronous streaming standby (pg_basebackup), two
// `cashier serve` instances on the multi-host URL
// postgres://…@primary,standby/db?target_session_attrs=read-write, orders
// created by eight clients through both instances and approved payouts
// executing on the ETH chain when the primary stops at once (an immediate
// shutdown: no checkpoint, every session cut) and the standby is
// promoted. Then: no order acknowledged with 200 is missing on the
// promoted standby, every payout is paid exactly once on chain, creates
// succeed again without restarting the service, and both instances are
// ready again. It starts its own pair of servers, so it runs in the
// PostgreSQL stage of ./test.sh only.
func TestPostgresFailover(t *testing.T) {
	if !onPostgres() {
		t.Skip("the PostgreSQL stage runs it (CASHIER_TEST_DATABASE=postgres): it starts its own primary and standby")
	}
	began := time.Now()
	primary, standby, err := pgtest.StartPair()
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Stop()
	defer standby.Stop()
	one, err := primary.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(one)
	dbName := strings.TrimPrefix(u.Path, "/")
	multi := fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/%s?sslmode=disable&target_session_attrs=read-write&connect_timeout=2",
		primary.Port(), standby.Port(), dbName)
	dbEnv := []string{"CASHIER_DATABASE_URL=" + multi}

	ctx := context.Background()
	tw := newWorld(t, worldOpts{Chains: []string{"--tron-block-interval", "300ms"}, Env: dbEnv, ProvisionOnly: true, Wait: 2 * time.Minute})
	data, info := tw.Data, tw.Info
	// Three confirmations at the chains' one-second blocks keep each
	// batch in flight for seconds.
	regPath := writeRegistry(t, data, info, 3)
	env := append([]string{"CASHIER_MODE=sandbox", "CASHIER_REGISTRY=" + regPath,
		"CASHIER_ETH_RPC=" + info.Networks["ETH"].RPCURL, "CASHIER_TRON_API=" + info.Networks["TRON"].RPCURL,
		"CASHIER_LEASE_TTL=3s", "CASHIER_PAYOUT_BATCH_SIZE=4", "CASHIER_PAYOUT_WINDOW=300ms",
		"CASHIER_METRICS_ADDR=127.0.0.1:0", "CASHIER_SWEEP_INTERVAL=0",
		"CASHIER_RATE_PER_KEY=1000000", "CASHIER_RATE_PER_IP=1000000", "CASHIER_RATE_PER_ENDPOINT=1000000"}, dbEnv...)
	// Two hosts: each instance its own data directory (the master key and
	// remembered settings copied), nothing shared but the database.
	insts, _ := tw.instances(2, env, true)
	ready := func(p *instanceProc) bool {
		res, err := http.Get("http://" + p.metrics + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}
	for _, p := range insts {
		waitFor(t, "ready", time.Minute, func() bool { return ready(p) })
	}
	sdks := []*client.Client{client.New(insts[0].base, info.APIKey, info.SecretKey), client.New(insts[1].base, info.APIKey, info.SecretKey)}
	t.Logf("set up in %s", time.Since(began).Round(time.Second))

	// Approved payouts on ETH, executing in batches of four.
	balance := usdtBalances(t, info)
	type payout struct {
		id, to, no string
		amount     *big.Int
	}
	var payouts []payout
	for i := range 32 {
		no := fmt.Sprintf("FOP-%d", i)
		r := createRandomPayout(t, ctx, sdks[i%2], info, cashier.ChainETH, no, 20)
		payouts = append(payouts, payout{id: r.ID, to: r.To, no: no, amount: r.Value})
	}

	// Eight clients create orders through both instances throughout.
	loadCtx, stopLoad := context.WithCancel(ctx)
	var (
		mu           sync.Mutex
		acked        []string
		statuses     = map[int]int{}
		seq          atomic.Int64
		afterPromote atomic.Int64
		promoted     atomic.Bool
		wg           sync.WaitGroup
	)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for loadCtx.Err() == nil {
				no := fmt.Sprintf("FO-%d", seq.Add(1))
				rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				_, err := sdks[w%2].CreateCollection(rctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: no, Amount: "5.00", Symbol: "USDT", ChainID: "ETH"})
				cancel()
				status := http.StatusOK
				var ce *client.Error
				if errors.As(err, &ce) {
					status = ce.HTTPStatus
				} else if err != nil {
					status = -1
				}
				mu.Lock()
				statuses[status]++
				if status == http.StatusOK {
					acked = append(acked, no)
					if promoted.Load() {
						afterPromote.Add(1)
					}
				}
				mu.Unlock()
				if status != http.StatusOK {
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}

	approve := exec.Command(binary, append([]string{"payout", "approve", "--data", data}, func() []string {
		var ids []string
		for _, p := range payouts {
			ids = append(ids, "--id", p.id)
		}
		return ids
	}()...)...)
	approve.Env = append(os.Environ(), dbEnv...)
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	// Crash while batches are on their way: a batch transaction signed
	// and sent (or being sent), not yet confirmed; read on the primary
	// itself, quickly, so the moment is not missed.
	pdb, err := sql.Open("pgx", primary.URL(dbName))
	if err != nil {
		t.Fatal(err)
	}
	inFlight := func() (sent, done int) {
		pdb.QueryRow(`SELECT count(*) FROM payout_execs WHERE state IN ('sending', 'sent')`).Scan(&sent)
		pdb.QueryRow(`SELECT count(*) FROM payout_orders WHERE order_no LIKE 'FOP-%' AND status = 'SUCCESS'`).Scan(&done)
		return sent, done
	}
	waitFor(t, "a payout batch sent", time.Minute, func() bool { s, _ := inFlight(); return s > 0 })
	time.Sleep(time.Duration(mrand.IntN(200)) * time.Millisecond)
	sent, done := inFlight()
	pdb.Close()
	if err := primary.Crash(); err != nil {
		t.Fatal(err)
	}
	crashed := time.Now()
	mu.Lock()
	ackedAtCrash := len(acked)
	mu.Unlock()
	t.Logf("primary crashed with %d orders acknowledged, %d of %d payouts SUCCESS and %d batches sent or sending", ackedAtCrash, done, len(payouts), sent)
	if done == len(payouts) {
		t.Error("every payout was done before the crash: nothing was in flight")
	}
	// Without a primary, every instance says so (what the alert reads);
	// the time this takes stands for the operator's reaction.
	for _, p := range insts {
		if v := scrape(t, p.metrics, "cashier_database_primary"); v != "0" {
			t.Errorf("cashier_database_primary on %s = %q with the primary down, want 0", p.metrics, v)
		}
	}
	if err := standby.Promote(); err != nil {
		t.Fatal(err)
	}
	promoted.Store(true)
	waitFor(t, "creates succeeding on the promoted standby", time.Minute, func() bool { return afterPromote.Load() >= 30 })
	t.Logf("serving again %s after the crash", time.Since(crashed).Round(100*time.Millisecond))
	stopLoad()
	wg.Wait()
	for _, p := range insts {
		waitFor(t, "ready again", 30*time.Second, func() bool { return ready(p) })
	}

	// Every payout paid, exactly once on chain.
	waitFor(t, "every payout SUCCESS", 2*time.Minute, func() bool { return countPayouts(t, data, dbEnv, "SUCCESS").Total == len(payouts) })
	for _, p := range payouts {
		if got := balance(cashier.ChainETH, p.to); got.Cmp(p.amount) != 0 {
			t.Errorf("the recipient of %s holds %s base units, want %s (paid once)", p.no, got, p.amount)
		}
	}

	// Every acknowledged order is on the promoted standby.
	db, err := sql.Open("pgx", standby.URL(dbName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var inRecovery bool
	if err := db.QueryRow(`SELECT pg_is_in_recovery()`).Scan(&inRecovery); err != nil || inRecovery {
		t.Fatalf("the standby is not promoted: %v %v", inRecovery, err)
	}
	stored := storedOrders(t, db, "FO-")
	mu.Lock()
	defer mu.Unlock()
	var lost []string
	for _, no := range acked {
		if !stored[no] {
			lost = append(lost, no)
		}
	}
	t.Logf("answers by HTTP status: %v; %d acknowledged (%d before the crash), %d lost; %s in all", statuses, len(acked), ackedAtCrash, len(lost), time.Since(began).Round(time.Second))
	if len(lost) > 0 {
		t.Errorf("%d acknowledged orders lost, e.g. %v", len(lost), lost[:min(5, len(lost))])
	}
	if ackedAtCrash == 0 {
		t.Error("no order was acknowledged before the crash: the load did not run")
	}
	// The metric an operator alerts on says a primary is there again.
	for _, p := range insts {
		if v := scrape(t, p.metrics, "cashier_database_primary"); v != "1" {
			t.Errorf("cashier_database_primary on %s = %q after the promotion, want 1", p.metrics, v)
		}
	}
}

// scrape returns the value of an unlabelled series on an instance's /metrics.
func scrape(t *testing.T, addr, name string) string {
	t.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return v
		}
	}
	return ""
}
