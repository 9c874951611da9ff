package http

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

const shopOrigin = "http://shop.test:8081"

// allowOrigins sets the allowed origins of the env's cashier.
func (e *env) allowOrigins(t testing.TB, origins ...string) {
	t.Helper()
	ctx := context.Background()
	err := e.store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		c, err := tx.Cashier(ctx, cashierID)
		if err != nil {
			return err
		}
		c.AllowedOrigins = origins
		return tx.UpdateCashier(ctx, c)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type sdkAnswer struct {
	status int
	cors   string
	body   struct {
		Success bool
		Code    int
		Message string
		Data    struct{ OrderNo, OrderID, PayURL, EmbedURL, Status, ResumeToken string }
	}
}

func (e *env) sdkOrder(t *testing.T, origin string, body map[string]any) sdkAnswer {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", e.srv.URL+"/sdk/v2/order", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "text/plain")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a sdkAnswer
	a.status, a.cors = res.StatusCode, res.Header.Get("Access-Control-Allow-Origin")
	raw, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(raw, &a.body); err != nil {
		t.Fatalf("answer %d %s: %v", res.StatusCode, raw, err)
	}
	return a
}

// Browser-created orders: only from the cashier's allowed origins (CORS
// follows the list), within the amount bounds, per-IP limited, marked as
// browser-created, and one order per orderNo.
func TestSDKOrders(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimits.BrowserOrders = 20 })
	ctx := context.Background()
	body := func(over map[string]any) map[string]any {
		b := map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "12.50", "symbol": "USDT", "chainId": "ETH"}
		for k, v := range over {
			b[k] = v
		}
		return b
	}
	// No origin is listed: every browser order is refused, without CORS.
	if a := e.sdkOrder(t, shopOrigin, body(nil)); a.status != 403 || a.cors != "" || a.body.Code != sdkSignature {
		t.Fatalf("unlisted origin: %+v", a)
	}
	e.allowOrigins(t, shopOrigin, "https://other.example")
	if a := e.sdkOrder(t, "https://evil.example", body(nil)); a.status != 403 || a.cors != "" {
		t.Fatalf("unlisted origin: %+v", a)
	}
	if a := e.sdkOrder(t, "", body(nil)); a.status != 403 || a.cors != "" {
		t.Fatalf("no origin: %+v", a)
	}
	if c, _ := e.store.Collection(ctx, "x"); c != nil {
		t.Fatal("unexpected order")
	}
	// The merchant's own number comes with the orderToken its server signed.
	tok := orderToken("SDK-1", "12.50")
	a := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderToken": tok}))
	if a.status != 200 || a.cors != shopOrigin || !a.body.Success || a.body.Data.OrderNo != "SDK-1" || a.body.Data.ResumeToken == "" ||
		!strings.Contains(a.body.Data.EmbedURL, "embed=1&origin=http%3A%2F%2Fshop.test%3A8081") {
		t.Fatalf("allowed origin: %+v", a)
	}
	// The same request again from the browser that created it (its
	// resumeToken): the same order.
	again := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderToken": tok, "resumeToken": a.body.Data.ResumeToken}))
	if again.status != 200 || again.body.Data.OrderID != a.body.Data.OrderID {
		t.Fatalf("repeated orderNo: %+v, first %+v", again, a)
	}
	// Anyone else, even holding the token: no page, no order.
	for name, extra := range map[string]map[string]any{
		"the token alone":       {"orderToken": tok},
		"a wrong resumeToken":   {"orderToken": tok, "resumeToken": strings.Repeat("0", 64)},
		"orderNo and a guess":   {"orderNo": "SDK-1", "resumeToken": strings.Repeat("0", 64)},
		"the unsigned orderNo":  {"orderNo": "SDK-1"},
		"another amount signed": {"orderToken": tok, "amount": "99"},
	} {
		if got := e.sdkOrder(t, shopOrigin, body(extra)); got.status < 400 || got.body.Success || got.body.Data.PayURL != "" {
			t.Fatalf("%s: %+v", name, got)
		}
	}
	if other := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderToken": tok, "resumeToken": a.body.Data.ResumeToken, "amount": "99"})); other.status != 400 || other.body.Code != sdkParam {
		t.Fatalf("the creator asking for another amount: %+v", other)
	}
	if forged := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderToken": sign.SignWidget(secretKey2, []sign.WidgetParam{{Key: "apiKey", Value: apiKey},
		{Key: "orderNo", Value: "SDK-2"}, {Key: "amount", Value: "12.50"}})})); forged.status != 401 || forged.body.Code != sdkSignature {
		t.Fatalf("an orderToken signed with another key: %+v", forged)
	}
	if _, err := e.store.CollectionByOrderNo(ctx, "m_1", "SDK-2"); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("a forged token created an order: %v", err)
	}
	// Generated orderNo, bounds, wrong key, unknown cashier.
	if gen := e.sdkOrder(t, shopOrigin, body(nil)); gen.status != 200 || !strings.HasPrefix(gen.body.Data.OrderNo, "W") {
		t.Fatalf("generated orderNo: %+v", gen)
	}
	if low := e.sdkOrder(t, shopOrigin, body(map[string]any{"amount": "0.5"})); low.status != 400 || low.body.Code != sdkParam || low.cors != shopOrigin {
		t.Fatalf("amount under the minimum: %+v", low)
	}
	if bad := e.sdkOrder(t, shopOrigin, body(map[string]any{"apiKey": "pk_nope"})); bad.body.Code != sdkCashier {
		t.Fatalf("wrong key: %+v", bad)
	}
	if bad := e.sdkOrder(t, shopOrigin, body(map[string]any{"cashierId": cashier2})); bad.body.Code != sdkCashier {
		t.Fatalf("another merchant's cashier: %+v", bad)
	}
	// Marked in the detail.
	d, err := e.cli.CollectionDetail(ctx, "SDK-1")
	if err != nil || d.CreatedBy != "browser" || d.Origin != shopOrigin {
		t.Fatalf("detail: %+v %v", d, err)
	}
	api := e.pageOrder(t, "API-1", "3", "")
	if d, _ := e.cli.CollectionDetail(ctx, api.no); d.CreatedBy != "api" || d.Origin != "" {
		t.Fatalf("API order detail: %+v", d)
	}
	// Embedding: only the listed origin, only with embed=1.
	for _, c := range []struct{ q, want string }{
		{"?embed=1&origin=" + "http%3A%2F%2Fshop.test%3A8081", "frame-ancestors " + shopOrigin},
		{"?embed=1&origin=https%3A%2F%2Fevil.example", "frame-ancestors 'self'"},
		{"", "frame-ancestors 'self'"},
	} {
		res, err := http.Get(a.body.Data.PayURL + c.q)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, c.want) || (c.q == "" || strings.Contains(c.q, "evil")) != (res.Header.Get("X-Frame-Options") == "SAMEORIGIN") {
			t.Fatalf("%s: CSP %q, XFO %q", c.q, csp, res.Header.Get("X-Frame-Options"))
		}
		if strings.Contains(c.want, shopOrigin) != strings.Contains(string(page), `data-parent-origin="`+shopOrigin+`"`) {
			t.Fatalf("%s: parent origin in the page is wrong", c.q)
		}
	}
	// The back link of a browser order without redirectUrl is its page's site.
	if st := e.pageStatusOfOrder(t, &pageOrder{id: a.body.Data.OrderID}); st.BackURL != shopOrigin+"/" {
		t.Fatalf("back URL %q", st.BackURL)
	}
	// Per-IP limit: 20 a minute, counted over the accepted origin's calls.
	limited := false
	for i := 0; i < 30 && !limited; i++ {
		limited = e.sdkOrder(t, shopOrigin, body(nil)).status == http.StatusTooManyRequests
	}
	if !limited {
		t.Fatal("no per-IP limit on browser-created orders")
	}
}

// orderToken is what the merchant's server gives its page for a browser
// order of its own number: the widget URL signing of apiKey, orderNo and
// amount under the secret key.
func orderToken(orderNo, amount string) string {
	return sign.SignWidget(secretKey, []sign.WidgetParam{{Key: "apiKey", Value: apiKey}, {Key: "orderNo", Value: orderNo}, {Key: "amount", Value: amount}})
}

// The attack of the review: with allowed origins set, a stranger holding
// the public key can neither take the merchant's order number (the
// merchant's signed create of INV-1002 then works), nor reach or cancel
// the order once the merchant created it, nor get the page of a browser
// order created by another browser; an unsigned request gets a number of
// the service's.
func TestSDKOrdersCannotTakeTheMerchantsNumbers(t *testing.T) {
	e := newEnv(t, nil)
	e.allowOrigins(t, shopOrigin)
	ctx := context.Background()
	stranger := func(over map[string]any) sdkAnswer {
		b := map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "1.00", "symbol": "USDT", "chainId": "ETH"}
		for k, v := range over {
			b[k] = v
		}
		return e.sdkOrder(t, shopOrigin, b)
	}
	if a := stranger(map[string]any{"orderNo": "INV-1002"}); a.status != 403 || a.body.Code != sdkSignature || a.body.Data.PayURL != "" {
		t.Fatalf("an unsigned orderNo: %+v", a)
	}
	if _, err := e.store.CollectionByOrderNo(ctx, "m_1", "INV-1002"); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("the stranger took INV-1002: %v", err)
	}
	api := e.pageOrder(t, "INV-1002", "100", "") // the merchant's signed create
	for name, over := range map[string]map[string]any{
		"unsigned":                {"orderNo": "INV-1002"},
		"with a made-up resume":   {"orderNo": "INV-1002", "resumeToken": "x"},
		"with another order's":    {"orderNo": "INV-1002", "resumeToken": stranger(nil).body.Data.ResumeToken},
		"with the order's amount": {"orderNo": "INV-1002", "amount": "100"},
	} {
		if a := stranger(over); a.status < 400 || a.body.Data.PayURL != "" || a.body.Data.OrderID != "" {
			t.Fatalf("%s: the merchant's order reached: %+v", name, a)
		}
	}
	if o, err := e.store.Collection(ctx, api.id); err != nil || o.Status != cashier.CollectionPending || o.Origin != "" {
		t.Fatalf("the merchant's order after the attempts: %+v %v", o, err)
	}
	// Unsigned orders get the service's numbers, a new order each time.
	one, two := stranger(nil), stranger(nil)
	if one.status != 200 || two.status != 200 || !strings.HasPrefix(one.body.Data.OrderNo, "W") || one.body.Data.OrderNo == two.body.Data.OrderNo {
		t.Fatalf("unsigned orders: %+v %+v", one, two)
	}
	// A browser order of another browser is not handed out by its number.
	if a := stranger(map[string]any{"orderNo": one.body.Data.OrderNo}); a.status < 400 || a.body.Data.PayURL != "" {
		t.Fatalf("another browser's order by its number: %+v", a)
	}
	if a := stranger(map[string]any{"orderNo": one.body.Data.OrderNo, "resumeToken": one.body.Data.ResumeToken}); a.status != 200 || a.body.Data.OrderID != one.body.Data.OrderID {
		t.Fatalf("its own browser's reload: %+v", a)
	}
}

// The SDK script: as cashier.umd.js defining window.Cashier; under a
// brand also as <Brand>.umd.js defining window.<Brand>; nothing else.
func TestSDKScript(t *testing.T) {
	plain := newEnv(t, nil)
	branded := newEnv(t, func(c *Config) { c.HeaderPrefix = "BlockATM" })
	get := func(e *env, name string) (int, string) {
		res, err := http.Get(e.srv.URL + "/libs/v2/" + name + "?apiKey=" + apiKey)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if st, js := get(plain, "cashier.umd.js"); st != 200 || !strings.Contains(js, `var NAME = "Cashier"`) {
		t.Fatalf("cashier.umd.js: %d", st)
	}
	if st, _ := get(plain, "BlockATM.umd.js"); st != 404 {
		t.Fatalf("BlockATM.umd.js without the brand: %d", st)
	}
	if st, js := get(branded, "BlockATM.umd.js"); st != 200 || !strings.Contains(js, `var NAME = "BlockATM"`) {
		t.Fatalf("BlockATM.umd.js: %d", st)
	}
	for _, n := range []string{"Service.umd.js", "cashier.js", "x.umd.js"} {
		if st, _ := get(branded, n); st != 404 {
			t.Fatalf("%s: %d", n, st)
		}
	}
}
