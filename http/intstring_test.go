package http

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// Clients that build requests from a Map<String,String> send payoutType
// as "2": read as the integer unless the setting turns it off; amounts
// stay strings and other text stays refused.
func TestIntegerFieldsAsDigitStrings(t *testing.T) {
	body := func(pt any) map[string]any {
		return map[string]any{"contractId": "k", "orderNo": "P", "recipient": "r", "amount": "1.5", "symbol": "USDT", "payoutType": pt, "fromAddress": "w"}
	}
	req, err := decodePayout(body("2"), UnknownReject, true)
	if err != nil || req.PayoutType != 2 || req.Amount != "1.5" {
		t.Fatalf("\"2\" accepted: %+v %v", req, err)
	}
	if req, err = decodePayout(body(json.Number("2")), UnknownReject, false); err != nil || req.PayoutType != 2 {
		t.Fatalf("2 with strings off: %+v %v", req, err)
	}
	for _, c := range []struct {
		v      any
		digits bool
	}{{"2", false}, {"", true}, {" 2", true}, {"-1", true}, {"2.0", true}, {"two", true}} {
		if _, err := decodePayout(body(c.v), UnknownReject, c.digits); cashier.ErrorCode(err) != cashier.EInvalidType ||
			!strings.Contains(err.Error(), "payoutType must be a JSON integer") {
			t.Errorf("payoutType %q (digits %v): %v", c.v, c.digits, err)
		}
	}
	// "3" is read as a number, then refused for its value like 3.
	if _, err := decodePayout(body("3"), UnknownReject, true); err == nil || !strings.Contains(err.Error(), "must be 1 (balance) or 2 (allowance)") {
		t.Errorf("\"3\": %v", err)
	}
	amount := body("1")
	amount["amount"] = json.Number("1.5")
	if _, err := decodePayout(amount, UnknownReject, true); cashier.ErrorCode(err) != cashier.EInvalidType {
		t.Errorf("amount as a number: %v", err)
	}
	b, err := decodeBatch(map[string]any{"contractId": "k", "payoutType": "1", "orders": []any{
		map[string]any{"orderNo": "B", "recipient": "r", "amount": "1", "symbol": "USDT"}}}, UnknownReject, 10, true)
	if err != nil || b.PayoutType != 1 {
		t.Errorf("batch payoutType \"1\": %+v %v", b, err)
	}
}
