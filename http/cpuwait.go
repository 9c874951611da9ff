package http

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// cpuWait watches how long this process's goroutines wait for a CPU once
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
type cpuWait struct {
	last     atomic.Int64 // unix ns of the last reading
	busy     atomic.Bool
	arrivals atomic.Int64 // requests since the last reading

	mu     sync.Mutex // one reader at a time
	sample []metrics.Sample
	prev   []uint64
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

// errCPUBusy refuses a request while goroutines wait too long for a CPU.
var errCPUBusy = cashier.Errorf(cashier.EOverloaded, "the service is busy: it cannot keep up with the requests arriving; retry shortly")

// saturated reports whether the CPU wait was beyond limit at the last
// reading, reading again when that is older than cpuWaitEvery. Only one
// caller reads at a time; the others use the last answer.
func (c *cpuWait) saturated(now time.Time, limit time.Duration) bool {
	c.arrivals.Add(1)
	if now.UnixNano()-c.last.Load() >= int64(cpuWaitEvery) && c.mu.TryLock() {
		if now.UnixNano()-c.last.Load() >= int64(cpuWaitEvery) {
			c.read(limit)
			c.last.Store(now.UnixNano())
		}
		c.mu.Unlock()
	}
	return c.busy.Load()
}

func (c *cpuWait) read(limit time.Duration) {
	if c.sample == nil {
		c.sample = []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	}
	metrics.Read(c.sample)
	if c.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return
	}
	h := c.sample[0].Value.Float64Histogram()
	if len(c.prev) == len(h.Counts) {
		q, n := p90(h.Counts, c.prev, h.Buckets)
		// Requests must be arriving fast for the wait to be theirs: a
		// service starting up, or lightly used on a busy machine, sees
		// slow wake-ups that refusing its few callers would not cure.
		c.busy.Store(c.arrivals.Swap(0) >= cpuWaitMinArrivals && n >= cpuWaitMinSamples && q > limit.Seconds())
	}
	c.prev = append(c.prev[:0], h.Counts...)
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
