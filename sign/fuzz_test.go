package sign

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzCanonical checks, for arbitrary bodies, that parsing never panics and
// that the canonical text is a function of the parsed parameters alone:
// re-encoding the parameters and parsing again gives the same text, and the
// signature verifies only for its own text.
func FuzzCanonical(f *testing.F) {
	seeds := []string{
		`{"orderNo":"A1","amount":"100.00"}`,
		`{"orders":[{"a":"1","b":2}],"payoutType":2,"sign":"x"}`,
		`{"k":null,"b":true,"n":-1.5e3}`,
		`{"u":"\u00fc\u0000&=","":""}`,
		`{}`, `[]`, `{"a":1,"a":1}`,
	}
	for _, s := range seeds {
		f.Add(s, "1700000000000")
	}
	f.Fuzz(func(t *testing.T, body, tm string) {
		p, err := ParseJSONObject([]byte(body))
		if err != nil {
			return
		}
		c1, err := Canonical(p, tm, Raw)
		if err != nil {
			t.Fatalf("Canonical failed on parsed body: %v", err)
		}
		p2, _, err := FromValue(map[string]any(p))
		if err != nil {
			t.Fatalf("re-encoding parsed params: %v", err)
		}
		c2, _ := Canonical(p2, tm, Raw)
		if c1 != c2 {
			t.Fatalf("canonical text not stable:\n%q\n%q", c1, c2)
		}
		if !strings.HasSuffix(c1, "time="+tm) {
			t.Fatalf("time missing: %q", c1)
		}
		sig := HMAC("k", c1)
		if err := VerifyRequest("k", p, tm, sig); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
		if err := VerifyRequest("k2", p, tm, sig); err == nil {
			t.Fatal("signature accepted under another key")
		}
	})
}

// FuzzVerifyWidgetQuery: arbitrary query strings never panic, a query
// signed by SignWidget always verifies, and so does the once-encoded URL
// of a Python or PHP sample's double-encoded signature, with the values
// it was signed for; under another key none of them does.
func FuzzVerifyWidgetQuery(f *testing.F) {
	f.Add("apiKey=a&custNo=b&signature=00", "a", "b")
	f.Add("", "", "")
	f.Add("apiKey=a&signature=0", "pk 1", "Jane Doe@x.com ~%+/ü")
	f.Fuzz(func(t *testing.T, raw, k, v string) {
		_, _ = VerifyWidgetQuery("s", raw)
		params := []WidgetParam{{"apiKey", k}, {"custNo", v}}
		q := SignWidget("s", params)
		if _, err := VerifyWidgetQuery("s", q); err != nil {
			t.Fatalf("signed query %q refused: %v", q, err)
		}
		sent := WidgetQuery(params)
		for _, text := range []string{PythonDoubleQuery(params), PHPDoubleQuery(params)} {
			u := sent + "&" + WidgetSignatureParam + "=" + HMAC("s", text)
			vals, err := VerifyWidgetQuery("s", u)
			if err != nil {
				t.Fatalf("double-encoded signature of %q refused: %v", u, err)
			}
			if vals.Get("apiKey") != k || vals.Get("custNo") != v {
				t.Fatalf("%q gave %v", u, vals)
			}
			if _, err := VerifyWidgetQuery("s2", u, Raw, URLEncoded); err == nil {
				t.Fatalf("%q accepted under another key", u)
			}
		}
	})
}

// FuzzParseJSONObject: the one-decode path of ParseJSONObject answers every
// body exactly as the token-by-token parse does, parameters and errors.
func FuzzParseJSONObject(f *testing.F) {
	for _, s := range []string{
		`{"orderNo":"A1","amount":"100.00"}`, `{}`, ` { } `, `[]`, `null`, ``,
		`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, "{\"\xff\":1,\"\xfe\":2}",
		`{"a":"x,}\"{","b":[1,{"c":2,"c":3}],"d":{"e":[]}}`, `{"a":1}{}`, `{"a":1} x`,
		`{"a":}`, `{"a":1`, `{"a":1,}`, `{"n":12345678901234567890123}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		p, err := ParseJSONObject([]byte(body))
		want, wantErr := parseJSONTokens([]byte(body))
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("%q: error %v, token by token %v", body, err, wantErr)
		}
		if !reflect.DeepEqual(p, want) {
			t.Fatalf("%q: %#v, token by token %#v", body, p, want)
		}
	})
}
