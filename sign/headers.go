package sign

// Headers are the names of the service's HTTP headers for one brand prefix.
// The interface writes the prefix as "Service"; an operator can change it so
// clients written for a differently branded deployment work unchanged.
type Headers struct {
	APIKey      string // <P>-API-Key
	RequestTime string // <P>-Request-Time
	SignatureV2 string // <P>-Signature-V2
	Signature   string // <P>-Signature (webhooks: HMAC of the raw body)
	RecvWindow  string // <P>-Rec_Window
	Event       string // <P>-Event (webhooks)
	EventID     string // <P>-Event-Id (webhooks)
	// During a webhook key grace (after a rotation) SignatureV2 and
	// Signature are made with the previous webhook key, so receivers
	// keep verifying unchanged; these two carry the same signatures made
	// with the new key. Sent only while the grace lasts.
	SignatureV2Next string // <P>-Signature-V2-Next
	SignatureNext   string // <P>-Signature-Next
}

// DefaultPrefix is the prefix the interface uses.
const DefaultPrefix = "Service"

// HeaderNames returns the header names for prefix ("" means DefaultPrefix).
func HeaderNames(prefix string) Headers {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return Headers{
		APIKey:      prefix + "-API-Key",
		RequestTime: prefix + "-Request-Time",
		SignatureV2: prefix + "-Signature-V2",
		Signature:   prefix + "-Signature",
		RecvWindow:  prefix + "-Rec_Window",
		Event:       prefix + "-Event",
		EventID:     prefix + "-Event-Id",

		SignatureV2Next: prefix + "-Signature-V2-Next",
		SignatureNext:   prefix + "-Signature-Next",
	}
}
