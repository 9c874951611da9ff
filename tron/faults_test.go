package tron_test

import (
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/faultproxy"
	"github.com/stablecashier/cashier/tron"
)

// Through a provider that answers 429 with Retry-After and TronGrid's 403
// "suspended for Ns", 502/503 with HTML, stalls, cuts and lags, reads
// answer right and nothing comes back before a pause asked for has
// passed; a broadcast whose answer is lost is still one transaction.
func TestProviderFaults(t *testing.T) {
	c := newChain(t, "", nil)
	c.setup(500_000_000)
	for range 6 {
		c.produce()
	}
	px, err := faultproxy.New(faultproxy.Config{Target: c.srv.URL, Protocol: faultproxy.TRON, Seed: 5,
		RetryAfter: time.Second, Delay: 500 * time.Millisecond, Lag: 3,
		Rates: map[faultproxy.Fault]float64{faultproxy.RateLimit: 0.08, faultproxy.Upstream: 0.1, faultproxy.Delay: 0.05,
			faultproxy.Cut: 0.1, faultproxy.Lag: 0.2}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	cl := c.client(func(cfg *tron.Config) {
		cfg.URLs, cfg.Attempts, cfg.Timeout = []string{srv.URL}, 30, 200*time.Millisecond
	})
	head := c.produce()
	for i := range 30 {
		b, err := cl.BlockByNumber(ctx, head-uint64(i%5))
		if err != nil || b.Number != head-uint64(i%5) {
			t.Fatalf("read %d: %+v %v", i, b, err)
		}
		bal, err := cl.TokenBalance(ctx, c.token.String(), tron.KeyAddress(c.sender).String())
		if err != nil || bal.Int64() != 500_000_000 {
			t.Fatalf("balance read %d: %v %v", i, bal, err)
		}
	}
	n := px.Counts()
	for _, f := range []faultproxy.Fault{faultproxy.RateLimit, faultproxy.Upstream, faultproxy.Delay, faultproxy.Cut, faultproxy.Lag} {
		if n[string(f)] == 0 {
			t.Errorf("fault %s never injected: %v", f, n)
		}
	}
	if n["early"] != 0 {
		t.Errorf("%d requests came back before the pause asked for: %v", n["early"], n)
	}

	// Every answer to the broadcast is lost: the caller hears an error,
	// but the node has the transaction. Broadcasting the same signed
	// transaction again (what the executor's journal does) meets it as a
	// duplicate: one transfer.
	px.SetRates(map[faultproxy.Fault]float64{faultproxy.LostSend: 1})
	to := c.recipient()
	signed, err := cl.SignCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(to.EVM(), big.NewInt(55))})
	if err != nil {
		t.Fatal(err)
	}
	few := c.client(func(cfg *tron.Config) { cfg.URLs, cfg.Attempts = []string{srv.URL}, 3 })
	if _, err := few.Broadcast(ctx, signed.Raw); err == nil {
		t.Fatal("broadcast with every answer lost reported success")
	}
	px.SetRates(nil)
	id, err := cl.Broadcast(ctx, signed.Raw)
	if err != nil {
		t.Fatalf("broadcast again: %v", err)
	}
	c.produce()
	r, err := cl.Receipt(ctx, id)
	if err != nil || r == nil || !r.Success {
		t.Fatalf("receipt %+v %v", r, err)
	}
	if px.Counts()["lostsend"] == 0 {
		t.Fatal("no broadcast answer was lost")
	}
	bal, _ := cl.TokenBalance(ctx, c.token.String(), to.String())
	if bal.Int64() != 55 {
		t.Fatalf("recipient holds %v, want 55 (one transaction)", bal)
	}
}

// A node whose URL carries a key in its path (as some hosts give them) is
// named by scheme and host in the client's errors.
func TestErrorsHideTheNodesPath(t *testing.T) {
	dead := httptest.NewServer(nil)
	base := dead.URL
	dead.Close() // connections are refused from here on
	c, err := tron.New(tron.Config{URLs: []string{base + "/S3CRETKEY"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Head(t.Context())
	if err == nil || strings.Contains(err.Error(), "S3CRETKEY") || !strings.Contains(err.Error(), base) {
		t.Fatalf("error %v", err)
	}
}
