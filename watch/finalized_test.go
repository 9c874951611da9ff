package watch_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/stablecashier/cashier"
)

// With eth-finality finalized a payment is credited once the chain's
// finalized block (the `finalized` tag; the dev chain finalizes every 32
// blocks, like an epoch) reaches it, not at the confirmation count: 27
// blocks deep, far past the 2 confirmations, it is only seen; once the
// finalized block passes it, it is credited.
func TestFinalizedModeCreditsAtTheFinalizedBlock(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 2, period: time.Hour, finalized: true})
	w := r.svc.Watchers[0]
	if n, _ := r.svc.Registry.Network(cashier.ChainETH); !n.Finalized {
		t.Fatal("the registry does not say ETH payments count at the finalized block: the page would count to the confirmations")
	}
	o := r.order(t, "5.00")
	must(t, w.Round(ctx))
	paid := r.pay(t, o.DepositAddress, 5_000_000)
	rc, err := r.chain.Client.TransactionReceipt(ctx, paid)
	must(t, err)
	if rc.BlockNumber.Uint64() >= 32 {
		t.Fatalf("paid in block %d, past the first finalized epoch", rc.BlockNumber)
	}
	finalized := func() uint64 {
		h, err := r.chain.Client.HeaderByNumber(ctx, big.NewInt(int64(rpc.FinalizedBlockNumber)))
		must(t, err)
		return h.Number.Uint64()
	}
	for head := rc.BlockNumber.Uint64(); head < 31; head++ {
		r.chain.Commit()
	}
	must(t, w.Round(ctx))
	got, ps := r.reload(t, o.ID)
	if f := finalized(); f >= rc.BlockNumber.Uint64() || got.Status != cashier.CollectionPending ||
		len(ps) != 1 || ps[0].Status != cashier.PaymentSeen || got.PaidAmount.Sign() != 0 {
		t.Fatalf("at head 31, finalized %d, paid in %d: order %s paid %s, payments %+v", f, rc.BlockNumber, got.Status, got.PaidAmount, ps)
	}
	r.chain.Commit() // block 32 ends an epoch: it is finalized
	must(t, w.Round(ctx))
	got, ps = r.reload(t, o.ID)
	if f := finalized(); f != 32 || got.Status != cashier.CollectionSuccess || got.PaidAmount.Int64() != 5_000_000 ||
		ps[0].Status != cashier.PaymentConfirmed {
		t.Fatalf("finalized %d: order %s paid %s, payments %+v", f, got.Status, got.PaidAmount, ps)
	}
	cur, err := r.svc.Store.Cursor(ctx, cashier.ChainETH)
	must(t, err)
	if cur.Confirmed != 32 {
		t.Fatalf("cursor at %d, not the finalized block 32", cur.Confirmed)
	}
}
