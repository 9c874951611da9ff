package tron_test

import (
	"errors"
	"math/big"
	"net/http/httptest"
	"testing"

	"github.com/stablecashier/cashier/faultproxy"
	"github.com/stablecashier/cashier/tron"
)

// A node behind the block asked for answers its transaction infos with []
// and the block with {}: the scan must not read that as a block without
// payments. With every answer lagging the scan fails (and the watcher's
// round with it); with some lagging it still returns the payment, once.
func TestLaggingNodeNeverAnEmptyBlock(t *testing.T) {
	c := newChain(t, t.TempDir(), nil)
	c.setup(1_000_000)
	to := c.recipient()
	c.exec(tron.KeyAddress(c.sender), usdt.PackTransfer(to.EVM(), big.NewInt(1234)))
	paid := c.produce() - 1 // the transfer's block; one more on top
	for range 3 {
		c.produce()
	}
	px, err := faultproxy.New(faultproxy.Config{Target: c.srv.URL, Protocol: faultproxy.TRON, Lag: 6,
		Rates: map[faultproxy.Fault]float64{faultproxy.Lag: 1}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	url := srv.URL
	cl := c.client(func(cfg *tron.Config) { cfg.URLs = []string{url}; cfg.Attempts = 3 })

	// The block holding the transfer is past the lagging node's head.
	got, err := cl.TokenTransfers(ctx, []string{c.token.String()}, paid, paid)
	if !errors.Is(err, tron.ErrBehind) {
		t.Fatalf("all answers lagging: got %v, %v; want ErrBehind", got, err)
	}
	if px.Counts()["lag"] == 0 {
		t.Fatal("the proxy injected no lag")
	}

	px.SetRates(map[faultproxy.Fault]float64{faultproxy.Lag: 0.5})
	cl = c.client(func(cfg *tron.Config) { cfg.URLs = []string{url}; cfg.Attempts = 30 })
	for range 5 {
		got, err = cl.TokenTransfers(ctx, []string{c.token.String()}, paid-1, paid+1)
		if err != nil {
			t.Fatal(err)
		}
		var hits int
		for _, tr := range got {
			if tr.To == to.String() && tr.Amount.Int64() == 1234 && tr.BlockNumber == paid && tr.BlockHash != "" {
				hits++
			}
		}
		if hits != 1 {
			t.Fatalf("half the answers lagging: %d transfers of the payment in %+v", hits, got)
		}
	}
}
