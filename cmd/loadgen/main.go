// Command loadgen offers signed collection-order creates to a cashier
// service on this machine at a fixed rate (open loop: requests are sent on
// schedule whether or not earlier ones were answered), over keep-alive
// connections, each with a unique order number, and checks every response.
// It prints the throughput, the latency percentiles of created orders
// (measured from each request's scheduled time, so a stalled server cannot
// hide its queue) and how many requests were refused with 503.
//
//	go run ./cmd/loadgen --sandbox .sandbox/sandbox.json --rate 1000 --duration 10s
//
// It talks to loopback addresses only and stops after --duration or
// --count requests, whichever comes first.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/stablecashier/cashier/client"
)

func main() {
	// A spare P, as the service has one (app.spareProc): with its only P
	// busy the generator would notice answers up to 10 ms late and count
	// that against the service.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

type target struct {
	BaseURL   string `json:"baseUrl"`
	APIKey    string `json:"apiKey"`
	SecretKey string `json:"secretKey"`
	CashierID string `json:"cashierId"`
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	sandboxFile := fs.String("sandbox", "", "sandbox.json of a running sandbox (baseUrl, apiKey, secretKey, cashierId)")
	var t target
	fs.StringVar(&t.BaseURL, "url", "", "base URL (instead of --sandbox)")
	fs.StringVar(&t.APIKey, "api-key", "", "API key (instead of --sandbox)")
	fs.StringVar(&t.SecretKey, "secret-key", "", "secret key (instead of --sandbox)")
	fs.StringVar(&t.CashierID, "cashier", "", "cashier id (instead of --sandbox)")
	rate := fs.Float64("rate", 1000, "requests per second offered")
	duration := fs.Duration("duration", 10*time.Second, "how long to offer load (at most 5m)")
	count := fs.Int("count", 0, "stop after this many requests (0: rate × duration)")
	conns := fs.Int("conns", 256, "keep-alive connections at most")
	chain := fs.String("chain", "ETH", "network of the orders: ETH, ARB or TRON")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	preconnect := fs.Int("preconnect", 0, "open this many connections before the schedule starts, as a proxy in front of the service would hold them (at most --conns)")
	every := fs.Duration("every", 0, "also print the figures for each interval this long of the schedule (0: only the totals)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sandboxFile != "" {
		b, err := os.ReadFile(*sandboxFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf("%s: %w", *sandboxFile, err)
		}
	}
	if t.BaseURL == "" || t.APIKey == "" || t.SecretKey == "" || t.CashierID == "" {
		return errors.New("give --sandbox FILE, or --url, --api-key, --secret-key and --cashier")
	}
	if err := loopbackOnly(t.BaseURL); err != nil {
		return err
	}
	if *rate <= 0 || *rate > 100_000 {
		return errors.New("--rate must be in (0, 100000]")
	}
	if *duration <= 0 || *duration > 5*time.Minute {
		return errors.New("--duration must be in (0, 5m]")
	}
	total := int(*rate * duration.Seconds())
	if *count > 0 && *count < total {
		total = *count
	}
	if total < 1 {
		return errors.New("nothing to send: rate × duration < 1")
	}

	var dials atomic.Int64
	dialer := &net.Dialer{}
	httpClient := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns, IdleConnTimeout: time.Minute,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return dialer.DialContext(ctx, network, addr)
		},
	}}
	cli := client.New(t.BaseURL, t.APIKey, t.SecretKey, client.WithHTTPClient(httpClient))
	if *preconnect > *conns {
		return errors.New("--preconnect must not exceed --conns")
	}
	// Concurrent cheap requests open connections; a few rounds, since a
	// fast answer lets the next request reuse a connection instead.
	for round := 0; round < 5 && dials.Load() < int64(*preconnect); round++ {
		var pre sync.WaitGroup
		for i := int64(0); i < int64(*preconnect)-dials.Load(); i++ {
			pre.Add(1)
			go func() {
				defer pre.Done()
				ctx, cancel := context.WithTimeout(context.Background(), *timeout)
				defer cancel()
				cli.Coins(ctx)
			}()
		}
		pre.Wait()
	}
	if *preconnect > 0 {
		fmt.Fprintf(out, "opened %d connections beforehand\n", dials.Load())
	}
	runID := make([]byte, 4)
	rand.Read(runID)
	prefix := "LG" + hex.EncodeToString(runID) + "-"

	var (
		mu      sync.Mutex
		created []time.Duration
		refused []time.Duration
		slots   = map[int]*[2][]time.Duration{} // interval → created, refused
		reasons = map[string]int{}
		errs    = map[string]int{}
		wg      sync.WaitGroup
	)
	fmt.Fprintf(out, "offering %d creates at %.0f/s to %s (%d connections at most)\n", total, *rate, t.BaseURL, *conns)
	interval := time.Duration(float64(time.Second) / *rate)
	slot := func(at time.Duration) *[2][]time.Duration { // called under mu
		k := 0
		if *every > 0 {
			k = int(at / *every)
		}
		if slots[k] == nil {
			slots[k] = new([2][]time.Duration)
		}
		return slots[k]
	}
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < total; i++ {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), *timeout)
			defer cancel()
			no := fmt.Sprintf("%s%d", prefix, i)
			amount := fmt.Sprintf("%d.%02d", 1+i%900, i%100)
			res, err := cli.CreateCollection(ctx, client.CollectionRequest{CashierID: t.CashierID, OrderNo: no,
				Amount: amount, Symbol: "USDT", ChainID: *chain})
			lat := time.Since(due)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				if msg := check(res, no); msg != "" {
					errs[msg]++
					return
				}
				created = append(created, lat)
				slot(due.Sub(start))[0] = append(slot(due.Sub(start))[0], lat)
			case client.IsCode(err, "000503"):
				refused = append(refused, lat)
				slot(due.Sub(start))[1] = append(slot(due.Sub(start))[1], lat)
				var ce *client.Error
				if errors.As(err, &ce) {
					reasons[ce.Message]++
				}
			default:
				msg := err.Error()
				if len(msg) > 120 {
					msg = msg[:120]
				}
				errs[msg]++
			}
		}()
	}
	sent := time.Since(start)
	wg.Wait()
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0

	nerr := 0
	for _, n := range errs {
		nerr += n
	}
	fmt.Fprintf(out, "sent %d in %.2fs (%.0f/s offered), all answered after %.2fs\n", total, sent.Seconds(), float64(total)/sent.Seconds(), elapsed.Seconds())
	fmt.Fprintf(out, "created %d (%.0f/s): p50 %s  p99 %s  max %s\n", len(created), float64(len(created))/elapsed.Seconds(),
		pct(created, 0.50), pct(created, 0.99), pct(created, 1))
	fmt.Fprintf(out, "refused with 503: %d: p50 %s  p99 %s\n", len(refused), pct(refused, 0.50), pct(refused, 0.99))
	for msg, n := range reasons {
		fmt.Fprintf(out, "  %d × %s\n", n, msg)
	}
	for k := 0; *every > 0 && k <= int(sent / *every); k++ {
		if sl := slots[k]; sl != nil {
			fmt.Fprintf(out, "  from %s: created %d (p50 %s, p99 %s), refused %d (p50 %s, p99 %s)\n", time.Duration(k)**every,
				len(sl[0]), pct(sl[0], 0.5), pct(sl[0], 0.99), len(sl[1]), pct(sl[1], 0.5), pct(sl[1], 0.99))
		}
	}
	// The generator must not be the bottleneck: a sender behind its
	// schedule, or a process near the cores it may use, inflates every
	// latency above (run it on its own core: taskset -c 0 loadgen …).
	fmt.Fprintf(out, "generator: %.0f%% of one core (GOMAXPROCS %d), sender behind schedule by %s at the end\n",
		100*cpu.Seconds()/elapsed.Seconds(), runtime.GOMAXPROCS(0), (sent - time.Duration(total-1)*interval).Round(time.Millisecond))
	fmt.Fprintf(out, "errors: %d\n", nerr)
	for msg, n := range errs {
		fmt.Fprintf(out, "  %d × %s\n", n, msg)
	}
	if nerr > 0 {
		return fmt.Errorf("%d requests failed", nerr)
	}
	return nil
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

func pct(d []time.Duration, p float64) string {
	if len(d) == 0 {
		return "-"
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[int(p*float64(len(d)-1))].Round(10 * time.Microsecond).String()
}

// loopbackOnly refuses targets off this machine: a load generator must not
// be pointed at someone else's service by accident.
func loopbackOnly(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address; loadgen only targets this machine", base)
	}
	return nil
}
