package http

import "sync/atomic"

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
