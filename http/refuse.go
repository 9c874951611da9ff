package http

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/stablecashier/cashier/shed"
)

// refuse answers an overload refusal: 503, Retry-After (retry, at least
// one second), the trace and the security headers like every answer, but
// no log line of its own; refusals are counted and logged at most once a
// second.
func (s *server) refuse(w http.ResponseWriter, r *http.Request, err error, retry time.Duration) {
	ri := &reqInfo{trace: newTrace(), family: familyOf(r.URL.Path)}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, ri))
	h := w.Header()
	h.Set("X-Request-Id", ri.trace)
	h.Set("Retry-After", strconv.Itoa(int(shed.RoundUp(retry)/time.Second)))
	setSecurityHeaders(h)
	s.error(w, r, err)
	s.refusals.Note(s.log, s.clock.Now())
}
