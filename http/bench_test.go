package http

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
)

// BenchmarkCreateCollection measures signed collection-order creation
// through the whole stack: SDK signing, HTTP (keep-alive), authentication,
// signature check, decoding, the orders service, SQLite (WAL, synchronous
// FULL, group commit) and the QR code; with 8 and 32 concurrent clients,
// on an empty database and on one already holding 100,000 pending orders.
// It reports created/s and the p50 and p99 latency:
//
//	go test -run '^$' -bench CreateCollection -benchtime 20000x ./http/
func BenchmarkCreateCollection(b *testing.B) {
	for _, pending := range []int{0, 100_000} {
		for _, clients := range []int{8, 32} {
			b.Run(fmt.Sprintf("clients=%d/pending=%d", clients, pending), func(b *testing.B) {
				benchCreate(b, clients, pending)
			})
		}
	}
}

func benchCreate(b *testing.B, clients, pending int) {
	e := newEnv(b, func(c *Config) {
		c.RateLimits = RateLimits{PerKey: -1, PerIP: -1, PerEndpoint: -1}
		c.MaxInFlight = 1 << 20 // measure the work, not the refusals
	})
	seedPending(b, e, pending)
	cli := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock),
		client.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}))
	var (
		seq       atomic.Int64
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
		wg        sync.WaitGroup
	)
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			local := make([]time.Duration, 0, b.N/clients+1)
			for {
				n := seq.Add(1)
				if n > int64(b.N) {
					break
				}
				req := client.CollectionRequest{CashierID: cashierID, OrderNo: fmt.Sprintf("BENCH-%d", n), Amount: "25.00", Symbol: "USDT", ChainID: "ETH", CustNo: "c1"}
				t := time.Now()
				if _, err := cli.CreateCollection(ctx, req); err != nil {
					b.Error(err)
					return
				}
				local = append(local, time.Since(t))
			}
			mu.Lock()
			latencies = append(latencies, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	b.StopTimer()
	if len(latencies) == 0 {
		return
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	pct := func(p float64) float64 {
		return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "created/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	// CPU per order (server and the clients' signing, one process) is
	// what a busy shared machine distorts least: 2 cores can create at
	// most 2e6 / cpu-µs orders per second.
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(latencies)), "cpu-µs/order")
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// seedPending stores n pending collection orders of the benchmark's
// merchant, in transactions of 5,000.
func seedPending(b *testing.B, e *env, n int) {
	b.Helper()
	now := e.clock.Now()
	for done := 0; done < n; {
		err := e.store.Update(context.Background(), func(tx cashier.Tx) error {
			for i := 0; i < 5000 && done+i < n; i++ {
				id := fmt.Sprintf("co_seed%08d", done+i)
				o := &cashier.CollectionOrder{ID: id, MerchantID: "m_1", CashierID: cashierID, OrderNo: "SEED-" + id,
					Chain: cashier.ChainETH, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(25_000_000), PaidAmount: new(big.Int),
					DepositAddress: fmt.Sprintf("0x%040x", done+i+1), Status: cashier.CollectionPending,
					ExpireAt: now.Add(30 * time.Minute), CreatedAt: now, UpdatedAt: now}
				if err := tx.CreateCollection(context.Background(), o); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		done += 5000
	}
}

// BenchmarkRefusedWhenBusy measures the answer to a create when the
// service is at its in-flight bound: the 503 with Retry-After that the
// excess of an overload gets. 8 clients over keep-alive connections.
//
//	go test -run '^$' -bench RefusedWhenBusy -benchtime 20000x ./http/
func BenchmarkRefusedWhenBusy(b *testing.B) {
	e := newEnv(b, func(c *Config) {
		c.RateLimits = RateLimits{PerKey: -1, PerIP: -1, PerEndpoint: -1}
		c.MaxInFlight = 2
	})
	release := holdRequests(b, e, 2)
	defer release()
	const clients = 8
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	cli := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock), client.WithHTTPClient(hc))
	var (
		seq       atomic.Int64
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
		wg        sync.WaitGroup
	)
	b.ResetTimer()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, b.N/clients+1)
			for seq.Add(1) <= int64(b.N) {
				t := time.Now()
				_, err := cli.CreateCollection(context.Background(), client.CollectionRequest{CashierID: cashierID,
					OrderNo: "BUSY", Amount: "25.00", Symbol: "USDT", ChainID: "ETH"})
				if !client.IsCode(err, "000503") {
					b.Errorf("want 000503, got %v", err)
					return
				}
				local = append(local, time.Since(t))
			}
			mu.Lock()
			latencies = append(latencies, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	b.StopTimer()
	if len(latencies) == 0 {
		return
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
}
