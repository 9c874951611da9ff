package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier/client"
)

// closedLoop is the closed-loop mode: clients that each send their next
// create when the last is answered. A refused create is sent again, at
// once or, with honour, after the answer's Retry-After.
type closedLoop struct {
	clients  int
	duration time.Duration
	honour   bool
	drop     bool    // a refused create is given up and the next one sent at once
	pid      int     // the service's process, for its CPU time (0: not measured)
	createUS float64 // the service's CPU-µs per create, to cost refusals (0: not given)
}

// closedResult is what a closed-loop run saw.
type closedResult struct {
	created   []time.Duration // each created order's last try, send to answer
	fromFirst []time.Duration // each created order from its first try
	refused   int
	again     int // refusals of a retry sent after waiting as told
	reasons   map[string]int
	errs      map[string]int
	elapsed   time.Duration
	cpu       time.Duration // the generator's
	service   time.Duration // the service's, when measured
	measured  bool
	// The machine's CPU readings at the start and end (steal.go).
	ticks0, ticks1 map[string]cpuTicks
}

// retryAfterKey carries, in a request's context, where retryAfterTransport
// puts the answer's Retry-After.
type retryAfterKey struct{}

type retryAfterTransport struct{ http.RoundTripper }

func (t retryAfterTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.RoundTripper.RoundTrip(r)
	if p, ok := r.Context().Value(retryAfterKey{}).(*string); ok && err == nil {
		*p = resp.Header.Get("Retry-After")
	}
	return resp, err
}

func (p closedLoop) run(out io.Writer, g *generator) error {
	mode := "sent again at once"
	switch {
	case p.honour:
		mode = "sent again after Retry-After"
	case p.drop:
		mode = "given up, the next sent at once"
	}
	fmt.Fprintf(out, "closed loop: %d clients for %s, refused creates %s\n", p.clients, p.duration, mode)
	r := &closedResult{reasons: map[string]int{}, errs: map[string]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var stop atomic.Bool
	svc0, svcErr := processCPU(p.pid)
	ticks0 := machineTicks()
	start, cpu0 := time.Now(), cpuTime()
	time.AfterFunc(p.duration, func() { stop.Store(true) })
	for c := 0; c < p.clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				n := g.seq.Add(1)
				no := fmt.Sprintf("%s%d", g.prefix, n)
				amount := fmt.Sprintf("%d.%02d", 1+n%900, n%100)
				first, waited := time.Now(), false
				for !stop.Load() {
					var ra string
					ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), retryAfterKey{}, &ra), g.timeout)
					sent := time.Now()
					created, err := g.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: g.cashierID, OrderNo: no,
						Amount: amount, Symbol: "USDT", ChainID: g.chain})
					cancel()
					lat := time.Since(sent)
					mu.Lock()
					var ce *client.Error
					switch {
					case err == nil:
						if msg := check(created, no); msg != "" {
							r.errs[msg]++
						} else {
							g.made.Add(1)
							r.created = append(r.created, lat)
							r.fromFirst = append(r.fromFirst, time.Since(first))
						}
					case client.IsCode(err, "000503"):
						r.refused++
						if waited {
							r.again++
						}
						if errors.As(err, &ce) {
							r.reasons[ce.Message]++
						}
					default:
						msg := err.Error()
						if len(msg) > 120 {
							msg = msg[:120]
						}
						r.errs[msg]++
					}
					mu.Unlock()
					if !client.IsCode(err, "000503") || p.drop {
						break
					}
					if p.honour {
						secs, perr := strconv.Atoi(ra)
						if perr != nil || secs < 1 {
							secs = 1
						}
						time.Sleep(time.Duration(secs) * time.Second)
						waited = true
					}
				}
			}
		}()
	}
	wg.Wait()
	r.elapsed, r.cpu = time.Since(start), cpuTime()-cpu0
	r.ticks0, r.ticks1 = ticks0, machineTicks()
	if svc1, err := processCPU(p.pid); p.pid > 0 && err == nil && svcErr == nil {
		r.service, r.measured = svc1-svc0, true
	}
	r.report(out, p)
	if n := len(r.errs); n > 0 {
		return fmt.Errorf("%d kinds of failed requests", n)
	}
	return nil
}

func (r *closedResult) report(out io.Writer, p closedLoop) {
	secs := r.elapsed.Seconds()
	fmt.Fprintf(out, "created %d (%.0f/s): p50 %s  p99 %s  max %s\n", len(r.created), float64(len(r.created))/secs,
		pct(r.created, 0.5), pct(r.created, 0.99), pct(r.created, 1))
	fmt.Fprintf(out, "  from each order's first try: p50 %s  p99 %s\n", pct(r.fromFirst, 0.5), pct(r.fromFirst, 0.99))
	fmt.Fprintf(out, "refused with 503: %d (%.0f/s), %d of them retries sent after waiting as told\n", r.refused, float64(r.refused)/secs, r.again)
	for _, msg := range sortedKeys(r.reasons) {
		fmt.Fprintf(out, "  %d × %s\n", r.reasons[msg], msg)
	}
	if r.measured {
		serviceCPU(out, r.service, r.elapsed, len(r.created), r.refused, p.createUS)
	}
	fmt.Fprintf(out, "generator: %.0f%% of one core\n", 100*r.cpu.Seconds()/secs)
	reportSteal(out, r.ticks0, r.ticks1)
	fmt.Fprintf(out, "errors: %d\n", len(r.errs))
	for _, msg := range sortedKeys(r.errs) {
		fmt.Fprintf(out, "  %d × %s\n", r.errs[msg], msg)
	}
}

// processCPU is the CPU time (user and system) process pid has used, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s, the value
// Linux reports to user space whatever its internal tick).
func processCPU(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, errors.New("no process")
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(b))
}

// parseStatCPU reads utime + stime from a /proc/PID/stat line; the command
// name (field 2) may hold spaces and parentheses, so fields are counted
// from its closing parenthesis.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 { // state is field 3; utime 14, stime 15
		return 0, errors.New("short /proc stat")
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("unreadable /proc stat times")
	}
	return time.Duration(u+s) * 10 * time.Millisecond, nil
}
