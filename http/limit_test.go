package http

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sign"
)

func TestEndpointRateLimit(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimits.PerEndpoint = 3 })
	ctx := context.Background()
	reset := strconv.FormatInt(t0.Truncate(time.Minute).Add(time.Minute).Unix(), 10)
	for i := 0; i < 3; i++ {
		r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "R" + strconv.Itoa(i)}), secretKey, ms(e.clock.Now()))})
		checkEnvelope(t, r, "200")
		if r.header.Get("X-RateLimit-Limit") != "3" || r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) || r.header.Get("X-RateLimit-Reset") != reset {
			t.Fatalf("request %d headers %v", i, r.header)
		}
	}
	r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "R3"}), secretKey, ms(e.clock.Now()))})
	expectError(t, r, 429, "000429", "rate limit exceeded")
	if r.header.Get("Retry-After") != "50" || r.header.Get("X-RateLimit-Remaining") != "0" || r.header.Get("X-RateLimit-Reset") != reset {
		t.Fatalf("429 headers %v", r.header)
	}
	if n, _ := e.counts(); n != 3 {
		t.Fatalf("%d orders after a refused request, want 3", n)
	}
	// Other endpoints of the same key are not affected by this one's limit.
	if _, err := e.cli.CollectionDetail(ctx, "R0"); err != nil {
		t.Fatal(err)
	}
	// Neither is another merchant on the same endpoint.
	other := client.New(e.srv.URL, apiKey2, secretKey2, client.WithClock(e.clock))
	if _, err := other.CreateCollection(ctx, client.CollectionRequest{CashierID: cashier2, OrderNo: "X", Amount: "10", Symbol: "USDT"}); err != nil {
		t.Fatal(err)
	}
	// The window resets at the minute boundary.
	e.clock.Set(t0.Truncate(time.Minute).Add(time.Minute))
	if _, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "R3", Amount: "10", Symbol: "USDT"}); err != nil {
		t.Fatalf("after reset: %v", err)
	}

	// Public endpoints are limited per IP, in the config family's form.
	for i := 0; i < 3; i++ {
		checkEnvelope(t, e.do(request{method: http.MethodGet, path: "/admin/api/v2/pub/coin/list", apiKey: "-"}), "0")
	}
	expectError(t, e.do(request{method: http.MethodGet, path: "/admin/api/v2/pub/coin/list", apiKey: "-"}), 429, "ERROR_000429", "per endpoint")
}

func TestKeyAndIPRateLimits(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimits = RateLimits{PerKey: 4, PerIP: 7, PerEndpoint: -1} })
	ctx := context.Background()
	for i := 0; i < 4; i++ {
		if _, err := e.cli.CollectionDetail(ctx, "x"); !client.IsCode(err, "000202") {
			t.Fatal(err)
		}
	}
	_, err := e.cli.Networks(ctx) // public: not counted against the key
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cli.PayoutDetail(ctx, "x"); !client.IsCode(err, "000429") || !strings.Contains(err.Error(), "per API key") {
		t.Fatalf("5th keyed request: %v", err)
	}
	// Every request counted against the IP, the refused one too (it was
	// counted before the key was known): one more call fits, then the IP limit.
	if _, err := e.cli.Coins(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cli.Coins(ctx); !client.IsCode(err, "ERROR_000429") || !strings.Contains(err.Error(), "per client IP") {
		t.Fatalf("8th request from the IP: %v", err)
	}
}

// The API key is no secret (it travels in widget URLs), so requests that
// carry it but fail authentication must not use up the merchant's quota.
func TestUnsignedRequestsDoNotSpendTheMerchantsQuota(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.RateLimits = RateLimits{PerKey: 3, PerIP: -1, PerEndpoint: 3} })
	ctx := context.Background()
	forger := client.New(e.srv.URL, apiKey, "sk_guessed", client.WithClock(e.clock))
	for i := 0; i < 20; i++ {
		if _, err := forger.CollectionDetail(ctx, "x"); !client.IsCode(err, "000306") {
			t.Fatalf("forged request %d: %v", i, err)
		}
	}
	for i := 0; i < 3; i++ {
		if _, err := e.cli.CollectionDetail(ctx, "x"); !client.IsCode(err, "000202") {
			t.Fatalf("merchant's own request %d after the forgeries: %v", i, err)
		}
	}
	if _, err := e.cli.CollectionDetail(ctx, "x"); !client.IsCode(err, "000429") {
		t.Fatalf("4th signed request: %v", err)
	}
}

func TestRateLimitHeadersOnEveryResponse(t *testing.T) {
	e := newEnv(t, nil)
	for _, c := range []struct {
		r     response
		limit string
	}{
		{e.do(request{method: http.MethodGet, path: "/nowhere"}), "100"},                                                      // per endpoint and IP
		{e.do(request{method: http.MethodGet, path: "/pay/co_nope"}), "100"},                                                  // per endpoint and IP
		{e.do(request{method: http.MethodGet, path: "/order/api/v2/payout/detail", query: "orderNo=x", apiKey: "-"}), "2000"}, // unauthenticated: per IP only
		{e.do(request{method: http.MethodGet, path: "/order/api/v2/payout/detail", query: "orderNo=x"}), "100"},               // authenticated: per endpoint and merchant
	} {
		h := c.r.header
		if h.Get("X-RateLimit-Limit") != c.limit || h.Get("X-RateLimit-Remaining") == "" || h.Get("X-RateLimit-Reset") == "" || h.Get("X-Request-Id") == "" {
			t.Fatalf("status %d headers %v, want limit %s", c.r.status, h, c.limit)
		}
	}
}

func TestClientIPBehindTrustedProxy(t *testing.T) {
	s := &server{cfg: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	cases := []struct{ remote, xff, want string }{
		{"203.0.113.9:5000", "1.2.3.4", "203.0.113.9"},             // untrusted peer: header ignored
		{"10.0.0.2:5000", "1.2.3.4", "1.2.3.4"},                    // trusted peer
		{"10.0.0.2:5000", "6.6.6.6, 1.2.3.4, 10.0.0.7", "1.2.3.4"}, // rightmost untrusted hop
		{"10.0.0.2:5000", "", "10.0.0.2"},                          // no header
		{"10.0.0.2:5000", "garbage, 10.0.0.9", "10.0.0.9"},         // garbled entry stops the walk
		{"[::ffff:10.0.0.2]:5000", "2001:db8::1", "2001:db8::1"},   // mapped IPv4 peer
	}
	for _, c := range cases {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = c.remote
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := s.clientIP(r).String(); got != c.want {
			t.Errorf("%s via %q: %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
}

// allCodes lists every domain error code; the table must map each.
var allCodes = []cashier.Code{
	cashier.EInternal, cashier.EInvalid, cashier.EInvalidType, cashier.EMissing, cashier.EInvalidAmount,
	cashier.EInvalidAddress, cashier.EUnsupported, cashier.EDuplicate, cashier.EAPIKeyRequired, cashier.EUnauthorized,
	cashier.EBadSignature, cashier.EStaleRequest, cashier.ENotFound, cashier.ECashierNotFound, cashier.ECashierClosed,
	cashier.EContractNotFound, cashier.EInvalidStatus, cashier.EInsufficientFunds, cashier.EInsufficientAllow,
	cashier.EInsufficientContr, cashier.ENotWhitelisted, cashier.ERateLimited, cashier.ETooLarge, cashier.ENetworkMaintenance,
	cashier.EOverloaded, cashier.EUnavailable,
}

func TestErrorTableCoversEveryCode(t *testing.T) {
	if len(errorTable) != len(allCodes) {
		t.Fatalf("table has %d codes, the domain %d", len(errorTable), len(allCodes))
	}
	for _, c := range allCodes {
		w, ok := errorTable[c]
		if !ok || len(w.order) != 6 || !strings.HasPrefix(w.config, "ERROR_") || w.status < 400 {
			t.Errorf("%s: %+v", c, w)
		}
	}
}

func TestPayPageAndWidget(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	created, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "W1", Amount: "12.5", Symbol: "USDT", ChainID: "ARB", CustNo: "C86002201"})
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.cli.CollectionDetail(ctx, "W1")
	if err != nil {
		t.Fatal(err)
	}
	get := func(u string) (int, string, http.Header) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	status, page, hdr := get(created.PayURL)
	if status != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("pay page %d %s", status, hdr)
	}
	for _, want := range []string{"12.50 USDT", "Arbitrum One", o.DepositAddress, `src="data:image/png;base64,`, "PENDING", "W1"} {
		if !strings.Contains(page, want) {
			t.Errorf("pay page lacks %q", want)
		}
	}
	e.clock.Advance(31 * time.Minute)
	if _, page, _ := get(created.PayURL); !strings.Contains(page, "EXPIRED") || strings.Contains(page, "data:image/png") {
		t.Errorf("expired order still offers a QR code")
	}
	if status, _, _ := get(e.srv.URL + "/pay/co_nope"); status != 404 {
		t.Errorf("unknown order page: %d", status)
	}

	params := []sign.WidgetParam{{Key: "apiKey", Value: apiKey}, {Key: "custNo", Value: "C86002201"}, {Key: "orderNo", Value: "W1"}}
	status, page, _ = get(client.WidgetURL(e.srv.URL+"/widget", secretKey, params))
	if status != 200 || !strings.Contains(page, "Acme Shop") || !strings.Contains(page, created.PayURL) {
		t.Fatalf("widget %d\n%s", status, page)
	}
	status, _, _ = get(client.WidgetURL(e.srv.URL+"/widget", "sk_wrong", params))
	if status != 401 {
		t.Fatalf("widget signed with the wrong key: %d", status)
	}
	tampered := strings.Replace(client.WidgetURL(e.srv.URL+"/widget", secretKey, params), "C86002201", "C86002202", 1)
	if status, _, _ = get(tampered); status != 401 {
		t.Fatalf("tampered widget URL: %d", status)
	}
	if status, _, _ = get(e.srv.URL + "/widget?apiKey=" + apiKey + "&custNo=1"); status != 401 {
		t.Fatalf("unsigned widget URL: %d", status)
	}
}
