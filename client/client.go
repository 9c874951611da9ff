// Package client is the Go SDK of the cashier's merchant API. It signs
// requests with the same code the server verifies them with (package sign),
// so a request the SDK builds is exactly the request the server checks.
//
//	c := client.New("https://pay.example.com", apiKey, secretKey)
//	res, err := c.CreateCollection(ctx, client.CollectionRequest{CashierID: "...", OrderNo: "A1", Amount: "10.00", Symbol: "USDT"})
//
// Webhooks: VerifyWebhook checks Service-Signature-V2 (raw body + "&time=",
// or the sorted form WithWebhookScheme), a five-minute window on the
// request time, and takes the event id and type from the signed body.
// A valid signature does not make a delivery unique (retries, replays
// within the window): process each WebhookEvent.ID once.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/sign"
)

// Client calls one cashier deployment for one merchant. It is safe for
// concurrent use.
type Client struct {
	base      string
	apiKey    string
	secretKey string
	opts      options
}

type options struct {
	prefix     string
	httpClient *http.Client
	clock      cashier.Clock
	recvWindow time.Duration
	window     sign.Window
	scheme     sign.WebhookScheme
}

// Option configures a Client or VerifyWebhook.
type Option func(*options)

// WithHeaderPrefix sets the brand prefix of the header names ("Service").
func WithHeaderPrefix(p string) Option { return func(o *options) { o.prefix = p } }

// WithHTTPClient sets the HTTP client (default: one with a 30 s timeout).
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithClock sets the clock requests are stamped with and webhooks checked
// against.
func WithClock(c cashier.Clock) Option { return func(o *options) { o.clock = c } }

// WithRecvWindow sends <P>-Rec_Window, asking the server to accept the
// request for d instead of its 30 s default.
func WithRecvWindow(d time.Duration) Option { return func(o *options) { o.recvWindow = d } }

// WithWebhookWindow sets the time rule VerifyWebhook applies to
// <P>-Request-Time (default WebhookWindow: five minutes either way).
func WithWebhookWindow(w sign.Window) Option { return func(o *options) { o.window = w } }

// WithWebhookScheme sets the Signature-V2 scheme VerifyWebhook checks:
// sign.WebhookRaw (default) or sign.WebhookSorted, as the service's
// --webhook-signature setting.
func WithWebhookScheme(s sign.WebhookScheme) Option { return func(o *options) { o.scheme = s } }

// WebhookWindow is the time rule of VerifyWebhook: the provider's receiver
// samples accept |now - time| < 5 minutes.
var WebhookWindow = sign.Window{Default: 5 * time.Minute, Max: 5 * time.Minute, FutureSkew: 5 * time.Minute}

func newOptions(opts []Option) options {
	o := options{
		prefix:     sign.DefaultPrefix,
		httpClient: &http.Client{Timeout: 30 * time.Second},
		clock:      cashier.SystemClock{},
		window:     WebhookWindow,
		scheme:     sign.WebhookRaw,
	}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// New returns a client for the deployment at baseURL.
func New(baseURL, apiKey, secretKey string, opts ...Option) *Client {
	return &Client{base: strings.TrimRight(baseURL, "/"), apiKey: apiKey, secretKey: secretKey, opts: newOptions(opts)}
}

// Error is a refusal by the server (or a response the SDK could not read).
type Error struct {
	HTTPStatus int
	Code       string // "000105", "ERROR_000401", ...
	Message    string
	Trace      string // quote it when asking the operator
}

func (e *Error) Error() string {
	return fmt.Sprintf("cashier: %s (code %s, HTTP %d, trace %s)", e.Message, e.Code, e.HTTPStatus, e.Trace)
}

type auth int

const (
	public auth = iota
	keyOnly
	signed
)

// post sends body signed, and decodes data into out.
func (c *Client) post(ctx context.Context, path string, body any, withSign bool, out any) error {
	params, raw, err := sign.FromValue(body)
	if err != nil {
		return err
	}
	ts := c.timestamp()
	sig, err := sign.Request(c.secretKey, params, ts, sign.Raw)
	if err != nil {
		return err
	}
	if withSign {
		// The body field sign repeats the header signature; it is left out
		// of the signed text, so adding it changes nothing that was signed.
		params[sign.SignField] = sig
		if raw, err = json.Marshal(params); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	c.setAuth(req, signed, ts, sig)
	return c.do(req, out)
}

// get sends query q with the given authentication.
func (c *Client) get(ctx context.Context, path string, q url.Values, a auth, out any) error {
	u := c.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	ts, sig := "", ""
	if a == signed {
		params, err := sign.FromQuery(q)
		if err != nil {
			return err
		}
		ts = c.timestamp()
		if sig, err = sign.Request(c.secretKey, params, ts, sign.Raw); err != nil {
			return err
		}
	}
	c.setAuth(req, a, ts, sig)
	return c.do(req, out)
}

func (c *Client) timestamp() string {
	return strconv.FormatInt(c.opts.clock.Now().UnixMilli(), 10)
}

func (c *Client) setAuth(req *http.Request, a auth, ts, sig string) {
	h := sign.HeaderNames(c.opts.prefix)
	if a == public {
		return
	}
	req.Header.Set(h.APIKey, c.apiKey)
	if a == signed {
		req.Header.Set(h.RequestTime, ts)
		req.Header.Set(h.SignatureV2, sig)
		if c.opts.recvWindow > 0 {
			req.Header.Set(h.RecvWindow, strconv.FormatInt(c.opts.recvWindow.Milliseconds(), 10))
		}
	}
}

// maxResponse bounds what the SDK reads of a response.
const maxResponse = 8 << 20

func (c *Client) do(req *http.Request, out any) error {
	resp, err := c.opts.httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return err
	}
	var env api.RawEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return &Error{HTTPStatus: resp.StatusCode, Code: "", Message: fmt.Sprintf("response is not a cashier envelope: %.200s", body), Trace: resp.Header.Get("X-Request-Id")}
	}
	if !env.Success || resp.StatusCode/100 != 2 {
		msg := env.Msg
		if msg == "" {
			msg = env.Message
		}
		return &Error{HTTPStatus: resp.StatusCode, Code: env.Code, Message: msg, Trace: env.Trace}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return &Error{HTTPStatus: resp.StatusCode, Code: env.Code, Message: "decoding response data: " + err.Error(), Trace: env.Trace}
	}
	return nil
}

// IsCode reports whether err is an *Error with the given wire code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
