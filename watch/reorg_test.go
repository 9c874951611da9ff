package watch_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// A payment seen in a block that a reorg removes before it has its
// confirmations is dropped and never credited, even after the chain moves
// far past it; the seen webhook is followed by one withdrawing the txId.
// A payment on the surviving chain goes seen → confirmed → SUCCESS.
func TestReorgDropsUnconfirmedPayment(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 3, period: time.Hour})
	w := r.svc.Watchers[0]
	o := r.order(t, "5.00")
	must(t, w.Round(ctx))

	parent := r.chain.Commit() // the fork point
	paid := r.pay(t, o.DepositAddress, 5_000_000)
	must(t, w.Round(ctx))
	got, ps := r.reload(t, o.ID)
	if len(ps) != 1 || ps[0].Status != cashier.PaymentSeen || got.Status != cashier.CollectionPending ||
		got.PaidAmount.Sign() != 0 || got.TxID != paid.Hex() {
		t.Fatalf("after the payment's block: order %s paid %s txId %s, payments %+v", got.Status, got.PaidAmount, got.TxID, ps)
	}

	// The customer's transaction is replaced on a competing branch (same
	// nonce, another recipient), which becomes the longer chain.
	orig, _, err := r.chain.Client.TransactionByHash(ctx, paid)
	must(t, err)
	must(t, r.chain.Fork(parent))
	elsewhere := common.HexToAddress("0xdead")
	replacement, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: r.chain.ChainID, Nonce: orig.Nonce(), GasTipCap: new(big.Int).Mul(orig.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(orig.GasFeeCap(), big.NewInt(3)), Gas: 200_000, To: &r.usdt,
		Data: bindings.NewTestUSDC().PackTransfer(elsewhere, big.NewInt(5_000_000)),
	}), r.chain.Signer, r.customer)
	must(t, err)
	must(t, r.chain.Client.SendTransaction(ctx, replacement))
	r.chain.Commit()
	r.chain.Commit()
	if _, err := r.waitOrCommit(replacement.Hash()); err != nil {
		t.Fatal(err)
	}
	must(t, w.Round(ctx))
	for i := 0; i < 6; i++ { // far past the confirmation depth
		r.chain.Commit()
		must(t, w.Round(ctx))
	}
	got, ps = r.reload(t, o.ID)
	if len(ps) != 1 || ps[0].Status != cashier.PaymentDropped || got.Status != cashier.CollectionPending ||
		got.PaidAmount.Sign() != 0 || got.TxID != "" {
		t.Fatalf("after the reorg: order %s paid %s txId %q, payments %+v", got.Status, got.PaidAmount, got.TxID, ps)
	}
	evs, err := r.svc.Store.Events(ctx, cashier.EventFilter{OrderID: o.ID})
	must(t, err)
	// Newest first: the withdrawal, the seen event, the creation.
	if len(evs) != 3 || !contains(evs[1].Body, paid.Hex()) || contains(evs[0].Body, paid.Hex()) {
		t.Fatalf("events %d: %s / %s", len(evs), evs[0].Body, evs[1].Body)
	}

	// A payment on the canonical chain: seen, then confirmed at depth 3.
	again := r.pay(t, o.DepositAddress, 5_000_000)
	must(t, w.Round(ctx))
	if _, ps = r.reload(t, o.ID); ps[1].Status != cashier.PaymentSeen {
		t.Fatalf("second payment %+v", ps[1])
	}
	r.chain.Commit()
	must(t, w.Round(ctx))
	if got, _ = r.reload(t, o.ID); got.Status != cashier.CollectionPending {
		t.Fatalf("credited at depth 2: %s", got.Status)
	}
	r.chain.Commit()
	must(t, w.Round(ctx))
	got, ps = r.reload(t, o.ID)
	if got.Status != cashier.CollectionSuccess || got.TxID != again.Hex() || got.PaidAmount.Int64() != 5_000_000 ||
		ps[0].Status != cashier.PaymentDropped || ps[1].Status != cashier.PaymentConfirmed || ps[1].Effect != cashier.EffectCredited {
		t.Fatalf("after depth 3: order %s paid %s txId %s, payments %+v", got.Status, got.PaidAmount, got.TxID, ps)
	}
}

func contains(b []byte, s string) bool { return stringsContains(string(b), s) }

// A new installation starts at the confirmed tip and stores that at once:
// the next round (and a restart) resumes there, never at genesis.
func TestFirstRoundStoresItsStart(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 2, period: time.Hour})
	for range 5 {
		r.chain.Commit()
	}
	head, err := r.chain.Client.BlockNumber(ctx)
	must(t, err)
	must(t, r.svc.Watchers[0].Round(ctx))
	cur, err := r.svc.Store.Cursor(ctx, cashier.ChainETH)
	must(t, err)
	b, err := r.chain.Client.HeaderByNumber(ctx, new(big.Int).SetUint64(head-1))
	must(t, err)
	if cur.Confirmed != head-1 || cur.ConfirmedHash != b.Hash().Hex() || cur.Head != head {
		t.Fatalf("cursor %+v, head %d (confirmed tip %d %s)", cur, head, head-1, b.Hash().Hex())
	}
}
