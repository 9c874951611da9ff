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
)

// maxResponse bounds a node's answer; a block full of transactions is well
// under it.
const maxResponse = 32 << 20

// maxBackoff caps the doubling pause between tries.
const maxBackoff = 5 * time.Second

// transport posts JSON to the /wallet endpoints of several nodes, moving to
// the next node and backing off when one fails.
type transport struct {
	urls     []string
	apiKey   string
	client   *http.Client
	timeout  time.Duration
	attempts int
	backoff  time.Duration
}

// statusError is a non-2xx answer; 429 and 5xx are worth retrying.
type statusError struct {
	url    string
	status int
	body   string
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

func retryable(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.status == http.StatusTooManyRequests || se.status >= 500
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
	for attempt := 0; attempt < t.attempts; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(ctx.Err(), last)
			case <-time.After(delay):
			}
			delay = min(2*delay, maxBackoff)
		}
		base := t.urls[attempt%len(t.urls)]
		last = t.once(ctx, base+path, path, payload, out)
		if last == nil || !retryable(last) || ctx.Err() != nil {
			return last
		}
	}
	return last
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
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return fmt.Errorf("%s: reading response: %w", url, err)
	}
	if len(data) > maxResponse {
		return fmt.Errorf("%s: response larger than %d bytes", url, maxResponse)
	}
	if resp.StatusCode/100 != 2 {
		return &statusError{url: url, status: resp.StatusCode, body: truncate(string(data), 200)}
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
