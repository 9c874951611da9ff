package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// cpuTicks is one CPU's time from /proc/stat, in clock ticks: all of it,
// and the part a hypervisor gave to other machines (steal), which no
// process here sees as its own but which delays every one of them.
type cpuTicks struct{ total, steal int64 }

// machineTicks reads every CPU's line of /proc/stat ("cpu0 user nice
// system idle iowait irq softirq steal ..."); nil where it cannot.
func machineTicks() map[string]cpuTicks {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return nil
	}
	return parseProcStat(string(b))
}

func parseProcStat(stat string) map[string]cpuTicks {
	out := map[string]cpuTicks{}
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || !strings.HasPrefix(f[0], "cpu") || f[0] == "cpu" {
			continue
		}
		var t cpuTicks
		for i, s := range f[1:] {
			if i >= 8 { // guest time is counted in user time already
				break
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil
			}
			t.total += n
			if i == 7 {
				t.steal = n
			}
		}
		out[f[0]] = t
	}
	return out
}

// reportSteal prints each CPU's share of time stolen between two readings:
// a run whose service lost its CPU to the host shows it here, not as a
// figure of the service.
func reportSteal(out io.Writer, before, after map[string]cpuTicks) {
	if len(before) == 0 || len(after) == 0 {
		return
	}
	var parts []string
	for i := 0; ; i++ {
		name := "cpu" + strconv.Itoa(i)
		a, ok1 := before[name]
		b, ok2 := after[name]
		if !ok1 || !ok2 {
			break
		}
		share := 0.0
		if d := b.total - a.total; d > 0 {
			share = 100 * float64(b.steal-a.steal) / float64(d)
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", name, share))
	}
	if len(parts) > 0 {
		fmt.Fprintf(out, "machine: time stolen by the host: %s\n", strings.Join(parts, ", "))
	}
}

// stealTimeline reads the machine's stolen ticks, all CPUs together, every
// few milliseconds while an offer runs, so that each request can be told
// apart by whether the host took a CPU from the machine while it waited.
// A tick is 10 ms on Linux (USER_HZ 100), so "none" means less than one
// tick was counted in the request's window, not that nothing was taken.
// The readings are read only after end.
type stealTimeline struct {
	start time.Time
	at    []time.Duration // when each reading was taken, from start
	steal []int64         // the machine's stolen ticks so far at that reading
	stop  chan struct{}
	done  chan struct{}
}

const stealEvery = 5 * time.Millisecond

// watchSteal starts reading; nil when /proc/stat cannot be read.
func watchSteal(start time.Time) *stealTimeline {
	if machineTicks() == nil {
		return nil
	}
	s := &stealTimeline{start: start, stop: make(chan struct{}), done: make(chan struct{})}
	s.read()
	go func() {
		defer close(s.done)
		t := time.NewTicker(stealEvery)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				s.read()
				return
			case <-t.C:
				s.read()
			}
		}
	}()
	return s
}

func (s *stealTimeline) read() {
	var n int64
	for _, t := range machineTicks() {
		n += t.steal
	}
	s.at, s.steal = append(s.at, time.Since(s.start)), append(s.steal, n)
}

// end stops the readings (after the last answer).
func (s *stealTimeline) end() {
	if s != nil {
		close(s.stop)
		<-s.done
	}
}

// stolen is the ticks stolen between the last reading at or before from
// and the first at or after to: every tick that may have fallen inside.
func (s *stealTimeline) stolen(from, to time.Duration) int64 {
	i := sort.Search(len(s.at), func(i int) bool { return s.at[i] > from }) - 1
	j := sort.Search(len(s.at), func(i int) bool { return s.at[i] >= to })
	i, j = max(i, 0), min(j, len(s.at)-1)
	if j <= i {
		return 0
	}
	return s.steal[j] - s.steal[i]
}

// split parts the samples into those during whose wait no tick was
// stolen and the rest.
func (s *stealTimeline) split(samples []sample) (calm, stolen []time.Duration) {
	for _, x := range samples {
		if s.stolen(x.at, x.at+x.lat) == 0 {
			calm = append(calm, x.lat)
		} else {
			stolen = append(stolen, x.lat)
		}
	}
	return calm, stolen
}

// reportStealSplit prints the created's latency apart for the requests
// that waited while the host stole CPU time and for those that did not,
// and how many of the slowest percent waited through a steal.
func reportStealSplit(out io.Writer, s *stealTimeline, created []sample) {
	if s == nil || len(created) == 0 {
		return
	}
	calm, stolen := s.split(created)
	fmt.Fprintf(out, "  waited while no CPU tick was stolen: %d: p50 %s  p99 %s; while one or more were: %d: p50 %s  p99 %s\n",
		len(calm), pct(calm, 0.5), pct(calm, 0.99), len(stolen), pct(stolen, 0.5), pct(stolen, 0.99))
	slowest := append([]sample(nil), created...)
	sort.Slice(slowest, func(i, j int) bool { return slowest[i].lat > slowest[j].lat })
	slowest = slowest[:max(1, len(slowest)/100)]
	_, hit := s.split(slowest)
	fmt.Fprintf(out, "  of the slowest 1%% (%d), %d waited while a tick was stolen\n", len(slowest), len(hit))
}
