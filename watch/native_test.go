package watch_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/stablecashier/cashier"
)

// Ether sent to a deposit address is recorded in the same two stages as a
// token transfer and confirmed with the effect NATIVE: visible with the
// order (symbol ETH, 18 decimals), never counted, no webhook. Ether to any
// other address is ignored; the token payment beside it completes the
// order as usual.
func TestNativeCoinRecordedNotCredited(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 2, period: time.Hour})
	w := r.svc.Watchers[0]
	o := r.order(t, "5.00")
	must(t, w.Round(ctx))
	evs, err := r.svc.Store.Events(ctx, cashier.EventFilter{OrderID: o.ID})
	must(t, err)
	created := len(evs)

	to := common.HexToAddress(o.DepositAddress)
	wei := big.NewInt(7e15)
	other := common.HexToAddress("0xbeef")
	r.send(t, r.customer, &other, big.NewInt(1e15), nil)
	native := r.send(t, r.customer, &to, wei, nil)
	must(t, w.Round(ctx))
	got, ps := r.reload(t, o.ID)
	if len(ps) != 1 || ps[0].Status != cashier.PaymentSeen || ps[0].TxHash != native.Hex() || ps[0].LogIndex != cashier.NativeIndex ||
		ps[0].Token != "" || ps[0].Symbol != "ETH" || ps[0].Decimals != 18 || ps[0].Amount.Cmp(wei) != 0 {
		t.Fatalf("seen native payment: %+v", ps)
	}
	if got.Status != cashier.CollectionPending || got.TxID != "" {
		t.Fatalf("order after native seen: %s txId %q", got.Status, got.TxID)
	}
	r.chain.Commit()
	must(t, w.Round(ctx))
	got, ps = r.reload(t, o.ID)
	if len(ps) != 1 || ps[0].Status != cashier.PaymentConfirmed || ps[0].Effect != cashier.EffectNative {
		t.Fatalf("confirmed native payment: %+v", ps)
	}
	if got.Status != cashier.CollectionPending || paid(got).Sign() != 0 || got.TxID != "" {
		t.Fatalf("native coin counted: order %s paid %s txId %q", got.Status, got.PaidAmount, got.TxID)
	}
	evs, err = r.svc.Store.Events(ctx, cashier.EventFilter{OrderID: o.ID})
	must(t, err)
	if len(evs) != created {
		t.Fatalf("native coin sent %d webhooks", len(evs)-created)
	}

	// Scanning the same blocks again (a rewound cursor) records nothing twice.
	cur, err := r.svc.Store.Cursor(ctx, cashier.ChainETH)
	must(t, err)
	cur.Confirmed, cur.ConfirmedHash = cur.Confirmed-3, ""
	must(t, r.svc.Store.Update(ctx, func(tx cashier.Tx) error { return tx.SetCursor(ctx, cur) }))
	must(t, w.Round(ctx))
	if _, ps = r.reload(t, o.ID); len(ps) != 1 || ps[0].Status != cashier.PaymentConfirmed || ps[0].Effect != cashier.EffectNative {
		t.Fatalf("after a rescan: %+v", ps)
	}
	token := r.pay(t, o.DepositAddress, 5_000_000)
	r.chain.Commit()
	must(t, w.Round(ctx))
	got, ps = r.reload(t, o.ID)
	if got.Status != cashier.CollectionSuccess || got.TxID != token.Hex() || paid(got).Int64() != 5_000_000 || len(ps) != 2 {
		t.Fatalf("token payment beside the native one: order %s paid %s txId %s, %d payments", got.Status, got.PaidAmount, got.TxID, len(ps))
	}
}

// Ether seen in a block that a reorg removes is dropped, like a token
// transfer, and never confirmed.
func TestNativeCoinReorg(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 3, period: time.Hour})
	w := r.svc.Watchers[0]
	o := r.order(t, "5.00")
	must(t, w.Round(ctx))
	parent := r.chain.Commit()
	to := common.HexToAddress(o.DepositAddress)
	sent := r.send(t, r.customer, &to, big.NewInt(2e15), nil)
	must(t, w.Round(ctx))
	if _, ps := r.reload(t, o.ID); len(ps) != 1 || ps[0].Status != cashier.PaymentSeen {
		t.Fatalf("before the reorg: %+v", ps)
	}
	orig, _, err := r.chain.Client.TransactionByHash(ctx, sent)
	must(t, err)
	must(t, r.chain.Fork(parent))
	elsewhere := common.HexToAddress("0xdead")
	replacement, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: r.chain.ChainID, Nonce: orig.Nonce(), GasTipCap: new(big.Int).Mul(orig.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(orig.GasFeeCap(), big.NewInt(3)), Gas: 21_000, To: &elsewhere, Value: big.NewInt(2e15),
	}), r.chain.Signer, r.customer)
	must(t, err)
	must(t, r.chain.Client.SendTransaction(ctx, replacement))
	r.chain.Commit()
	r.chain.Commit()
	if _, err := r.waitOrCommit(replacement.Hash()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		must(t, w.Round(ctx))
		r.chain.Commit()
	}
	must(t, w.Round(ctx))
	if _, ps := r.reload(t, o.ID); len(ps) != 1 || ps[0].Status != cashier.PaymentDropped || ps[0].Effect != "" {
		t.Fatalf("after the reorg: %+v", ps)
	}
}

func paid(o *cashier.CollectionOrder) *big.Int {
	if o.PaidAmount == nil {
		return new(big.Int)
	}
	return o.PaidAmount
}
