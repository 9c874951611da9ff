package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
)

// TestWebhookLogsNameComponentOnce: the webhook component's log lines
// carry "component" exactly once (the dispatcher names itself; the wiring
// must not add a second one).
func TestWebhookLogsNameComponentOnce(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.Mode = "sandbox"
	var logs bytes.Buffer
	svc, err := New(context.Background(), cfg, Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, &logs)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	// An event of a merchant that does not exist is failed at once and logged.
	err = svc.Store.Update(ctx, func(tx cashier.Tx) error {
		return tx.AddEvent(ctx, &cashier.Event{ID: "evt_gone", MerchantID: "m_gone", Type: cashier.EventPayment,
			URL: "http://127.0.0.1:1/hook", Body: []byte(`{}`), CreatedAt: time.Now()})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Dispatcher.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(logs.String(), "\n") {
		if !strings.Contains(line, `"webhook"`) {
			continue
		}
		n++
		if c := strings.Count(line, `"component"`); c != 1 {
			t.Errorf("%d component keys in %s", c, line)
		}
	}
	if n == 0 {
		t.Fatalf("no webhook log line; logs:\n%s", logs.String())
	}
}
