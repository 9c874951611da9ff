package shed

import (
	"bytes"
	"hash/maphash"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// Admission decides at the door, before any work, whether a request is
// served. Every request counts against MaxInFlight, a hard bound on the
// work held in memory. A write request (POST) is refused only when the
// wait it would meet exceeds MaxWait: the write requests ahead of it
// times the time one takes at the service's measured capacity (time busy
// with writes / writes answered). Clients that send their next request
// when the last is answered are at most as many as they are, so their
// queue is bounded by themselves and the service serves them all at its
// capacity; only a load that outgrows the bound (an open-loop overload,
// or thousands of clients) is refused, and the refused are the excess.
//
// A refused write books a place: the same request (same API key, path and
// orderNo) sent again once its Retry-After has passed is admitted whatever
// the wait (sooner, only if there is room), so a client that honours Retry-After is served on its next
// try (Retry-After is one second). A client that sends the same request
// again sooner, while there is no room, is held (no CPU, no slot) until
// its place is due and then served: refusing it again would only have it
// spin.
type Admission struct {
	n atomic.Int64 // requests in progress, all kinds

	mu       sync.Mutex
	writes   int           // write requests admitted and not answered
	last     time.Time     // when writes last changed
	busy     time.Duration // time with writes > 0 since the last estimate
	done     int           // writes answered since the last estimate
	perWrite time.Duration // time per write at capacity; 0 until measured
	tickets  map[uint64]time.Time
	expiry   []booking // tickets in booking order, to forget the unused
}

// booking is a ticket and when it lapses.
type booking struct {
	id    uint64
	until time.Time
}

const (
	// MinWritesAhead writes ahead are always admitted, whatever the
	// estimate: group commit needs company, and on a machine starved by
	// other processes every write looks slow (sqlstore.MinWritesAhead).
	MinWritesAhead = 16
	// admitSpan is the busy time an estimate of the time per write
	// averages over (and the estimate moves a quarter of the way to each):
	// long enough to hold many group commits and ride out the moments a
	// shared machine takes the CPU away, short enough to follow a change
	// of load within a second or so.
	admitSpan = 250 * time.Millisecond
	// ticketGrace is how long after its Retry-After a booked place waits
	// for its request; ticketEarly how early it may come (clocks and
	// rounding).
	ticketGrace = 30 * time.Second
	ticketEarly = 50 * time.Millisecond
	// maxTickets bounds the places booked; beyond, a refusal books none.
	maxTickets = 1 << 16
)

func (a *Admission) Enter(bound int) bool {
	if a.n.Add(1) > int64(bound) {
		a.n.Add(-1)
		return false
	}
	return true
}

func (a *Admission) Leave() { a.n.Add(-1) }

// tick accounts the time since the last change of writes.
func (a *Admission) tick(now time.Time) {
	if a.writes > 0 && now.After(a.last) {
		a.busy += now.Sub(a.last)
	}
	a.last = now
}

// wait is the queueing a write admitted now would meet.
func (a *Admission) wait() time.Duration { return time.Duration(a.writes) * a.perWrite }

// AdmitWrite decides on the write request id arriving at now. refuse
// asks that it be refused for another reason (the CPU or the store's
// writer is behind) unless it holds a place. Admitted, the caller must
// call WriteDone when it is answered; ticketed reports that it came with
// a booked place. Refused, retry is its Retry-After; or, when it holds a
// place but came back before its Retry-After while there is no room,
// hold is how long to keep it before asking again (its place is then
// due): a client that resends at once would otherwise spin on refusals,
// spending on them the CPU the creates need, so it is made to wait as it
// was told, at the cost of a timer.
func (a *Admission) AdmitWrite(now time.Time, id uint64, maxWait time.Duration, refuse bool) (ok, ticketed bool, retry, hold time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tick(now)
	busy := refuse || (maxWait > 0 && a.writes >= MinWritesAhead && a.wait() > maxWait)
	if at, held := a.tickets[id]; held {
		switch {
		case !now.Before(at.Add(-ticketEarly)):
			ticketed = true
		case busy:
			return false, false, 0, at.Sub(now) // too early: the place stays
		}
		delete(a.tickets, id) // used, or not needed: there is room
		a.writes++
		return true, ticketed, 0, 0
	}
	if busy {
		return false, false, a.book(now, id), 0
	}
	a.writes++
	return true, false, 0, 0
}

// book records a place for id and returns its Retry-After, one second:
// the shortest HTTP can say. Spreading the returns over later seconds by
// the measured capacity was tried: a moment's slow estimate on a busy
// machine sent clients away for up to ten seconds while the service
// idled; returns admitted together cost a moment's longer queue instead.
func (a *Admission) book(now time.Time, id uint64) time.Duration {
	for len(a.expiry) > 0 && !now.Before(a.expiry[0].until) {
		if b := a.expiry[0]; !a.tickets[b.id].Add(ticketGrace).After(now) {
			delete(a.tickets, b.id) // not taken up (or rebooked later: kept)
		}
		a.expiry = a.expiry[1:]
	}
	retry := time.Second
	if len(a.tickets) >= maxTickets {
		return retry
	}
	if a.tickets == nil {
		a.tickets = map[uint64]time.Time{}
	}
	a.tickets[id] = now.Add(retry)
	a.expiry = append(a.expiry, booking{id, now.Add(retry + ticketGrace)})
	return retry
}

// WriteDone records an admitted write answered at now, and renews the
// estimate of the time per write once enough busy time has passed.
func (a *Admission) WriteDone(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tick(now)
	a.writes--
	a.done++
	// The first estimate comes early: until there is one, nothing is
	// refused for the wait, and a load arriving on a cold service must
	// not queue unbounded meanwhile.
	if a.busy < admitSpan && (a.perWrite > 0 || a.done < 2*MinWritesAhead || a.busy <= 0) {
		return
	}
	sample := a.busy / time.Duration(a.done)
	if a.perWrite == 0 {
		a.perWrite = sample
	} else {
		a.perWrite += (sample - a.perWrite) / 4
	}
	a.busy, a.done = 0, 0
}

// BookRefused books a place for write id, admitted at the door but then
// refused by the store's writer (its queue or wait bound), and returns its
// Retry-After: the promise holds for it too.
func (a *Admission) BookRefused(now time.Time, id uint64) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.book(now, id)
}

// RoundUp is d in whole seconds, at least one (Retry-After's unit).
func RoundUp(d time.Duration) time.Duration {
	return max(time.Second, (d+time.Second-1)/time.Second*time.Second)
}

// WriteID names a write request for its booked place: its API key, path
// and orderNo, which a retry repeats (its time, signature and any sign
// field change); the whole body when it has no orderNo.
func WriteID(seed maphash.Seed, r *http.Request, apiKeyHeader string, body []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(r.Header.Get(apiKeyHeader))
	h.WriteByte(0)
	h.WriteString(r.URL.Path)
	h.WriteByte(0)
	if no, ok := orderNoOf(body); ok {
		h.Write(no)
	} else {
		h.Write(body)
	}
	return h.Sum64()
}

// orderNoOf finds the orderNo string in a JSON body without decoding it:
// a refusal must cost far less than a create.
func orderNoOf(body []byte) ([]byte, bool) {
	i := bytes.Index(body, []byte(`"orderNo"`))
	if i < 0 {
		return nil, false
	}
	rest := bytes.TrimLeft(body[i+len(`"orderNo"`):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return nil, false
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(rest[1:], '"')
	if end < 0 {
		return nil, false
	}
	return rest[1 : 1+end], true
}

// ErrInFlight refuses a request beyond MaxInFlight.
var ErrInFlight = cashier.Errorf(cashier.EOverloaded, "the service is busy: it is handling all the requests it admits; retry shortly")

// ErrWaitTooLong refuses a write that would wait longer than MaxWait.
// Built once: under overload it is answered thousands of times a second.
var ErrWaitTooLong = cashier.Errorf(cashier.EOverloaded, "the service is busy: the wait would exceed what it admits; retry after the time in Retry-After")

// ErrWritesBusy refuses a write request up front when the store's writer
// is further behind than it admits (sqlite's Options.MaxWriteWait).
var ErrWritesBusy = cashier.Errorf(cashier.EOverloaded, "the service is busy: writes are waiting longer than it admits; retry shortly")

// RefusalLog counts overload refusals and reports them in one warning a
// second at most: thousands of log lines a second would cost the CPU the
// refusals are meant to save and flood the log when it matters.
type RefusalLog struct {
	n    atomic.Int64
	last atomic.Int64 // unix ns of the last warning
}

func (l *RefusalLog) Note(log *slog.Logger, now time.Time) {
	l.n.Add(1)
	last := l.last.Load()
	if now.UnixNano()-last < int64(time.Second) || !l.last.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	log.Warn("overloaded: requests refused with 503", "refused", l.n.Swap(0))
}
