package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	cashier "github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// endpoints spreads JSON-RPC calls over several node URLs. A call that fails
// for a reason another node might not share (the transport, an HTTP error
// status such as 429 or 5xx, rate limiting, a per-call timeout) is retried on the next URL after an
// exponential, jittered pause; an answer from a node (a JSON-RPC error such
// as "execution reverted") is final and returned at once.
type endpoints struct {
	chainID  *big.Int // every node must serve it (eth_chainId), checked before first use
	urls     []string
	clients  []*ethclient.Client // nil for a WebSocket URL not yet connected (conn)
	dialMu   []sync.Mutex
	nodes    []*nodes.Node
	timeout  time.Duration
	attempts int
	base     time.Duration
	max      time.Duration

	mu        sync.Mutex
	preferred int // index of the URL that answered last
}

func dialEndpoints(chain cashier.Chain, chainID *big.Int, urls []string, timeout time.Duration, attempts int, base, max time.Duration) (*endpoints, error) {
	if len(urls) == 0 {
		return nil, errors.New("evm: no RPC URL configured")
	}
	e := &endpoints{chainID: chainID, urls: urls, timeout: timeout, attempts: attempts, base: base, max: max,
		dialMu: make([]sync.Mutex, len(urls))}
	for _, u := range urls {
		n := nodes.For(chain, u)
		e.nodes = append(e.nodes, n)
		if isWebSocket(u) {
			// Dialing a WebSocket connects; it waits for the first call
			// (conn), so a node that is down now does not keep the service
			// from starting.
			e.clients = append(e.clients, nil)
			continue
		}
		// Dialing HTTP does not connect.
		c, err := rpc.DialOptions(context.Background(), u,
			rpc.WithHTTPClient(&http.Client{Transport: pauseTransport{node: n, base: http.DefaultTransport}}))
		if err != nil {
			e.close()
			return nil, fmt.Errorf("evm: RPC URL %s: %w", redact(u), err)
		}
		e.clients = append(e.clients, ethclient.NewClient(c))
	}
	return e, nil
}

// isWebSocket reports a ws:// or wss:// URL.
func isWebSocket(u string) bool {
	u = strings.ToLower(u)
	return strings.HasPrefix(u, "ws://") || strings.HasPrefix(u, "wss://")
}

// conn returns node i's client, connecting a WebSocket URL on first use.
// A connection that breaks later is made again by the RPC client itself on
// the next call.
func (e *endpoints) conn(ctx context.Context, i int) (*ethclient.Client, error) {
	e.dialMu[i].Lock()
	defer e.dialMu[i].Unlock()
	if c := e.clients[i]; c != nil {
		return c, nil
	}
	rc, err := rpc.DialContext(ctx, e.urls[i])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errDial, err)
	}
	e.clients[i] = ethclient.NewClient(rc)
	return e.clients[i], nil
}

// pauseTransport records the pause a provider asks for with Retry-After
// (429, or a 503 that says how long) on the node's shared record.
type pauseTransport struct {
	node *nodes.Node
	base http.RoundTripper
}

func (t pauseTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		d := nodes.RetryAfter(resp.Header.Get("Retry-After"), time.Now())
		if d == 0 && resp.StatusCode == http.StatusTooManyRequests {
			d = time.Second // rate limited without saying for how long
		}
		t.node.Pause(d, resp.Status)
	}
	return resp, err
}

func (e *endpoints) close() {
	for i := range e.clients {
		e.dialMu[i].Lock()
		if c := e.clients[i]; c != nil {
			c.Close()
		}
		e.dialMu[i].Unlock()
	}
}

// pick returns the first node from start on that is usable now: not on
// the wrong chain and not paused by its provider. When every usable node
// is paused it waits for the first pause to end: a provider that asked
// for a pause is never asked again before it ends.
func (e *endpoints) pick(ctx context.Context, start int) (int, error) {
	for {
		now := time.Now()
		best, bestAt := -1, time.Time{}
		for k := range e.nodes {
			i := (start + k) % len(e.nodes)
			n := e.nodes[i]
			if n.WrongChain() != "" {
				continue
			}
			until := n.PausedUntil(now)
			if until.IsZero() {
				return i, nil
			}
			if best < 0 || until.Before(bestAt) {
				best, bestAt = i, until
			}
		}
		if best < 0 {
			return 0, fmt.Errorf("evm: every RPC URL serves another chain: %s", e.nodes[0].WrongChain())
		}
		if err := sleep(ctx, bestAt.Sub(now)); err != nil {
			return 0, err
		}
	}
}

// do runs fn against one node after another until it succeeds, fails with a
// final error, or the attempts are used up. fn must be safe to repeat: every
// read is, and so is broadcasting a signed transaction (a node that already
// has it answers "already known", which the sender treats as success).
func (e *endpoints) do(ctx context.Context, fn func(ctx context.Context, c *ethclient.Client) error) error {
	e.mu.Lock()
	next := e.preferred
	e.mu.Unlock()
	var err error
	for attempt := 0; attempt < e.attempts; attempt++ {
		if attempt > 0 {
			if werr := sleep(ctx, e.backoff(attempt)); werr != nil {
				return fmt.Errorf("%w (last error: %v)", werr, err)
			}
		}
		idx, perr := e.pick(ctx, next)
		if perr != nil {
			if err != nil {
				return fmt.Errorf("%w (last error: %v)", perr, err)
			}
			return perr
		}
		node := e.nodes[idx]
		callCtx, cancel := context.WithTimeout(ctx, e.timeout)
		err = nil
		if !node.Checked() {
			err = e.checkNode(callCtx, idx)
		}
		if err == nil {
			var c *ethclient.Client
			if c, err = e.conn(callCtx, idx); err == nil {
				err = fn(callCtx, c)
			}
		}
		err = nodes.HideURL(err, e.urls[idx])
		timedOut := callCtx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			node.Succeeded()
			e.mu.Lock()
			e.preferred = idx
			e.mu.Unlock()
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		if !timedOut && !retryable(err) {
			node.Succeeded() // the node answered; the call failed
			return err
		}
		if d := askedPause(err); d > 0 {
			node.Pause(d, err.Error())
		} else if !rateLimited(err) {
			node.Failed(err) // a pause asked for is no failure of the node
		}
		next = idx + 1
		err = fmt.Errorf("%s: %w", redact(e.urls[idx]), err)
	}
	return fmt.Errorf("evm: all RPC attempts failed: %w", err)
}

// errWrongChain: the node serves another chain; it is refused, the call
// goes to another node.
var errWrongChain = errors.New("node serves another chain")

// errDial: a WebSocket connection could not be made; another node, or the
// same one later, may answer.
var errDial = errors.New("connecting failed")

// checkNode asks node i for its chain id and records the verdict; a
// wrong one is errWrongChain.
func (e *endpoints) checkNode(ctx context.Context, i int) error {
	c, err := e.conn(ctx, i)
	if err != nil {
		return err
	}
	id, err := c.ChainID(ctx)
	if err != nil {
		return err
	}
	if id.Cmp(e.chainID) != 0 {
		msg := fmt.Sprintf("eth_chainId is %s, the registry's network has %s", id, e.chainID)
		e.nodes[i].SetWrongChain(msg)
		return fmt.Errorf("%w: %s", errWrongChain, msg)
	}
	e.nodes[i].SetWrongChain("")
	return nil
}

// CheckNodes asks every node for its chain id at once and reports the
// nodes on another chain (refused from then on) and the ones that could
// not be asked. The service runs it at start and for /readyz.
func (c *Client) CheckNodes(ctx context.Context) []nodes.Check {
	return c.rpc.checkAll(ctx)
}

func (e *endpoints) checkAll(ctx context.Context) []nodes.Check {
	out := make([]nodes.Check, len(e.nodes))
	var wg sync.WaitGroup
	for i := range e.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, e.timeout)
			defer cancel()
			err := e.checkNode(cctx, i)
			if err != nil && !errors.Is(err, errWrongChain) {
				e.nodes[i].Failed(err)
			}
			out[i] = nodes.Check{URL: e.nodes[i].Name(), Err: err}
		}()
	}
	wg.Wait()
	return out
}

// rateLimited reports an HTTP 429.
func rateLimited(err error) bool {
	var httpErr rpc.HTTPError
	return errors.As(err, &httpErr) && httpErr.StatusCode == http.StatusTooManyRequests
}

// askedPause reads the pause a JSON-RPC -32005 "limit exceeded" answer
// asks for (Infura: data.rate.backoff_seconds), one second when it does
// not say.
func askedPause(err error) time.Duration {
	var rpcErr rpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.ErrorCode() != -32005 {
		return 0
	}
	var de rpc.DataError
	if errors.As(err, &de) {
		if m, ok := de.ErrorData().(map[string]any); ok {
			if r, ok := m["rate"].(map[string]any); ok {
				if s, ok := r["backoff_seconds"].(float64); ok && s > 0 {
					return min(time.Duration(s*float64(time.Second)), 10*time.Minute)
				}
			}
		}
	}
	return time.Second
}

// backoff is full jitter over an exponentially growing window.
func (e *endpoints) backoff(attempt int) time.Duration {
	w := e.base << (attempt - 1)
	if w <= 0 || w > e.max {
		w = e.max
	}
	return time.Duration(rand.Int64N(int64(w)) + 1)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryable reports whether err is a failure of the way to a node rather
// than a node's answer to the call.
func retryable(err error) bool {
	if errors.Is(err, ErrBehind) || errors.Is(err, errWrongChain) || errors.Is(err, errDial) {
		return true // another node, or the same one later, has the block
	}
	var httpErr rpc.HTTPError
	if errors.As(err, &httpErr) {
		// Any status but 2xx comes from the endpoint, not the call: rate
		// limiting, a 5xx, or a key the provider no longer accepts.
		return true
	}
	var rpcErr rpc.Error
	if errors.As(err, &rpcErr) {
		// -32005 is the common "limit exceeded" code of hosted nodes; some
		// providers answer rate limiting with a message instead.
		if rpcErr.ErrorCode() == -32005 {
			return true
		}
		msg := strings.ToLower(rpcErr.Error())
		return strings.Contains(msg, "rate limit") || strings.Contains(msg, "too many requests")
	}
	var netErr net.Error
	var urlErr *url.Error
	var synErr *json.SyntaxError // a cut-off or garbled answer: the path, not the call
	return errors.As(err, &netErr) || errors.As(err, &urlErr) || errors.As(err, &synErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded)
}

// redact drops credentials and path (hosted nodes put API keys there) from
// a URL before it appears in an error.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "rpc"
	}
	return u.Scheme + "://" + u.Host
}

// Nodes reports the health of this client's node URLs (the service's
// network state and /readyz read it).
func (c *Client) Nodes() []nodes.State {
	now := time.Now()
	out := make([]nodes.State, len(c.rpc.nodes))
	for i, n := range c.rpc.nodes {
		out[i] = n.State(now)
	}
	return out
}
