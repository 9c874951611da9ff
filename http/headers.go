package http

import "net/http"

// setSecurityHeaders is applied to every response. nosniff stops a browser
// from reading a JSON or text answer as a script or page. no-referrer keeps
// the payment page's URL, whose order id is the capability that opens it,
// out of the Referer of anything the page loads or links to (a wallet
// site, an explorer, the merchant's redirect URL).
func setSecurityHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
