package watch_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// addOrders stores n PENDING orders with their deposit addresses in one
// transaction (fast set-up of a large open book).
func (r *rig) addOrders(b testing.TB, n int) {
	ctx := context.Background()
	now := time.Now()
	t, _ := r.svc.Registry.Token(cashier.ChainETH, "USDT")
	var os []*cashier.CollectionOrder
	for i := range n {
		o := &cashier.CollectionOrder{ID: orders.NewID("co_"), MerchantID: r.merchant.ID, CashierID: r.cashier.ID,
			OrderNo: fmt.Sprintf("B-%d-%d", now.UnixNano(), i), Chain: cashier.ChainETH, Symbol: "USDT", Decimals: t.Decimals,
			Amount: t.MinAmount, PaidAmount: new(bigInt), Status: cashier.CollectionPending,
			ExpireAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}
		addr, err := r.svc.Orders.Deposits.DepositAddress(ctx, r.merchant, cashier.ChainETH, o.ID)
		must(b, err)
		o.DepositAddress = addr
		os = append(os, o)
	}
	must(b, r.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		for _, o := range os {
			if err := tx.CreateCollection(ctx, o); err != nil {
				return err
			}
		}
		return nil
	}))
}

// rewind puts the watcher's cursor back to block 1.
func (r *rig) rewind(b testing.TB) {
	ctx := context.Background()
	must(b, r.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		return tx.SetCursor(ctx, cashier.ChainCursor{Chain: cashier.ChainETH, Confirmed: 1, UpdatedAt: time.Now()})
	}))
}

// BenchmarkCatchUp scans a dev chain of empty and paying blocks from the
// start with 10,000 open orders and reports blocks per minute.
func BenchmarkCatchUp(b *testing.B) {
	r := newRig(b, rigOptions{confirmations: 1})
	r.addOrders(b, 10_000)
	o := r.order(b, "1.00")
	for i := 0; i < 2000; i++ {
		if i%100 == 0 {
			r.pay(b, o.DepositAddress, 10_000)
		} else {
			r.chain.Commit()
		}
	}
	head, err := r.chain.Client.BlockNumber(context.Background())
	must(b, err)
	w := r.svc.Watchers[0]
	b.ResetTimer()
	var total time.Duration
	for range b.N {
		b.StopTimer()
		r.rewind(b)
		b.StartTimer()
		start := time.Now()
		must(b, w.Round(context.Background()))
		total += time.Since(start)
	}
	b.ReportMetric(float64(head-1)*float64(b.N)/total.Minutes(), "blocks/min")
}

// BenchmarkOpenOrders measures one round over the same 500 blocks with
// 100 and with 100,000 open orders: the scan reads blocks and looks up
// only the recipients it meets, so the two should cost the same.
func BenchmarkOpenOrders(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := newRig(b, rigOptions{confirmations: 1})
			r.addOrders(b, n)
			o := r.order(b, "1.00")
			for i := 0; i < 500; i++ {
				if i%50 == 0 {
					r.pay(b, o.DepositAddress, 10_000)
				} else {
					r.chain.Commit()
				}
			}
			w := r.svc.Watchers[0]
			// A first round outside the timing: it also checkpoints the
			// write-ahead log the order set-up left behind.
			r.rewind(b)
			must(b, w.Round(context.Background()))
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				r.rewind(b)
				b.StartTimer()
				must(b, w.Round(context.Background()))
			}
		})
	}
}

// BenchmarkConfirmToWebhook measures, with the whole service running (a
// 20 ms watcher interval), the time from the block that confirms a
// payment being mined to the signed SUCCESS webhook arriving at a local
// receiver; it reports p50 and p99.
func BenchmarkConfirmToWebhook(b *testing.B) {
	var mu sync.Mutex
	arrived := map[string]time.Time{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(b, err)
	hook := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct{ OrderNo, Status string }
		decodeBody(req, &body)
		if body.Status == "SUCCESS" {
			mu.Lock()
			arrived[body.OrderNo] = time.Now()
			mu.Unlock()
		}
	})}
	go hook.Serve(ln)
	defer hook.Close()
	r := newRig(b, rigOptions{confirmations: 1, webhookURL: "http://" + ln.Addr().String() + "/hook"})
	sl, err := net.Listen("tcp", "127.0.0.1:0")
	must(b, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.svc.Serve(ctx, sl); close(done) }()
	defer func() { cancel(); <-done }()

	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		o := r.order(b, "1.00")
		b.StartTimer()
		// Measured from the send: the dev chain mines at once, so this
		// includes mining (about 10 ms) and errs on the slow side.
		mined := time.Now()
		r.pay(b, o.DepositAddress, 1_000_000)
		for {
			mu.Lock()
			at, ok := arrived[o.OrderNo]
			mu.Unlock()
			if ok {
				lat = append(lat, at.Sub(mined))
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds())/1000, "p99-ms")
}
