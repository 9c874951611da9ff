package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// TestDatabaseRestartUnderLoad crashes the PostgreSQL server (an
// immediate shutdown, as a failover to a standby behind the same address
// looks to clients) while eight clients create orders through the binary:
// every answer is a 200 or a 503 (never a 500), /readyz says not ready
// while the database is away and ready again after, creates succeed again
// without a restart of the service, and every order acknowledged with 200
// is in the database afterwards. It runs its own PostgreSQL server, so the
// PostgreSQL stage of ./test.sh skips it.
func TestDatabaseRestartUnderLoad(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true, Postgres: true, Service: []string{"--tron-block-interval", "300ms"},
		Env: []string{"CASHIER_METRICS_ADDR=127.0.0.1:0",
			"CASHIER_RATE_PER_KEY=1000000", "CASHIER_RATE_PER_IP=1000000", "CASHIER_RATE_PER_ENDPOINT=1000000"}})
	sb, info, srv, url := tw.Svc, tw.Info, tw.PG, tw.DatabaseURL
	var readyURL string
	waitFor(t, "the metrics listener", 30*time.Second, func() bool {
		m := regexp.MustCompile(`"msg":"metrics endpoint","addr":"([^"]+)"`).FindStringSubmatch(sb.stderr.String())
		if m != nil {
			readyURL = "http://" + m[1] + "/readyz"
		}
		return m != nil
	})
	ready := func() int {
		res, err := http.Get(readyURL)
		if err != nil {
			return 0
		}
		res.Body.Close()
		return res.StatusCode
	}
	waitFor(t, "ready", 30*time.Second, func() bool { return ready() == http.StatusOK })

	ctx, stop := context.WithCancel(context.Background())
	var (
		mu           sync.Mutex
		acked        []string
		statuses     = map[int]int{}
		wrong        []string
		seq          atomic.Int64
		sinceRestart atomic.Int64 // 200s after the server is back
		restarted    atomic.Bool
	)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sdk := client.New(info.BaseURL, info.APIKey, info.SecretKey)
			for ctx.Err() == nil {
				no := fmt.Sprintf("DBR-%d", seq.Add(1))
				rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				_, err := sdk.CreateCollection(rctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: no, Amount: "5.00", Symbol: "USDT", ChainID: "ETH"})
				cancel()
				status := http.StatusOK
				var ce *client.Error
				switch {
				case err == nil:
				case errors.As(err, &ce):
					status = ce.HTTPStatus
				default:
					status = -1 // no answer at all
				}
				mu.Lock()
				statuses[status]++
				switch status {
				case http.StatusOK:
					acked = append(acked, no)
					if restarted.Load() {
						sinceRestart.Add(1)
					}
				case http.StatusServiceUnavailable:
				default:
					wrong = append(wrong, fmt.Sprintf("%s: %v", no, err))
				}
				mu.Unlock()
				if status != http.StatusOK {
					time.Sleep(50 * time.Millisecond) // as a client honouring Retry-After would, briefly
				}
			}
		}()
	}
	// Readiness is watched throughout: it must drop while the server is away.
	var sawNotReady atomic.Bool
	readyDone := make(chan struct{})
	go func() {
		defer close(readyDone)
		for ctx.Err() == nil {
			if c := ready(); c == http.StatusServiceUnavailable {
				sawNotReady.Store(true)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()

	time.Sleep(time.Second) // load on a healthy database first
	if err := srv.Restart(2 * time.Second); err != nil {
		stop()
		wg.Wait()
		t.Fatal(err)
	}
	restarted.Store(true)
	waitFor(t, "creates succeeding again after the restart", time.Minute, func() bool { return sinceRestart.Load() >= 50 })
	waitFor(t, "ready again", 30*time.Second, func() bool { return ready() == http.StatusOK })
	stop()
	wg.Wait()
	<-readyDone

	mu.Lock()
	defer mu.Unlock()
	t.Logf("answers by HTTP status: %v; acknowledged %d", statuses, len(acked))
	if len(wrong) > 0 {
		t.Errorf("%d answers neither 200 nor 503, e.g. %v", len(wrong), wrong[:min(5, len(wrong))])
	}
	if statuses[http.StatusServiceUnavailable] == 0 {
		t.Error("no create was refused with 503 while the database was away: the outage was not exercised")
	}
	if !sawNotReady.Load() {
		t.Error("/readyz never said not ready while the database was away")
	}
	// Every acknowledged order is stored.
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := storedOrders(t, db, "DBR-")
	var lost []string
	for _, no := range acked {
		if !stored[no] {
			lost = append(lost, no)
		}
	}
	if len(lost) > 0 {
		t.Errorf("%d acknowledged orders lost, e.g. %v", len(lost), lost[:min(5, len(lost))])
	}
}

// storedOrders is the set of collection order numbers starting with
// prefix that db holds.
func storedOrders(t *testing.T, db *sql.DB, prefix string) map[string]bool {
	t.Helper()
	rows, err := db.Query(`SELECT order_no FROM collection_orders WHERE order_no LIKE $1`, prefix+"%")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for rows.Next() {
		var no string
		if err := rows.Scan(&no); err != nil {
			t.Fatal(err)
		}
		stored[no] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return stored
}
