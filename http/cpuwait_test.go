package http

import (
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
	var c cpuWait
	now := time.Now()
	if c.saturated(now, time.Hour) {
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
	if c.saturated(now, time.Hour) {
		t.Fatal("read again within 10 ms")
	}
	c.arrivals.Store(0) // few requests: the wait is not theirs
	if c.saturated(now.Add(cpuWaitEvery), -time.Nanosecond) {
		t.Fatal("saturated although requests arrive slowly")
	}
	for i := 0; i < cpuWaitMinArrivals; i++ { // requests arriving fast
		c.saturated(now.Add(cpuWaitEvery), -time.Nanosecond)
	}
	for i := 0; i < 8*cpuWaitMinSamples; i++ { // goroutines to schedule
		go func() {}()
	}
	time.Sleep(10 * time.Millisecond)
	if !c.saturated(now.Add(2*cpuWaitEvery), -time.Nanosecond) {
		t.Fatal("not saturated with a limit below any wait")
	}
}
