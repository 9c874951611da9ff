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

// Shutting down lets a request that is already being served finish, and
// refuses new connections.
func TestServeShutsDownGracefully(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	svc, err := New(context.Background(), cfg, Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	inside := make(chan struct{})
	release := make(chan struct{})
	api := svc.Handler
	svc.Handler = stdhttp.HandlerFunc(func(w stdhttp.ResponseWriter, r *stdhttp.Request) {
		if r.URL.Path == "/slow" {
			close(inside)
			<-release
			w.Write([]byte("finished"))
			return
		}
		api.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- svc.Serve(ctx, ln) }()

	res, err := stdhttp.Get(base + "/admin/api/v2/pub/network/list")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("before shutdown: %v %v", res, err)
	}
	res.Body.Close()

	slow := make(chan string, 1)
	go func() {
		res, err := stdhttp.Get(base + "/slow")
		if err != nil {
			slow <- "error: " + err.Error()
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		slow <- string(b)
	}()
	<-inside
	stop() // SIGTERM arrives while /slow is in flight
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-served:
		t.Fatalf("Serve returned (%v) with a request in flight", err)
	default:
	}
	if _, err := stdhttp.Get(base + "/admin/api/v2/pub/network/list"); err == nil {
		t.Fatal("a new request was accepted during shutdown")
	}
	close(release)
	if got := <-slow; got != "finished" {
		t.Fatalf("in-flight request: %q", got)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return after the last request finished")
	}
}

func TestHTTPConfig(t *testing.T) {
	cfg := config.Default()
	cfg.SignEncodings = "raw, urlencoded"
	cfg.TrustedProxies = "10.0.0.0/8, 192.168.1.1/32"
	c, err := HTTPConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Encodings) != 2 || len(c.TrustedProxies) != 2 || c.RateLimits.PerEndpoint != 100 || c.Window.Max != 60*time.Second {
		t.Fatalf("HTTPConfig = %+v", c)
	}
	for _, bad := range []func(*config.Config){
		func(c *config.Config) { c.SignEncodings = "base64" },
		func(c *config.Config) { c.TrustedProxies = "10.0.0.0/33" },
	} {
		cfg := config.Default()
		bad(&cfg)
		if _, err := HTTPConfig(cfg); err == nil {
			t.Errorf("HTTPConfig accepted %+v", cfg)
		}
	}
}

func testConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	return cfg
}

func mustRegistry(t *testing.T) *cashier.Registry {
	r, err := config.LoadRegistry("")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
