package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/stablecashier/cashier/config"
)

// webhookCmd runs the operator's webhook commands: the delivery log of an
// event, a resend, and a signed test event to a cashier's URL.
func webhookCmd(ctx context.Context, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var eventID, cashierID string
	cfg, _, err := parseSettings(cmd, args, getenv, stderr, func(fs *flag.FlagSet, _ *config.Config) {
		if cmd == "webhook test" {
			fs.StringVar(&cashierID, "cashier", "", "cashier whose webhook URL receives the test event (required)")
		} else {
			fs.StringVar(&eventID, "event", "", "event id (required)")
		}
	})
	if err != nil {
		return err
	}
	// No chain is needed for webhook operations.
	svc, err := chainlessService(ctx, cmd, cfg, stderr)
	if err != nil {
		return err
	}
	defer svc.Close()
	d := svc.Dispatcher
	switch cmd {
	case "webhook log":
		if eventID == "" {
			return fmt.Errorf("--event is required")
		}
		e, attempts, err := d.Deliveries(ctx, eventID)
		if err != nil {
			return err
		}
		log := make([]map[string]any, 0, len(attempts))
		for _, a := range attempts {
			row := map[string]any{"attempt": a.Attempt, "at": a.At.UnixMilli(), "httpStatus": a.HTTPStatus,
				"latencyMs": a.Latency.Milliseconds(), "error": a.Error}
			if !a.NextAttemptAt.IsZero() {
				row["nextAttemptAt"] = a.NextAttemptAt.UnixMilli()
			}
			log = append(log, row)
		}
		return printJSON(stdout, map[string]any{
			"eventId": e.ID, "type": e.Type, "orderNo": e.OrderNo, "status": e.Status, "url": e.URL,
			"state": e.State, "attempts": e.Attempts, "nextAttemptAt": millisOrZero(e.NextAttemptAt),
			"body": string(e.Body), "log": log,
		})
	case "webhook resend":
		if eventID == "" {
			return fmt.Errorf("--event is required")
		}
		// Queued due now; the running service delivers it on its next poll.
		if err := d.Resend(ctx, eventID); err != nil {
			return err
		}
		e, err := svc.Store.Event(ctx, eventID)
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"eventId": e.ID, "state": e.State, "attempts": e.Attempts, "lastError": e.LastError})
	case "webhook test":
		if cashierID == "" {
			return fmt.Errorf("--cashier is required")
		}
		c, err := svc.Store.Cashier(ctx, cashierID)
		if err != nil {
			return err
		}
		if c.WebhookURL == "" {
			return fmt.Errorf("cashier %s has no webhook URL", c.ID)
		}
		res, err := d.SendTest(ctx, c.MerchantID, c.WebhookURL)
		if err != nil {
			return err
		}
		if err := printJSON(stdout, map[string]any{"eventId": res.EventID, "url": res.URL, "ok": res.OK(),
			"httpStatus": res.HTTPStatus, "latencyMs": res.Latency.Milliseconds(), "error": res.Error}); err != nil {
			return err
		}
		if !res.OK() {
			return fmt.Errorf("the receiver did not confirm the test event")
		}
		return nil
	}
	return fmt.Errorf("unknown command %q", cmd)
}

func millisOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
