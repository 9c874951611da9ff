// Package faultproxy is an HTTP proxy that stands between the service and a
// chain node (EVM JSON-RPC or TRON's wallet HTTP API) and misbehaves the
// way public providers do: rate limiting with Retry-After (HTTP 429 and
// JSON-RPC -32005; TronGrid's 403 "request rate exceeded … suspended"),
// 502/503 with an HTML body, slow answers, cut connections, nodes behind
// the head (a load balancer over nodes at different heights) and lost
// answers to a transaction it did forward. Every injected fault is counted.
// Tests put it in front of the dev chains; `go run ./cmd/faultproxy` runs
// it by hand.
package faultproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Fault is one kind of misbehaviour.
type Fault string

const (
	RateLimit Fault = "ratelimit" // 429 + Retry-After / -32005; TRON also 403 "suspended for Ns"
	Upstream  Fault = "5xx"       // 502 or 503 with an HTML body
	Delay     Fault = "delay"     // the answer comes after Config.Delay
	Cut       Fault = "cut"       // the connection is closed without an answer
	Lag       Fault = "lag"       // answered by a node Config.Lag blocks behind
	LostSend  Fault = "lostsend"  // a transaction is forwarded, its answer dropped
)

// Faults lists every fault, in the order they are drawn.
var Faults = []Fault{RateLimit, Upstream, Delay, Cut, Lag, LostSend}

// Protocol is what the backend speaks.
type Protocol string

const (
	EVM  Protocol = "evm"  // JSON-RPC over HTTP POST
	TRON Protocol = "tron" // the /wallet HTTP API
)

// Config configures a Proxy.
type Config struct {
	Target   string // backend base URL, e.g. http://127.0.0.1:8545
	Protocol Protocol
	// Rates is the chance per request of each fault (LostSend: per
	// transaction sent); their sum must not exceed 1.
	Rates map[Fault]float64
	// RetryAfter is the pause a rate-limit answer asks for; while it runs
	// every request is refused again and counted as Early. Default 1s.
	RetryAfter time.Duration
	// Delay is how long a delayed answer waits; default 3s.
	Delay time.Duration
	// Lag is how many blocks a lagging node is behind; default 3.
	Lag uint64
	// Seed makes the draws repeatable; 0 seeds from the clock.
	Seed uint64
}

// Proxy is an http.Handler forwarding to Config.Target.
type Proxy struct {
	cfg    Config
	target string
	client *http.Client

	mu    sync.Mutex
	rng   *rand.Rand
	rates map[Fault]float64
	until time.Time // end of the current rate-limit suspension

	counts    map[Fault]*atomic.Int64
	forwarded atomic.Int64
	early     atomic.Int64
}

// New returns a proxy for cfg.
func New(cfg Config) (*Proxy, error) {
	if !strings.HasPrefix(cfg.Target, "http://") && !strings.HasPrefix(cfg.Target, "https://") {
		return nil, fmt.Errorf("faultproxy: target %q is not an http(s) URL", cfg.Target)
	}
	if cfg.Protocol != EVM && cfg.Protocol != TRON {
		return nil, fmt.Errorf("faultproxy: protocol %q is neither evm nor tron", cfg.Protocol)
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = time.Second
	}
	if cfg.Delay <= 0 {
		cfg.Delay = 3 * time.Second
	}
	if cfg.Lag == 0 {
		cfg.Lag = 3
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	p := &Proxy{cfg: cfg, target: strings.TrimRight(cfg.Target, "/"), client: &http.Client{Timeout: 30 * time.Second},
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), counts: map[Fault]*atomic.Int64{}}
	for _, f := range Faults {
		p.counts[f] = new(atomic.Int64)
	}
	if err := p.SetRates(cfg.Rates); err != nil {
		return nil, err
	}
	return p, nil
}

// SetRates replaces the fault rates; nil turns every fault off.
func (p *Proxy) SetRates(r map[Fault]float64) error {
	sum := 0.0
	rates := map[Fault]float64{}
	for f, v := range r {
		if _, ok := p.counts[f]; !ok {
			return fmt.Errorf("faultproxy: unknown fault %q", f)
		}
		if v < 0 || v > 1 {
			return fmt.Errorf("faultproxy: rate of %s is %v, want 0..1", f, v)
		}
		if f != LostSend {
			sum += v
		}
		rates[f] = v
	}
	if sum > 1 {
		return fmt.Errorf("faultproxy: fault rates add up to %v, more than 1", sum)
	}
	p.mu.Lock()
	p.rates = rates
	p.mu.Unlock()
	return nil
}

// Counts returns how often each fault was injected, plus "forwarded"
// (requests passed on unharmed) and "early" (requests that came during a
// rate-limit suspension, i.e. did not wait as told).
func (p *Proxy) Counts() map[string]int64 {
	out := map[string]int64{"forwarded": p.forwarded.Load(), "early": p.early.Load()}
	for f, c := range p.counts {
		out[string(f)] = c.Load()
	}
	return out
}

// StatsPath answers GET with Counts as JSON, on the proxy's own listener.
const StatsPath = "/_faultproxy/stats"

// draw picks the fault of one request (or "" for none).
func (p *Proxy) draw() Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	x := p.rng.Float64()
	for _, f := range Faults {
		if f == LostSend {
			continue
		}
		if x < p.rates[f] {
			return f
		}
		x -= p.rates[f]
	}
	return ""
}

func (p *Proxy) coin() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rng.IntN(2) == 0
}

func (p *Proxy) chance(f Fault) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rng.Float64() < p.rates[f]
}

// suspended reports whether a rate-limit suspension runs, and how long.
func (p *Proxy) suspended(now time.Time) (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Before(p.until) {
		return p.until.Sub(now), true
	}
	return 0, false
}

func (p *Proxy) suspend(now time.Time) {
	p.mu.Lock()
	p.until = now.Add(p.cfg.RetryAfter)
	p.mu.Unlock()
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == StatsPath {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(p.Counts())
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil {
		return
	}
	now := time.Now()
	if left, ok := p.suspended(now); ok {
		// A client that does not wait as told meets the same refusal.
		p.early.Add(1)
		p.rateLimit(w, body, left)
		return
	}
	sending := p.isSend(r.URL.Path, body)
	switch f := p.draw(); f {
	case RateLimit:
		p.counts[f].Add(1)
		p.suspend(now)
		p.rateLimit(w, body, p.cfg.RetryAfter)
		return
	case Upstream:
		p.counts[f].Add(1)
		code := http.StatusBadGateway
		if p.coin() {
			code = http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		fmt.Fprintf(w, "<html>\r\n<head><title>%d %s</title></head>\r\n<body>\r\n<center><h1>%d %s</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
			code, http.StatusText(code), code, http.StatusText(code))
		return
	case Delay:
		p.counts[f].Add(1)
		t := time.NewTimer(p.cfg.Delay)
		select {
		case <-r.Context().Done():
			t.Stop()
			return
		case <-t.C:
		}
	case Cut:
		p.counts[f].Add(1)
		cut(w)
		return
	case Lag:
		if out, ok := p.lagging(r.Context(), r.URL.Path, body); ok {
			p.counts[f].Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.Write(out)
			return
		}
	}
	status, hdr, out, err := p.forward(r.Context(), r.URL.Path, body)
	if err != nil {
		cut(w)
		return
	}
	if sending && p.chance(LostSend) {
		// The node has the transaction; the client never hears of it.
		p.counts[LostSend].Add(1)
		cut(w)
		return
	}
	p.forwarded.Add(1)
	for k, v := range hdr {
		if k == "Content-Type" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(status)
	w.Write(out)
}

// cut closes the client's connection without an answer.
func cut(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0) // a reset, as a dropped upstream does
			}
			c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func (p *Proxy) rateLimit(w http.ResponseWriter, body []byte, left time.Duration) {
	secs := max(1, int((left+time.Second-1)/time.Second))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	w.Header().Set("Content-Type", "application/json")
	if p.cfg.Protocol == TRON {
		if p.coin() {
			// TronGrid's answer to a key or address over its rate.
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, `{"Error":"request rate exceeded the allowed_rps(15), and the query server is suspended for %ds"}`, secs)
			return
		}
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, `{"Error":"too many requests"}`)
		return
	}
	w.WriteHeader(http.StatusTooManyRequests)
	id := json.RawMessage("null")
	var one struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &one) == nil && len(one.ID) > 0 {
		id = one.ID
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32005,"message":"request rate exceeded, retry after %ds","data":{"rate":{"backoff_seconds":%d}}}}`, id, secs, secs)
}

func (p *Proxy) forward(ctx context.Context, path string, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.target+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out, err
}

// post forwards one request and decodes its answer.
func (p *Proxy) post(ctx context.Context, path string, body any, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	status, _, raw, err := p.forward(ctx, path, b)
	if err != nil {
		return err
	}
	if status/100 != 2 {
		return fmt.Errorf("faultproxy: backend answered %d", status)
	}
	return json.Unmarshal(raw, out)
}

// isSend reports whether a request carries a transaction.
func (p *Proxy) isSend(path string, body []byte) bool {
	if p.cfg.Protocol == TRON {
		return strings.HasSuffix(path, "/broadcasttransaction") || strings.HasSuffix(path, "/broadcasthex")
	}
	calls, _, err := parseCalls(body)
	if err != nil {
		return false
	}
	for _, c := range calls {
		if c.Method == "eth_sendRawTransaction" {
			return true
		}
	}
	return false
}

var errNoLag = errors.New("not answerable as a lagging node")
