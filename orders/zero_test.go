package orders_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/orders"
)

// TRON's zero address, and every network's, is refused wherever an
// address enters: a payout's recipient, a batch item, an allowance
// payout's fromAddress, a refund's address and a refund link's page; and
// a fromAddress that is the contract itself. Nothing is stored.
func TestUnpayableAddressesRefusedAtEveryEntry(t *testing.T) {
	f, _, pay := refundFixture(t)
	ctx := context.Background()
	const tronZero = "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"
	tronContract := address.Format(cashier.ChainTRON, common.HexToAddress("0x00000000000000000000000000000000000000c5"))
	const ethZero = "0x0000000000000000000000000000000000000000"
	kt := &cashier.Contract{ID: "k_t", MerchantID: "m_1", Chain: cashier.ChainTRON, Address: tronContract, Status: cashier.ContractActive, CreatedAt: f.clock.Now()}
	if err := f.st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, kt) }); err != nil {
		t.Fatal(err)
	}
	f.funds.balance[strings.ToLower(tronContract)] = units("1000")
	for _, c := range []struct {
		name string
		req  orders.PayoutRequest
	}{
		{"TRON recipient", orders.PayoutRequest{ContractID: "k_t", OrderNo: "Z-1", Recipient: tronZero, Amount: "5", Symbol: "USDT"}},
		{"ETH recipient", orders.PayoutRequest{ContractID: "k_1", OrderNo: "Z-2", Recipient: ethZero, Amount: "5", Symbol: "USDT"}},
		{"TRON fromAddress", orders.PayoutRequest{ContractID: "k_t", OrderNo: "Z-3", Recipient: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", Amount: "5",
			Symbol: "USDT", PayoutType: 2, FromAddress: tronZero}},
		{"fromAddress is the contract", orders.PayoutRequest{ContractID: "k_1", OrderNo: "Z-4", Recipient: recipient, Amount: "5",
			Symbol: "USDT", PayoutType: 2, FromAddress: contractAddr}},
	} {
		if _, err := f.svc.CreatePayout(ctx, f.m, c.req); cashier.ErrorCode(err) != cashier.EInvalidAddress {
			t.Errorf("%s: %v, want an invalid-address error", c.name, err)
		}
	}
	res, err := f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_t", Orders: []orders.BatchItem{
		{OrderNo: "ZB-1", Recipient: tronZero, Amount: "5", Symbol: "USDT"},
	}})
	if err != nil || res.SuccessCount != 0 || len(res.Orders) != 1 || cashier.ErrorCode(res.Orders[0].Err) != cashier.EInvalidAddress {
		t.Fatalf("batch item to the TRON zero address: %+v %v", res, err)
	}
	if ps, _, _, err := f.svc.Payouts(ctx, f.m, "", orders.ListRequest{}); err != nil || len(ps) != 0 {
		t.Fatalf("payouts stored: %d %v", len(ps), err)
	}

	// Refunds: to the zero address given by the merchant, or on the link.
	pay(1, "USDT", "10", cashier.EffectCredited)
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "RZ-1", Amount: "1", Address: ethZero})
	wantCode(t, err, cashier.EInvalidAddress)
	link, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-1", RefundNo: "RZ-2", Amount: "1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.SetRefundAddress(ctx, link.ID, ethZero)
	wantCode(t, err, cashier.EInvalidAddress)
	if got, _ := f.st.Refund(ctx, link.ID); got.Status != cashier.RefundAwaitingAddress || got.PayoutID != "" {
		t.Fatalf("the link after the zero address: %+v", got)
	}
	// On TRON, the link of a TRON order.
	ot, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "O-T", Amount: "10", Symbol: "USDT", ChainID: "TRON"})
	if err != nil {
		t.Fatal(err)
	}
	p := &cashier.Payment{Chain: cashier.ChainTRON, TxHash: "tronpay", LogIndex: 0, OrderID: ot.ID, MerchantID: ot.MerchantID, Symbol: "USDT",
		Decimals: 6, Amount: units("10"), Status: cashier.PaymentConfirmed, Effect: cashier.EffectCredited, SeenAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
	if err := f.st.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, p) }); err != nil {
		t.Fatal(err)
	}
	_, _, err = f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-T", RefundNo: "RZ-3", Amount: "1", Address: tronZero})
	wantCode(t, err, cashier.EInvalidAddress)
	tlink, _, err := f.svc.CreateRefund(ctx, f.m, orders.RefundRequest{OrderNo: "O-T", RefundNo: "RZ-4", Amount: "1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.SetRefundAddress(ctx, tlink.ID, tronZero)
	wantCode(t, err, cashier.EInvalidAddress)
}
