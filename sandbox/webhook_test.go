package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// A developer's local receiver gets the demo cashier's webhooks, signed
// with the webhook key the sandbox printed.
func TestSandboxWebhooks(t *testing.T) {
	got := make(chan *client.WebhookEvent, 4)
	var key atomic.Value // set once the sandbox has printed it
	key.Store("")
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, _, err := client.VerifyWebhook(r, key.Load().(string))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		got <- ev
	}))
	defer recv.Close()

	cfg := config.Default()
	cfg.Data = t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, WebhookURL: recv.URL + "/hook"})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	key.Store(sb.Info.WebhookKey)
	go sb.Serve(ctx)

	api := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)
	if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: "HOOK-1",
		Amount: "5.00", Symbol: "USDC", ChainID: "ARB", CustNo: "C-9"}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-got:
		if ev.Type != "payment" || ev.OrderNo != "HOOK-1" || ev.CustNo != "C-9" || ev.Status != "PENDING" || ev.ID == "" {
			t.Fatalf("webhook = %+v", ev)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no webhook arrived")
	}
}
