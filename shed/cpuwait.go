package shed

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// CPUWait watches how long this process's goroutines wait for a CPU once
// runnable (the runtime's scheduling-latency histogram). When the machine
// cannot keep up, requests queue before the service has even read them —
// in the connections' receive buffers, behind goroutines waiting for a
// CPU — where neither the in-flight limit nor the writer's wait sees them:
// every request read looks fast, while clients wait seconds. Refusing at
// the door while the 90th percentile of that wait (over the last 10 ms)
// exceeds max-cpu-wait drains such a backlog at the cost of a refusal (a
// small fraction of a create), and admits again as soon as the CPU
// catches up. (Lower thresholds refused more of a load the service could
// still carry; see docs/decisions.md.)
//
// A long CPU wait alone is not such a backlog: clients that send their
// next request when the last is answered hold at most one request each,
// so their backlog is bounded by their number and the wait bound governs
// it, while a scheduling stall (another process taking the CPU, a group
// commit waking dozens of goroutines at once) lengthens the wait for a
// moment; refusing them sends each client away for a second of
// Retry-After and halves the throughput. So the CPU wait refuses only
// while the demand outruns the service (demand below): new requests keep
// arriving beyond those it serves, holds, and drains within max-wait, as
// an open-loop overload does whether or not it is refused.
type CPUWait struct {
	last     atomic.Int64 // unix ns of the last reading
	busy     atomic.Bool
	outrun   atomic.Bool  // the demand outran the service at the last reading
	arrivals atomic.Int64 // requests since the last reading
	returns  atomic.Int64 // of them, writes coming back for a booked place
	served   atomic.Int64 // requests admitted and answered since the last reading

	mu     sync.Mutex // one reader at a time
	sample []metrics.Sample
	prev   []uint64
	demand demand
}

// cpuWaitEvery is how often the histogram is read: often enough to follow
// a backlog that forms within tens of milliseconds, rarely enough to cost
// nothing measurable.
const cpuWaitEvery = 10 * time.Millisecond

// cpuWaitMinSamples is the fewest goroutine wake-ups in a reading that
// can mean saturation: a lightly used service on a machine busy with other
// work sees a few slow wake-ups, and must not turn its callers away.
const cpuWaitMinSamples = 10

// cpuWaitMinArrivals is the fewest requests between two readings (10 ms:
// 1,000 requests/s) for the CPU wait to count as caused by requests.
const cpuWaitMinArrivals = 10

// ErrCPUBusy refuses a request while goroutines wait too long for a CPU.
var ErrCPUBusy = cashier.Errorf(cashier.EOverloaded, "the service is busy: it cannot keep up with the requests arriving; retry shortly")

// Saturated reports whether the CPU wait was beyond limit, with the demand
// outrunning the service, at the last reading, reading again when that is
// older than cpuWaitEvery. maxWait is the wait bound of the admission and
// held the requests in progress now. Only one caller reads at a time; the
// others use the last answer.
func (c *CPUWait) Saturated(now time.Time, limit, maxWait time.Duration, held int64) bool {
	c.arrivals.Add(1)
	if now.UnixNano()-c.last.Load() >= int64(cpuWaitEvery) && c.mu.TryLock() {
		if now.UnixNano()-c.last.Load() >= int64(cpuWaitEvery) {
			c.read(now, limit, maxWait, held)
			c.last.Store(now.UnixNano())
		}
		c.mu.Unlock()
	}
	return c.busy.Load()
}

// Overrun reports whether the demand outran the service at the last
// reading: an open-loop overload, whose excess is refused whatever the
// wait bound admits.
func (c *CPUWait) Overrun() bool { return c.outrun.Load() }

// Returning counts a write request coming back for its booked place: it
// is not new demand (its first try was).
func (c *CPUWait) Returning() { c.returns.Add(1) }

// Answered counts a request admitted and answered.
func (c *CPUWait) Answered() { c.served.Add(1) }

func (c *CPUWait) read(now time.Time, limit, maxWait time.Duration, held int64) {
	if c.sample == nil {
		c.sample = []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	}
	metrics.Read(c.sample)
	if c.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return
	}
	h := c.sample[0].Value.Float64Histogram()
	r := cpuReading{at: now, arrivals: c.arrivals.Swap(0), returns: c.returns.Swap(0), served: c.served.Swap(0), held: held}
	if len(c.prev) == len(h.Counts) {
		r.p90, r.samples = p90(h.Counts, c.prev, h.Buckets)
		r.measured = true
	}
	busy, outrun := c.judge(r, limit, maxWait)
	c.busy.Store(busy)
	c.outrun.Store(outrun)
	c.prev = append(c.prev[:0], h.Counts...)
}

// cpuReading is what one reading saw since the one before.
type cpuReading struct {
	at       time.Time
	measured bool    // the histogram's change is known (not the first reading)
	p90      float64 // seconds
	samples  uint64  // goroutine wake-ups
	arrivals int64   // requests arrived
	returns  int64   // of them, writes back for a booked place
	served   int64   // requests admitted and answered
	held     int64   // requests in progress at the reading
}

// judge records reading r and decides, until the next one, whether
// requests are refused (busy) and whether the demand outruns the service.
func (c *CPUWait) judge(r cpuReading, limit, maxWait time.Duration) (busy, outrun bool) {
	c.demand.add(r.at, r.arrivals-r.returns, r.served)
	// Requests must be arriving fast for the wait to be theirs: a service
	// starting up, or lightly used on a busy machine, sees slow wake-ups
	// that refusing its few callers would not cure.
	outrun = r.arrivals >= cpuWaitMinArrivals && c.demand.outruns(r.at, maxWait, r.held)
	return outrun && r.measured && r.samples >= cpuWaitMinSamples && r.p90 > limit.Seconds(), outrun
}

// demandSpan is how far back demand looks: long enough to hold a batch of
// clients starting together and many group commits, short enough to follow
// an overload within a quarter of a second.
const demandSpan = 250 * time.Millisecond

// demandSlots holds the readings of one span (one every cpuWaitEvery at
// most).
const demandSlots = int(demandSpan/cpuWaitEvery) + 2

// demand remembers, reading by reading, the new requests that arrived
// (not counting writes back for their booked place) and the requests
// served.
type demand struct {
	at            [demandSlots]time.Time
	fresh, served [demandSlots]int64
	next          int
}

func (d *demand) add(at time.Time, fresh, served int64) {
	d.at[d.next], d.fresh[d.next], d.served[d.next] = at, fresh, served
	d.next = (d.next + 1) % demandSlots
}

// outruns reports whether, over the span before now, more new requests
// arrived than the service served, holds now (held: those in progress,
// whose wait the wait bound governs) and would serve within maxWait at
// the rate it served them. Clients that wait for their answers cannot do
// that: each new request follows an answer, those refused come back for
// their place (not new), and a batch of them starting together is held in
// progress. An open-loop overload does: its requests keep coming however
// many are refused, and those turned away — by the wait bound, or unread
// behind a CPU that cannot keep up — are beyond all three.
func (d *demand) outruns(now time.Time, maxWait time.Duration, held int64) bool {
	var fresh, served int64
	for i, at := range d.at {
		if !at.IsZero() && !at.After(now) && now.Sub(at) < demandSpan {
			fresh += d.fresh[i]
			served += d.served[i]
		}
	}
	drained := served * int64(max(maxWait, 0)) / int64(demandSpan)
	return fresh > served+held+drained
}

// p90 is the upper bound (seconds) of the bucket holding the 90th
// percentile of the samples counted between prev and counts (0 with none),
// and how many samples that is.
func p90(counts, prev []uint64, buckets []float64) (float64, uint64) {
	var total uint64
	for i := range counts {
		total += counts[i] - prev[i]
	}
	if total == 0 {
		return 0, 0
	}
	want := total - total/10 // at least 90 % at or below
	var seen uint64
	for i := range counts {
		seen += counts[i] - prev[i]
		if seen >= want {
			return buckets[i+1], total
		}
	}
	return buckets[len(buckets)-1], total
}
