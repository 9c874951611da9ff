package app

import (
	"context"
	"io"
	"net"
	stdhttp "net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
)

// instance is one running service on a shared data directory.
type instance struct {
	svc  *Service
	base string
	stop func()
}

func startInstance(t *testing.T, cfg config.Config) *instance {
	t.Helper()
	svc, err := New(context.Background(), cfg, Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- svc.Serve(ctx, ln) }()
	in := &instance{svc: svc, base: "http://" + ln.Addr().String()}
	stopped := false
	in.stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-served
			svc.Close()
		}
	}
	t.Cleanup(in.stop)
	return in
}

func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two instances on one database see each other, and each enforces half of
// a rate limit; when one stops, the other takes the whole limit again.
func TestRateLimitsSharedAmongInstances(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.RateEndpoint = 4 // public endpoints: 4 per minute per client IP
	cfg.LeaseTTL = time.Second
	a := startInstance(t, cfg)
	b := startInstance(t, cfg)
	eventually(t, 10*time.Second, "both see two live instances", func() bool {
		return a.svc.Ops.LiveInstances() == 2 && b.svc.Ops.LiveInstances() == 2
	})
	get := func(base string) *stdhttp.Response {
		res, err := stdhttp.Get(base + "/admin/api/v2/pub/coin/list")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	// The counts reset when the minute turns: keep clear of it.
	if now := time.Now(); now.Second() >= 50 {
		time.Sleep(now.Truncate(time.Minute).Add(time.Minute).Sub(now))
	}
	for i, want := range []int{200, 200, 429} {
		res := get(a.base)
		if res.StatusCode != want {
			t.Fatalf("request %d to A: %d, want %d", i, res.StatusCode, want)
		}
		if res.Header.Get("X-RateLimit-Limit") != "4" {
			t.Fatalf("request %d: X-RateLimit-Limit %q, want the whole limit 4", i, res.Header.Get("X-RateLimit-Limit"))
		}
	}
	if res := get(b.base); res.StatusCode != 200 {
		t.Fatalf("B refused its own share: %d", res.StatusCode)
	}

	a.stop()
	eventually(t, 10*time.Second, "B sees itself alone", func() bool { return b.svc.Ops.LiveInstances() == 1 })
	if res := get(b.base); res.StatusCode != 200 {
		t.Fatalf("B alone refused the 2nd of 4: %d", res.StatusCode)
	}
}

// Every log line written for a request carries its request id: the
// caller's X-Request-Id when plausible, else the generated one, echoed in
// the response either way.
func TestRequestIDInLogs(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	var logs lockedBuffer
	svc, err := New(context.Background(), cfg, Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, &logs)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for _, c := range []struct{ sent, want string }{{"edge-7f3a", "edge-7f3a"}, {"", ""}, {"bad id with spaces", ""}} {
		req := httptest.NewRequest("GET", "/admin/api/v2/pub/network/list", nil)
		if c.sent != "" {
			req.Header.Set("X-Request-Id", c.sent)
		}
		rec := httptest.NewRecorder()
		svc.Handler.ServeHTTP(rec, req)
		got := rec.Header().Get("X-Request-Id")
		if got == "" || (c.want != "" && got != c.want) || got == c.sent && c.want == "" {
			t.Fatalf("sent %q: echoed %q", c.sent, got)
		}
		if !strings.Contains(logs.String(), `"requestId":"`+got+`"`) {
			t.Fatalf("no log line with requestId %q:\n%s", got, logs.String())
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
