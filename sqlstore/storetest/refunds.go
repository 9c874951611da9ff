package storetest

import (
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// Refunds round-trip, are unique per (merchant, refundNo), update only at
// their stored version, and list by order, by payout and as the sent
// refunds of the merchant's ledger (SUCCESS only, by block time).
func testRefunds(t *testing.T) {
	db := openTest(t)
	createCollection(t, db, Collection("co_a", "m1", "A", t0))
	mk := func(id, no string, at time.Time) *cashier.Refund {
		return &cashier.Refund{ID: id, MerchantID: "m1", RefundNo: no, OrderID: "co_a", OrderNo: "A", Chain: cashier.ChainTRON,
			Symbol: "USDT", Decimals: 6, Amount: big.NewInt(2_500_000), ByLink: true, Status: cashier.RefundAwaitingAddress,
			Fee: new(big.Int), Reason: "overpaid", CreatedAt: at}
	}
	a, b := mk("rf_a", "R1", t0), mk("rf_b", "R2", t0.Add(time.Second))
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateRefund(ctx, a) })
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateRefund(ctx, b) })
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateRefund(ctx, mk("rf_c", "R1", t0)) }), cashier.EDuplicate)
	bad := mk("rf_d", "R4", t0)
	bad.Amount = new(big.Int)
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateRefund(ctx, bad) }), cashier.EInvalidAmount)

	got, err := db.RefundByNo(ctx, "m1", "R1")
	if err != nil || got.ID != "rf_a" || got.Amount.Int64() != 2_500_000 || !got.ByLink || got.Reason != "overpaid" || !got.CreatedAt.Equal(t0) {
		t.Fatalf("by number %+v %v", got, err)
	}
	_, err = db.RefundByNo(ctx, "m2", "R1")
	wantCode(t, err, cashier.ENotFound)

	// Address known, paid: the ledger sees it.
	sent := t0.Add(time.Hour)
	a.Address, a.PayoutID, a.Status, a.Fee, a.UpdatedAt = "TRecipient", "po_1", cashier.RefundPending, big.NewInt(1_000_000), t0.Add(time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateRefund(ctx, a) })
	stale := *got
	wantCode(t, db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateRefund(ctx, &stale) }), cashier.EInvalidStatus)
	a.Status, a.TxID, a.Block, a.SentAt = cashier.RefundSuccess, "txa", 77, sent
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateRefund(ctx, a) })
	if got, err = db.RefundByPayout(ctx, "po_1"); err != nil || got.ID != "rf_a" || got.TxID != "txa" || got.Block != 77 ||
		!got.SentAt.Equal(sent) || got.Fee.Int64() != 1_000_000 || got.Version != 2 {
		t.Fatalf("by payout %+v %v", got, err)
	}
	_, err = db.RefundByPayout(ctx, "")
	wantCode(t, err, cashier.ENotFound)

	// A withdrawn link: the schema takes CANCELLED (migration 0027).
	b.Status, b.UpdatedAt = cashier.RefundCancelled, t0.Add(time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateRefund(ctx, b) })
	list, err := db.Refunds(ctx, cashier.RefundFilter{OrderID: "co_a"})
	if err != nil || len(list) != 2 || list[0].ID != "rf_a" || list[1].ID != "rf_b" || list[1].Status != cashier.RefundCancelled {
		t.Fatalf("by order %+v %v", list, err)
	}
	out, err := db.SentRefunds(ctx, "m1", time.Time{}, time.Time{})
	if err != nil || len(out) != 1 || out[0].TxID != "txa" || out[0].Symbol != "USDT" || out[0].Chain != cashier.ChainTRON {
		t.Fatalf("sent %+v %v", out, err)
	}
	if out, _ = db.SentRefunds(ctx, "m1", sent.Add(time.Millisecond), time.Time{}); len(out) != 0 {
		t.Fatalf("sent after its time: %+v", out)
	}
	if out, _ = db.SentRefunds(ctx, "m2", time.Time{}, time.Time{}); len(out) != 0 {
		t.Fatalf("another merchant's: %+v", out)
	}
}
