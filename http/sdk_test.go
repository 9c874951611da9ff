package http

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
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
		Data    struct{ OrderNo, OrderID, PayURL, EmbedURL, Status string }
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
	e := newEnv(t, func(c *Config) { c.RateLimits.BrowserOrders = 6 })
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
	a := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderNo": "SDK-1"}))
	if a.status != 200 || a.cors != shopOrigin || !a.body.Success || a.body.Data.OrderNo != "SDK-1" ||
		!strings.Contains(a.body.Data.EmbedURL, "embed=1&origin=http%3A%2F%2Fshop.test%3A8081") {
		t.Fatalf("allowed origin: %+v", a)
	}
	// The same orderNo again: the same order.
	again := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderNo": "SDK-1"}))
	if again.status != 200 || again.body.Data.OrderID != a.body.Data.OrderID {
		t.Fatalf("repeated orderNo: %+v, first %+v", again, a)
	}
	if other := e.sdkOrder(t, shopOrigin, body(map[string]any{"orderNo": "SDK-1", "amount": "99"})); other.status != 409 || other.body.Code != sdkParam {
		t.Fatalf("repeated orderNo with another amount: %+v", other)
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
	// Per-IP limit: 6 a minute, counted over the accepted origin's calls.
	limited := false
	for i := 0; i < 8 && !limited; i++ {
		limited = e.sdkOrder(t, shopOrigin, body(nil)).status == http.StatusTooManyRequests
	}
	if !limited {
		t.Fatal("no per-IP limit on browser-created orders")
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
