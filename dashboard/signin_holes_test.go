package dashboard_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
)

// signInForm is a browser holding a fresh sign-in form: its pre-session
// cookie and the form's token.
type signInForm struct {
	e     *env
	c     *http.Client
	token string
}

func (e *env) signInForm() *signInForm {
	e.t.Helper()
	jar, _ := cookiejar.New(nil)
	f := &signInForm{e: e, c: &http.Client{Jar: jar}}
	res, err := f.c.Get(e.srv.URL + "/dashboard/signin")
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if f.token = between(string(body), `name="csrf" value="`, `"`); f.token == "" {
		e.t.Fatal("sign-in form without a token")
	}
	return f
}

// signInAnswer is what a sign-in post got back.
type signInAnswer struct {
	status     int
	retryAfter string
	body       string
	err        error
}

// post submits the form from client address ip (sent as X-Forwarded-For
// through the test's trusted proxy, the loopback peer). Safe to call from
// any goroutine.
func (f *signInForm) post(ip, email, password, code string) signInAnswer {
	form := url.Values{"csrf": {f.token}, "email": {email}, "password": {password}, "code": {code}}
	req, _ := http.NewRequest("POST", f.e.srv.URL+"/dashboard/signin", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", ip)
	res, err := f.c.Do(req)
	if err != nil {
		return signInAnswer{err: err}
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return signInAnswer{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"), body: string(body)}
}

// memoryWatch follows this process's peak resident memory and Go heap
// while a test step runs: the kernel's high-water mark (VmHWM, reset at
// the start) and samples every millisecond, which also give the heap.
type memoryWatch struct {
	stop, done        chan struct{}
	rssBefore         uint64
	heapBefore        uint64
	peakRSS, peakHeap uint64
}

func watchMemory(t *testing.T) *memoryWatch {
	t.Helper()
	// Start from what is live, not from garbage of earlier tests.
	runtime.GC()
	debug.FreeOSMemory()
	m := &memoryWatch{stop: make(chan struct{}), done: make(chan struct{})}
	m.rssBefore, m.heapBefore = rss(t), heapObjects()
	// Writing 5 resets the peak to the current size (Linux ≥ 4.0).
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("cannot reset the RSS peak (%v): sampling only", err)
	}
	m.peakRSS, m.peakHeap = m.rssBefore, m.heapBefore
	go func() {
		defer close(m.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			m.peakRSS, m.peakHeap = max(m.peakRSS, rss(t)), max(m.peakHeap, heapObjects())
			select {
			case <-m.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

// end stops the sampling and takes the kernel's peak into account.
func (m *memoryWatch) end(t *testing.T) {
	close(m.stop)
	<-m.done
	if hwm := statusKB(t, "VmHWM:"); hwm > m.peakRSS {
		m.peakRSS = hwm
	}
}

const mib = 1 << 20

func rss(t *testing.T) uint64 { return statusKB(t, "VmRSS:") }

// statusKB reads a field of /proc/self/status, in bytes.
func statusKB(t *testing.T, field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatalf("this test measures memory through /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s %q: %v", field, rest, err)
			}
			return kb * 1024
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Hole: each sign-in attempt (an unknown email too) ran a 64 MiB argon2id
// check with no bound on how many ran at once; 60 at once from one /64
// took the process from 395 MB to 4.0 GB. Now at most PasswordChecks run
// and the rest are refused at once with 503 and Retry-After, so a flood of
// sign-ins from different addresses of one /64 leaves memory bounded while
// a public API call still answers.
func TestSignInFloodKeepsMemoryBounded(t *testing.T) {
	const checks, flood = 1, 20
	e := newEnv(t, func(c *config.Config) {
		c.TrustedProxies = "127.0.0.1/32,::1/128" // the test client speaks for the flood's addresses
		c.DashboardPasswordChecks = checks
		c.RateIP, c.RateEndpoint = 1_000_000, 1_000_000 // the API client below calls as fast as it is answered
	})
	if got := dashboard.PasswordChecks(e.svc.Dashboard); got != checks {
		t.Fatalf("dashboard runs %d password checks at once, configured %d", got, checks)
	}
	// The scheduler as the service runs it: one P more than the CPUs
	// (app/procs.go), which a check's two lanes leave free for requests.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtime.NumCPU() + 1))
	forms := make([]*signInForm, flood)
	for i := range forms {
		forms[i] = e.signInForm()
	}
	callAPI := func() (time.Duration, int, error) {
		began := time.Now()
		res, err := http.Get(e.srv.URL + api.PathCoins)
		if err != nil {
			return 0, 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(began), res.StatusCode, nil
	}
	// The API's latency without a flood, for the log.
	var quiet []time.Duration
	for range 100 {
		took, status, err := callAPI()
		if err != nil || status != http.StatusOK {
			t.Fatalf("public API before the flood: %d %v", status, err)
		}
		quiet = append(quiet, took)
	}

	mem := watchMemory(t)
	answers := make([]signInAnswer, flood)
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for i, f := range forms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			// Unknown emails: no per-account limit applies, and each still
			// costs a full check.
			answers[i] = f.post(fmt.Sprintf("2001:db8:77:1::%x", i+1), fmt.Sprintf("flood-%d@nowhere.example", i), "a guess at a password", "")
		}()
	}
	// A public API client calls one after another until the flood is
	// answered: every call must be answered (how fast is logged, not
	// judged: timings belong in benchmarks).
	type apiCalls struct {
		n, ok int
		took  []time.Duration
		err   error
	}
	floodDone, apiDone := make(chan struct{}), make(chan apiCalls, 1)
	close(start)
	go func() {
		var c apiCalls
		defer func() { apiDone <- c }()
		for first := true; first; {
			select {
			case <-floodDone:
				first = c.n == 0 // at least one call, even after a quick flood
			default:
			}
			took, status, err := callAPI()
			if err != nil {
				c.err = err
				return
			}
			c.n, c.took = c.n+1, append(c.took, took)
			if status == http.StatusOK {
				c.ok++
			}
		}
	}()
	wg.Wait()
	close(floodDone)
	pub := <-apiDone
	mem.end(t)

	counts := map[int]int{}
	for i, a := range answers {
		if a.err != nil {
			t.Fatalf("sign-in %d: %v", i, a.err)
		}
		counts[a.status]++
		switch a.status {
		case http.StatusUnauthorized: // checked, and wrong
		case http.StatusServiceUnavailable:
			if a.retryAfter != "1" || !strings.Contains(a.body, "busy checking other sign-ins") {
				t.Errorf("busy refusal %d: Retry-After %q, page without the busy message", i, a.retryAfter)
			}
		default:
			t.Errorf("sign-in %d answered %d, want 401 or 503", i, a.status)
		}
	}
	t.Logf("%d concurrent sign-ins from one /64: %d checked (401), %d refused busy (503)", flood,
		counts[http.StatusUnauthorized], counts[http.StatusServiceUnavailable])
	t.Logf("peak RSS %d MiB (%d MiB before, +%d MiB); Go heap peak %d MiB (+%d MiB)",
		mem.peakRSS/mib, mem.rssBefore/mib, (mem.peakRSS-mem.rssBefore)/mib, mem.peakHeap/mib, (mem.peakHeap-mem.heapBefore)/mib)
	t.Logf("public API: %d of %d calls during the flood answered 200 in %s; before it %s", pub.ok, pub.n, spread(pub.took), spread(quiet))
	if counts[http.StatusServiceUnavailable] == 0 || counts[http.StatusUnauthorized] == 0 {
		t.Errorf("want some sign-ins checked and the excess refused, got %v", counts)
	}
	// Each check holds 64 MiB; with every attempt checked at once the
	// flood needs flood×64 MiB (1.25 GiB).
	bound := uint64(checks+2) * 64 * mib
	if grew := mem.peakRSS - mem.rssBefore; grew > bound {
		t.Errorf("RSS grew by %d MiB during the flood, bound %d MiB", grew/mib, bound/mib)
	}
	if grew := mem.peakHeap - mem.heapBefore; grew > bound {
		t.Errorf("Go heap grew by %d MiB during the flood, bound %d MiB", grew/mib, bound/mib)
	}
	if pub.err != nil || pub.n == 0 || pub.ok != pub.n {
		t.Errorf("public API during the flood: %d of %d calls answered 200 (%v)", pub.ok, pub.n, pub.err)
	}
}

// While every check slot is taken, sign-ins are answered 503 without
// waiting for one: they return while the slots are still held. Refusals
// cost no attempt, so the same addresses sign in once the slots are free.
func TestSignInBusyRefusedAtOnce(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.TrustedProxies = "127.0.0.1/32,::1/128" })
	const n = 8
	forms := make([]*signInForm, n)
	for i := range forms {
		forms[i] = e.signInForm()
	}
	dashboard.SetSignInPerIP(e.svc.Dashboard, n) // refusals that counted would use it up
	release := dashboard.HoldPasswordChecks(e.svc.Dashboard)
	answers := make([]signInAnswer, n)
	var wg sync.WaitGroup
	for i, f := range forms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = f.post(fmt.Sprintf("2001:db8:88:1::%x", i+1), "owner@one.example", testPassword, "")
		}()
	}
	wg.Wait() // every slot is still held
	release()
	for i, a := range answers {
		if a.err != nil || a.status != http.StatusServiceUnavailable || a.retryAfter != "1" {
			t.Fatalf("sign-in %d while the checks are busy: %d Retry-After %q %v, want 503 at once", i, a.status, a.retryAfter, a.err)
		}
	}
	// The per-account limit (5) would refuse a sixth counted attempt.
	for i := range 2 {
		if a := e.signInForm().post("2001:db8:88:1::1", "owner@one.example", testPassword, ""); a.status != http.StatusOK {
			t.Fatalf("sign-in %d after the slots are free: %d", i, a.status)
		}
	}
}

// Hole: the dashboard counted IPv6 clients per full address, so one /64
// had unlimited attempts. It now counts them by the API's prefix setting.
func TestSignInRateLimitedPerIPv6Prefix(t *testing.T) {
	// The window stands still however slowly the machine hashes.
	clock := cashier.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	e := newEnvClock(t, func(c *config.Config) { c.TrustedProxies = "127.0.0.1/32,::1/128" }, clock)
	dashboard.SetSignInPerIP(e.svc.Dashboard, 2)
	try := func(ip, email, password string) int {
		t.Helper()
		a := e.signInForm().post(ip, email, password, "")
		if a.err != nil {
			t.Fatal(a.err)
		}
		return a.status
	}
	// Different accounts, so only the per-IP limit can refuse.
	if st := try("2001:db8:5:6::1", "owner@one.example", "wrong password!!"); st != http.StatusUnauthorized {
		t.Fatalf("first attempt from the /64: %d", st)
	}
	if st := try("2001:db8:5:6::2", "developer@one.example", "wrong password!!"); st != http.StatusUnauthorized {
		t.Fatalf("second attempt from the /64: %d", st)
	}
	if st := try("2001:db8:5:6:ffff:ffff:ffff:3", "viewer@one.example", testPassword); st != http.StatusTooManyRequests {
		t.Fatalf("third attempt from another address of the /64: %d, want 429", st)
	}
	if st := try("2001:db8:5:7::1", "viewer@one.example", testPassword); st != http.StatusOK {
		t.Fatalf("attempt from the next /64: %d, want 200", st)
	}
	if st := try("192.0.2.1", "reviewer@one.example", testPassword); st != http.StatusOK {
		t.Fatalf("attempt from IPv4: %d, want 200", st)
	}

	// The prefix is the API's setting (CASHIER_IPV6_PREFIX).
	d, err := dashboard.New(dashboard.Config{IPv6Prefix: 56}, dashboard.Deps{Store: e.svc.Store, Registry: e.svc.Registry, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := dashboard.IPBucket(d, "2001:db8:5:6::1"), dashboard.IPBucket(d, "2001:db8:5:7f::2"); a != b || a != "2001:db8:5::/56" {
		t.Fatalf("with a /56 prefix: buckets %s and %s", a, b)
	}
	if a := dashboard.IPBucket(e.svc.Dashboard, "2001:db8:5:7f::2"); a != "2001:db8:5:7f::/64" {
		t.Fatalf("default bucket %s", a)
	}
	for _, bad := range []int{-1, 129} {
		if _, err := dashboard.New(dashboard.Config{IPv6Prefix: bad}, dashboard.Deps{Store: e.svc.Store, Registry: e.svc.Registry, Clock: clock}); err == nil {
			t.Fatalf("IPv6 prefix %d accepted", bad)
		}
	}
}

// Hole: a TOTP code could be used again (three sign-ins with one code
// succeeded). Each user's last accepted step is kept in the store, so a
// code signs in once, an earlier step's code never again, and another
// instance on the same database (or a restart) knows it too.
func TestTOTPCodeSignsInOnce(t *testing.T) {
	clock := cashier.NewManualClock(time.Date(2026, 1, 2, 3, 4, 10, 0, time.UTC))
	e := newEnvClock(t, nil, clock)
	u := e.signIn("developer@one.example")
	secret := []byte("abcdefghij0123456789")
	code := func(ahead time.Duration) string { return dashboard.TOTPCode(secret, clock.Now().Add(ahead)) }
	if st, out := u.post("/dashboard/api/account/totp", map[string]any{"secret": dashboard.TOTPSecretText(secret), "code": code(0)}, u.csrf); st != 200 {
		t.Fatalf("turn on: %d %v", st, out)
	}
	signIn := func(e *env, code string) int {
		t.Helper()
		_, res := e.trySignIn("developer@one.example", testPassword, code)
		return res.StatusCode
	}
	if st := signIn(e, code(0)); st != http.StatusUnauthorized {
		t.Fatalf("sign-in with the code that turned TOTP on: %d, want 401", st)
	}
	clock.Advance(30 * time.Second)
	first := code(0)
	if st := signIn(e, first); st != http.StatusOK {
		t.Fatalf("sign-in with a fresh code: %d", st)
	}
	for i := 2; i <= 3; i++ {
		if st := signIn(e, first); st != http.StatusUnauthorized {
			t.Fatalf("sign-in %d with one code: %d, want 401", i, st)
		}
	}
	// A minute later (fresh attempt limits) the used code is still inside
	// the drift window, and still refused.
	clock.Advance(30 * time.Second)
	if st := signIn(e, first); st != http.StatusUnauthorized {
		t.Fatalf("used code of the previous step: %d, want 401", st)
	}

	// A second instance on the same database.
	svc2, err := app.New(context.Background(), e.cfg, app.Options{Chains: map[cashier.Chain]cashier.ChainClient{}, Clock: clock}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc2.Close() })
	srv2 := httptest.NewServer(svc2.Handler)
	t.Cleanup(srv2.Close)
	other := &env{t: t, cfg: e.cfg, svc: svc2, srv: srv2}

	now := code(0)
	if st := signIn(e, now); st != http.StatusOK {
		t.Fatalf("sign-in on the first instance: %d", st)
	}
	if st := signIn(other, now); st != http.StatusUnauthorized {
		t.Fatalf("the same code on the second instance: %d, want 401", st)
	}
	next := code(30 * time.Second) // a phone a step ahead
	if st := signIn(other, next); st != http.StatusOK {
		t.Fatalf("the next step's code on the second instance: %d", st)
	}
	if st := signIn(e, now); st != http.StatusUnauthorized {
		t.Fatalf("an earlier code after a later one was accepted: %d, want 401", st)
	}
	usr, err := e.svc.Store.UserByEmail(context.Background(), "developer@one.example")
	if err != nil {
		t.Fatal(err)
	}
	if want := dashboard.TOTPStepAt(clock.Now()) + 1; usr.TOTPStep != want {
		t.Fatalf("stored step %d, want %d", usr.TOTPStep, want)
	}
}

// spread is the median and slowest of some durations.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return fmt.Sprintf("median %s, 99th percentile %s, slowest %s", ds[len(ds)/2].Round(10*time.Microsecond), ds[len(ds)*99/100].Round(10*time.Microsecond), ds[len(ds)-1].Round(10*time.Microsecond))
}
