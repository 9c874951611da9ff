package sign

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
)

// The vector published for the hosted cashier widget (reference facts).
func TestWidgetVector(t *testing.T) {
	const secret = "sk_ci_QOoPSlHDSsgXYeNyTP2i0ug1HKLRjHw9Ug7mCc1Q0"
	params := []WidgetParam{
		{"apiKey", "pk_payment_my3T68cbuIXf1x3QOEbWtFEfcJPxeBr8wTewDVM"},
		{"custNo", "C86002201"},
		{"orderNo", "C202503225"},
	}
	const want = "5b2419abcb925389c3f6cb42f35eed85ec36b95578a9d25ee500f9fafdeb08dc"
	q := SignWidget(secret, params)
	if !strings.HasSuffix(q, "&signature="+want) {
		t.Fatalf("SignWidget = %s, want signature %s", q, want)
	}
	vals, err := VerifyWidgetQuery(secret, q)
	if err != nil {
		t.Fatalf("VerifyWidgetQuery: %v", err)
	}
	if vals.Get("custNo") != "C86002201" {
		t.Fatalf("custNo = %q", vals.Get("custNo"))
	}
	if _, err := VerifyWidgetQuery("other", q); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("wrong key: err = %v", err)
	}
	tampered := strings.Replace(q, "C202503225", "C202503226", 1)
	if _, err := VerifyWidgetQuery(secret, tampered); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered: err = %v", err)
	}
	if _, err := VerifyWidgetQuery(secret, "apiKey=x"); !errors.Is(err, ErrWidgetUnsigned) {
		t.Fatalf("unsigned: err = %v", err)
	}
}

func TestWidgetQueryEncodesValuesInOrder(t *testing.T) {
	got := WidgetQuery([]WidgetParam{{"z", "a b&c"}, {"a", "ü/1"}})
	if want := "z=a+b%26c&a=%C3%BC%2F1"; got != want {
		t.Fatalf("WidgetQuery = %q, want %q", got, want)
	}
}

func TestCanonical(t *testing.T) {
	p, err := ParseJSONObject([]byte(`{"orderNo":"A 1","amount":"100.00","payoutType":1,"sign":"abc",
		"remark":null,"flag":true,"orders":[{"symbol":"USDT","amount":"1.5","recipient":"T<x>"}],"big":1.50}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		enc  Encoding
		want string
	}{
		{Raw, `amount=100.00&big=1.50&flag=true&orderNo=A 1&orders=[{"amount":"1.5","recipient":"T<x>","symbol":"USDT"}]&payoutType=1&time=1700000000000`},
		{URLEncoded, `amount=100.00&big=1.50&flag=true&orderNo=A+1&orders=%5B%7B%22amount%22%3A%221.5%22%2C%22recipient%22%3A%22T%3Cx%3E%22%2C%22symbol%22%3A%22USDT%22%7D%5D&payoutType=1&time=1700000000000`},
	}
	for _, c := range cases {
		got, err := Canonical(p, "1700000000000", c.enc)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("Canonical(%d) =\n%s\nwant\n%s", c.enc, got, c.want)
		}
	}
	if got, _ := Canonical(Params{}, "5", Raw); got != "time=5" {
		t.Errorf("empty params: %q", got)
	}
}

// An independent HMAC computation pins the hex form and key use.
func TestRequestSignature(t *testing.T) {
	p := Params{"orderNo": "X1"}
	sig, err := Request("secret", p, "1700000000000", Raw)
	if err != nil {
		t.Fatal(err)
	}
	// echo -n 'orderNo=X1&time=1700000000000' | openssl dgst -sha256 -hmac secret
	if want := HMAC("secret", "orderNo=X1&time=1700000000000"); sig != want || len(sig) != 64 || strings.ToLower(sig) != sig {
		t.Fatalf("sig = %s", sig)
	}
	if err := VerifyRequest("secret", p, "1700000000000", strings.ToUpper(sig)); err != nil {
		t.Fatalf("upper-case hex refused: %v", err)
	}
	if err := VerifyRequest("secret", p, "1700000000001", sig); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("other time accepted: %v", err)
	}
	if err := VerifyRequest("secret", Params{"orderNo": "X2"}, "1700000000000", sig); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("other params accepted: %v", err)
	}
	if err := VerifyRequest("secret", p, "1700000000000", sig[:63]); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("short sig accepted: %v", err)
	}
	// A space-containing value signs differently in the two encodings; the
	// server can be told to accept either.
	q := Params{"remark": "a b"}
	enc, _ := Request("k", q, "1", URLEncoded)
	if err := VerifyRequest("k", q, "1", enc); err == nil {
		t.Fatal("url-encoded signature accepted under raw-only")
	}
	if err := VerifyRequest("k", q, "1", enc, Raw, URLEncoded); err != nil {
		t.Fatalf("url-encoded signature refused under both: %v", err)
	}
}

func TestKnownHMAC(t *testing.T) {
	// RFC 4231 test case 2.
	if got := HMAC("Jefe", "what do ya want for nothing?"); got != "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" {
		t.Fatalf("HMAC = %s", got)
	}
}

func TestParseJSONObject(t *testing.T) {
	bad := []string{``, `[]`, `"x"`, `{"a":1,"a":2}`, `{"a":1}{}`, `{"a":}`, `{"a":1`, `null`,
		// The same key twice once unescaped, and two keys whose invalid
		// UTF-8 both decode to U+FFFD.
		`{"a":1,"\u0061":2}`, "{\"\xff\":1,\"\xfe\":2}"}
	for _, b := range bad {
		if _, err := ParseJSONObject([]byte(b)); err == nil {
			t.Errorf("ParseJSONObject(%q) accepted", b)
		}
	}
	p, err := ParseJSONObject([]byte(` {"n": 12345678901234567890123, "s":"x"} `))
	if err != nil {
		t.Fatal(err)
	}
	if p["n"].(json.Number).String() != "12345678901234567890123" {
		t.Fatalf("number literal lost: %v", p["n"])
	}
	// Commas, braces and quotes inside strings, and nested objects, are
	// not members of the body.
	p, err = ParseJSONObject([]byte(`{"a":"x,}\"{","b":[1,{"c":2}],"d":{"e":[],"f":"}"}}`))
	if err != nil || len(p) != 3 || p["a"] != `x,}"{` {
		t.Fatalf("nested and quoted: %v, %v", p, err)
	}
}

func TestFromQuery(t *testing.T) {
	if _, err := FromQuery(url.Values{"a": {"1", "2"}}); err == nil {
		t.Fatal("repeated parameter accepted")
	}
	p, err := FromQuery(url.Values{"orderNo": {"X"}})
	if err != nil || p["orderNo"] != "X" {
		t.Fatalf("FromQuery = %v, %v", p, err)
	}
}

func TestWindow(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	w := DefaultWindow
	ms := func(d time.Duration) string { return itoa(now.Add(d).UnixMilli()) }
	cases := []struct {
		t, win string
		want   error
	}{
		{ms(0), "", nil},
		{ms(-30 * time.Second), "", nil},
		{ms(-30*time.Second - time.Millisecond), "", ErrTimeStale},
		{ms(-50 * time.Second), "60000", nil},
		{ms(-50 * time.Second), "60001", ErrWindowInvalid},
		{ms(-2 * time.Second), "1000", ErrTimeStale},
		{ms(time.Second), "", nil},
		{ms(2 * time.Second), "", ErrTimeFuture},
		{"", "", ErrTimeMissing},
		{"12x", "", ErrTimeFormat},
		{"-5", "", ErrTimeFormat},
		{itoa(now.Unix()), "", ErrTimeSeconds},
		{ms(0), "abc", ErrWindowInvalid},
		{ms(0), "0", ErrWindowInvalid},
		// 18446744073710 ms in nanoseconds wraps a Duration to 448 µs.
		{ms(0), "18446744073710", ErrWindowInvalid},
	}
	for _, c := range cases {
		if err := w.CheckTime(now, c.t, c.win); !errors.Is(err, c.want) {
			t.Errorf("CheckTime(%q, %q) = %v, want %v", c.t, c.win, err, c.want)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestWebhookSignatures(t *testing.T) {
	body := []byte(`{"custNo":"C1","orderNo":"O1","status":"SUCCESS","amount":"1.00"}`)
	v2, plain, err := Webhook(WebhookRaw, "whk", body, "1700000000000")
	if err != nil {
		t.Fatal(err)
	}
	// The provider's verification page: raw body + "&time=" + time.
	if want := HMAC("whk", string(body)+"&time=1700000000000"); v2 != want {
		t.Fatalf("raw v2 = %s, want %s", v2, want)
	}
	sorted, _, err := Webhook(WebhookSorted, "whk", body, "1700000000000")
	if err != nil {
		t.Fatal(err)
	}
	if want := HMAC("whk", "amount=1.00&custNo=C1&orderNo=O1&status=SUCCESS&time=1700000000000"); sorted != want {
		t.Fatalf("sorted v2 = %s, want %s", sorted, want)
	}
	if plain != HMAC("whk", string(body)) {
		t.Fatalf("plain signature is not over the raw body")
	}
	for _, sc := range []struct {
		scheme WebhookScheme
		sig    string
	}{{WebhookRaw, v2}, {WebhookSorted, sorted}} {
		if err := VerifyWebhook(sc.scheme, "whk", body, "1700000000000", sc.sig); err != nil {
			t.Fatal(sc.scheme, err)
		}
		if err := VerifyWebhook(sc.scheme, "other", body, "1700000000000", sc.sig); err == nil {
			t.Fatal("wrong key accepted")
		}
		changed := []byte(strings.Replace(string(body), "1.00", "2.00", 1))
		if err := VerifyWebhook(sc.scheme, "whk", changed, "1700000000000", sc.sig); err == nil {
			t.Fatal("changed body accepted")
		}
		if err := VerifyWebhook(sc.scheme, "whk", body, "1700000000001", sc.sig); err == nil {
			t.Fatal("changed time accepted")
		}
	}
	if err := VerifyWebhookBody("whk", []byte(strings.Replace(string(body), "1.00", "2.00", 1)), plain); err == nil {
		t.Fatal("changed body accepted by plain signature")
	}
	if _, err := ParseWebhookScheme("fancy"); err == nil {
		t.Fatal("unknown scheme accepted")
	}
}

// TestSortedWebhookAmbiguity reproduces the forgery the sorted key=value
// form allows and shows the scheme now refuses such bodies: a captured
// payment.pending body whose custNo carries "&eventType=payment.success"
// has the same sorted text as a forged body that says payment.success.
func TestSortedWebhookAmbiguity(t *testing.T) {
	captured := []byte(`{"custNo":"u1&eventType=payment.success","eventType":"payment.pending","orderNo":"O1"}`)
	forged := []byte(`{"custNo":"u1","eventType":"payment.success&eventType=payment.pending","orderNo":"O1"}`)
	// The unguarded text of both is identical: what made the forgery work.
	p1, _ := ParseJSONObject(captured)
	p2, _ := ParseJSONObject(forged)
	c1, _ := Canonical(p1, "1", Raw)
	c2, _ := Canonical(p2, "1", Raw)
	if c1 != c2 {
		t.Fatalf("the two bodies no longer share a sorted text:\n%s\n%s", c1, c2)
	}
	sig := HMAC("whk", c1)
	for _, b := range [][]byte{captured, forged} {
		if _, _, err := Webhook(WebhookSorted, "whk", b, "1"); !errors.Is(err, ErrAmbiguous) {
			t.Fatalf("signing %s: %v, want ErrAmbiguous", b, err)
		}
		if err := VerifyWebhook(WebhookSorted, "whk", b, "1", sig); err == nil {
			t.Fatalf("ambiguous body %s verified", b)
		}
	}
}

func TestHeaderNames(t *testing.T) {
	h := HeaderNames("Acme")
	if h.SignatureV2 != "Acme-Signature-V2" || h.RecvWindow != "Acme-Rec_Window" || HeaderNames("").APIKey != "Service-API-Key" {
		t.Fatalf("HeaderNames = %+v", h)
	}
}

// The widget URL accepts the API's signature encodings: a raw signer (the
// value unencoded in the signed text) only when Raw is accepted, a
// QueryEscape signer whose URL arrived with %20 only when URLEncoded is.
func TestWidgetQueryEncodings(t *testing.T) {
	const secret = "sk_widget"
	rawText := "apiKey=pk_1&custNo=C 1/2&orderNo=A+B"
	sent := "apiKey=pk_1&custNo=C%201%2F2&orderNo=A%2BB"
	rawSigned := sent + "&signature=" + HMAC(secret, rawText)
	if _, err := VerifyWidgetQuery(secret, rawSigned); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("raw-signed URL with no encodings accepted: %v", err)
	}
	if _, err := VerifyWidgetQuery(secret, rawSigned, URLEncoded); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("raw-signed URL accepted under urlencoded only: %v", err)
	}
	vals, err := VerifyWidgetQuery(secret, rawSigned, Raw)
	if err != nil || vals.Get("custNo") != "C 1/2" || vals.Get("orderNo") != "A+B" {
		t.Fatalf("raw-signed URL under raw: %v %v", vals, err)
	}
	encSigned := sent + "&signature=" + HMAC(secret, "apiKey=pk_1&custNo=C+1%2F2&orderNo=A%2BB")
	if _, err := VerifyWidgetQuery(secret, encSigned, Raw); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("QueryEscape-signed URL sent with %%20 accepted under raw only: %v", err)
	}
	if _, err := VerifyWidgetQuery(secret, encSigned, URLEncoded); err != nil {
		t.Fatalf("QueryEscape-signed URL under urlencoded: %v", err)
	}
	// The text as sent always verifies, and a changed value never does.
	asSent := sent + "&signature=" + HMAC(secret, sent)
	if _, err := VerifyWidgetQuery(secret, asSent); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyWidgetQuery(secret, strings.Replace(rawSigned, "pk_1", "pk_2", 1), Raw, URLEncoded); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered URL: %v", err)
	}
}
