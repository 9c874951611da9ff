// Package publicurl builds the addresses customers open — a collection
// order's hosted payment page, a refund link's page — in one place for the
// API and the dashboard, which both hand them out: under the public base
// URL the service is configured with or, failing that, the scheme and
// host the request came to.
package publicurl

import (
	"net/http"
	"strings"
)

// Base is configured without trailing slashes or, when configured is
// empty, the scheme and host r came to.
func Base(configured string, r *http.Request) string {
	base := configured
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return strings.TrimRight(base, "/")
}

// Pay is the hosted payment page of the collection order orderID.
func Pay(configured string, r *http.Request, orderID string) string {
	return Base(configured, r) + "/pay/" + orderID
}

// Refund is the page of the refund link refundID.
func Refund(configured string, r *http.Request, refundID string) string {
	return Base(configured, r) + "/refund/" + refundID
}
