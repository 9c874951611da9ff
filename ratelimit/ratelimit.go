// Package ratelimit counts requests in fixed one-minute windows aligned to
// the minute, so every client sees the same reset instant (a Unix-seconds
// minute boundary) and the X-RateLimit-Reset header is easy to reason about.
//
// Counters live in process memory. Several instances behind one load
// balancer share a limit by each enforcing its share of it (Share, the
// number of live instances): no database round trip per request, at the
// cost of precision when the balancer spreads one client unevenly. Memory
// is bounded: all counters belong to the current window and are dropped when
// the minute turns, and at most MaxKeys distinct keys are tracked within one
// window; keys beyond that share one overflow counter per rule.
// Authenticated checks (buckets of proven merchants) have their own table
// with its own bound, so anonymous traffic filling its table can never push
// a merchant's counters into a shared overflow.
package ratelimit

import (
	"crypto/sha256"
	"net/netip"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
)

// Window is the length of a rate-limit window.
const Window = time.Minute

// DefaultMaxKeys bounds the number of counters held in one window.
const DefaultMaxKeys = 100_000

// Check is one limit that applies to a request: a rule name ("key", "ip",
// "endpoint"), the bucket within the rule (an API key, an IP address, ...)
// and the number of requests the bucket may make per window. A Limit of zero
// or less disables the check.
type Check struct {
	Rule   string
	Bucket string
	Limit  int
	// Authenticated marks a bucket of a proven caller: it is counted in a
	// table anonymous buckets cannot fill.
	Authenticated bool
}

// Result is the outcome of Allow for the most constraining applicable check:
// the one that refused the request, or else the one with the fewest
// requests remaining.
type Result struct {
	Allowed   bool
	Rule      string
	Limit     int
	Remaining int
	Reset     time.Time // end of the current window
	// Overflow reports a refusal by the shared overflow counter of a full
	// anonymous table rather than by the caller's own bucket.
	Overflow bool
}

// RetryAfter is how long a refused client should wait, rounded up to whole
// seconds and at least one.
func (r Result) RetryAfter(now time.Time) time.Duration {
	secs := (r.Reset.Sub(now) + time.Second - 1) / time.Second
	return max(secs, 1) * time.Second
}

// Limiter counts requests. It is safe for concurrent use.
type Limiter struct {
	clock   cashier.Clock
	maxKeys int

	// Share, when set, returns the number of instances the limits are
	// shared among; each check then allows ceil(Limit/Share) requests
	// here, and Remaining is reported scaled back to the whole limit.
	Share func() int

	mu     sync.Mutex
	window time.Time // start of the window the counters belong to
	counts map[counterKey]int
	auth   map[counterKey]int // authenticated buckets, bounded separately
}

type counterKey struct{ rule, bucket string }

// overflowBucket is where keys beyond MaxKeys are counted together.
const overflowBucket = "\x00overflow"

// maxBucketLen bounds the bucket text a counter keeps. Buckets come from
// request headers (an API key can be up to the server's header limit, a
// megabyte), so a longer one is kept as its SHA-256 digest: distinct
// buckets still count apart, and MaxKeys bounds the memory in bytes too.
const maxBucketLen = 128

func bucketKey(rule, bucket string) counterKey {
	if len(bucket) > maxBucketLen {
		sum := sha256.Sum256([]byte(bucket))
		bucket = "\x00sha256:" + string(sum[:])
	}
	return counterKey{rule, bucket}
}

// New returns a Limiter reading time from clock and tracking at most maxKeys
// counters per window (DefaultMaxKeys when maxKeys <= 0).
func New(clock cashier.Clock, maxKeys int) *Limiter {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	return &Limiter{clock: clock, maxKeys: maxKeys, counts: map[counterKey]int{}, auth: map[counterKey]int{}}
}

// Allow counts one request against every check, all or nothing: when any
// check is exhausted, no counter moves, so a refused request consumes
// nothing. With no enabled check the result is allowed with Limit 0.
func (l *Limiter) Allow(checks ...Check) Result {
	now := l.clock.Now()
	start := now.Truncate(Window)
	share := 1
	if l.Share != nil {
		share = max(l.Share(), 1)
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	if !start.Equal(l.window) {
		// A new window (or a clock set backwards): old counters are dead.
		l.window = start
		clear(l.counts)
		clear(l.auth)
	}
	reset := start.Add(Window)

	keys := make([]counterKey, len(checks))
	best := Result{Allowed: true, Reset: reset, Remaining: -1}
	for i, c := range checks {
		if c.Limit <= 0 {
			continue
		}
		table := l.table(c)
		k := bucketKey(c.Rule, c.Bucket)
		if _, ok := table[k]; !ok && len(table) >= l.maxKeys {
			k.bucket = overflowBucket
		}
		keys[i] = k
		used, limit := table[k], (c.Limit+share-1)/share
		if used >= limit {
			return Result{Allowed: false, Rule: c.Rule, Limit: c.Limit, Remaining: 0, Reset: reset, Overflow: k.bucket == overflowBucket}
		}
		remaining := min((limit-used-1)*share, c.Limit-1)
		if best.Remaining < 0 || remaining < best.Remaining {
			best = Result{Allowed: true, Rule: c.Rule, Limit: c.Limit, Remaining: remaining, Reset: reset}
		}
	}
	for i, c := range checks {
		if c.Limit > 0 {
			l.table(c)[keys[i]]++
		}
	}
	if best.Remaining < 0 {
		best.Remaining = 0
	}
	return best
}

func (l *Limiter) table(c Check) map[counterKey]int {
	if c.Authenticated {
		return l.auth
	}
	return l.counts
}

// Len is the number of counters held, for tests and metrics.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.counts) + len(l.auth)
}

// IPBucket is the per-IP bucket of a client address: the address itself
// for IPv4, its /v6Prefix network for IPv6. One subscriber usually holds a
// whole /64, so counting per address would let it escape a per-IP limit by
// rotating addresses. The API and the dashboard count clients the same way.
func IPBucket(a netip.Addr, v6Prefix int) string {
	if a.Is6() && !a.Is4In6() {
		if p, err := a.Prefix(v6Prefix); err == nil {
			return p.String()
		}
	}
	return a.String()
}
