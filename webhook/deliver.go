package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// attempt is the outcome of one POST.
type attempt struct {
	At         time.Time     // service clock when the request was signed
	HTTPStatus int           // 0 when no response arrived
	Latency    time.Duration // wall time from sending to the response head and capped body
	Err        string        // empty on success
	Response   []byte        // start of the response body, at most MaxResponseBytes
}

func (a attempt) ok() bool { return a.Err == "" }

// post signs body with m's webhook keys at the current time and POSTs it
// to target once. The keys are those valid at signing, not at the event's
// creation: an event queued before a rotation and sent during its grace
// carries both signatures, one sent after the grace only the new key's.
func (d *Dispatcher) post(ctx context.Context, target string, typ cashier.EventType, eventID string, body []byte, m *cashier.Merchant) attempt {
	a := attempt{At: d.clock.Now()}
	if err := CheckURL(target, d.cfg.Sandbox); err != nil {
		a.Err = err.Error()
		return a
	}
	timeMs := strconv.FormatInt(a.At.UnixMilli(), 10)
	key, nextKey := m.WebhookKeys(a.At)
	v2, plain, err := sign.Webhook(d.cfg.Scheme, key, body, timeMs)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	var v2Next, plainNext string
	if nextKey != "" {
		if v2Next, plainNext, err = sign.Webhook(d.cfg.Scheme, nextKey, body, timeMs); err != nil {
			a.Err = err.Error()
			return a
		}
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		a.Err = err.Error()
		return a
	}
	h := d.headers
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", d.cfg.UserAgent)
	req.Header.Set(h.Event, string(typ))
	req.Header.Set(h.EventID, eventID)
	req.Header.Set(h.RequestTime, timeMs)
	req.Header.Set(h.SignatureV2, v2)
	req.Header.Set(h.Signature, plain)
	if nextKey != "" {
		req.Header.Set(h.SignatureV2Next, v2Next)
		req.Header.Set(h.SignatureNext, plainNext)
	}

	start := time.Now()
	resp, err := d.client.Do(req)
	if err != nil {
		a.Latency = time.Since(start)
		a.Err = transportError(ctx, err, d.cfg.Timeout)
		return a
	}
	a.Response, err = io.ReadAll(io.LimitReader(resp.Body, d.cfg.MaxResponseBytes))
	resp.Body.Close()
	a.Latency = time.Since(start)
	a.HTTPStatus = resp.StatusCode
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		// Delivered; the body does not matter. A body cut short by the
		// timeout is still a confirmation: the status came first.
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		a.Err = fmt.Sprintf("HTTP %d: redirect to %q not followed", resp.StatusCode, resp.Header.Get("Location"))
	default:
		a.Err = fmt.Sprintf("HTTP %d", resp.StatusCode)
		if s := strings.TrimSpace(strings.ToValidUTF8(string(a.Response), "\uFFFD")); s != "" {
			a.Err += ": " + s
		}
	}
	return a
}

// transportError describes a failed request without repeating the URL.
func transportError(ctx context.Context, err error, timeout time.Duration) string {
	var ne net.Error
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return fmt.Sprintf("no response within %s", timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// newClient is the delivery HTTP client: no redirects, no proxy, dials
// guarded in production.
func newClient(cfg Config) *http.Client {
	t := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer(cfg.Sandbox).DialContext,
		TLSClientConfig:     cfg.TLS,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: cfg.HostConcurrency,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: cfg.Timeout,
	}
	return &http.Client{
		Transport: t,
		// A 3xx is the receiver's answer, and a failure: following it could
		// lead the request somewhere the URL check never saw.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
