package app

import (
	"context"
	"io"
	"log/slog"
	stdhttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
)

// The profiling endpoint answers on its own listener and nowhere else: the
// public handler knows no /debug/pprof path.
func TestProfilingOnlyOnItsOwnListener(t *testing.T) {
	addr, stop, err := startProfiling("127.0.0.1:0", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := stdhttp.Get("http://" + addr + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "app.test") {
		t.Fatalf("profiling endpoint: %d %q", res.StatusCode, body)
	}

	cfg := config.Default()
	cfg.Data = t.TempDir()
	svc, err := New(context.Background(), cfg, Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	pub := httptest.NewServer(svc.Handler)
	defer pub.Close()
	for _, p := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/heap"} {
		res, err := stdhttp.Get(pub.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != stdhttp.StatusNotFound {
			t.Fatalf("public listener answers %s with %d", p, res.StatusCode)
		}
	}
	if cfg.PprofAddr != "" {
		t.Fatal("profiling must be off by default")
	}
}
