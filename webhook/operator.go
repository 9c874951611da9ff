package webhook

import (
	"context"
	"time"

	"github.com/stablecashier/cashier"
)

// Operator functions, wired to the command line elsewhere.

// Resend puts event id back in the queue, due now, with the same id and
// body and a fresh retry schedule; its earlier attempts stay in the log.
func (d *Dispatcher) Resend(ctx context.Context, id string) error {
	if err := d.outbox.Resend(ctx, id, d.clock.Now()); err != nil {
		return err
	}
	d.Notify()
	return nil
}

// Deliveries returns event id and its delivery log, oldest attempt first.
func (d *Dispatcher) Deliveries(ctx context.Context, id string) (*cashier.Event, []cashier.DeliveryAttempt, error) {
	e, err := d.outbox.Event(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	log, err := d.outbox.Attempts(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return e, log, nil
}

// TestResult is the outcome of SendTest.
type TestResult struct {
	EventID    string
	URL        string
	Body       []byte        // what was sent
	At         time.Time     // Service-Request-Time of the request
	HTTPStatus int           // 0 when no response arrived
	Latency    time.Duration // until the response (or the failure)
	Error      string        // empty when the receiver answered 2xx
	Response   string        // start of the response body
}

// OK reports whether the receiver confirmed the test event.
func (r *TestResult) OK() bool { return r.Error == "" }

// SendTest delivers one signed test event (Service-Event "test", eventType
// "test") for merchant to url, once and synchronously, under the same
// rules as real events. Test events are not stored in the outbox.
func (d *Dispatcher) SendTest(ctx context.Context, merchantID, url string) (*TestResult, error) {
	m, err := d.merchants.Merchant(ctx, merchantID)
	if err != nil {
		return nil, err
	}
	id := NewEventID()
	body := (&Writer{Strings: d.cfg.Strings, Scheme: d.cfg.Scheme}).testBody(id, m.ID, d.clock.Now())
	a := d.post(ctx, url, EventTest, id, body, m)
	return &TestResult{
		EventID:    id,
		URL:        url,
		Body:       body,
		At:         a.At,
		HTTPStatus: a.HTTPStatus,
		Latency:    a.Latency,
		Error:      a.Err,
		Response:   string(a.Response),
	}, nil
}

// Forward POSTs event e once to target, signed with its merchant's webhook
// key exactly as a delivery of e is (same body, same headers), and records
// nothing: the event's own deliveries go on as before. It serves `cashier
// listen`, which brings a directory's events to a developer's receiver.
func (d *Dispatcher) Forward(ctx context.Context, e cashier.Event, target string) (*TestResult, error) {
	m, err := d.merchants.Merchant(ctx, e.MerchantID)
	if err != nil {
		return nil, err
	}
	a := d.post(ctx, target, e.Type, e.ID, e.Body, m)
	return &TestResult{
		EventID:    e.ID,
		URL:        target,
		Body:       e.Body,
		At:         a.At,
		HTTPStatus: a.HTTPStatus,
		Latency:    a.Latency,
		Error:      a.Err,
		Response:   string(a.Response),
	}, nil
}
