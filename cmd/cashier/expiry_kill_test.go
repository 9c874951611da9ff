package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier/client"
)

// TestPaidWhileDownAcrossExpiry runs the sandbox's chains and service as
// two processes of the real binary. Orders are created, the service is
// killed while the chains go on, one is paid in time while it is down, and
// it is started again after their expiry: the merchant receives SUCCESS
// for the paid one and never EXPIRED, and its payment is CREDITED, not
// LATE. The unpaid order still expires. (ETH: the TRON stand-in's block
// times run ahead of the clock once it made blocks faster than one per
// 3 s, so "mined before the expiry" cannot be arranged on it.)
func TestPaidWhileDownAcrossExpiry(t *testing.T) {

	var mu sync.Mutex
	got := map[string][]string{} // orderNo → webhook statuses, in arrival order
	hook := newReceiver(t, func(ev *client.WebhookEvent) {
		mu.Lock()
		got[ev.OrderNo] = append(got[ev.OrderNo], ev.Status)
		mu.Unlock()
	})

	hookURL := []string{"--webhook-url", hook.URL}
	// A first run provisions the demo merchant and its contracts, then
	// stops.
	w := newWorld(t, worldOpts{Service: hookURL, ProvisionOnly: true, Timeout: 4 * time.Minute})
	ctx := w.Ctx
	defer w.Chains.stop(t)
	data, info := w.Data, w.Info
	// The dev chain's block times run ahead of the clock by about as many
	// seconds as it made blocks faster than one a second (provisioning
	// makes many). The orders live that lead plus 20 s, room for the steps
	// up to the payment, so that the payment's block is before the expiry
	// without waiting out a fixed worst-case lifetime (checked below).
	lead := chainLead(ctx, t, info.Networks["ETH"].RPCURL)
	ttl := (lead + 20*time.Second).Round(time.Second)
	t.Logf("the chain's block times lead the clock by %s: orders live %s", lead.Round(100*time.Millisecond), ttl)
	w.Env = []string{"CASHIER_COLLECTION_TTL=" + ttl.String(),
		"CASHIER_WEBHOOK_TIMEOUT=1s", "CASHIER_WEBHOOK_LEASE=2s", "CASHIER_WEBHOOK_SCHEDULE=1s,2s,3s,5s,10s"}
	w.Svc = w.startService(hookURL...)
	hook.setKey(info.WebhookKey)
	api := w.API
	var expireAt time.Time
	for _, o := range []struct{ no, chain string }{{"DOWN-ETH", "ETH"}, {"DOWN-UNPAID", "ETH"}} {
		c, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: o.no, Amount: "3.25", Symbol: "USDT", ChainID: o.chain})
		if err != nil {
			t.Fatalf("create %s: %v", o.no, err)
		}
		if at := time.UnixMilli(c.ExpireTime); expireAt.Before(at) {
			expireAt = at
		}
	}

	waitFor(t, "the PENDING webhooks", 30*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got["DOWN-ETH"]) > 0 && len(got["DOWN-UNPAID"]) > 0
	})

	// Down before the expiry; the chains go on and the customer pays.
	w.Svc.kill()
	cli(t, "sandbox", "pay", "--data", data, "--order", "DOWN-ETH")
	if time.Now().After(expireAt.Add(-3 * time.Second)) {
		t.Fatalf("the payment was made too close to the expiry (%v) to prove anything", expireAt)
	}
	// Up again well after the expiry.
	time.Sleep(time.Until(expireAt.Add(8 * time.Second)))
	w.Svc = w.startService(hookURL...)
	defer w.Svc.stop(t)
	api = client.New(info.BaseURL, info.APIKey, info.SecretKey)

	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		mu.Lock()
		done := slices.Contains(got["DOWN-ETH"], "SUCCESS") && slices.Contains(got["DOWN-UNPAID"], "EXPIRED")
		seen := fmt.Sprint(got)
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			for _, no := range []string{"DOWN-ETH", "DOWN-UNPAID"} {
				d, err := api.CollectionDetail(ctx, no)
				t.Logf("%s: %+v %v", no, d, err)
			}
			t.Fatalf("webhooks after 90 s: %s", seen)
		}
	}
	time.Sleep(2 * time.Second) // anything sent after SUCCESS arrives too
	mu.Lock()
	defer mu.Unlock()
	for _, no := range []string{"DOWN-ETH"} {
		if slices.Contains(got[no], "EXPIRED") {
			t.Errorf("%s: webhooks %v include EXPIRED for an order paid in time", no, got[no])
		}
		d, err := api.CollectionDetail(ctx, no)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != "SUCCESS" || len(d.Payments) != 1 {
			t.Fatalf("%s: %s with payments %+v", no, d.Status, d.Payments)
		}
		p := d.Payments[0]
		if p.BlockTime >= d.ExpireTime {
			t.Fatalf("%s: the payment's block time %d is not before the expiry %d: the dev chain ran too far ahead of the clock", no, p.BlockTime, d.ExpireTime)
		}
		if p.Effect != "CREDITED" {
			t.Errorf("%s: payment in a block of %d (expiry %d) has effect %s, want CREDITED", no, p.BlockTime, d.ExpireTime, p.Effect)
		}
	}
	if d, err := api.CollectionDetail(ctx, "DOWN-UNPAID"); err != nil || d.Status != "EXPIRED" {
		t.Fatalf("the unpaid order: %+v, %v", d, err)
	}
}

// chainLead is how far the EVM dev chain's latest block time is ahead of
// the clock (zero when it is not).
func chainLead(ctx context.Context, t *testing.T, rpc string) time.Duration {
	t.Helper()
	ec, err := ethclient.Dial(rpc)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	h, err := ec.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return max(0, time.Until(time.Unix(int64(h.Time), 0)))
}
