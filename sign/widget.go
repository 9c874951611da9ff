package sign

import (
	"errors"
	"net/url"
	"strings"
)

// WidgetParam is one query parameter of a hosted cashier widget URL. The
// signed text keeps the parameters in the order given, as the original
// samples do, so they are a slice rather than a map.
type WidgetParam struct{ Key, Value string }

// WidgetSignatureParam is the query parameter that carries the signature.
const WidgetSignatureParam = "signature"

// WidgetQuery renders params as a query string, each value URL-encoded, in
// the order given.
func WidgetQuery(params []WidgetParam) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.Key))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(p.Value))
	}
	return b.String()
}

// SignWidget returns the full signed query string: the encoded parameters
// followed by &signature=<hex HMAC-SHA256 of that text under secret>.
func SignWidget(secret string, params []WidgetParam) string {
	q := WidgetQuery(params)
	return q + "&" + WidgetSignatureParam + "=" + HMAC(secret, q)
}

// ErrWidgetUnsigned means a widget URL carries no signature parameter.
var ErrWidgetUnsigned = errors.New("widget URL has no signature parameter")

// VerifyWidgetQuery checks a received raw query string: the signature must
// be the last parameter and must sign exactly the text before it, byte for
// byte as received, so any encoding the client chose verifies. It returns
// the decoded parameters.
func VerifyWidgetQuery(secret, rawQuery string) (url.Values, error) {
	i := strings.LastIndex(rawQuery, "&"+WidgetSignatureParam+"=")
	if i < 0 {
		return nil, ErrWidgetUnsigned
	}
	signed, sig := rawQuery[:i], rawQuery[i+len(WidgetSignatureParam)+2:]
	if !Equal(sig, HMAC(secret, signed)) {
		return nil, ErrBadSignature
	}
	return url.ParseQuery(signed)
}
