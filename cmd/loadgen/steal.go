package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
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
