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

// WebhookEvent is a received webhook. Every named field comes from the
// signed body, never from a header: headers are not covered by any
// signature. Fields holds the whole body (numbers as json.Number).
type WebhookEvent struct {
	Type      string // body event: payment, payout, refund or test
	ID        string // body eventId: deduplicate on it
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

// VerifyWebhook checks a received webhook: the <P>-Signature-V2 header
// (raw body + "&time=" + <P>-Request-Time by default, WithWebhookScheme for
// the sorted form) or, during a key rotation's grace, the
// <P>-Signature-V2-Next header under the webhook key, with <P>-Request-Time within
// five minutes of now. The event id and type are read from the signed body
// (a <P>-Event-Id header that disagrees with it is refused). It returns the
// parsed event and the raw body, and leaves r.Body readable again.
//
// A valid signature proves the body came from the service within the time
// window; it does not make the delivery unique: the service retries, and
// anyone who captured a delivery can replay it inside the window. Process
// each eventId once.
//
//	ev, body, err := client.VerifyWebhook(r, webhookKey)
func VerifyWebhook(r *http.Request, webhookKey string, opts ...Option) (*WebhookEvent, []byte, error) {
	return VerifyWebhookKeys(r, []string{webhookKey}, opts...)
}

// VerifyWebhookKeys is VerifyWebhook accepting any of keys, for a
// receiver that holds the previous and the new webhook key across a
// rotation. During the rotation's grace the service signs
// <P>-Signature-V2 with the previous key and <P>-Signature-V2-Next with
// the new one; after it, <P>-Signature-V2 with the new key alone. A
// request verifies when either header verifies under any of keys, so a
// receiver can switch to the new key (or hold both) at any time during the
// grace.
//
//	ev, body, err := client.VerifyWebhookKeys(r, []string{newKey, oldKey})
func VerifyWebhookKeys(r *http.Request, keys []string, opts ...Option) (*WebhookEvent, []byte, error) {
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
	if err := verifyAny(o.scheme, keys, body, ts, r.Header.Get(h.SignatureV2), r.Header.Get(h.SignatureV2Next)); err != nil {
		return nil, body, fmt.Errorf("%w: %v", ErrWebhook, err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	ev := &WebhookEvent{}
	if err := dec.Decode(&ev.Fields); err != nil {
		return nil, body, fmt.Errorf("%w: body: %v", ErrWebhook, err)
	}
	ev.ID, _ = ev.Fields["eventId"].(string)
	ev.EventType, _ = ev.Fields["eventType"].(string)
	ev.Type, _ = ev.Fields["event"].(string)
	if ev.Type == "" { // bodies written before the event field existed
		ev.Type, _, _ = strings.Cut(ev.EventType, ".")
	}
	ev.OrderNo, _ = ev.Fields["orderNo"].(string)
	ev.CustNo, _ = ev.Fields["custNo"].(string)
	ev.Status, _ = ev.Fields["status"].(string)
	if ev.ID == "" {
		return nil, body, fmt.Errorf("%w: body has no eventId", ErrWebhook)
	}
	if hid := r.Header.Get(h.EventID); hid != "" && hid != ev.ID {
		return nil, body, fmt.Errorf("%w: %s %q differs from the signed eventId %q", ErrWebhook, h.EventID, hid, ev.ID)
	}
	return ev, body, nil
}

// verifyAny checks sig and then next (when sent) under each non-empty key
// and returns the first signature's error when none verifies.
func verifyAny(scheme sign.WebhookScheme, keys []string, body []byte, ts, sig, next string) error {
	var first error
	for _, k := range keys {
		if k == "" {
			continue
		}
		for _, s := range []string{sig, next} {
			if s == "" && first != nil {
				continue
			}
			err := sign.VerifyWebhook(scheme, k, body, ts, s)
			if err == nil {
				return nil
			}
			if first == nil {
				first = err
			}
		}
	}
	if first == nil {
		first = errors.New("no webhook key to verify with")
	}
	return first
}

// WidgetURL returns the signed URL of the hosted cashier widget at
// widgetBase (without a query) for params in the order given, e.g.
// apiKey, custNo, orderNo. Call it on your server: it needs the secret key.
func WidgetURL(widgetBase, secretKey string, params []sign.WidgetParam) string {
	return widgetBase + "?" + sign.SignWidget(secretKey, params)
}
