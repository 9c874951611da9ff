package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

func TestSearchClimbsRetriesOnceAndStops(t *testing.T) {
	p := overloadPlan{factor: 3, step: 250}
	var s search
	steps := []struct {
		share float64
		next  float64
	}{
		{1, 500},     // 250 sustained
		{0.995, 750}, // 500 sustained: at least 99 %
		{0.98, 750},  // 750 not sustained: once more
		{1, 1000},    // it was a stall: 750 sustained
		{0.9, 1000},  // 1000 not sustained
		{0.97, 1000}, // nor again: done
	}
	rate := p.step
	for i, st := range steps {
		if s.done {
			t.Fatalf("step %d: search ended early", i)
		}
		rate = s.next(rate, st.share, p)
		if rate != st.next {
			t.Fatalf("step %d: next rate %v, want %v", i, rate, st.next)
		}
	}
	if !s.done || s.sustained != 750 {
		t.Fatalf("done %v, sustained %v; want done at 750", s.done, s.sustained)
	}

	capped := overloadPlan{factor: 3, step: 100, stepMax: 200}
	s = search{}
	s.next(100, 1, capped)
	if s.done {
		t.Fatal("ended below --step-max")
	}
	s.next(200, 1, capped)
	if !s.done || s.sustained != 200 {
		t.Fatalf("done %v, sustained %v; want done at --step-max 200", s.done, s.sustained)
	}
}

func TestArgumentsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"--url", "http://example.com", "--api-key", "k", "--secret-key", "s", "--cashier", "c"},
		{"--url", "http://127.0.0.1:1", "--api-key", "k", "--secret-key", "s", "--cashier", "c", "--rate", "0"},
		{"--url", "http://127.0.0.1:1", "--api-key", "k", "--secret-key", "s", "--cashier", "c", "--overload", "0.5"},
		{"--url", "http://127.0.0.1:1", "--api-key", "k", "--secret-key", "s", "--cashier", "c", "--overload", "3", "--settle", "10s", "--duration", "5s"},
		{"--url", "http://127.0.0.1:1", "--api-key", "k", "--secret-key", "s", "--cashier", "c", "--preconnect", "300"},
	} {
		var out bytes.Buffer
		if err := run(args, &out); err == nil {
			t.Errorf("%q: accepted", args)
		}
		if strings.Contains(out.String(), "offering") || strings.Contains(out.String(), "finding") {
			t.Errorf("%q: sent load before refusing: %s", args, out.String())
		}
	}
}

// startSandbox serves an in-process sandbox until the test ends and
// returns its sandbox.json.
func startSandbox(t *testing.T, adjust func(*config.Config)) string {
	t.Helper()
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Data = dir
	// The load is the point here, not the rate limits (429s count as
	// failures).
	cfg.RateKey, cfg.RateIP, cfg.RateEndpoint = 1e8, 1e8, 1e8
	adjust(&cfg)
	ctx, cancel := context.WithCancel(t.Context())
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sb.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serve: %v", err)
		}
		sb.Close()
	})
	return filepath.Join(dir, sandbox.InfoFile)
}

// TestAgainstSandbox runs both modes against an in-process sandbox: every
// create is checked and counted, and the overload mode finds a rate, offers
// it and a multiple of it, and compares them.
func TestAgainstSandbox(t *testing.T) {
	// Every create must be served, however busy the machine is with other
	// work: no wait bounds (refusals have their own test,
	// TestRefusalsCounted).
	info := startSandbox(t, func(c *config.Config) { c.MaxWait, c.MaxCPUWait = 0, 0 })
	var out bytes.Buffer
	if err := run([]string{"--sandbox", info, "--rate", "200", "--duration", "1s", "--preconnect", "4", "--every", "500ms"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("\n%s", out.String())
	for _, want := range []string{
		`(?m)^opened 4 connections beforehand$`,
		`(?m)^created 200 \(`,
		`(?m)^  from 0s: created \d+`,
		`(?m)^  from 500ms: created \d+`,
		`(?m)^errors: 0$`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("output lacks %s", want)
		}
	}

	out.Reset()
	g, err := newTestGenerator(info)
	if err != nil {
		t.Fatal(err)
	}
	plan := overloadPlan{factor: 2, step: 10, stepMax: 20, stepFor: 500 * time.Millisecond,
		duration: time.Second, settle: 200 * time.Millisecond, pause: 50 * time.Millisecond}
	if err := plan.run(&out, g); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("\n%s", out.String())
	for _, want := range []string{
		`(?m)^  10/s: 100\.0% created`,
		`(?m)^  20/s: 100\.0% created`,
		`(?m)^== the sustainable rate, 20/s for 1s$`,
		`(?m)^== 2× that, 40/s for 1s$`,
		`(?m)^accepted at 20/s: \d+ created/s, p50 \S+, p99 \S+$`,
		`(?m)^accepted at 40/s: \d+ created/s, p50 \S+, p99 \S+$`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("output lacks %s", want)
		}
	}
}

func newTestGenerator(sandboxFile string) (*generator, error) {
	var t target
	if err := readTarget(sandboxFile, &t); err != nil {
		return nil, err
	}
	return &generator{cli: client.New(t.BaseURL, t.APIKey, t.SecretKey), cashierID: t.CashierID,
		chain: "ETH", timeout: 10 * time.Second, prefix: "LGTEST-"}, nil
}

// TestRefusalsCounted offers far more than a service admitting one request
// at a time can take: the 503s are counted as refusals with their reason,
// not as errors, and every request is accounted for.
func TestRefusalsCounted(t *testing.T) {
	info := startSandbox(t, func(c *config.Config) { c.MaxInFlight, c.MaxWait, c.MaxCPUWait = 1, 0, 0 })
	var out bytes.Buffer
	err := run([]string{"--sandbox", info, "--rate", "2000", "--duration", "500ms",
		"--service-pid", strconv.Itoa(os.Getpid()), "--create-cpu-us", "500"}, &out)
	t.Logf("\n%s", out.String())
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^created (\d+) .*\n(?:  .*\n)*refused with 503: (\d+):`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatal("no created and refused lines")
	}
	created, _ := strconv.Atoi(m[1])
	refused, _ := strconv.Atoi(m[2])
	if refused == 0 || created+refused != 1000 {
		t.Fatalf("created %d, refused %d: want refusals, and 1000 requests in all", created, refused)
	}
	// Every created is counted once, calm or not.
	split := regexp.MustCompile(`(?m)^  waited while no CPU tick was stolen: (\d+): .*; while one or more were: (\d+):`).FindStringSubmatch(out.String())
	if split == nil {
		t.Fatal("no line parting the created by the host's steal")
	}
	calm, stolen := atoi(t, split[1]), atoi(t, split[2])
	if calm+stolen != created {
		t.Errorf("parted %d + %d of %d created", calm, stolen, created)
	}
	if !strings.Contains(out.String(), "× the service is busy: it is handling all the requests it admits") {
		t.Error("the refusals' reason is not printed")
	}
	// The service's CPU (the sandbox runs in this process), per refusal.
	if !regexp.MustCompile(`(?m)^service: \d+% of one core, \d+ cpu-µs per answered request, -?[\d.]+ cpu-µs per refusal \(creates costed at 500\)$`).MatchString(out.String()) {
		t.Error("the service's CPU per refusal is not printed")
	}
}

// The service's CPU time is read from /proc/PID/stat, whose command name
// may hold spaces and parentheses.
func TestParseStatCPU(t *testing.T) {
	d, err := parseStatCPU("4242 (cash ier) (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 100 0 0")
	if err != nil || d != 3250*time.Millisecond {
		t.Fatalf("got %v, %v; want 3.25s (325 ticks)", d, err)
	}
	if _, err := parseStatCPU("4242 (x) S 1"); err == nil {
		t.Fatal("a short line was read")
	}
	if _, err := processCPU(1 << 30); err == nil {
		t.Fatal("a process that does not exist has a CPU time")
	}
}

// The host's steal is read per CPU from /proc/stat (the eighth time
// field) and reported as a share of each CPU's time between two readings.
func TestStealReport(t *testing.T) {
	before := parseProcStat("cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 5 0 5 90 0 0 0 0 0 0\ncpu1 5 0 5 80 0 0 0 10 0 0\nintr 1 2 3\n")
	after := parseProcStat("cpu  20 0 20 160 0 0 0 0 0 0\ncpu0 10 0 10 180 0 0 0 0 0 0\ncpu1 10 0 10 140 0 0 0 40 0 0\nintr 1 2 3\n")
	if len(before) != 2 || before["cpu1"] != (cpuTicks{100, 10}) {
		t.Fatalf("parsed %v", before)
	}
	var out bytes.Buffer
	reportSteal(&out, before, after)
	// cpu1: 100 more ticks, 30 of them stolen.
	if got, want := out.String(), "machine: time stolen by the host: cpu0 0%, cpu1 30%\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	out.Reset()
	reportSteal(&out, nil, after)
	if out.Len() != 0 {
		t.Fatalf("printed %q without a first reading", out.String())
	}
	if parseProcStat("cpu0 1 2 x 4 5 6 7 8\n") != nil {
		t.Fatal("an unreadable line was read")
	}
}

// A request counts as waiting through a steal when a tick was stolen
// between the reading at or before it was due and the first at or after
// its answer; the report parts the created by that.
func TestStealTimelineSplit(t *testing.T) {
	ms := time.Millisecond
	s := &stealTimeline{at: []time.Duration{0, 5 * ms, 10 * ms, 15 * ms, 20 * ms}, steal: []int64{7, 7, 8, 8, 8}}
	for _, c := range []struct {
		from, to time.Duration
		want     int64
	}{
		{0, 4 * ms, 0},        // 0..5: nothing
		{6 * ms, 9 * ms, 1},   // 5..10: the tick
		{10 * ms, 12 * ms, 0}, // 10..15: after it
		{1 * ms, 30 * ms, 1},  // past the last reading
		{12 * ms, 15 * ms, 0}, // ends on a reading
		{4 * ms, 5 * ms, 0},   // 0..5
		{5 * ms, 5 * ms, 0},   // empty
	} {
		if got := s.stolen(c.from, c.to); got != c.want {
			t.Errorf("stolen(%v, %v) = %d, want %d", c.from, c.to, got, c.want)
		}
	}
	created := []sample{{0, 2 * ms}, {3 * ms, 4 * ms}, {11 * ms, 1 * ms}, {12 * ms, 2 * ms}}
	calm, stolen := s.split(created)
	if len(calm) != 3 || len(stolen) != 1 || stolen[0] != 4*ms {
		t.Fatalf("calm %v, stolen %v", calm, stolen)
	}
	var out bytes.Buffer
	reportStealSplit(&out, s, created)
	want := "  waited while no CPU tick was stolen: 3: p50 2ms  p99 2ms; while one or more were: 1: p50 4ms  p99 4ms\n" +
		"  of the slowest 1% (1), 1 waited while a tick was stolen\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
	out.Reset()
	reportStealSplit(&out, nil, created)
	if out.Len() != 0 {
		t.Fatalf("printed %q without readings", out.String())
	}
}

// The closed loop against an in-process sandbox: every create answered and
// counted, the service's CPU time read (the sandbox runs in this process);
// with the wait bound low, clients honouring Retry-After see no error and
// no retry refused after waiting as told.
func TestClosedLoop(t *testing.T) {
	info := startSandbox(t, func(c *config.Config) { c.MaxWait = time.Millisecond })
	pid := strconv.Itoa(os.Getpid())
	var out bytes.Buffer
	if err := run([]string{"--sandbox", info, "--clients", "8", "--duration", "1s", "--service-pid", pid}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("\n%s", out.String())
	for _, want := range []string{
		`(?m)^closed loop: 8 clients for 1s, refused creates sent again at once$`,
		`(?m)^created [1-9]\d* \(\d+/s\): p50 \S+  p99 \S+`,
		`(?m)^refused with 503: \d+ \(\d+/s\), 0 of them retries`,
		`(?m)^service: \d+% of one core, \d+ cpu-µs per answered request`,
		`(?m)^machine: time stolen by the host: cpu0 \d+%`,
		`(?m)^errors: 0$`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("output lacks %s", want)
		}
	}
	out.Reset()
	if err := run([]string{"--sandbox", info, "--clients", "32", "--duration", "2s", "--honour-retry-after",
		"--service-pid", pid, "--create-cpu-us", "500"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("\n%s", out.String())
	for _, want := range []string{
		`(?m)^closed loop: 32 clients for 2s, refused creates sent again after Retry-After$`,
		`(?m)^created [1-9]\d* `,
		`(?m)^refused with 503: \d+ \(\d+/s\), 0 of them retries sent after waiting as told$`,
		`(?m)^errors: 0$`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("output lacks %s", want)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
