package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	stdhttp "net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
	"gopkg.in/yaml.v3"
)

// switchProxy forwards TCP connections to target while up; while down it
// closes every connection at once, as an unreachable node would.
type switchProxy struct {
	ln     net.Listener
	target string
	up     atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func newSwitchProxy(t *testing.T, target string) *switchProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &switchProxy{ln: ln, target: target}
	p.up.Store(true)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !p.up.Load() {
				c.Close()
				continue
			}
			b, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			go func() { io.Copy(b, c); b.Close() }()
			go func() { io.Copy(c, b); c.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.set(false) })
	return p
}

// set turns the proxy on or off; off also cuts the open connections.
func (p *switchProxy) set(up bool) {
	p.up.Store(up)
	if !up {
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
		p.mu.Unlock()
	}
}

func readyz(t *testing.T, base string) (int, map[string]any) {
	t.Helper()
	res, err := stdhttp.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("readyz body: %v", err)
	}
	return res.StatusCode, body
}

func waitStatus(t *testing.T, base string, want int) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, body := readyz(t, base)
		if code == want {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz stayed %d (%v), want %d", code, body, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// /healthz answers while the process lives; /readyz turns 503, naming the
// failed check, when a network's node is unreachable or the database is
// closed, and ready again when the node is back.
func TestReadiness(t *testing.T) {
	chain, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer chain.Close()
	proxy := newSwitchProxy(t, strings.TrimPrefix(chain.URL, "http://"))
	eth, err := evm.New(evm.Config{Chain: cashier.ChainETH, ChainID: devchain.ChainIDETH, URLs: []string{"http://" + proxy.ln.Addr().String()},
		CallTimeout: time.Second, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()

	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.LeaseTTL = time.Second
	cfg.MetricsAddr = "127.0.0.1:0"
	var logs syncBuffer
	svc, err := app.New(context.Background(), cfg, app.Options{Chains: map[cashier.Chain]cashier.ChainClient{cashier.ChainETH: eth}}, &logs)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- svc.Serve(ctx, ln) }()
	defer func() { cancel(); <-served; svc.Close() }()

	res, err := stdhttp.Get(base + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("/healthz: %v %v", res, err)
	}
	res.Body.Close()
	body := waitStatus(t, base, 200)
	checks, _ := body["checks"].(map[string]any)
	if body["status"] != "ready" || checks["database"] != "ok" || checks["chain ETH"] != "ok" || checks["leases"] != "ok" {
		t.Fatalf("ready body: %v", body)
	}
	// The private listener answers the same.
	for svc.Ops.MetricsAddr() == "" {
		time.Sleep(10 * time.Millisecond)
	}
	if code, _ := readyz(t, "http://"+svc.Ops.MetricsAddr()); code != 200 {
		t.Fatalf("/readyz on the metrics listener: %d", code)
	}

	checkDocumented(t, "/readyz", "200", body)

	// A token alert raised by the executor shows in /readyz (ready still)
	// and in the metrics.
	svc.TokenAlerts.Set(cashier.TokenAlert{Chain: cashier.ChainETH, Symbol: "USDC", Token: "0x00000000000000000000000000000000000000c0",
		Kind: cashier.TokenPaused, Since: time.Now()})
	time.Sleep(1100 * time.Millisecond) // past the readiness cache
	code, body := readyz(t, base)
	if al, _ := body["tokenAlerts"].([]any); code != 200 || len(al) != 1 || al[0].(map[string]any)["kind"] != "paused" {
		t.Fatalf("token alert in /readyz: %d %v", code, body)
	}
	checkDocumented(t, "/readyz", "200", body)
	res, err = stdhttp.Get("http://" + svc.Ops.MetricsAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(mb), `cashier_token_alert{account="",chain="ETH",kind="paused",symbol="USDC"} 1`) {
		t.Fatal("no cashier_token_alert in /metrics")
	}
	svc.TokenAlerts.Clear(cashier.ChainETH, "0x00000000000000000000000000000000000000c0", cashier.TokenPaused, "")

	proxy.set(false)
	body = waitStatus(t, base, 503)
	failed, _ := body["failed"].(map[string]any)
	if body["status"] != "unready" || failed["chain ETH"] == nil || failed["database"] != nil {
		t.Fatalf("node down: %v", body)
	}
	checkDocumented(t, "/readyz", "503", body)
	proxy.set(true)
	waitStatus(t, base, 200)

	svc.Store.Close() // the database goes away under the running service
	body = waitStatus(t, base, 503)
	failed, _ = body["failed"].(map[string]any)
	if failed["database"] == nil || failed["chain ETH"] != nil {
		t.Fatalf("database closed: %v", body)
	}
	// Health checks are not logged per call (the failures are, at warn).
	if n := strings.Count(logs.String(), `"path":"/readyz"`); n != 0 {
		t.Fatalf("%d request log lines for /readyz", n)
	}
}

// checkDocumented requires openapi.yaml to document path's status and
// every field of body.
func checkDocumented(t *testing.T, path, status string, body map[string]any) {
	t.Helper()
	b, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]struct {
			Get struct {
				Responses map[string]struct {
					Content map[string]struct {
						Schema struct {
							Ref string `yaml:"$ref"`
						}
					}
				}
			}
		}
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any
			}
		}
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	resp, ok := doc.Paths[path].Get.Responses[status]
	if !ok {
		t.Fatalf("openapi.yaml: GET %s has no %s response", path, status)
	}
	ref := resp.Content["application/json"].Schema.Ref
	schema := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
	for k := range body {
		if _, ok := schema.Properties[k]; !ok {
			t.Errorf("openapi.yaml: %s (%s) does not document field %q", path, ref, k)
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
