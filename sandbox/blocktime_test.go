package sandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// `sandbox pay` without an amount pays what the order still asks for
// (after a partial payment, the rest), and the webhooks of payments on
// Ethereum and TRON carry a blockTime no later than the moment they
// arrive: the chains stamp blocks with the wall clock, however fast
// payments come.
func TestSandboxPayDueAndBlockTimes(t *testing.T) {
	type hook struct {
		at     int64
		fields map[string]any
	}
	var (
		mu    sync.Mutex
		hooks []hook
		key   atomic.Value
	)
	key.Store("")
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now().UnixMilli()
		ev, _, err := client.VerifyWebhook(r, key.Load().(string))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		mu.Lock()
		hooks = append(hooks, hook{at, ev.Fields})
		mu.Unlock()
	}))
	defer recv.Close()

	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.WatchInterval = 100 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Blocks faster than a second on both chains, as the sandbox's tests
	// run them: before, each one moved the chain's time a second (EVM) or
	// three (TRON) further ahead of the clock.
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, WebhookURL: recv.URL + "/hook",
		BlockPeriod: 300 * time.Millisecond, TRONBlockInterval: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	key.Store(sb.Info.WebhookKey)
	go sb.Serve(ctx)
	api := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)

	success := func(orderNo string) map[string]any {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			for _, h := range hooks {
				if h.fields["orderNo"] == orderNo && h.fields["status"] == "SUCCESS" {
					mu.Unlock()
					return h.fields
				}
			}
			mu.Unlock()
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("no SUCCESS webhook for %s", orderNo)
		return nil
	}
	for _, chain := range []string{"ETH", "TRON"} {
		for i := 0; i < 3; i++ {
			no := chain + "-DUE-" + strconv.Itoa(i)
			if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: no,
				Amount: "10.00", Symbol: "USDT", ChainID: chain}); err != nil {
				t.Fatal(err)
			}
			first, err := sandbox.Pay(ctx, sb.Info, sb.Service.Store, sandbox.PayRequest{OrderNo: no, Amount: "4"})
			if err != nil || first.Amount != "4.00" {
				t.Fatalf("partial payment of %s: %+v %v", no, first, err)
			}
			// The service sees the first payment (as the page would show
			// the rest due) before the customer pays again.
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				o, err := sb.Service.Store.CollectionByOrderNo(ctx, sb.Info.MerchantID, no)
				if err != nil {
					t.Fatal(err)
				}
				if ps, err := sb.Service.Store.PaymentsByOrder(ctx, o.ID); err == nil && len(ps) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: the first payment was never seen", no)
				}
			}
			rest, err := sandbox.Pay(ctx, sb.Info, sb.Service.Store, sandbox.PayRequest{OrderNo: no})
			if err != nil {
				t.Fatal(err)
			}
			if rest.Amount != "6.00" {
				t.Fatalf("%s: pay without an amount sent %s, want the 6.00 still due", no, rest.Amount)
			}
			if f := success(no); f["paidAmount"] != nil && f["paidAmount"] != "10.00" {
				t.Fatalf("%s paid %v", no, f["paidAmount"])
			}
			if _, err := sandbox.Pay(ctx, sb.Info, sb.Service.Store, sandbox.PayRequest{OrderNo: no}); err == nil {
				t.Fatalf("%s: paid again with nothing due and no amount", no)
			}
		}
	}

	mu.Lock()
	defer mu.Unlock()
	checked := map[string]int{}
	for _, h := range hooks {
		bt, ok := h.fields["blockTime"]
		if !ok || h.fields["txId"] == "" || h.fields["txId"] == nil {
			continue
		}
		var ms int64
		switch v := bt.(type) {
		case float64:
			ms = int64(v)
		case string:
			ms, _ = strconv.ParseInt(v, 10, 64)
		case json.Number:
			ms, _ = v.Int64()
		}
		if ms <= 0 {
			t.Fatalf("blockTime %v in %v", bt, h.fields)
		}
		if ms > h.at {
			t.Errorf("%v %v: blockTime %d is %d ms after the webhook arrived", h.fields["chainId"], h.fields["orderNo"], ms, ms-h.at)
		}
		checked[h.fields["chainId"].(string)]++
	}
	if checked["1"] < 3 || checked["TRON"] < 3 { // Ethereum's chainId is 1
		t.Fatalf("webhooks with a blockTime checked per chain: %v", checked)
	}
}
