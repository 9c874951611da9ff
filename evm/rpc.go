package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// endpoints spreads JSON-RPC calls over several node URLs. A call that fails
// for a reason another node might not share (the transport, an HTTP error
// status such as 429 or 5xx, rate limiting, a per-call timeout) is retried on the next URL after an
// exponential, jittered pause; an answer from a node (a JSON-RPC error such
// as "execution reverted") is final and returned at once.
type endpoints struct {
	urls     []string
	clients  []*ethclient.Client
	timeout  time.Duration
	attempts int
	base     time.Duration
	max      time.Duration

	mu        sync.Mutex
	preferred int // index of the URL that answered last
}

func dialEndpoints(urls []string, timeout time.Duration, attempts int, base, max time.Duration) (*endpoints, error) {
	if len(urls) == 0 {
		return nil, errors.New("evm: no RPC URL configured")
	}
	e := &endpoints{urls: urls, timeout: timeout, attempts: attempts, base: base, max: max}
	for _, u := range urls {
		// Dialing HTTP does not connect, so a node that is down now does not
		// keep the service from starting.
		c, err := rpc.DialOptions(context.Background(), u)
		if err != nil {
			e.close()
			return nil, fmt.Errorf("evm: RPC URL %s: %w", redact(u), err)
		}
		e.clients = append(e.clients, ethclient.NewClient(c))
	}
	return e, nil
}

func (e *endpoints) close() {
	for _, c := range e.clients {
		c.Close()
	}
}

// do runs fn against one node after another until it succeeds, fails with a
// final error, or the attempts are used up. fn must be safe to repeat: every
// read is, and so is broadcasting a signed transaction (a node that already
// has it answers "already known", which the sender treats as success).
func (e *endpoints) do(ctx context.Context, fn func(ctx context.Context, c *ethclient.Client) error) error {
	e.mu.Lock()
	i := e.preferred
	e.mu.Unlock()
	var err error
	for attempt := 0; attempt < e.attempts; attempt++ {
		if attempt > 0 {
			if werr := sleep(ctx, e.backoff(attempt)); werr != nil {
				return fmt.Errorf("%w (last error: %v)", werr, err)
			}
		}
		idx := (i + attempt) % len(e.clients)
		callCtx, cancel := context.WithTimeout(ctx, e.timeout)
		err = fn(callCtx, e.clients[idx])
		timedOut := callCtx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			e.mu.Lock()
			e.preferred = idx
			e.mu.Unlock()
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		if !timedOut && !retryable(err) {
			return err
		}
		err = fmt.Errorf("%s: %w", redact(e.urls[idx]), err)
	}
	return fmt.Errorf("evm: all RPC attempts failed: %w", err)
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
	if errors.Is(err, ErrBehind) {
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
