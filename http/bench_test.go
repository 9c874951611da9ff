package http

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// BenchmarkCreateCollection measures signed collection-order creation
// through the whole stack: SDK signing, HTTP, authentication, signature
// check, decoding, the orders service, SQLite (WAL, synchronous FULL) and
// the QR code. Four concurrent clients per CPU.
func BenchmarkCreateCollection(b *testing.B) {
	e := newEnv(b, func(c *Config) { c.RateLimits = RateLimits{PerKey: -1, PerIP: -1, PerEndpoint: -1} })
	var (
		seq       atomic.Int64
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
	)
	b.SetParallelism(4)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		local := make([]time.Duration, 0, 64)
		for pb.Next() {
			req := client.CollectionRequest{CashierID: cashierID, OrderNo: fmt.Sprintf("BENCH-%d", seq.Add(1)), Amount: "25.00", Symbol: "USDT", ChainID: "ETH", CustNo: "c1"}
			t := time.Now()
			if _, err := e.cli.CreateCollection(ctx, req); err != nil {
				b.Error(err)
				return
			}
			local = append(local, time.Since(t))
		}
		mu.Lock()
		latencies = append(latencies, local...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(latencies) == 0 {
		return
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	pct := func(p float64) float64 {
		return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
