package http

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// admission counts the requests being handled. Beyond the limit a request
// is refused before any work is done: under overload the service answers
// the excess with a quick 503 and keeps the latency of the requests it
// accepts, instead of letting every request wait longer and time out.
//
// Under sustained overload the requests in progress sit at the limit, so
// by Little's law an accepted request takes limit / throughput: 64 at
// 2,000/s is 32 ms whatever else is done. The limit therefore adapts to
// the queueing it causes: every interval it compares the mean time in
// service of the write requests (POST) that finished with the fastest seen
// lately (what a request costs with nothing ahead of it, commit included,
// so a slow disk is not mistaken for a queue). More than maxWait above it:
// the limit shrinks by an eighth (at least one); otherwise, if requests
// were refused for the limit, it grows by a sixteenth (at least one), up
// to the configured bound.
type admission struct {
	n       atomic.Int64
	limit   atomic.Int64 // current limit; 0 until the first request: the bound
	refused atomic.Bool  // a request was refused for the limit this interval

	mu       sync.Mutex // the interval's figures
	winStart time.Time
	sum      time.Duration
	count    int
	fastest  [2]time.Duration // this and the previous base window
	baseAt   time.Time
}

const (
	admitInterval = 100 * time.Millisecond
	admitBaseSpan = 5 * time.Second // the fastest request is forgotten after 5–10 s
	// admitFloor: never fewer in progress, so group commit has company.
	// Measured on one core (README, "Order creation under load"): at 16,
	// an overload's accepted creates took p99 30–50 % longer than at the
	// sustainable rate (16 in progress / throughput); at 8 about as long;
	// at 4 as long too, but with about a tenth less throughput.
	admitFloor = 8
)

func (a *admission) enter(bound int) bool {
	limit := a.limit.Load()
	if limit == 0 {
		limit = int64(bound)
	}
	if a.n.Add(1) > limit {
		a.n.Add(-1)
		if !a.refused.Load() {
			a.refused.Store(true)
		}
		return false
	}
	return true
}

func (a *admission) leave() { a.n.Add(-1) }

// observe records a finished write request's time in service d at now, and
// adapts the limit at the end of each interval. maxWait <= 0 keeps the
// bound fixed.
func (a *admission) observe(d time.Duration, now time.Time, bound int, maxWait time.Duration) {
	if maxWait <= 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sum += d
	a.count++
	if a.fastest[0] == 0 || d < a.fastest[0] {
		a.fastest[0] = d
	}
	if now.Sub(a.baseAt) >= admitBaseSpan {
		a.fastest = [2]time.Duration{d, a.fastest[0]}
		a.baseAt = now
	}
	if a.winStart.IsZero() {
		a.winStart = now
	}
	if now.Sub(a.winStart) < admitInterval {
		return
	}
	base := a.fastest[0]
	if a.fastest[1] > 0 && a.fastest[1] < base {
		base = a.fastest[1]
	}
	limit := a.limit.Load()
	if limit == 0 {
		limit = int64(bound)
	}
	floor := min(int64(admitFloor), int64(bound))
	switch mean := a.sum / time.Duration(a.count); {
	case mean-base > maxWait:
		limit = max(floor, limit-max(1, limit/8))
	case a.refused.Load():
		limit = min(int64(bound), limit+max(1, limit/16))
	}
	a.limit.Store(limit)
	a.refused.Store(false)
	a.winStart, a.sum, a.count = now, 0, 0
}

// errInFlight refuses a request beyond the in-flight limit (which may be
// below MaxInFlight, so the message names no number).
var errInFlight = cashier.Errorf(cashier.EOverloaded, "the service is busy: it is handling all the requests it admits; retry shortly")

// errWritesBusy refuses a write request up front when the store's writer
// is further behind than it admits (sqlite's Options.MaxWriteWait). Built
// once: under overload it is answered thousands of times a second.
var errWritesBusy = cashier.Errorf(cashier.EOverloaded, "the service is busy: writes are waiting longer than it admits; retry shortly")

// refuse answers an overload refusal: 503, Retry-After, the trace and the
// security headers like every answer, but no body read and no log line of
// its own; refusals are counted and logged at most once a second.
func (s *server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	ri := &reqInfo{trace: newTrace(), family: familyOf(r.URL.Path)}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, ri))
	h := w.Header()
	h.Set("X-Request-Id", ri.trace)
	setSecurityHeaders(h)
	s.error(w, r, err)
	s.refusals.note(s.log, s.clock.Now())
}

// refusalLog counts overload refusals and reports them in one warning a
// second at most: thousands of log lines a second would cost the CPU the
// refusals are meant to save and flood the log when it matters.
type refusalLog struct {
	n    atomic.Int64
	last atomic.Int64 // unix ns of the last warning
}

func (l *refusalLog) note(log *slog.Logger, now time.Time) {
	l.n.Add(1)
	last := l.last.Load()
	if now.UnixNano()-last < int64(time.Second) || !l.last.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	log.Warn("overloaded: requests refused with 503", "refused", l.n.Swap(0))
}
