package sign

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// sdkVectors is the file the Python, Node and PHP SDKs' suites sign
// against; this test holds it to the service's own signing code.
const sdkVectors = "../sdk/testdata/vectors.json"

type vectorFile struct {
	Request []struct {
		Name      string          `json:"name"`
		Secret    string          `json:"secret"`
		Time      string          `json:"time"`
		Params    json.RawMessage `json:"params"`
		Canonical string          `json:"canonical"`
		Signature string          `json:"signature"`
	} `json:"request"`
	Webhook []struct {
		Name        string `json:"name"`
		Key         string `json:"key"`
		Time        string `json:"time"`
		Body        string `json:"body"`
		SignatureV2 string `json:"signatureV2"`
		Signature   string `json:"signature"`
	} `json:"webhook"`
}

// TestSDKVectors: every vector the SDKs test against is what package sign
// computes. CASHIER_WRITE_SDK_VECTORS=1 rewrites the expected values.
func TestSDKVectors(t *testing.T) {
	raw, err := os.ReadFile(sdkVectors)
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	write := os.Getenv("CASHIER_WRITE_SDK_VECTORS") == "1"
	if len(f.Request) < 5 || len(f.Webhook) < 2 {
		t.Fatalf("too few vectors: %d request, %d webhook", len(f.Request), len(f.Webhook))
	}
	for i, v := range f.Request {
		p, err := ParseJSONObject(v.Params)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		canon, err := Canonical(p, v.Time, Raw)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		sig := HMAC(v.Secret, canon)
		if write {
			f.Request[i].Canonical, f.Request[i].Signature = canon, sig
			continue
		}
		if canon != v.Canonical || sig != v.Signature {
			t.Errorf("%s: canonical %q signature %s; the file says %q %s", v.Name, canon, sig, v.Canonical, v.Signature)
		}
	}
	for i, v := range f.Webhook {
		v2, plain, err := Webhook(WebhookRaw, v.Key, []byte(v.Body), v.Time)
		if err != nil {
			t.Fatal(err)
		}
		if write {
			f.Webhook[i].SignatureV2, f.Webhook[i].Signature = v2, plain
			continue
		}
		if v2 != v.SignatureV2 || plain != v.Signature {
			t.Errorf("%s: %s %s; the file says %s %s", v.Name, v2, plain, v.SignatureV2, v.Signature)
		}
	}
	if write {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sdkVectors, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
