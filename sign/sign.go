// Package sign is the one implementation of the service's HMAC signatures:
// API requests (Service-Signature-V2), hosted cashier widget URLs and
// webhooks. The server, the webhook sender, the widget URL check and the Go
// client SDK all call this package, so the two sides cannot drift apart.
//
// The interface leaves several points of the request signature open; the
// choices below are recorded in docs/decisions.md:
//   - parameters are the top-level keys of the JSON body, or the query
//     parameters of a GET request, sorted by key in ascending byte order;
//   - a string value is used as-is (Raw) or URL-encoded (URLEncoded);
//   - a number is its JSON literal as sent, a boolean is true or false;
//   - an array or object is its compact JSON with object keys sorted;
//   - a null value is left out, and so is the key "sign" (the body field
//     that carries the signature itself);
//   - "&time=<Service-Request-Time>" is appended ("time=<ms>" alone when no
//     parameter remains).
package sign

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Encoding selects how string values appear in the signed text. Sample
// clients of the original interface disagree: the Java, Go, C++ and Node
// samples use raw values, the Python and PHP samples URL-encode them.
type Encoding int

const (
	Raw        Encoding = iota // values as they are
	URLEncoded                 // values through url.QueryEscape (space becomes '+')
)

// ParseEncoding reads "raw" or "urlencoded".
func ParseEncoding(s string) (Encoding, error) {
	switch strings.ToLower(s) {
	case "", "raw":
		return Raw, nil
	case "urlencoded", "url", "url-encoded":
		return URLEncoded, nil
	}
	return Raw, fmt.Errorf("sign: unknown encoding %q (use raw or urlencoded)", s)
}

// SignField is the body field that carries a signature and is therefore
// never part of the signed text.
const SignField = "sign"

// Params are request parameters as decoded by ParseJSONObject or FromQuery:
// values are string, json.Number, bool, nil, []any or map[string]any.
type Params map[string]any

// HMAC returns the lowercase hexadecimal HMAC-SHA256 of msg under key.
func HMAC(key, msg string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

// Equal compares two hexadecimal signatures in constant time. Upper-case hex
// is accepted from clients; anything that is not 64 hex digits never matches.
func Equal(got, want string) bool {
	g, err1 := hex.DecodeString(got)
	w, err2 := hex.DecodeString(want)
	if err1 != nil || err2 != nil || len(g) != sha256.Size || len(w) != sha256.Size {
		return false
	}
	return hmac.Equal(g, w)
}

// Canonical returns the text that is signed for params and the request time.
func Canonical(p Params, timeMs string, enc Encoding) (string, error) {
	keys := make([]string, 0, len(p))
	for k, v := range p {
		if k == SignField || v == nil {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		s, err := valueText(p[k])
		if err != nil {
			return "", fmt.Errorf("sign: parameter %q: %w", k, err)
		}
		if enc == URLEncoded {
			s = url.QueryEscape(s)
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(s)
		b.WriteByte('&')
	}
	b.WriteString("time=")
	b.WriteString(timeMs)
	return b.String(), nil
}

// Request returns the Service-Signature-V2 value for params signed at timeMs.
func Request(secret string, p Params, timeMs string, enc Encoding) (string, error) {
	msg, err := Canonical(p, timeMs, enc)
	if err != nil {
		return "", err
	}
	return HMAC(secret, msg), nil
}

// ErrBadSignature is returned when a signature does not verify.
var ErrBadSignature = errors.New("signature does not match")

// VerifyRequest checks sig against params signed at timeMs under any of the
// accepted encodings.
func VerifyRequest(secret string, p Params, timeMs, sig string, accept ...Encoding) error {
	if len(accept) == 0 {
		accept = []Encoding{Raw}
	}
	ok := false
	for _, enc := range accept {
		want, err := Request(secret, p, timeMs, enc)
		if err != nil {
			return err
		}
		// Evaluate every encoding so timing does not tell which one matched.
		if Equal(sig, want) {
			ok = true
		}
	}
	if !ok {
		return ErrBadSignature
	}
	return nil
}

func valueText(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case []any, map[string]any:
		return compactJSON(v)
	}
	return "", fmt.Errorf("unsupported value type %T", v)
}

// compactJSON renders nested values with sorted object keys, no insignificant
// space and no HTML escaping, numbers as their original literals.
func compactJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}
