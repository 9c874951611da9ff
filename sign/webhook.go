package sign

import (
	"errors"
	"fmt"
	"strings"
)

// Webhook signatures. The original documents disagree (raw body plus
// &time=; sorted key=value of the body plus &time=; the JSON text alone),
// and real receivers are written against more than one of them, so every
// webhook carries two headers:
//   - Service-Signature-V2: HMAC-SHA256 under the merchant's webhook key of
//     the raw body + "&time=" + Service-Request-Time (scheme WebhookRaw, the
//     default: what the provider's signature verification page and its
//     receiver samples compute), or of the sorted key=value text of the body
//     + "&time=..." (scheme WebhookSorted, the request-signature rule);
//   - Service-Signature: HMAC-SHA256 of the raw compact JSON body alone. It
//     covers no time, so a captured delivery verifies under it forever:
//     receivers relying on it must deduplicate on the body's eventId.

// WebhookScheme selects how Service-Signature-V2 is computed.
type WebhookScheme string

const (
	// WebhookRaw signs body + "&time=" + time. The default.
	WebhookRaw WebhookScheme = "raw"
	// WebhookSorted signs the sorted key=value text of the body + "&time=".
	WebhookSorted WebhookScheme = "sorted"
)

// ParseWebhookScheme reads "raw" or "sorted" ("" is raw).
func ParseWebhookScheme(s string) (WebhookScheme, error) {
	switch WebhookScheme(strings.ToLower(s)) {
	case "", WebhookRaw:
		return WebhookRaw, nil
	case WebhookSorted:
		return WebhookSorted, nil
	}
	return WebhookRaw, fmt.Errorf("sign: unknown webhook signature scheme %q (use raw or sorted)", s)
}

// ErrAmbiguous reports a webhook body whose sorted key=value text could be
// split differently: a string value holding '&' or '='. Under the sorted
// scheme such a body is refused, or another body with the same text (a
// forged one) would carry the same signature.
var ErrAmbiguous = errors.New("sign: a body value contains '&' or '=', which makes the sorted key=value text ambiguous")

// WebhookText returns the text Service-Signature-V2 covers under scheme.
func WebhookText(scheme WebhookScheme, body []byte, timeMs string) (string, error) {
	if scheme != WebhookSorted {
		return string(body) + "&time=" + timeMs, nil
	}
	p, err := ParseJSONObject(body)
	if err != nil {
		return "", fmt.Errorf("sign: webhook body: %w", err)
	}
	for k, v := range p {
		switch v := v.(type) {
		case string:
			if strings.ContainsAny(v, "&=") {
				return "", ErrAmbiguous
			}
		case []any, map[string]any:
			return "", fmt.Errorf("sign: webhook body: nested value %q has no unambiguous sorted form", k)
		}
	}
	return Canonical(p, timeMs, Raw)
}

// Webhook returns both signatures for body sent at timeMs: V2 under scheme
// and the plain signature over the raw body.
func Webhook(scheme WebhookScheme, key string, body []byte, timeMs string) (v2, plain string, err error) {
	msg, err := WebhookText(scheme, body, timeMs)
	if err != nil {
		return "", "", err
	}
	return HMAC(key, msg), HMAC(key, string(body)), nil
}

// VerifyWebhook checks the V2 signature of a received webhook body.
func VerifyWebhook(scheme WebhookScheme, key string, body []byte, timeMs, v2 string) error {
	want, _, err := Webhook(scheme, key, body, timeMs)
	if err != nil {
		return err
	}
	if !Equal(v2, want) {
		return ErrBadSignature
	}
	return nil
}

// VerifyWebhookBody checks the plain signature over the raw body.
func VerifyWebhookBody(key string, body []byte, sig string) error {
	if !Equal(sig, HMAC(key, string(body))) {
		return ErrBadSignature
	}
	return nil
}
