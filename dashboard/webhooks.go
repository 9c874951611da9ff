package dashboard

import (
	"context"
	"net/http"
	"sort"

	"github.com/stablecashier/cashier"
)

// The failing-webhooks view: events whose delivery is failing now (pending
// with failed attempts, retried on the backoff schedule) and those given
// up (failed: every attempt used), each with its last error and a resend.

// FailingWebhooks lists merchantID's ("" every merchant, operators)
// failing and given-up events, newest first, up to limit of each.
func (s *Server) FailingWebhooks(ctx context.Context, a *actor, merchantID string, limit int) (map[string]any, error) {
	if !a.operator() {
		merchantID = a.user.MerchantID
	}
	pending, err := s.Store.Events(ctx, cashier.EventFilter{MerchantID: merchantID, State: cashier.EventPending, Limit: 1000})
	if err != nil {
		return nil, err
	}
	failed, err := s.Store.Events(ctx, cashier.EventFilter{MerchantID: merchantID, State: cashier.EventFailed, Limit: limit})
	if err != nil {
		return nil, err
	}
	var failing []cashier.Event
	for _, e := range pending {
		if e.Attempts > 0 && len(failing) < limit {
			failing = append(failing, e)
		}
	}
	row := func(e *cashier.Event) map[string]any {
		out := map[string]any{"eventId": e.ID, "merchantId": e.MerchantID, "type": e.Type, "orderId": e.OrderID,
			"orderNo": e.OrderNo, "status": e.Status, "url": e.URL, "state": e.State, "attempts": e.Attempts,
			"lastError": e.LastError, "nextAttemptAt": ms(e.NextAttemptAt), "createdAt": ms(e.CreatedAt),
			"orderPath": orderPath(e)}
		if e.State == cashier.EventFailed {
			out["nextAttemptAt"] = int64(0)
		}
		return out
	}
	newest := func(es []cashier.Event) {
		sort.SliceStable(es, func(i, j int) bool { return es[i].CreatedAt.After(es[j].CreatedAt) })
	}
	newest(failing)
	newest(failed)
	return map[string]any{"failing": rowsJSON(failing, row), "failed": rowsJSON(failed, row)}, nil
}

// orderPath is the dashboard page of the event's order.
func orderPath(e *cashier.Event) string {
	if e.OrderID == "" {
		return ""
	}
	if e.Type == cashier.EventPayout {
		return Prefix + "payouts/" + e.OrderID
	}
	return Prefix + "collections/" + e.OrderID
}

func (s *Server) webhookRoutes() {
	s.page("GET "+Prefix+"webhooks", "nav.webhooks", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		v, err := s.FailingWebhooks(r.Context(), a, p.MerchantID, 200)
		p.Data = v
		return "webhooks", err
	})
	s.api("GET "+apiPrefix+"webhooks/failing", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		return s.FailingWebhooks(r.Context(), a, r.URL.Query().Get("merchantId"), 200)
	})
}
