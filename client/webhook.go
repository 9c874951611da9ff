package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/stablecashier/cashier/sign"
)

// WebhookEvent is a received webhook. The named fields are the ones every
// event carries; Fields holds the whole body (numbers as json.Number).
type WebhookEvent struct {
	Type      string // <P>-Event header, lower case: payment or payout
	ID        string // <P>-Event-Id header (or the body's eventId): deduplicate on it
	EventType string // body eventType, e.g. payment.success
	OrderNo   string
	CustNo    string
	Status    string
	Fields    map[string]any
}

// maxWebhookBody bounds the body VerifyWebhook reads.
const maxWebhookBody = 1 << 20

// ErrWebhook wraps every reason VerifyWebhook refuses a request; answer such
// a request with a non-200 status so the service retries or reports it.
var ErrWebhook = errors.New("cashier webhook refused")

// VerifyWebhook checks a received webhook: the <P>-Signature-V2 header over
// the body with <P>-Request-Time inside the time window, under the webhook
// key. It returns the parsed event and the raw body, and leaves r.Body
// readable again for the caller.
//
//	ev, body, err := client.VerifyWebhook(r, webhookKey)
func VerifyWebhook(r *http.Request, webhookKey string, opts ...Option) (*WebhookEvent, []byte, error) {
	o := newOptions(opts)
	h := sign.HeaderNames(o.prefix)
	if r.Body == nil {
		return nil, nil, fmt.Errorf("%w: empty body", ErrWebhook)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: reading body: %v", ErrWebhook, err)
	}
	if len(body) > maxWebhookBody {
		return nil, nil, fmt.Errorf("%w: body larger than %d bytes", ErrWebhook, maxWebhookBody)
	}
	ts := r.Header.Get(h.RequestTime)
	if err := o.window.CheckTime(o.clock.Now(), ts, ""); err != nil {
		return nil, body, fmt.Errorf("%w: %v", ErrWebhook, err)
	}
	if err := sign.VerifyWebhook(webhookKey, body, ts, r.Header.Get(h.SignatureV2)); err != nil {
		return nil, body, fmt.Errorf("%w: %v", ErrWebhook, err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	ev := &WebhookEvent{Type: strings.ToLower(r.Header.Get(h.Event)), ID: r.Header.Get(h.EventID)}
	if err := dec.Decode(&ev.Fields); err != nil {
		return nil, body, fmt.Errorf("%w: body: %v", ErrWebhook, err)
	}
	ev.OrderNo, _ = ev.Fields["orderNo"].(string)
	ev.CustNo, _ = ev.Fields["custNo"].(string)
	ev.Status, _ = ev.Fields["status"].(string)
	ev.EventType, _ = ev.Fields["eventType"].(string)
	if ev.ID == "" {
		ev.ID, _ = ev.Fields["eventId"].(string)
	}
	return ev, body, nil
}

// WidgetURL returns the signed URL of the hosted cashier widget at
// widgetBase (without a query) for params in the order given, e.g.
// apiKey, custNo, orderNo. Call it on your server: it needs the secret key.
func WidgetURL(widgetBase, secretKey string, params []sign.WidgetParam) string {
	return widgetBase + "?" + sign.SignWidget(secretKey, params)
}
