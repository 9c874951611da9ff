package app_test

import (
	"context"
	"io"
	"net"
	stdhttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
)

// networkOf is the entry for chain in a /readyz body's networks.
func networkOf(t *testing.T, body map[string]any, chain string) map[string]any {
	t.Helper()
	list, _ := body["networks"].([]any)
	for _, e := range list {
		if m, _ := e.(map[string]any); m["chain"] == chain {
			return m
		}
	}
	t.Fatalf("/readyz names no network %s: %v", chain, body["networks"])
	return nil
}

func scrapeText(t *testing.T, addr string) string {
	t.Helper()
	res, err := stdhttp.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// A service with a node for Ethereum only: /readyz is ready and names the
// other networks as not active (no node), the metrics say so, and their
// orders are refused. Ethereum's node going away leaves the network active
// but reported (readyz, metrics, the log once); back, it is whole again
// without a restart.
func TestNetworksNeverPretend(t *testing.T) {
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

	body := waitStatus(t, base, 200)
	checkDocumented(t, "/readyz", "200", body)
	for _, c := range []string{"TRON", "ARB"} {
		n := networkOf(t, body, c)
		if n["state"] != "no node" || n["active"] != false || !strings.Contains(n["reason"].(string), "no node URL is configured for "+c) {
			t.Fatalf("%s in /readyz: %v", c, n)
		}
		err := svc.Orders.Networks.Inactive(cashier.Chain(c))
		if cashier.ErrorCode(err) != cashier.ENetworkMaintenance || !strings.Contains(err.Error(), c) {
			t.Fatalf("%s order gate: %v", c, err)
		}
	}
	if n := networkOf(t, body, "ETH"); n["state"] != "active" || n["active"] != true {
		t.Fatalf("ETH in /readyz: %v", n)
	}
	for svc.Ops.MetricsAddr() == "" {
		time.Sleep(10 * time.Millisecond)
	}
	m := scrapeText(t, svc.Ops.MetricsAddr())
	for _, want := range []string{`cashier_network_active{chain="TRON"} 0`, `cashier_network_active{chain="ARB"} 0`, `cashier_network_active{chain="ETH"} 1`,
		`cashier_network_state{chain="TRON",state="no node"} 1`, `cashier_network_state{chain="ETH",state="active"} 1`} {
		if !strings.Contains(m, want) {
			t.Fatalf("no %s in:\n%s", want, grepLines(m, "cashier_network"))
		}
	}

	// The node goes away: ETH stays active and is reported.
	proxy.set(false)
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, body = readyz(t, base)
		if n := networkOf(t, body, "ETH"); n["state"] == "unreachable" {
			if n["active"] != true || n["reason"] == nil {
				t.Fatalf("ETH unreachable: %v", n)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ETH never reported unreachable: %v", body)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if err := svc.Orders.Networks.Inactive(cashier.ChainETH); err != nil {
		t.Fatalf("an unreachable network refuses orders: %v", err)
	}
	if m := scrapeText(t, svc.Ops.MetricsAddr()); !strings.Contains(m, `cashier_network_state{chain="ETH",state="unreachable"} 1`) || !strings.Contains(m, `cashier_network_active{chain="ETH"} 1`) {
		t.Fatalf("metrics with ETH down:\n%s", grepLines(m, "cashier_network"))
	}
	for !strings.Contains(logs.String(), `"msg":"network unreachable`) {
		if time.Now().After(deadline) {
			t.Fatalf("no log of ETH unreachable:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Back: whole again, logged once, without a restart.
	proxy.set(true)
	for {
		_, body = readyz(t, base)
		if networkOf(t, body, "ETH")["state"] == "active" && strings.Contains(logs.String(), `"msg":"network watched again"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ETH not whole again: %v", body)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), `"msg":"network unreachable`); n != 1 {
		t.Fatalf("the unreachable network logged %d times:\n%s", n, logs.String())
	}
}

// With no node at all (a production start with none configured), /readyz
// answers 503 naming every network and why.
func TestReadyzNoNetwork(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	svc, err := app.New(context.Background(), cfg, app.Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, io.Discard)
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
	defer func() { cancel(); <-served; svc.Close() }()
	body := waitStatus(t, "http://"+ln.Addr().String(), 503)
	checkDocumented(t, "/readyz", "503", body)
	failed, _ := body["failed"].(map[string]any)
	msg, _ := failed["networks"].(string)
	for _, n := range svc.Registry.Networks {
		if !strings.Contains(msg, "no node URL is configured for "+string(n.Chain)) {
			t.Errorf("failed networks %q does not name %s", msg, n.Chain)
		}
		if networkOf(t, body, string(n.Chain))["state"] != "no node" {
			t.Errorf("%s: %v", n.Chain, body["networks"])
		}
	}
}
