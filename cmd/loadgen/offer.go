package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/stablecashier/cashier/client"
)

// generator sends signed creates; every order number it uses is unique
// (a random run prefix and a counter across all its offers).
type generator struct {
	cli       *client.Client
	cashierID string
	chain     string
	timeout   time.Duration
	prefix    string
	seq       atomic.Int64
	pid       int          // the service's process, for its CPU time (0: not measured)
	createUS  float64      // the service's CPU-µs per create, to cost refusals (0: not given)
	made      atomic.Int64 // orders created, for the webhooks behind (hooks.go)
}

// sample is one answered request: when it was due, from the start of its
// offer, and how long after that it was answered.
type sample struct{ at, lat time.Duration }

// result is what one offer saw.
type result struct {
	rate     float64
	total    int
	created  []sample
	refused  []sample
	reasons  map[string]int // refusal messages
	errs     map[string]int // anything else: failed requests and wrong answers
	sent     time.Duration  // the schedule's length as kept
	elapsed  time.Duration  // until the last answer
	cpu      time.Duration  // the generator's own CPU time
	interval time.Duration
	service  time.Duration // the service's CPU time, when measured
	measured bool
	steal    *stealTimeline // nil where /proc/stat cannot be read
	// The machine's CPU readings at the start and end (steal.go).
	ticks0, ticks1 map[string]cpuTicks
}

// offer sends total creates at rate, open loop: each is sent when due,
// whether or not earlier ones were answered, and its latency runs from
// when it was due, so a stalled server cannot hide its queue.
func (g *generator) offer(rate float64, total int) *result {
	res := &result{rate: rate, total: total, reasons: map[string]int{}, errs: map[string]int{},
		interval: time.Duration(float64(time.Second) / rate)}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	svc0, svcErr := processCPU(g.pid)
	ticks0 := machineTicks()
	start, cpu0 := time.Now(), cpuTime()
	res.steal = watchSteal(start)
	for i := 0; i < total; i++ {
		due := start.Add(time.Duration(i) * res.interval)
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		n := g.seq.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), g.timeout)
			defer cancel()
			no := fmt.Sprintf("%s%d", g.prefix, n)
			amount := fmt.Sprintf("%d.%02d", 1+n%900, n%100)
			created, err := g.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: g.cashierID, OrderNo: no,
				Amount: amount, Symbol: "USDT", ChainID: g.chain})
			s := sample{at: due.Sub(start), lat: time.Since(due)}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				if msg := check(created, no); msg != "" {
					res.errs[msg]++
					return
				}
				g.made.Add(1)
				res.created = append(res.created, s)
			case client.IsCode(err, "000503"):
				res.refused = append(res.refused, s)
				var ce *client.Error
				if errors.As(err, &ce) {
					res.reasons[ce.Message]++
				}
			default:
				msg := err.Error()
				if len(msg) > 120 {
					msg = msg[:120]
				}
				res.errs[msg]++
			}
		}()
	}
	res.sent = time.Since(start)
	wg.Wait()
	res.elapsed = time.Since(start)
	res.steal.end()
	res.cpu = cpuTime() - cpu0
	res.ticks0, res.ticks1 = ticks0, machineTicks()
	if svc1, err := processCPU(g.pid); g.pid > 0 && err == nil && svcErr == nil {
		res.service, res.measured = svc1-svc0, true
	}
	return res
}

// failed is the number of requests that failed other than with a 503.
func (r *result) failed() int {
	n := 0
	for _, k := range r.errs {
		n += k
	}
	return n
}

// latencies of the samples due at from or later, before to (0: no end).
func latencies(s []sample, from, to time.Duration) []time.Duration {
	var d []time.Duration
	for _, x := range s {
		if x.at >= from && (to == 0 || x.at < to) {
			d = append(d, x.lat)
		}
	}
	return d
}

// report prints the offer's figures; with every > 0 also those of each
// interval that long of the schedule.
func (r *result) report(out io.Writer, every time.Duration, createUS float64) {
	created, refused := latencies(r.created, 0, 0), latencies(r.refused, 0, 0)
	fmt.Fprintf(out, "sent %d in %.2fs (%.0f/s offered), all answered after %.2fs\n", r.total, r.sent.Seconds(), float64(r.total)/r.sent.Seconds(), r.elapsed.Seconds())
	fmt.Fprintf(out, "created %d (%.0f/s): p50 %s  p99 %s  max %s\n", len(created), float64(len(created))/r.elapsed.Seconds(),
		pct(created, 0.50), pct(created, 0.99), pct(created, 1))
	reportStealSplit(out, r.steal, r.created)
	fmt.Fprintf(out, "refused with 503: %d: p50 %s  p99 %s\n", len(refused), pct(refused, 0.50), pct(refused, 0.99))
	for _, msg := range sortedKeys(r.reasons) {
		fmt.Fprintf(out, "  %d × %s\n", r.reasons[msg], msg)
	}
	for from := time.Duration(0); every > 0 && from < r.sent; from += every {
		c, f := latencies(r.created, from, from+every), latencies(r.refused, from, from+every)
		if len(c)+len(f) > 0 {
			fmt.Fprintf(out, "  from %s: created %d (p50 %s, p99 %s), refused %d (p50 %s, p99 %s)\n", from,
				len(c), pct(c, 0.5), pct(c, 0.99), len(f), pct(f, 0.5), pct(f, 0.99))
		}
	}
	if r.measured {
		serviceCPU(out, r.service, r.elapsed, len(created), len(refused), createUS)
	}
	// The generator must not be the bottleneck: a sender behind its
	// schedule, or a process near the cores it may use, inflates every
	// latency above (run it on its own core: taskset -c 0 loadgen …).
	fmt.Fprintf(out, "generator: %.0f%% of one core (GOMAXPROCS %d), sender behind schedule by %s at the end\n",
		100*r.cpu.Seconds()/r.elapsed.Seconds(), runtime.GOMAXPROCS(0), (r.sent - time.Duration(r.total-1)*r.interval).Round(time.Millisecond))
	reportSteal(out, r.ticks0, r.ticks1)
	fmt.Fprintf(out, "errors: %d\n", r.failed())
	for _, msg := range sortedKeys(r.errs) {
		fmt.Fprintf(out, "  %d × %s\n", r.errs[msg], msg)
	}
}

// serviceCPU prints the service's CPU time over elapsed: its share of one
// core, per answered request, per create when nothing was refused, and per
// refusal when a create's cost is given (createUS: what the rest costs)
// and refusals are at least as many as creates.
func serviceCPU(out io.Writer, svc, elapsed time.Duration, created, refused int, createUS float64) {
	us := float64(svc.Microseconds())
	c, f := float64(created), float64(refused)
	fmt.Fprintf(out, "service: %.0f%% of one core, %.0f cpu-µs per answered request", 100*svc.Seconds()/elapsed.Seconds(), us/max(1, c+f))
	if refused == 0 && created > 0 {
		fmt.Fprintf(out, ", %.0f cpu-µs per create (nothing refused)", us/c)
	}
	switch {
	case createUS <= 0 || refused == 0:
	case refused < created:
		// A create's cost moves with the load (group commit shares its
		// fsync), by more than a few refusals cost: no figure.
		fmt.Fprintf(out, ", refusals too few to cost (fewer than creates)")
	default:
		fmt.Fprintf(out, ", %.1f cpu-µs per refusal (creates costed at %.0f)", (us-c*createUS)/f, createUS)
	}
	fmt.Fprintln(out)
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// check validates a created order's answer.
func check(res *client.CollectionCreated, orderNo string) string {
	switch {
	case res.OrderNo != orderNo:
		return "answer names another orderNo"
	case !strings.Contains(res.PayURL, "/pay/"):
		return "answer has no payment link"
	case !strings.HasPrefix(res.QRCode, "data:image/png;base64,"):
		return "answer has no QR code"
	case res.ExpireTime <= 0:
		return "answer has no expiry"
	}
	return ""
}

// pct is the p-th quantile of d (sorted in place); "-" when empty.
func pct(d []time.Duration, p float64) string {
	if len(d) == 0 {
		return "-"
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[int(p*float64(len(d)-1))].Round(10 * time.Microsecond).String()
}
