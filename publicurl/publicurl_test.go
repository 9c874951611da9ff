package publicurl

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

func TestPages(t *testing.T) {
	plain := httptest.NewRequest("GET", "/api/v1/collection/create", nil)
	plain.Host = "cashier.local:8080"
	secure := httptest.NewRequest("GET", "/api/v1/collection/create", nil)
	secure.Host = "pay.example.com"
	secure.TLS = &tls.ConnectionState{}

	for _, c := range []struct {
		name, got, want string
	}{
		{"configured", Pay("https://pay.example.com", plain, "co_1"), "https://pay.example.com/pay/co_1"},
		{"configured, trailing slashes", Refund("https://pay.example.com//", plain, "rf_1"), "https://pay.example.com/refund/rf_1"},
		{"configured, with a path", Pay("https://example.com/cashier/", plain, "co_1"), "https://example.com/cashier/pay/co_1"},
		{"the request's host", Pay("", plain, "co_1"), "http://cashier.local:8080/pay/co_1"},
		{"the request's host over TLS", Refund("", secure, "rf_1"), "https://pay.example.com/refund/rf_1"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}
