package http

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
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

// TestForeignAndMissingIDsAnswerAlike: another merchant's cashier or
// contract id gets exactly the answer a missing id gets, so answers do not
// reveal which ids exist.
func TestForeignAndMissingIDsAnswerAlike(t *testing.T) {
	e := newEnv(t, nil)
	// The second merchant's contract, created here.
	ctx := context.Background()
	if err := e.store.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateContract(ctx, &cashier.Contract{ID: "ct_theirs", MerchantID: "m_2", Chain: cashier.ChainTRON, Address: tronRecip, Status: cashier.ContractActive, CreatedAt: t0})
	}); err != nil {
		t.Fatal(err)
	}
	answer := func(r response) string {
		t.Helper()
		msg, _ := r.body["msg"].(string)
		return fmt.Sprintf("%d %v %s", r.status, r.body["code"], msg)
	}
	same := func(what string, missing, foreign response, id1, id2 string) {
		t.Helper()
		a, b := answer(missing), answer(foreign)
		if strings.ReplaceAll(a, id1, "ID") != strings.ReplaceAll(b, id2, "ID") {
			t.Fatalf("%s: missing id answered %q, another merchant's id %q", what, a, b)
		}
		if missing.status != 404 {
			t.Fatalf("%s: %s", what, missing.raw)
		}
	}
	col := func(id string) response {
		return e.do(request{method: http.MethodPost, path: pathCollection, params: collectionBody(map[string]any{"cashierId": id})})
	}
	same("collection create", col("cs_nope"), col(cashier2), "cs_nope", cashier2)
	po := func(id string) response {
		return e.do(request{method: http.MethodPost, path: pathPayout, params: map[string]any{
			"contractId": id, "orderNo": "PX", "recipient": tronRecip, "amount": "10", "symbol": "USDT"}})
	}
	same("payout create", po("ct_nope"), po("ct_theirs"), "ct_nope", "ct_theirs")
	info := func(id string) response {
		return e.do(request{method: http.MethodGet, path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + id})
	}
	same("cashier info", info("cs_nope"), info(cashier2), "cs_nope", cashier2)
}

// TestSecurityHeadersOnEveryResponse: API answers, errors, the payment
// page and unknown paths all carry nosniff and a Referrer-Policy that
// keeps the payment page's capability URL out of Referer headers.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	e := newEnv(t, nil)
	o, err := e.cli.CreateCollection(context.Background(), client.CollectionRequest{CashierID: cashierID, OrderNo: "H1", Amount: "10", Symbol: "USDT"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{
		e.srv.URL + "/admin/api/v2/pub/coin/list",
		e.srv.URL + "/order/api/v2/payorder/detail?orderNo=x", // an error
		o.PayURL,
		e.srv.URL + "/nothing/here",
		e.srv.URL + "/widget?apiKey=x",
	} {
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s (%d): headers %v", u, res.StatusCode, res.Header)
		}
	}
}
