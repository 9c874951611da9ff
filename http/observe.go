package http

import (
	"net/http"
	"time"
)

// maxRequestIDLen bounds an incoming X-Request-Id kept for the logs.
const maxRequestIDLen = 128

// requestID is the caller's X-Request-Id when it is a plausible id (1 to
// 128 characters of letters, digits and ._:/+=-), so a proxy's or client's
// id follows the request into the logs; otherwise the generated trace id.
// A malformed id is not an error: the request is served under a fresh one.
func requestID(r *http.Request, trace string) string {
	id := r.Header.Get("X-Request-Id")
	if id == "" || len(id) > maxRequestIDLen {
		return trace
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '/' || c == '+' || c == '=' || c == '-') {
			return trace
		}
	}
	return id
}

// observe reports a served request to Config.Observe under its route
// pattern ("unmatched" for a path no route serves).
func (s *server) observe(r *http.Request, status int, d time.Duration) {
	if s.cfg.Observe == nil {
		return
	}
	_, pattern := s.mux.Handler(r)
	if s.routes[pattern] == nil {
		pattern = "unmatched"
	}
	if status == 0 {
		status = http.StatusOK
	}
	s.cfg.Observe(pattern, status, d)
}
