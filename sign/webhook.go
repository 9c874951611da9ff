package sign

import "fmt"

// Webhook signatures. The original documents disagree (sorted key=value of
// the body plus &time=; raw body plus &time=; the JSON text alone), and real
// receivers are written against more than one of them, so every webhook
// carries two headers:
//   - Service-Signature-V2: HMAC-SHA256 of the canonical request text of the
//     JSON body (exactly as for API requests, raw values) with
//     "&time=<Service-Request-Time>", under the merchant's webhook key;
//   - Service-Signature: HMAC-SHA256 of the raw compact JSON body alone.

// Webhook returns both signatures for body sent at timeMs.
func Webhook(key string, body []byte, timeMs string) (v2, plain string, err error) {
	p, err := ParseJSONObject(body)
	if err != nil {
		return "", "", fmt.Errorf("sign: webhook body: %w", err)
	}
	msg, err := Canonical(p, timeMs, Raw)
	if err != nil {
		return "", "", err
	}
	return HMAC(key, msg), HMAC(key, string(body)), nil
}

// VerifyWebhook checks the V2 signature of a received webhook body.
func VerifyWebhook(key string, body []byte, timeMs, v2 string) error {
	want, _, err := Webhook(key, body, timeMs)
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
