package sign

import (
	"errors"
	"strings"
	"testing"
)

// Vectors produced by the provider's URL-signing samples for Python
// (quote(v, safe=”) per value, then urlencode, signed; the URL sent is
// urlencode of the plain values) and PHP (urlencode per value, then
// http_build_query, signed; the URL sent is http_build_query of the
// plain values), run unchanged with the secret below. signed is the text
// each sample signs, sent the query it puts in the URL.
var doubleEncodedVectors = []struct {
	lang            string
	custNo, orderNo string
	signed, sent    string
	signature       string
}{
	{"python", "Jane Doe@example.com", "INV 1002/A+B",
		"apiKey=pk_test_9aB3&custNo=Jane%2520Doe%2540example.com&orderNo=INV%25201002%252FA%252BB",
		"apiKey=pk_test_9aB3&custNo=Jane+Doe%40example.com&orderNo=INV+1002%2FA%2BB",
		"f49905a05f0a8002b2bde908ab9df6633688fa44358adb45a67c8955d0524ec6"},
	{"python", "ü~x*(1)'!", "50%&off=yes",
		"apiKey=pk_test_9aB3&custNo=%25C3%25BC~x%252A%25281%2529%2527%2521&orderNo=50%2525%2526off%253Dyes",
		"apiKey=pk_test_9aB3&custNo=%C3%BC~x%2A%281%29%27%21&orderNo=50%25%26off%3Dyes",
		"953ceccbbf5ab3aba70007d878580162afacbb050005d18d005305d533e0131b"},
	{"php", "Jane Doe@example.com", "INV 1002/A+B",
		"apiKey=pk_test_9aB3&custNo=Jane%2BDoe%2540example.com&orderNo=INV%2B1002%252FA%252BB",
		"apiKey=pk_test_9aB3&custNo=Jane+Doe%40example.com&orderNo=INV+1002%2FA%2BB",
		"049885a15a058362a1b66be81a222d251525d2abb4301dfe2837f881d7bd2770"},
	{"php", "ü~x*(1)'!", "50%&off=yes",
		"apiKey=pk_test_9aB3&custNo=%25C3%25BC%257Ex%252A%25281%2529%2527%2521&orderNo=50%2525%2526off%253Dyes",
		"apiKey=pk_test_9aB3&custNo=%C3%BC%7Ex%2A%281%29%27%21&orderNo=50%25%26off%3Dyes",
		"3fd042d6cb462ec8c38f62899ea51b2d7c7e6de41e547cfe2c605def049251e5"},
	{"php", "C86002201", "C202503225",
		"apiKey=pk_test_9aB3&custNo=C86002201&orderNo=C202503225",
		"apiKey=pk_test_9aB3&custNo=C86002201&orderNo=C202503225",
		"dd842ce3bc035030016b35251184d1dacb9d490aaa4a65b7de85e4c794b6d1b6"},
}

const vectorSecret = "sck_test_5Qm2xW8pLr"

// The URLs the Python and PHP samples send verify under no extra
// encoding, and give back the values the merchant signed; a wrong key, a
// changed value or a changed signature is still refused.
func TestWidgetDoubleEncodedSamplesVerify(t *testing.T) {
	for _, v := range doubleEncodedVectors {
		params := []WidgetParam{{"apiKey", "pk_test_9aB3"}, {"custNo", v.custNo}, {"orderNo", v.orderNo}}
		form := PythonDoubleQuery(params)
		if v.lang == "php" {
			form = PHPDoubleQuery(params)
		}
		if form != v.signed {
			t.Errorf("%s form of %q %q:\n got %s\nwant %s", v.lang, v.custNo, v.orderNo, form, v.signed)
		}
		if HMAC(vectorSecret, v.signed) != v.signature {
			t.Fatalf("%s vector's signature does not sign its text", v.lang)
		}
		url := v.sent + "&signature=" + v.signature
		vals, err := VerifyWidgetQuery(vectorSecret, url)
		if err != nil {
			t.Fatalf("%s URL %s refused: %v", v.lang, url, err)
		}
		if vals.Get("custNo") != v.custNo || vals.Get("orderNo") != v.orderNo {
			t.Errorf("%s URL values %q %q, want %q %q", v.lang, vals.Get("custNo"), vals.Get("orderNo"), v.custNo, v.orderNo)
		}
		// Sent with %20 for space (the same values) it verifies as well.
		if _, err := VerifyWidgetQuery(vectorSecret, strings.ReplaceAll(v.sent, "+", "%20")+"&signature="+v.signature); err != nil {
			t.Errorf("%s URL with %%20: %v", v.lang, err)
		}
		if _, err := VerifyWidgetQuery("sck_other", url, Raw, URLEncoded); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s URL under another key: %v", v.lang, err)
		}
		changed := strings.Replace(v.sent, "orderNo=", "orderNo=X", 1) + "&signature=" + v.signature
		if _, err := VerifyWidgetQuery(vectorSecret, changed, Raw, URLEncoded); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s URL with a changed orderNo: %v", v.lang, err)
		}
		last := "0"
		if v.signature[63] == '0' {
			last = "1"
		}
		bad := v.sent + "&signature=" + v.signature[:63] + last
		if _, err := VerifyWidgetQuery(vectorSecret, bad, Raw, URLEncoded); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s URL with a changed signature: %v", v.lang, err)
		}
	}
}

// The JavaScript sample sends the twice-encoded text it signs: it
// verifies as sent, and the values decoded from it are the plain values
// encoded once (what the merchant then receives as custNo and orderNo).
func TestWidgetJavaScriptSampleVerifiesAsSent(t *testing.T) {
	const sent = "apiKey=pk_test_9aB3&custNo=Jane%2520Doe%2540example.com&orderNo=INV%25201002%252FA%252BB"
	vals, err := VerifyWidgetQuery(vectorSecret, sent+"&signature=f49905a05f0a8002b2bde908ab9df6633688fa44358adb45a67c8955d0524ec6")
	if err != nil {
		t.Fatal(err)
	}
	if vals.Get("custNo") != "Jane%20Doe%40example.com" || vals.Get("orderNo") != "INV%201002%2FA%2BB" {
		t.Fatalf("values %q %q", vals.Get("custNo"), vals.Get("orderNo"))
	}
}
