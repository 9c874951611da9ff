package orders_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

func (recordingEvents) RefundEvent(f *cashier.Refund, c *cashier.Cashier, at time.Time) (*cashier.Event, error) {
	return &cashier.Event{ID: orders.NewID("evt_"), MerchantID: f.MerchantID, Type: cashier.EventRefund, OrderID: f.ID,
		OrderNo: f.RefundNo, Status: string(f.Status), URL: c.WebhookURL, Body: []byte(`{}`), CreatedAt: at}, nil
}

// refundFixture is a fixture whose contract holds 1,000 USDT, with
// collection order O-1 (10 USDT on Ethereum) and pay, which records a
// confirmed payment to it.
func refundFixture(t *testing.T) (*fixture, *cashier.CollectionOrder, func(idx uint, symbol, amount string, effect cashier.PaymentEffect)) {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("1000")
	o, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "O-1", Amount: "10", Symbol: "USDT", ChainID: "ETH"})
	if err != nil {
		t.Fatal(err)
	}
	pay := func(idx uint, symbol, amount string, effect cashier.PaymentEffect) {
		t.Helper()
		p := &cashier.Payment{Chain: o.Chain, TxHash: "0xpay", LogIndex: idx, OrderID: o.ID, MerchantID: o.MerchantID, Symbol: symbol,
			Decimals: 6, Amount: units(amount), Status: cashier.PaymentConfirmed, Effect: effect, SeenAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
		if err := f.st.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, p) }); err != nil {
			t.Fatal(err)
		}
	}
	return f, o, pay
}

// A refund draws on what the order received in the token refunded: its own
// token counted late or in excess, or a wrong token; a refused refund
// payout fails the refund with its reason and frees its amount; the
// refund's payout sends refund events, never payout events.
func TestRefundRules(t *testing.T) {
	f, o, pay := refundFixture(t)
	ctx := context.Background()
	pay(1, "USDT", "10", cashier.EffectCredited)
	pay(2, "USDT", "2", cashier.EffectExtra)
	pay(3, "USDC", "3", cashier.EffectWrongToken)
	pay(4, "ETH", "1", cashier.EffectNative)

	_, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R0", Amount: "12.000001", Address: recipient})
	wantCode(t, err, cashier.EInvalidAmount)
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R0", Amount: "1", Symbol: "ETH", Address: recipient})
	wantCode(t, err, cashier.EUnsupported)
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-9", RefundNo: "R0", Amount: "1", Address: recipient})
	wantCode(t, err, cashier.ENotFound)
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R/0", Amount: "1", Address: recipient})
	wantCode(t, err, cashier.EInvalid)
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R0", Amount: "1", Address: "0x12"})
	wantCode(t, err, cashier.EInvalidAddress)

	// All the USDT received, to a given address.
	r1, created, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R1", Amount: "12", Address: recipient})
	if err != nil || !created || r1.Status != cashier.RefundPending || r1.PayoutID == "" || r1.Fee.Sign() == 0 {
		t.Fatalf("refund %+v %v", r1, err)
	}
	po, err := f.st.Payout(ctx, r1.PayoutID)
	if err != nil || po.OrderNo != "refund/R1" || po.Amount.Cmp(units("12")) != 0 || po.Recipient != recipient || !po.NeedsReview {
		t.Fatalf("refund payout %+v %v", po, err)
	}
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R2", Amount: "0.01", Address: recipient})
	wantCode(t, err, cashier.EInvalidAmount)
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R1", Amount: "12", Address: walletAddr})
	wantCode(t, err, cashier.EDuplicate)
	if again, created, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R1", Amount: "12.00", Address: strings.ToLower(recipient)}); err != nil || created || again.ID != r1.ID {
		t.Fatalf("repeat %+v %v %v", again, created, err)
	}

	// The wrong token, through a link.
	r3, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R3", Amount: "3", Symbol: "USDC"})
	if err != nil || r3.Status != cashier.RefundAwaitingAddress || r3.PayoutID != "" {
		t.Fatalf("link refund %+v %v", r3, err)
	}
	_, err = f.svc.SetRefundAddress(ctx, r3.ID, contractAddr)
	wantCode(t, err, cashier.EInvalidAddress)
	if r3, err = f.svc.SetRefundAddress(ctx, r3.ID, walletAddr); err != nil || r3.Status != cashier.RefundPending || r3.Address != walletAddr {
		t.Fatalf("address entered %+v %v", r3, err)
	}
	_, err = f.svc.SetRefundAddress(ctx, r3.ID, recipient)
	wantCode(t, err, cashier.EInvalidStatus)

	// Refused in review: FAILED with the reason, and the amount is free again.
	if _, err := f.svc.RefusePayout(ctx, r1.PayoutID, "not this one"); err != nil {
		t.Fatal(err)
	}
	if r1, err = f.svc.Refund(ctx, f.m, "R1"); err != nil || r1.Status != cashier.RefundFailed || r1.FailReason != "not this one" {
		t.Fatalf("refused refund %+v %v", r1, err)
	}
	if _, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R4", Amount: "12", Address: recipient}); err != nil {
		t.Fatal(err)
	}
	paid, refunded, err := orders.Refundable(ctx, f.st, o, "USDT")
	if err != nil || paid.Cmp(units("12")) != 0 || refunded.Cmp(units("12")) != 0 {
		t.Fatalf("refundable %v %v %v", paid, refunded, err)
	}

	es, err := f.st.Events(ctx, cashier.EventFilter{OrderID: r1.ID})
	if err != nil || len(es) != 2 || es[0].Status != "FAILED" || es[1].Status != "PENDING" || es[0].Type != cashier.EventRefund {
		t.Fatalf("refund events %+v %v", es, err)
	}
	if es, _ = f.st.Events(ctx, cashier.EventFilter{OrderID: r1.PayoutID}); len(es) != 0 {
		t.Fatalf("payout events of a refund's payout: %+v", es)
	}
}

// A refund link the customer has not used can be withdrawn: it ends
// CANCELLED with its webhook, its amount is refundable again, an address
// sent to it afterwards is refused, cancelling it again changes nothing;
// a refund that has an address is not cancelled.
func TestCancelRefundLink(t *testing.T) {
	f, _, pay := refundFixture(t)
	ctx := context.Background()
	pay(1, "USDT", "10", cashier.EffectCredited)
	link, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "L1", Amount: "10"})
	if err != nil || link.Status != cashier.RefundAwaitingAddress {
		t.Fatalf("link %+v %v", link, err)
	}
	// The link holds the whole amount.
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R1", Amount: "1", Address: recipient})
	wantCode(t, err, cashier.EInvalidAmount)

	_, err = f.svc.CancelRefund(ctx, f.m, "")
	wantCode(t, err, cashier.EMissing)
	_, err = f.svc.CancelRefund(ctx, f.m, "L9")
	wantCode(t, err, cashier.ENotFound)
	got, err := f.svc.CancelRefund(ctx, f.m, "L1")
	if err != nil || got.Status != cashier.RefundCancelled || got.PayoutID != "" {
		t.Fatalf("cancelled %+v %v", got, err)
	}
	if again, err := f.svc.CancelRefund(ctx, f.m, "L1"); err != nil || again.Status != cashier.RefundCancelled || again.Version != got.Version {
		t.Fatalf("cancelled again %+v %v", again, err)
	}
	_, err = f.svc.SetRefundAddress(ctx, link.ID, walletAddr)
	wantCode(t, err, cashier.EInvalidStatus)
	if err == nil || !strings.Contains(err.Error(), "withdrew") {
		t.Fatalf("address after the cancel: %v", err)
	}
	es, err := f.st.Events(ctx, cashier.EventFilter{OrderID: link.ID})
	if err != nil || len(es) != 2 || es[0].Status != "CANCELLED" && es[1].Status != "CANCELLED" {
		t.Fatalf("refund events %+v %v", es, err)
	}

	// The amount is free again; a refund with an address is not a link to withdraw.
	r2, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "R2", Amount: "10", Address: recipient})
	if err != nil || r2.Status != cashier.RefundPending {
		t.Fatalf("refund after the cancel %+v %v", r2, err)
	}
	_, err = f.svc.CancelRefund(ctx, f.m, "R2")
	wantCode(t, err, cashier.EInvalidStatus)
	if r2, err = f.svc.Refund(ctx, f.m, "R2"); err != nil || r2.Status != cashier.RefundPending {
		t.Fatalf("the refused cancel changed %+v %v", r2, err)
	}
}

// A refund link's address that the merchant's contract cannot pay yet (its
// free funds are short) is not taken: the link holder is told only that
// the refund cannot be sent yet, never the contract's funds; the merchant
// gets the detail as the refund's failReason with a refund webhook (once
// per distinct detail), and the refund still waits for an address. Once
// funded, the same address is taken and the note is cleared.
func TestRefundLinkShortOfFundsTellsOnlyTheMerchant(t *testing.T) {
	f, _, pay := refundFixture(t)
	ctx := context.Background()
	pay(1, "USDT", "10", cashier.EffectCredited)
	link, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "L1", Amount: "10"})
	if err != nil {
		t.Fatal(err)
	}
	f.funds.balance[strings.ToLower(contractAddr)] = units("7")
	for range 2 {
		_, err = f.svc.SetRefundAddress(ctx, link.ID, walletAddr)
		if cashier.ErrorCode(err) != cashier.EInvalidStatus || cashier.ErrorMessage(err) != orders.RefundNotYetMessage ||
			strings.Contains(cashier.ErrorMessage(err), "7.00") {
			t.Fatalf("the link holder is told %q (%v), want only %q", cashier.ErrorMessage(err), err, orders.RefundNotYetMessage)
		}
		if cause := errors.Unwrap(err); cause == nil || !strings.Contains(cause.Error(), "7.00") {
			t.Fatalf("the cause is lost for the service's log: %v", err)
		}
	}
	got, err := f.st.Refund(ctx, link.ID)
	if err != nil || got.Status != cashier.RefundAwaitingAddress || got.PayoutID != "" || got.Address != "" ||
		!strings.Contains(got.FailReason, walletAddr) || !strings.Contains(got.FailReason, "7.00") {
		t.Fatalf("the refund after the short attempt: %+v %v", got, err)
	}
	es, err := f.st.Events(ctx, cashier.EventFilter{OrderID: link.ID})
	if err != nil || len(es) != 2 || es[0].Status != string(cashier.RefundAwaitingAddress) {
		t.Fatalf("refund events %+v %v, want the link's and one for the address not taken", es, err)
	}
	f.funds.balance[strings.ToLower(contractAddr)] = units("1000")
	got, err = f.svc.SetRefundAddress(ctx, link.ID, walletAddr)
	if err != nil || got.Status != cashier.RefundPending || got.FailReason != "" || got.Address != walletAddr {
		t.Fatalf("the same address once funded: %+v %v", got, err)
	}
}
