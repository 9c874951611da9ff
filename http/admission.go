package http

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// admission counts the requests being handled. Beyond the bound a request
// is refused before any work is done: under overload the service answers
// the excess with a quick 503 and keeps the latency of the requests it
// accepts, instead of letting every request wait longer and time out.
type admission struct{ n atomic.Int64 }

func (a *admission) enter(limit int) bool {
	if a.n.Add(1) > int64(limit) {
		a.n.Add(-1)
		return false
	}
	return true
}

func (a *admission) leave() { a.n.Add(-1) }

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
