package payoutexec_test

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// BenchmarkPayoutThroughput executes payouts through the whole executor on
// a dev chain (blocks on demand, two confirmations): orders stored, batched
// by 100, signed, sent, mined, confirmed and settled SUCCESS. It reports
// payouts per minute and the approval → SUCCESS latency of the orders:
//
//	go test -run '^$' -bench PayoutThroughput -benchtime 1000x ./payoutexec
func BenchmarkPayoutThroughput(b *testing.B) {
	r := newBenchRig(b)
	ctx := context.Background()
	var items []orders.BatchItem
	for i := 0; i < b.N; i++ {
		items = append(items, orders.BatchItem{OrderNo: fmt.Sprintf("TP-%d", i), Recipient: common.BigToAddress(big.NewInt(int64(100_000 + i))).Hex(),
			Amount: "1", Symbol: "USDT"})
	}
	approved := map[string]time.Time{}
	var ids []string
	for len(items) > 0 {
		n := min(100, len(items))
		res, err := r.svc.BatchPayout(ctx, r.m, orders.BatchRequest{ContractID: "k_1", Orders: items[:n]})
		if err != nil || res.FailCount > 0 {
			b.Fatalf("create: %v %+v", err, res)
		}
		for _, o := range res.Orders {
			ids = append(ids, o.Order.ID)
			approved[o.Order.ID] = time.Now()
		}
		items = items[n:]
	}
	b.ResetTimer()
	start := time.Now()
	var lat []time.Duration
	pending := map[string]bool{}
	for _, id := range ids {
		pending[id] = true
	}
	for len(pending) > 0 {
		if err := r.x.Tick(ctx); err != nil {
			b.Logf("round: %v", err)
		}
		r.chain.Commit()
		for id := range pending {
			o, err := r.st.Payout(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			if o.Status == cashier.PayoutSuccess {
				lat = append(lat, time.Since(approved[id]))
				delete(pending, id)
			} else if o.Status == cashier.PayoutRefuse {
				b.Fatalf("refused: %s", o.FailReason)
			}
		}
	}
	el := time.Since(start)
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/el.Minutes(), "payouts/min")
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Milliseconds()), "p99-ms")
}
