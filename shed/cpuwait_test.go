package shed

import (
	"sync"
	"testing"
	"time"
)

// p90 finds the bucket of the 90th percentile of the samples counted since
// the previous reading, not since the start.
func TestCPUWaitPercentile(t *testing.T) {
	buckets := []float64{0, 0.001, 0.002, 0.005, 0.010}
	prev := []uint64{1000, 0, 0, 5000}
	if got, n := p90(prev, prev, buckets); got != 0 || n != 0 {
		t.Fatalf("no new samples: %v", got)
	}
	// 80 new samples under 1 ms, 20 between 5 and 10 ms: p90 is in the last.
	if got, n := p90([]uint64{1080, 0, 0, 5020}, prev, buckets); got != 0.010 || n != 100 {
		t.Fatalf("p90 %v, want 0.010", got)
	}
	// 95 under 1 ms, 5 slow: p90 under 1 ms.
	if got, _ := p90([]uint64{1095, 0, 0, 5005}, prev, buckets); got != 0.001 {
		t.Fatalf("p90 %v, want 0.001", got)
	}
}

// A fresh watcher is not saturated, reads the runtime's histogram, and
// with an impossible limit (no wait at all allowed) reports saturation
// once enough goroutines have been scheduled.
func TestCPUWaitReads(t *testing.T) {
	var c CPUWait
	now := time.Now()
	if c.Saturated(now, time.Hour, 100*time.Millisecond, 0) {
		t.Fatal("saturated before any reading")
	}
	if c.prev == nil {
		t.Fatal("the first call did not read the histogram")
	}
	done := make(chan struct{})
	for i := 0; i < 8*cpuWaitMinSamples; i++ { // goroutines to schedule
		go func() {
			for j := 0; j < 10; j++ {
				select {
				case <-done:
					return
				default:
				}
				x := 0
				for k := 0; k < 10000; k++ {
					x += k
				}
				_ = x
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(done)
	if c.Saturated(now, time.Hour, 100*time.Millisecond, 0) {
		t.Fatal("read again within 10 ms")
	}
	c.arrivals.Store(0) // few requests: the wait is not theirs
	if c.Saturated(now.Add(cpuWaitEvery), -time.Nanosecond, 100*time.Millisecond, 0) {
		t.Fatal("saturated although requests arrive slowly")
	}
	for i := 0; i < cpuWaitMinArrivals; i++ { // requests arriving fast
		c.Saturated(now.Add(cpuWaitEvery), -time.Nanosecond, 100*time.Millisecond, 0)
	}
	// The runtime times one goroutine in eight, chosen at random, so eight
	// per sample needed fall short about half the time: many more, all run.
	var ran sync.WaitGroup
	for i := 0; i < 64*cpuWaitMinSamples; i++ { // goroutines to schedule
		ran.Add(1)
		go ran.Done()
	}
	ran.Wait()
	if !c.Saturated(now.Add(2*cpuWaitEvery), -time.Nanosecond, 100*time.Millisecond, 0) {
		t.Fatal("not saturated with a limit below any wait")
	}
}

// readings feeds c one reading every cpuWaitEvery from at, each with the
// CPU wait beyond the limit (20 ms at a 5 ms limit, 100 wake-ups), and
// returns how many of them refused, how many saw the demand outrun the
// service, and the time after the last.
func readings(c *CPUWait, at time.Time, n int, r cpuReading) (busy, outrun int, next time.Time) {
	for i := 0; i < n; i++ {
		r.at, r.measured, r.p90, r.samples = at, true, 0.020, 100
		b, o := c.judge(r, 5*time.Millisecond, 100*time.Millisecond)
		if b {
			busy++
		}
		if o {
			outrun++
		}
		at = at.Add(cpuWaitEvery)
	}
	return busy, outrun, at
}

// Clients that wait for their answers are never refused for the CPU wait,
// however long it is: 128 of them starting together (all arrive in one
// reading, none served yet), then each sending its next create when the
// last is answered, at 2,500/s, or at 300/s on a starved machine; those
// refused by the wait bound come back for their place, which is not new
// demand.
func TestCPUWaitSparesClosedLoop(t *testing.T) {
	for _, rate := range []int64{25, 3} { // answered per reading of 10 ms
		var c CPUWait
		busy, outrun, at := readings(&c, admitT0, 1, cpuReading{arrivals: 128, held: 128})
		if busy+outrun != 0 {
			t.Fatalf("%d/s: refused 128 clients starting together", rate*100)
		}
		// Steady: each answer brings the next request; a few are refused
		// by the wait bound and come back later for their place.
		busy, outrun, _ = readings(&c, at, 100, cpuReading{arrivals: rate + 2, returns: 2, served: rate, held: 128})
		if busy+outrun != 0 {
			t.Fatalf("%d/s: %d of 100 readings refused clients that wait for their answers, %d saw the demand outrun", rate*100, busy, outrun)
		}
	}
}

// An open-loop overload is refused while the CPU wait is long: three times
// what is served arrives, whatever the wait bound admits in progress; once
// the CPU catches up it is admitted again, and once the overload has been
// gone for a span the CPU wait alone refuses nothing.
func TestCPUWaitRefusesOpenLoopOverload(t *testing.T) {
	var c CPUWait
	at := admitT0
	_, _, at = readings(&c, at, 30, cpuReading{arrivals: 25, served: 25, held: 20}) // at capacity: fine
	if busy, outrun := c.judge(cpuReading{at: at, measured: true, p90: 0.020, samples: 100, arrivals: 25, served: 25, held: 20}, 5*time.Millisecond, 100*time.Millisecond); busy || outrun {
		t.Fatal("refused at capacity")
	}
	at = at.Add(cpuWaitEvery)
	// 3×: 75 arrive, 25 served, 40 in progress (the wait bound's share).
	// Refusing starts once the excess is beyond those in progress and a
	// span's 100 ms of serving (250 at 2,500/s): the sixth reading.
	busy, outrun, at := readings(&c, at, 5, cpuReading{arrivals: 75, served: 25, held: 40})
	if busy+outrun != 0 {
		t.Fatalf("3× overload: refused %d readings before the excess outgrew the bound", busy)
	}
	busy, outrun, at = readings(&c, at, 20, cpuReading{arrivals: 75, served: 25, held: 40})
	if busy != 20 || outrun != 20 {
		t.Fatalf("3× overload: %d of 20 readings refused, want all", busy)
	}
	// The CPU catches up: admitted again at once, though demand still outruns.
	if busy, outrun := c.judge(cpuReading{at: at, measured: true, p90: 0.001, samples: 100, arrivals: 75, served: 25, held: 40}, 5*time.Millisecond, 100*time.Millisecond); busy || !outrun {
		t.Fatal("refused with the CPU wait within its limit, or the overload not seen")
	}
	at = at.Add(cpuWaitEvery)
	// Few wake-ups or few arrivals: not the requests' doing.
	few, _ := c.judge(cpuReading{at: at, measured: true, p90: 0.020, samples: cpuWaitMinSamples - 1, arrivals: 75, served: 25, held: 40}, 5*time.Millisecond, 100*time.Millisecond)
	slow, _ := c.judge(cpuReading{at: at.Add(cpuWaitEvery), measured: true, p90: 0.020, samples: 100, arrivals: cpuWaitMinArrivals - 1, held: 40}, 5*time.Millisecond, 100*time.Millisecond)
	if few || slow {
		t.Fatal("refused for a wait that few wake-ups or few requests saw")
	}
	at = at.Add(2 * cpuWaitEvery)
	// The overload ends: what is new is served again; within a span the
	// readings of the overload are forgotten.
	busy, outrun, _ = readings(&c, at, 30, cpuReading{arrivals: 25, served: 25, held: 20})
	if busy == 0 || busy != outrun || busy > int(demandSpan/cpuWaitEvery) {
		t.Fatalf("after the overload: %d readings refused, want some, at most a span's", busy)
	}
}

// The demand's bound, exactly: over the span, new requests beyond those
// served, those in progress and those served within max-wait at the rate
// served. With the wait bound off, only those in progress are allowed.
func TestDemandOutruns(t *testing.T) {
	var d demand
	now := admitT0
	for i := 0; i < 25; i++ { // one span: 400 served, 600 arrived
		d.add(now.Add(time.Duration(i)*cpuWaitEvery), 24, 16)
	}
	last := now.Add(24 * cpuWaitEvery)
	// 400 served, 100 ms of them is 160: 600 = 400 + 40 + 160.
	if d.outruns(last, 100*time.Millisecond, 40) {
		t.Fatal("outruns at exactly the bound")
	}
	if !d.outruns(last, 100*time.Millisecond, 39) {
		t.Fatal("one fewer in progress does not outrun")
	}
	if !d.outruns(last, 0, 199) || d.outruns(last, 0, 200) || !d.outruns(last, -time.Millisecond, 199) {
		t.Fatal("with the wait bound off, only those in progress are allowed")
	}
	// A span later the old readings no longer count.
	if d.outruns(last.Add(demandSpan), 100*time.Millisecond, 0) {
		t.Fatal("readings older than the span still count")
	}
	// The ring holds a span of readings at the highest reading rate.
	var e demand
	for i := 0; i < demandSlots+10; i++ {
		e.add(now.Add(time.Duration(i)*cpuWaitEvery), 1, 0)
	}
	if !e.outruns(now.Add(time.Duration(demandSlots+9)*cpuWaitEvery), 0, int64(demandSpan/cpuWaitEvery)-1) {
		t.Fatal("the ring lost readings within the span")
	}
}
