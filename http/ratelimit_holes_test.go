package http

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"testing"

	"github.com/stablecashier/cashier/client"
)

// viaProxy sends a request that a trusted proxy forwards for client ip.
func viaProxy(t *testing.T, e *env, path, ip string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	req.Header.Set("X-Forwarded-For", ip)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

var loopbackProxy = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// TestIPv6ClientsCountedByPrefix: addresses of one /64 share the per-IP
// bucket (one subscriber cannot escape the limit by rotating addresses);
// another /64 and the /48 setting behave as configured.
func TestIPv6ClientsCountedByPrefix(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.TrustedProxies = loopbackProxy
		c.RateLimits = RateLimits{PerKey: -1, PerIP: 3, PerEndpoint: -1}
	})
	for i := 1; i <= 3; i++ {
		if st := viaProxy(t, e, "/admin/api/v2/pub/network/list", fmt.Sprintf("2001:db8:1:2::%x", i)); st != 200 {
			t.Fatalf("request %d: %d", i, st)
		}
	}
	if st := viaProxy(t, e, "/admin/api/v2/pub/network/list", "2001:db8:1:2:ffff::9"); st != 429 {
		t.Fatalf("a fourth address of the same /64 got %d, want 429", st)
	}
	if st := viaProxy(t, e, "/admin/api/v2/pub/network/list", "2001:db8:1:3::1"); st != 200 {
		t.Fatalf("another /64 got %d", st)
	}

	e48 := newEnv(t, func(c *Config) {
		c.TrustedProxies = loopbackProxy
		c.RateLimits = RateLimits{PerKey: -1, PerIP: 1, PerEndpoint: -1, IPv6Prefix: 48}
	})
	viaProxy(t, e48, "/admin/api/v2/pub/network/list", "2001:db8:1:2::1")
	if st := viaProxy(t, e48, "/admin/api/v2/pub/network/list", "2001:db8:1:7::1"); st != 429 {
		t.Fatalf("same /48 under the /48 setting got %d", st)
	}
	if st := viaProxy(t, e48, "/admin/api/v2/pub/network/list", "192.0.2.1"); st != 200 {
		t.Fatalf("IPv4 client got %d", st)
	}
}

// TestAnonymousFloodDoesNotStarveMerchants: anonymous traffic from many
// addresses fills the counter table and exhausts its shared overflow
// counter; a merchant's signed calls from a fresh address keep
// succeeding, while a further anonymous caller is refused.
func TestAnonymousFloodDoesNotStarveMerchants(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.TrustedProxies = loopbackProxy
		c.RateLimits = RateLimits{PerKey: 1000, PerIP: 20, PerEndpoint: 1000, MaxKeys: 40}
	})
	refused := 0
	for i := 0; i < 400; i++ {
		// Public calls and unsigned calls to signed routes alike.
		path := "/admin/api/v2/pub/coin/list"
		if i%2 == 1 {
			path = "/order/api/v2/payorder/detail?orderNo=x"
		}
		if viaProxy(t, e, path, fmt.Sprintf("198.51.%d.%d", i/200, i%200+1)) == 429 {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("the flood never reached the shared overflow counter; the test proves nothing")
	}
	// The merchant's calls come from an address the full table has never seen.
	hc := &http.Client{Transport: headerTransport{"X-Forwarded-For", "203.0.113.77"}}
	c := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock), client.WithHTTPClient(hc))
	ctx := context.Background()
	for i := 0; i < 30; i++ {
		if _, err := c.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: fmt.Sprintf("F%d", i), Amount: "10", Symbol: "USDT"}); err != nil {
			t.Fatalf("signed call %d during the flood: %v", i, err)
		}
	}
	if _, err := c.CashierInfo(ctx, cashierID); err != nil {
		t.Fatalf("cashier info during the flood: %v", err)
	}
	// Someone unproven from a fresh address still meets the exhausted limit.
	if st := viaProxy(t, e, "/order/api/v2/payorder/detail?orderNo=x", "203.0.113.99"); st != 429 {
		t.Fatalf("unauthenticated fresh address got %d, want 429", st)
	}
}

type headerTransport struct{ k, v string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.k, h.v)
	return http.DefaultTransport.RoundTrip(r)
}
