package tron

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/stablecashier/cashier/nodes"
)

// maxResponse bounds a node's answer; a block full of transactions is well
// under it.
const maxResponse = 32 << 20

// maxBackoff caps the doubling pause between tries.
const maxBackoff = 5 * time.Second

// transport posts JSON to the /wallet endpoints of several nodes, moving to
// the next node and backing off when one fails.
type transport struct {
	genesis  string // block 0's id every node must have; "" unchecked
	urls     []string
	nodes    []*nodes.Node
	apiKey   string
	client   *http.Client
	timeout  time.Duration
	attempts int
	backoff  time.Duration
}

// statusError is a non-2xx answer; 429, 5xx and TronGrid's 403 rate
// refusal are worth retrying.
type statusError struct {
	url    string
	status int
	body   string
	pause  time.Duration // what the node asked to wait (Retry-After, "suspended for Ns")
}

// rateLimited reports a refusal for the request rate: 429, or TronGrid's
// 403 "request rate exceeded … suspended for Ns".
func (e *statusError) rateLimited() bool {
	return e.status == http.StatusTooManyRequests ||
		e.status == http.StatusForbidden && strings.Contains(strings.ToLower(e.body), "rate")
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.url, e.status, e.body)
}

// nodeError is the {"Error": "..."} body java-tron returns for requests it
// cannot parse; retrying the same request elsewhere does not help.
type nodeError struct {
	path string
	msg  string
}

func (e *nodeError) Error() string { return fmt.Sprintf("%s: node error: %s", e.path, e.msg) }

// errWrongChain: the node's block 0 is not the network's; it is refused
// and the request goes to another node.
var errWrongChain = errors.New("node serves another chain")

// checkNode compares node i's block 0 with the network's genesis and
// records the verdict.
func (t *transport) checkNode(ctx context.Context, i int) error {
	var b apiBlock
	if err := t.once(ctx, t.urls[i]+"/wallet/getblockbynum", "/wallet/getblockbynum", []byte(`{"num":0}`), &b); err != nil {
		return err
	}
	if b.BlockID == "" {
		return fmt.Errorf("%w: block 0 missing from the node's answer", ErrBehind)
	}
	if !strings.EqualFold(b.BlockID, t.genesis) {
		msg := fmt.Sprintf("block 0 is %s, the registry's network has %s", strings.ToLower(b.BlockID), t.genesis)
		t.nodes[i].SetWrongChain(msg)
		return fmt.Errorf("%w: %s", errWrongChain, msg)
	}
	t.nodes[i].SetWrongChain("")
	return nil
}

func retryable(err error) bool {
	if errors.Is(err, errWrongChain) || errors.Is(err, ErrBehind) {
		return true
	}
	var se *statusError
	if errors.As(err, &se) {
		return se.rateLimited() || se.status >= 500
	}
	var ne *nodeError
	if errors.As(err, &ne) {
		return false
	}
	// Transport failures, timeouts and undecodable bodies (a proxy's HTML
	// error page) may well pass on another node.
	return true
}

// post sends body to path and decodes the answer into out. Every endpoint
// used is safe to repeat: queries trivially, broadcast because the same
// signed transaction is rejected as a duplicate rather than applied twice.
func (t *transport) post(ctx context.Context, path string, body, out any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return err
	}
	var last error
	delay := t.backoff
	next := 0
	for attempt := 0; attempt < t.attempts; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(ctx.Err(), last)
			case <-time.After(delay):
			}
			delay = min(2*delay, maxBackoff)
		}
		i, err := t.pick(ctx, next)
		if err != nil {
			return errors.Join(err, last)
		}
		next = i + 1
		node := t.nodes[i]
		last = nil
		if t.genesis != "" && !node.Checked() {
			last = t.checkNode(ctx, i)
		}
		if last == nil {
			last = t.once(ctx, t.urls[i]+path, path, payload, out)
		}
		var se *statusError
		switch {
		case last == nil || !retryable(last):
			node.Succeeded() // an answer, if a refusal of the request
		case errors.As(last, &se) && se.rateLimited():
			node.Pause(max(se.pause, time.Second), se.body) // no failure of the node
		default:
			node.Failed(last)
		}
		if last == nil || !retryable(last) || ctx.Err() != nil {
			return last
		}
	}
	return last
}

// pick returns the first node from start on that no pause holds; when
// every one is paused it waits for the first pause to end, so a provider
// that asked for a pause is not asked again before it ends.
func (t *transport) pick(ctx context.Context, start int) (int, error) {
	for {
		now := time.Now()
		best, bestAt := -1, time.Time{}
		for k := range t.nodes {
			i := (start + k) % len(t.nodes)
			if t.nodes[i].WrongChain() != "" {
				continue
			}
			until := t.nodes[i].PausedUntil(now)
			if until.IsZero() {
				return i, nil
			}
			if best < 0 || until.Before(bestAt) {
				best, bestAt = i, until
			}
		}
		if best < 0 {
			return 0, fmt.Errorf("tron: every node serves another chain: %s", t.nodes[0].WrongChain())
		}
		if err := sleepCtx(ctx, bestAt.Sub(now)); err != nil {
			return 0, err
		}
	}
}

func (t *transport) once(ctx context.Context, url, path string, payload []byte, out any) error {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if t.apiKey != "" {
		req.Header.Set("TRON-PRO-API-KEY", t.apiKey)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return nodes.HideURL(err, url)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return fmt.Errorf("%s: reading response: %w", nodes.Redact(url), nodes.HideURL(err, url))
	}
	if len(data) > maxResponse {
		return fmt.Errorf("%s: response larger than %d bytes", url, maxResponse)
	}
	if resp.StatusCode/100 != 2 {
		body := truncate(string(data), 200)
		pause := nodes.RetryAfter(resp.Header.Get("Retry-After"), time.Now())
		if p := nodes.SuspendedFor(body); p > pause {
			pause = p
		}
		return &statusError{url: nodes.Redact(url), status: resp.StatusCode, body: body, pause: pause}
	}
	// java-tron reports malformed requests as 200 {"Error": "..."}.
	var e struct {
		Error string `json:"Error"`
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) && json.Unmarshal(data, &e) == nil && e.Error != "" {
		return &nodeError{path: path, msg: e.Error}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: decoding %s: %w", url, truncate(string(data), 200), err)
	}
	return nil
}

func truncate(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
