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

// The provider's published URL signers for other languages sign a text
// other than the URL they send: each value is encoded twice before
// signing, while the URL carries it encoded once. Both forms are fixed by
// the parameters, so a URL from either verifies without a setting.
//
// PythonDoubleQuery is the text its Python sample signs:
// urlencode({k: quote(v, safe="")}): the value through quote (RFC 3986
// unreserved characters kept, space as %20), then through quote_plus,
// which leaves only '%' to encode again; keys through quote_plus.
func PythonDoubleQuery(params []WidgetParam) string {
	return joinQuery(params, url.QueryEscape, func(v string) string {
		return strings.ReplaceAll(percentEncode(v, unreservedRFC3986), "%", "%25")
	})
}

// PHPDoubleQuery is the text its PHP sample signs:
// http_build_query(array_map('urlencode', $params)): the value through
// PHP's urlencode twice; keys once.
func PHPDoubleQuery(params []WidgetParam) string {
	return joinQuery(params, phpURLEncode, func(v string) string { return phpURLEncode(phpURLEncode(v)) })
}

// phpURLEncode is PHP's urlencode: letters, digits and "-_." kept, space
// as '+', every other byte as %XX (upper case), '~' included.
func phpURLEncode(s string) string {
	return strings.ReplaceAll(percentEncode(s, func(c byte) bool { return c == ' ' || alnum(c) || c == '-' || c == '_' || c == '.' }), " ", "+")
}

func alnum(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }

func unreservedRFC3986(c byte) bool { return alnum(c) || c == '-' || c == '_' || c == '.' || c == '~' }

// percentEncode writes every byte that keep refuses as %XX.
func percentEncode(s string, keep func(byte) bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; keep(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

func joinQuery(params []WidgetParam, key, value func(string) string) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(key(p.Key) + "=" + value(p.Value))
	}
	return b.String()
}

// ErrWidgetUnsigned means a widget URL carries no signature parameter.
var ErrWidgetUnsigned = errors.New("widget URL has no signature parameter")

// VerifyWidgetQuery checks a received raw query string: the signature must
// be the last parameter and must sign the text before it. The text as
// received, byte for byte, always verifies (any encoding the client chose
// and sent unchanged); the accepted encodings add the forms the API's
// request signatures accept (--sign-encodings): Raw, the parameters in the
// order received with their decoded values (a signer that did not encode);
// URLEncoded, the values re-encoded with url.QueryEscape (a signer that
// encoded while the URL reached us encoded otherwise, e.g. %20 for space).
// The texts the provider's Python and PHP samples sign (PythonDoubleQuery,
// PHPDoubleQuery) always verify too: each is fixed by the decoded
// parameters, so a changed value or a wrong key still fails. It returns
// the decoded parameters.
func VerifyWidgetQuery(secret, rawQuery string, accept ...Encoding) (url.Values, error) {
	i := strings.LastIndex(rawQuery, "&"+WidgetSignatureParam+"=")
	if i < 0 {
		return nil, ErrWidgetUnsigned
	}
	signed, sig := rawQuery[:i], rawQuery[i+len(WidgetSignatureParam)+2:]
	values, err := url.ParseQuery(signed)
	if err != nil {
		return nil, ErrBadSignature
	}
	if Equal(sig, HMAC(secret, signed)) {
		return values, nil
	}
	params, err := orderedParams(signed)
	if err != nil {
		return nil, ErrBadSignature
	}
	for _, text := range []string{PythonDoubleQuery(params), PHPDoubleQuery(params)} {
		if Equal(sig, HMAC(secret, text)) {
			return values, nil
		}
	}
	for _, enc := range accept {
		var text string
		if enc == URLEncoded {
			text = WidgetQuery(params)
		} else {
			text = rawWidgetQuery(params)
		}
		if Equal(sig, HMAC(secret, text)) {
			return values, nil
		}
	}
	return nil, ErrBadSignature
}

// orderedParams decodes a query string keeping the parameters' order.
func orderedParams(q string) ([]WidgetParam, error) {
	var out []WidgetParam
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		dk, err := url.QueryUnescape(k)
		if err != nil {
			return nil, err
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			return nil, err
		}
		out = append(out, WidgetParam{dk, dv})
	}
	return out, nil
}

// rawWidgetQuery joins the parameters with their values unencoded.
func rawWidgetQuery(params []WidgetParam) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.Key + "=" + p.Value)
	}
	return b.String()
}
