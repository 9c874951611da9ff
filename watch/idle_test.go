package watch_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/watch"
)

// countingScanner counts the node reads a watcher makes.
type countingScanner struct {
	watch.Scanner
	reads atomic.Int64
}

func (c *countingScanner) Head(ctx context.Context) (cashier.BlockRef, error) {
	c.reads.Add(1)
	return c.Scanner.Head(ctx)
}

func (c *countingScanner) BlockByNumber(ctx context.Context, n uint64) (cashier.BlockRef, error) {
	c.reads.Add(1)
	return c.Scanner.BlockByNumber(ctx, n)
}

func (c *countingScanner) TokenTransfers(ctx context.Context, tokens []string, from, to uint64) ([]cashier.Transfer, error) {
	c.reads.Add(1)
	return c.Scanner.TokenTransfers(ctx, tokens, from, to)
}

// A round that finds the head it last applied reads the head alone (node
// providers count requests); a new head is checked and scanned again.
func TestIdleRoundReadsTheHeadAlone(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 2, period: time.Hour})
	c := &countingScanner{Scanner: r.svc.Chains[cashier.ChainETH].(watch.Scanner)}
	w := watch.New(watch.Config{Chain: cashier.ChainETH, Tokens: []string{r.usdt.Hex()}, Confirmations: 2}, c, r.svc.Orders, slog.New(slog.DiscardHandler))
	o := r.order(t, "1.00")
	r.chain.Commit()
	must(t, w.Round(ctx))
	r.chain.Commit()
	must(t, w.Round(ctx))

	for range 3 {
		before := c.reads.Load()
		must(t, w.Round(ctx))
		if n := c.reads.Load() - before; n != 1 {
			t.Fatalf("a round on the same head made %d node reads, want 1", n)
		}
	}
	r.pay(t, o.DepositAddress, 1_000_000)
	r.chain.Commit()
	before := c.reads.Load()
	must(t, w.Round(ctx))
	if n := c.reads.Load() - before; n < 3 {
		t.Fatalf("a round on a new head made %d node reads, want the head, the confirmed block's check and the scans", n)
	}
	r.chain.Commit()
	must(t, w.Round(ctx))
	if got, _ := r.reload(t, o.ID); got.Status != cashier.CollectionSuccess {
		t.Fatalf("order %s after its payment was confirmed", got.Status)
	}
}
