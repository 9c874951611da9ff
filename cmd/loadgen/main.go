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
// With --overload F it measures graceful overload instead: it finds the
// highest rate the service sustains (stepping up until a rate gets fewer
// than 99 % of its requests created, twice), offers that rate, then F
// times it, and compares the latency of the creates accepted in both.
//
//	go run ./cmd/loadgen --sandbox .sandbox/sandbox.json --overload 3 --duration 8s --preconnect 128
//
// With --clients N it runs a closed loop instead: N clients, each sending
// its next create when the last is answered (a refused one again, at once
// or, with --honour-retry-after, after its Retry-After), and reports
// created/s, refusals/s and the created's latency; with --service-pid,
// the service's CPU time per create and per refusal.
//
//	go run ./cmd/loadgen --sandbox .sandbox/sandbox.json --clients 32 --duration 10s --service-pid PID
//
// It talks to loopback addresses only and stops after --duration or
// --count requests, whichever comes first.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/cmd/internal/measure"
)

func main() {
	// A spare P, as the service has one (app.spareProc): with its only P
	// busy the generator would notice answers up to 10 ms late and count
	// that against the service.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
	}
	measure.Main("loadgen", run)
}

// maxRate bounds any rate offered.
const maxRate = 100_000

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
	overload := fs.Float64("overload", 0, "measure graceful overload: find the sustainable rate (the highest step with at least 99% created), offer it for --duration, then this many times it for --duration, and compare the accepted creates' latency (--rate is not used)")
	step := fs.Float64("step", 250, "with --overload: the search for the sustainable rate starts here and climbs by as much (requests/s)")
	stepFor := fs.Duration("step-duration", 3*time.Second, "with --overload: how long each search step lasts")
	stepMax := fs.Float64("step-max", 0, "with --overload: the search ends at this rate at most (0: when a rate is not sustained)")
	settle := fs.Duration("settle", 2*time.Second, "with --overload: the comparison leaves out each offer's first moments, this long")
	clients := fs.Int("clients", 0, "closed loop instead: this many clients, each sending its next create when the last is answered, for --duration (--rate is not used)")
	honour := fs.Bool("honour-retry-after", false, "with --clients: a refused create is sent again after the answer's Retry-After (default: at once)")
	drop := fs.Bool("drop-refused", false, "with --clients: a refused create is given up and the client's next one sent at once (default: the same one sent again at once)")
	pid := fs.Int("service-pid", 0, "the service's process id, to report its CPU time per create and per refusal (/proc/PID/stat)")
	hookAddr := fs.String("webhooks", "", "receive the service's webhooks at this address (the sandbox's webhook URL is http://ADDR/hook) and report how many created orders' webhooks were behind at the end")
	createUS := fs.Float64("create-cpu-us", 0, "with --service-pid: the service's CPU-µs per create (from a run without refusals), to cost the refusals of a run with both (with --overload: the sustainable rate's, unless given)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sandboxFile != "" {
		if err := readTarget(*sandboxFile, &t); err != nil {
			return err
		}
	}
	if t.BaseURL == "" || t.APIKey == "" || t.SecretKey == "" || t.CashierID == "" {
		return errors.New("give --sandbox FILE, or --url, --api-key, --secret-key and --cashier")
	}
	if err := loopbackOnly(t.BaseURL); err != nil {
		return err
	}
	if *rate <= 0 || *rate > maxRate {
		return errors.New("--rate must be in (0, 100000]")
	}
	if *overload != 0 && (*overload < 1 || *step <= 0 || *step > maxRate || *stepFor <= 0 || *stepFor > time.Minute || *stepMax < 0 || *settle < 0 || *settle >= *duration) {
		return errors.New("--overload needs a factor of at least 1, --step in (0, 100000], --step-duration in (0, 1m], --step-max of 0 or more and --settle shorter than --duration")
	}
	if *clients < 0 || *clients > 4096 || *pid < 0 || *createUS < 0 || (*honour && *drop) {
		return errors.New("--clients must be in [0, 4096], --service-pid and --create-cpu-us not negative, and --honour-retry-after and --drop-refused not both given")
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
	if *clients > *conns {
		*conns = *clients // one connection per client
	}
	httpClient := &http.Client{Transport: retryAfterTransport{&http.Transport{
		MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns, IdleConnTimeout: time.Minute,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return dialer.DialContext(ctx, network, addr)
		},
	}}}
	cli := client.New(t.BaseURL, t.APIKey, t.SecretKey, client.WithHTTPClient(httpClient))
	if *preconnect > *conns {
		return errors.New("--preconnect must not exceed --conns")
	}
	// Cheap requests open the connections. Each one waits, once it holds a
	// connection, until all of them do: a fast answer would otherwise hand
	// its connection to the next request instead of a new one being dialled.
	if *preconnect > 0 {
		held := make(chan struct{})
		var waiting atomic.Int64
		waiting.Store(int64(*preconnect))
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) {
			if waiting.Add(-1) == 0 {
				close(held)
			}
			select {
			case <-held:
			case <-ctx.Done():
			}
		}}
		var pre sync.WaitGroup
		for i := 0; i < *preconnect; i++ {
			pre.Add(1)
			go func() {
				defer pre.Done()
				cli.Coins(httptrace.WithClientTrace(ctx, trace))
			}()
		}
		pre.Wait()
		cancel()
		fmt.Fprintf(out, "opened %d connections beforehand\n", dials.Load())
	}
	g := &generator{cli: cli, cashierID: t.CashierID, chain: *chain, timeout: *timeout,
		prefix: "LG" + measure.RandomHex(4) + "-", pid: *pid, createUS: *createUS}
	if *hookAddr != "" {
		h, err := startHooks(*hookAddr, g.prefix)
		if err != nil {
			return err
		}
		defer func() { h.report(out, int(g.made.Load()), 30*time.Second) }()
	}
	if *clients > 0 {
		return closedLoop{clients: *clients, duration: *duration, honour: *honour, drop: *drop, pid: *pid, createUS: *createUS}.run(out, g)
	}
	if *overload > 0 {
		return overloadPlan{factor: *overload, step: *step, stepMax: *stepMax, stepFor: *stepFor, duration: *duration,
			settle: *settle, pause: 2 * time.Second, every: *every}.run(out, g)
	}
	fmt.Fprintf(out, "offering %d creates at %.0f/s to %s (%d connections at most)\n", total, *rate, t.BaseURL, *conns)
	res := g.offer(*rate, total)
	res.report(out, *every, *createUS)
	if n := res.failed(); n > 0 {
		return fmt.Errorf("%d requests failed", n)
	}
	return nil
}

// readTarget fills t from a sandbox.json.
func readTarget(path string, t *target) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, t); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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
