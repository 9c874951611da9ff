package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/sign"
)

var t0 = time.Date(2026, 11, 23, 8, 0, 10, 0, time.UTC)

// TestRequestsAreSignedAsSent records what the SDK puts on the wire and
// verifies it with the server's own checks.
func TestRequestsAreSignedAsSent(t *testing.T) {
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"code":"200","success":true,"msg":"success","message":"success","trace":"t","data":{"orderNo":"C1","payUrl":"u","qrCode":"q","expireTime":1}}`)
	}))
	defer srv.Close()
	clock := cashier.NewManualClock(t0)
	c := New(srv.URL+"/", "pk", "sk", WithClock(clock), WithRecvWindow(45*time.Second))
	res, err := c.CreateCollection(context.Background(), CollectionRequest{CashierID: "cs", OrderNo: "C1", Amount: "1.50", Symbol: "USDT", CustNo: "a b&c"})
	if err != nil || res.OrderNo != "C1" || res.ExpireTime != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	h := sign.HeaderNames("")
	ts := got.Header.Get(h.RequestTime)
	if got.URL.Path != api.PathCreateCollection || got.Header.Get(h.APIKey) != "pk" || ts != strconv.FormatInt(t0.UnixMilli(), 10) || got.Header.Get(h.RecvWindow) != "45000" {
		t.Fatalf("request %s %v", got.URL, got.Header)
	}
	p, err := sign.ParseJSONObject(body)
	if err != nil {
		t.Fatal(err)
	}
	sig := got.Header.Get(h.SignatureV2)
	if err := sign.VerifyRequest("sk", p, ts, sig); err != nil {
		t.Fatalf("server-side verification of %s: %v", body, err)
	}
	if p["sign"] != sig || p["custNo"] != "a b&c" {
		t.Fatalf("body %s", body)
	}
	if _, ok := p["chainId"]; ok {
		t.Fatalf("empty optional field sent: %s", body)
	}

	// GET: the query is signed like a body.
	_, _ = c.PayoutDetail(context.Background(), "P 1&x")
	q, err := sign.FromQuery(got.URL.Query())
	if err != nil || q["orderNo"] != "P 1&x" {
		t.Fatalf("query %v %v", got.URL.RawQuery, err)
	}
	if err := sign.VerifyRequest("sk", q, got.Header.Get(h.RequestTime), got.Header.Get(h.SignatureV2)); err != nil {
		t.Fatal(err)
	}

	// Public calls carry no credentials.
	_, _ = c.Networks(context.Background())
	if got.Header.Get(h.APIKey) != "" || got.Header.Get(h.SignatureV2) != "" {
		t.Fatalf("public call sent credentials: %v", got.Header)
	}
}

func TestErrorsAreTyped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == api.PathNetworks {
			w.WriteHeader(502)
			io.WriteString(w, "<html>bad gateway</html>")
			return
		}
		w.WriteHeader(409)
		io.WriteString(w, `{"code":"000201","success":false,"msg":"order C1 exists already","message":"order C1 exists already","trace":"tr-1","data":null}`)
	}))
	defer srv.Close()
	c := New(srv.URL, "pk", "sk")
	_, err := c.CreatePayout(context.Background(), PayoutRequest{OrderNo: "C1"})
	var e *Error
	if !errors.As(err, &e) || e.HTTPStatus != 409 || e.Code != "000201" || e.Message != "order C1 exists already" || e.Trace != "tr-1" {
		t.Fatalf("%#v", err)
	}
	if !IsCode(err, "000201") || !strings.Contains(err.Error(), "tr-1") {
		t.Fatal(err)
	}
	_, err = c.Networks(context.Background())
	if !errors.As(err, &e) || e.HTTPStatus != 502 || e.Code != "" {
		t.Fatalf("non-envelope answer: %#v", err)
	}
}

func webhookRequest(t *testing.T, key string, at time.Time, body []byte) *http.Request {
	t.Helper()
	ts := strconv.FormatInt(at.UnixMilli(), 10)
	v2, plain, err := sign.Webhook(sign.WebhookRaw, key, body, ts)
	if err != nil {
		t.Fatal(err)
	}
	h := sign.HeaderNames("")
	r := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
	r.Header.Set(h.RequestTime, ts)
	r.Header.Set(h.SignatureV2, v2)
	r.Header.Set(h.Signature, plain)
	r.Header.Set(h.Event, "Payment")
	r.Header.Set(h.EventID, "evt_1")
	return r
}

func TestVerifyWebhook(t *testing.T) {
	clock := cashier.NewManualClock(t0)
	body := []byte(`{"eventId":"evt_1","event":"payment","eventType":"payment.success","orderNo":"C1","custNo":"u7","status":"SUCCESS","amount":"10.00","blockTime":1763884810000}`)

	r := webhookRequest(t, "wk", t0.Add(-2*time.Second), body)
	ev, raw, err := VerifyWebhook(r, "wk", WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != "payment" || ev.ID != "evt_1" || ev.OrderNo != "C1" || ev.CustNo != "u7" || ev.Status != "SUCCESS" || ev.EventType != "payment.success" || ev.Fields["blockTime"] != json.Number("1763884810000") {
		t.Fatalf("%+v", ev)
	}
	if !bytes.Equal(raw, body) {
		t.Fatal("raw body differs")
	}
	again, _ := io.ReadAll(r.Body)
	if !bytes.Equal(again, body) {
		t.Fatal("r.Body was not restored")
	}

	for name, r := range map[string]*http.Request{
		"wrong key": webhookRequest(t, "other", t0, body),
		"stale":     webhookRequest(t, "wk", t0.Add(-5*time.Minute-time.Millisecond), body),
		"future":    webhookRequest(t, "wk", t0.Add(5*time.Minute+time.Millisecond), body),
		// A captured delivery replayed with a new event id header: the id
		// is taken from the signed body, and a disagreeing header refused.
		"replayed with a new event id": func() *http.Request {
			r := webhookRequest(t, "wk", t0, body)
			r.Header.Set("Service-Event-Id", "evt_fresh")
			return r
		}(),
		"sorted signature under the raw scheme": func() *http.Request {
			r := webhookRequest(t, "wk", t0, body)
			v2, _, _ := sign.Webhook(sign.WebhookSorted, "wk", body, r.Header.Get("Service-Request-Time"))
			r.Header.Set("Service-Signature-V2", v2)
			return r
		}(),
		"tampered": func() *http.Request {
			r := webhookRequest(t, "wk", t0, body)
			r.Body = io.NopCloser(strings.NewReader(strings.Replace(string(body), "10.00", "99.00", 1)))
			return r
		}(),
		"no signature": func() *http.Request {
			r := webhookRequest(t, "wk", t0, body)
			r.Header.Del("Service-Signature-V2")
			return r
		}(),
	} {
		if _, _, err := VerifyWebhook(r, "wk", WithClock(clock)); !errors.Is(err, ErrWebhook) {
			t.Errorf("%s: %v", name, err)
		}
	}

	// Four minutes old is inside the provider's five-minute window; the
	// event type comes from the body even when the header says otherwise.
	r = webhookRequest(t, "wk", t0.Add(-4*time.Minute), body)
	r.Header.Set("Service-Event", "payout")
	if ev, _, err := VerifyWebhook(r, "wk", WithClock(clock)); err != nil || ev.Type != "payment" {
		t.Fatalf("%+v %v", ev, err)
	}
	// The sorted scheme, when chosen, verifies its own signature.
	r = webhookRequest(t, "wk", t0, body)
	v2, _, _ := sign.Webhook(sign.WebhookSorted, "wk", body, r.Header.Get("Service-Request-Time"))
	r.Header.Set("Service-Signature-V2", v2)
	if _, _, err := VerifyWebhook(r, "wk", WithClock(clock), WithWebhookScheme(sign.WebhookSorted)); err != nil {
		t.Fatal(err)
	}
}

// TestWidgetURLMatchesReferenceVector uses the published widget vector.
func TestWidgetURLMatchesReferenceVector(t *testing.T) {
	u := WidgetURL("https://cashier.example/widget", "sk_ci_QOoPSlHDSsgXYeNyTP2i0ug1HKLRjHw9Ug7mCc1Q0", []sign.WidgetParam{
		{Key: "apiKey", Value: "pk_payment_my3T68cbuIXf1x3QOEbWtFEfcJPxeBr8wTewDVM"},
		{Key: "custNo", Value: "C86002201"},
		{Key: "orderNo", Value: "C202503225"},
	})
	want := "https://cashier.example/widget?apiKey=pk_payment_my3T68cbuIXf1x3QOEbWtFEfcJPxeBr8wTewDVM&custNo=C86002201&orderNo=C202503225&signature=5b2419abcb925389c3f6cb42f35eed85ec36b95578a9d25ee500f9fafdeb08dc"
	if u != want {
		t.Fatalf("got  %s\nwant %s", u, want)
	}
}

// OrderToken is the widget URL signing of apiKey, orderNo, amount and the
// extra parameters, in that order, as the service verifies it.
func TestOrderToken(t *testing.T) {
	tok := OrderToken("pk_1", "sk_1", "INV 1", "10.00", sign.WidgetParam{Key: "custNo", Value: "C@1"})
	vals, err := sign.VerifyWidgetQuery("sk_1", tok)
	if err != nil || vals.Get("apiKey") != "pk_1" || vals.Get("orderNo") != "INV 1" || vals.Get("amount") != "10.00" || vals.Get("custNo") != "C@1" {
		t.Fatalf("token %q: %v %v", tok, vals, err)
	}
	if _, err := sign.VerifyWidgetQuery("sk_2", tok); err == nil {
		t.Fatal("verified under another key")
	}
}

// TestVerifyWebhookKeys: during a rotation's grace the main header is the
// previous key's and the -Next header the new key's; either key verifies,
// a third does not, and the -Next header alone with an unknown key fails.
func TestVerifyWebhookKeys(t *testing.T) {
	clock := cashier.NewManualClock(t0)
	body := []byte(`{"eventId":"evt_1","event":"payment","eventType":"payment.success","status":"SUCCESS"}`)
	h := sign.HeaderNames("")
	graced := func() *http.Request {
		r := webhookRequest(t, "old", t0, body)
		v2, plain, _ := sign.Webhook(sign.WebhookRaw, "new", body, r.Header.Get(h.RequestTime))
		r.Header.Set(h.SignatureV2Next, v2)
		r.Header.Set(h.SignatureNext, plain)
		return r
	}
	for _, keys := range [][]string{{"old"}, {"new"}, {"new", "old"}, {"", "new"}} {
		if _, _, err := VerifyWebhookKeys(graced(), keys, WithClock(clock)); err != nil {
			t.Errorf("keys %q: %v", keys, err)
		}
	}
	if _, _, err := VerifyWebhook(graced(), "new", WithClock(clock)); err != nil {
		t.Errorf("VerifyWebhook with the new key during the grace: %v", err)
	}
	for _, keys := range [][]string{{"third"}, {}, {""}} {
		if _, _, err := VerifyWebhookKeys(graced(), keys, WithClock(clock)); !errors.Is(err, ErrWebhook) {
			t.Errorf("keys %q: %v", keys, err)
		}
	}
	// After the grace only the main header is sent, with the new key.
	if _, _, err := VerifyWebhookKeys(webhookRequest(t, "new", t0, body), []string{"old", "new"}, WithClock(clock)); err != nil {
		t.Error(err)
	}
	// A -Next header under a key the receiver lacks does not stand in for
	// a main header that fails.
	r := graced()
	r.Header.Set(h.SignatureV2, "00")
	if _, _, err := VerifyWebhookKeys(r, []string{"old"}, WithClock(clock)); !errors.Is(err, ErrWebhook) {
		t.Errorf("a bad main signature with an unknown key's -Next verified: %v", err)
	}
}
