package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/stablecashier/cashier/cmd/internal/measure"
)

// hooks is a cheap webhook receiver: it answers every POST with 200 and
// counts the orders of this run whose webhook arrived (each once; the
// generator creates each order number once). It does not verify
// signatures: it stands for a merchant's receiver, and the generator
// shares the service's cores, so what it spends is kept small.
type hooks struct {
	prefix []byte // this run's order numbers begin with it
	mu     sync.Mutex
	seen   map[string]bool
	srv    *http.Server
}

func startHooks(addr, prefix string) (*hooks, error) {
	h := &hooks{prefix: []byte(`"` + prefix), seen: map[string]bool{}}
	srv, err := measure.Serve(addr, h)
	if err != nil {
		return nil, fmt.Errorf("--webhooks: %w", err)
	}
	h.srv = srv
	return h, nil
}

func (h *hooks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	// The order number is the first string value starting with the
	// prefix: "orderNo":"LG…-17".
	if i := bytes.Index(body, h.prefix); i >= 0 {
		rest := body[i+1:]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			h.mu.Lock()
			h.seen[string(rest[:j])] = true
			h.mu.Unlock()
		}
	}
	w.WriteHeader(http.StatusOK)
}

func (h *hooks) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.seen)
}

// report prints how many created orders' webhooks had not arrived when the
// load ended, then waits up to drain for them and says how long that took.
func (h *hooks) report(out io.Writer, created int, drain time.Duration) {
	got := h.count()
	fmt.Fprintf(out, "webhooks: %d of %d created orders' arrived by the end, %d behind\n", got, created, max(created-got, 0))
	start := time.Now()
	for got < created && time.Since(start) < drain {
		time.Sleep(10 * time.Millisecond)
		got = h.count()
	}
	if got >= created {
		fmt.Fprintf(out, "webhooks: all arrived %s after the end\n", time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(out, "webhooks: %d still behind %s after the end\n", created-got, drain)
	}
	h.srv.Shutdown(context.Background())
}
