package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// A sandbox first started without --webhook-url (as the README's first
// command does) and then again with it sends its webhooks there: the
// restart sets the demo cashier's URL and says so, and each ready line
// says where webhooks go.
func TestSandboxWebhookURLOnRestart(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true, Env: databaseEnv(), Service: []string{"--tron-block-interval", "300ms"}})
	data, sb, info := tw.Data, tw.Svc, tw.Info
	if !strings.Contains(sb.stderr.String(), "webhooks: none") {
		t.Fatalf("the ready line does not say webhooks go nowhere:\n%s", sb.stderr.String())
	}
	sb.stop(t)

	got := make(chan *client.WebhookEvent, 8)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, _, err := client.VerifyWebhook(r, info.WebhookKey)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		got <- ev
	}))
	defer recv.Close()
	hook := recv.URL + "/hook"

	sb = start(t, databaseEnv(), "sandbox", "--data", data, "--webhook-url", hook)
	defer sb.stop(t)
	waitFor(t, "the sandbox again", 3*time.Minute, func() bool { return strings.Contains(sb.stderr.String(), "sandbox ready at") })
	out := sb.stderr.String()
	if !strings.Contains(out, "now sends its webhooks to "+hook+" (before: none)") || !strings.Contains(out, "webhooks: "+hook+";") {
		t.Fatalf("the restart does not say where webhooks go:\n%s", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	api := client.New(info.BaseURL, info.APIKey, info.SecretKey)
	if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: "RESTART-1",
		Amount: "5.00", Symbol: "USDT", ChainID: "ETH"}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-got:
		if ev.OrderNo != "RESTART-1" || ev.Status != "PENDING" {
			t.Fatalf("webhook %+v", ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no webhook arrived at the URL given on the restart")
	}
}
