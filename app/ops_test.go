package app

import (
	"context"
	"io"
	"net"
	stdhttp "net/http"
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
