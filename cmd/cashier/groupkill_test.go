package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// TestCreatedOrdersSurviveKill creates collection orders from many clients
// at once (so writes share group commits), kills the service with SIGKILL
// in the middle of it, restarts it on the same data directory and requires
// every order that was answered with success to be there, unchanged: a
// success means the order is on disk.
func TestCreatedOrdersSurviveKill(t *testing.T) {
	tw := newWorld(t, worldOpts{Shop: "Load Shop", HookURL: "http://127.0.0.1:9/hook",
		Env: []string{"CASHIER_MODE=sandbox", "CASHIER_RATE_PER_KEY=10000000", "CASHIER_RATE_PER_IP=10000000", "CASHIER_RATE_PER_ENDPOINT=10000000",
			unreachableETH}})
	first, sdk, c := tw.Svc, tw.API, tw.Cashier

	type created struct{ orderNo, amount, id string }
	var mu sync.Mutex
	var ok []created
	var failed int
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				no := fmt.Sprintf("K%02d-%d", w, i)
				amount := fmt.Sprintf("%d.%02d", 1+i%500, w)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				res, err := sdk.CreateCollection(ctx, client.CollectionRequest{CashierID: c["cashierId"], OrderNo: no,
					Amount: amount, Symbol: "USDT", ChainID: "ETH"})
				cancel()
				mu.Lock()
				if err == nil {
					ok = append(ok, created{no, amount, payID(res.PayURL)})
				} else {
					failed++
				}
				mu.Unlock()
			}
		}()
	}
	// Kill once a few hundred orders are in, while requests are in flight.
	waitFor(t, "orders under load", 60*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(ok) >= 300
	})
	first.kill()
	close(stop)
	wg.Wait()

	tw.serve()
	second, sdk2 := tw.Svc, tw.API
	mu.Lock()
	defer mu.Unlock()
	for _, o := range ok {
		got, err := sdk2.CollectionDetail(context.Background(), o.orderNo)
		if err != nil {
			t.Fatalf("order %s was answered with success before the kill and is gone: %v", o.orderNo, err)
		}
		if got.Amount != o.amount || payID(got.PayURL) != o.id || o.id == "" {
			t.Fatalf("order %s: amount %s link %s, want %s %s", o.orderNo, got.Amount, got.PayURL, o.amount, o.id)
		}
	}
	t.Logf("%d orders acknowledged before the kill, all present after restart; %d requests failed with the kill", len(ok), failed)
	if failed == 0 {
		t.Fatal("no request was in flight at the kill: the test did not kill under load")
	}
	second.stop(t)
}

// payID is the order id at the end of a payment link.
func payID(payURL string) string {
	_, id, _ := strings.Cut(payURL, "/pay/")
	return id
}
