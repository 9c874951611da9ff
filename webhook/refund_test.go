package webhook

import (
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// A refund's body names the refund and its order; blockTime is null until
// the refund is sent; without a cashier URL there is no event.
func TestRefundEventBody(t *testing.T) {
	f := &cashier.Refund{ID: "rf_1", MerchantID: "m_1", RefundNo: "R-1", OrderID: "co_1", OrderNo: "O-1", Chain: cashier.ChainETH,
		Symbol: "USDT", Decimals: 6, Amount: big.NewInt(2_500_000), Fee: big.NewInt(1_000_000), ByLink: true,
		Status: cashier.RefundAwaitingAddress, Reason: "overpaid", CreatedAt: t0, UpdatedAt: t0}
	c := &cashier.Cashier{ID: "c_1", WebhookURL: "https://hooks.example.com/pay"}
	w := NewWriter(nil)
	e, err := w.RefundEvent(f, c, t0)
	if err != nil || e.Type != cashier.EventRefund || e.OrderID != "rf_1" || e.OrderNo != "R-1" || e.URL != c.WebhookURL || e.Status != "AWAITING_ADDRESS" {
		t.Fatalf("event %+v %v", e, err)
	}
	var m map[string]any
	if err := json.Unmarshal(e.Body, &m); err != nil {
		t.Fatal(err)
	}
	if m["event"] != "refund" || m["eventType"] != "refund.awaiting_address" || m["refundNo"] != "R-1" || m["orderNo"] != "O-1" ||
		m["amount"] != "2.50" || m["fee"] != "1.00" || m["toAddress"] != "" || m["blockTime"] != nil || m["network"] != "Ethereum" ||
		m["chainId"] != "1" || m["reason"] != "overpaid" || m["eventId"] != e.ID {
		t.Fatalf("body %s", e.Body)
	}
	f.Status, f.Address, f.TxID, f.SentAt = cashier.RefundSuccess, "0xabc", "0xtx", t0.Add(time.Minute)
	e, _ = w.RefundEvent(f, c, t0.Add(time.Minute))
	json.Unmarshal(e.Body, &m)
	if m["eventType"] != "refund.success" || m["txId"] != "0xtx" || m["txHash"] != "0xtx" || m["blockTime"] != float64(t0.Add(time.Minute).UnixMilli()) {
		t.Fatalf("sent body %s", e.Body)
	}
	w.Strings = true
	e, _ = w.RefundEvent(f, c, t0)
	fields(t, e.Body)
	if e, err := w.RefundEvent(f, &cashier.Cashier{ID: "c_2"}, t0); e != nil || err != nil {
		t.Fatalf("event without a URL: %+v %v", e, err)
	}
}
