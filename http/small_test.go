package http

import (
	"net/http"
	"testing"
)

// TestPayoutTypeNullMeansAbsent: "payoutType": null is balance mode, like
// a request without the field; the detail's fromAddress is the contract,
// the same source as the payout webhook's.
func TestPayoutTypeNullMeansAbsent(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(request{method: http.MethodPost, path: pathPayout, params: map[string]any{
		"contractId": tronK, "orderNo": "PN1", "recipient": tronRecip, "amount": "10", "symbol": "USDT", "payoutType": nil}})
	if r.status != 200 || r.body["code"] != "200" {
		t.Fatalf("payoutType null refused: %s", r.raw)
	}
	r = e.do(request{method: http.MethodGet, path: "/order/api/v2/payout/detail", query: "orderNo=PN1"})
	d := r.data()
	if num(d["payoutType"]) != 1 || d["fromAddress"] != tronContract {
		t.Fatalf("detail %s", r.raw)
	}
}
