package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
	"github.com/stablecashier/cashier/webhook"
)

// listenCmd follows a data directory's webhook events as they are created
// and forwards each, signed as a real delivery, to a local receiver. The
// events' own deliveries (to the cashier's webhook URL) are untouched.
func listenCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var target, merchant string
	var poll time.Duration
	st, cfg, err := provisionFlags(ctx, "listen", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&target, "forward-to", "", "receiver URL to POST each new event to; http:// and local addresses allowed (required)")
		fs.StringVar(&merchant, "merchant", "", "forward only this merchant's events (default: all)")
		fs.DurationVar(&poll, "poll", 250*time.Millisecond, "how often the directory is checked for new events")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if target == "" {
		return fmt.Errorf("listen: --forward-to is required")
	}
	if err := webhook.CheckURL(target, true); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if poll <= 0 {
		return fmt.Errorf("listen: --poll %v: must be above zero", poll)
	}
	// Sandbox rules for the receiver (http, loopback): the developer names
	// it on their own machine. Everything else is the served settings, so
	// the request is the one the service would send.
	d, err := webhook.NewDispatcher(webhook.Config{
		Sandbox:      true,
		HeaderPrefix: cfg.HeaderPrefix,
		Timeout:      cfg.WebhookTimeout,
		Lease:        max(2*time.Minute, 2*cfg.WebhookTimeout), // unused: nothing is claimed
		Scheme:       sign.WebhookScheme(cfg.WebhookSignature),
		Strings:      cfg.WebhookBody == "strings",
	}, st, st, cashier.SystemClock{}, nil)
	if err != nil {
		return err
	}

	// Events are followed from now on: the newest one's seq is the mark.
	// Seen ids cover events committed out of seq order (PostgreSQL).
	const window = 500
	latest, err := st.Events(ctx, cashier.EventFilter{MerchantID: merchant, Limit: 1})
	if err != nil {
		return err
	}
	var mark int64
	if len(latest) > 0 {
		mark = latest[0].Seq
	}
	seen := map[string]bool{}
	fmt.Fprintf(stderr, "forwarding the webhook events of %s to %s; Ctrl-C stops\n", cfg.Data, target)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		evs, err := st.Events(ctx, cashier.EventFilter{MerchantID: merchant, Limit: window})
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return err
		}
		sort.Slice(evs, func(i, j int) bool { return evs[i].Seq < evs[j].Seq })
		for _, e := range evs {
			if e.Seq <= mark || seen[e.ID] || e.Type == "test" {
				continue
			}
			if ctx.Err() != nil {
				break
			}
			seen[e.ID] = true
			res, err := d.Forward(ctx, e, target)
			if err != nil {
				fmt.Fprintf(stdout, "%s  %-18s %s  %s  error: %v\n", time.Now().Format("15:04:05"), eventType(e), e.ID, e.OrderNo, err)
				continue
			}
			outcome := fmt.Sprintf("-> %d", res.HTTPStatus)
			if res.Error != "" {
				outcome = "-> " + res.Error
			}
			fmt.Fprintf(stdout, "%s  %-18s %s  %s  %s (%d ms)\n", time.Now().Format("15:04:05"), eventType(e), e.ID, e.OrderNo, outcome, res.Latency.Milliseconds())
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(stderr, "stopped")
			return nil
		case <-tick.C:
		}
	}
	fmt.Fprintln(stderr, "stopped")
	return nil
}

// eventType is the body's eventType (payment.success, ...), or the event's
// type for bodies without one.
func eventType(e cashier.Event) string {
	var b struct {
		EventType string `json:"eventType"`
	}
	if json.Unmarshal(e.Body, &b) == nil && b.EventType != "" {
		return b.EventType
	}
	return string(e.Type)
}
