package http

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// checkDecodeErr fails when a decoding error would be answered as a server
// fault: bad input must always be the client's error.
func checkDecodeErr(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	we, code := lookup(err)
	if code == cashier.EInternal || we.status >= 500 {
		t.Fatalf("%s: %v would be answered %d %s", what, err, we.status, we.order)
	}
	if cashier.ErrorMessage(err) == "" {
		t.Fatalf("%s: error without a message", what)
	}
}

// FuzzDecodeBody drives the request-parsing path of the POST endpoints:
// the body parser the signature is verified over, the canonical text, and
// the strict decoders into request structs, under both field policies.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"cashierId":"cs_1","orderNo":"C1","amount":"100.50","symbol":"USDT","chainId":"ETH","custNo":"c","sign":"ab"}`,
		`{"contractId":"ct","orderNo":"P1","recipient":"T1","amount":"1","symbol":"USDT","payoutType":2,"fromAddress":"0x1","chainId":"TRON"}`,
		`{"contractId":"ct","payoutType":1,"orders":[{"orderNo":"B1","recipient":"r","amount":"1","symbol":"USDT","remark":"x"},{"orderNo":2}]}`,
		`{"amount":10.5,"payoutType":"1","orders":{"a":1}}`,
		`{"payoutType":1e400,"orders":[null,[],"x",1]}`,
		`{"payoutType":-0,"sign":null,"orderNo":null}`,
		`{"a":{"b":[1,{"c":"\u0000"}]}}`,
		`[1,2]`, `"x"`, `null`, `{}`, `{"x":1}{}`, `{"k":"\xff"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := sign.ParseJSONObject(body)
		if err != nil {
			return // answered 000105 by authenticate
		}
		for _, enc := range []sign.Encoding{sign.Raw, sign.URLEncoded} {
			if _, err := sign.Canonical(p, "1763884810000", enc); err != nil {
				t.Fatalf("canonical text of a parsed body: %v", err)
			}
		}
		for _, policy := range []UnknownFieldPolicy{UnknownReject, UnknownIgnore} {
			_, err := decodePayout(p, policy, true)
			checkDecodeErr(t, "payout", err)
			req, err := decodeBatch(p, policy, 100, true)
			checkDecodeErr(t, "batch", err)
			if err == nil && len(req.Orders) > 100 {
				t.Fatalf("batch of %d orders accepted", len(req.Orders))
			}
			for _, must := range []bool{true, false} {
				_, err := decodeCollection(p, policy, must)
				checkDecodeErr(t, "collection", err)
			}
		}
	})
}

// FuzzDecodeQuery drives the GET parameter path: query parsing and the
// list decoder.
func FuzzDecodeQuery(f *testing.F) {
	for _, seed := range []string{
		"startTime=1763884810000&endTime=1763884900000&status=PENDING&page=1&pageSize=20",
		"page=0", "pageSize=1000", "page=x", "startTime=-1", "startTime=99999999999999999999",
		"orderNo=a&orderNo=b", "%zz", "a=1;b=2", "status=%00", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := queryParams(raw)
		checkDecodeErr(t, "query", err)
		if err != nil {
			return
		}
		req, err := decodeList(p, UnknownReject, 100)
		checkDecodeErr(t, "list", err)
		if err == nil && (req.Page < 0 || req.PageSize < 0 || req.PageSize > 100) {
			t.Fatalf("accepted page %d pageSize %d", req.Page, req.PageSize)
		}
	})
}

// FuzzSignedPost sends correctly signed arbitrary bodies to the three POST
// endpoints through the whole server (authentication, decoding, orders
// service, SQLite) and requires that none is answered as a server fault.
func FuzzSignedPost(f *testing.F) {
	e := newEnv(f, func(c *Config) { c.RateLimits = RateLimits{PerKey: -1, PerIP: -1, PerEndpoint: -1} })
	h := e.srv.Config.Handler
	paths := []string{pathCollection, pathPayout, pathBatch}
	for i, seed := range []string{
		`{"cashierId":"cs_1","orderNo":"C1","amount":"100.50","symbol":"USDT","chainId":"ETH","custNo":"c"}`,
		`{"contractId":"ct_tron","orderNo":"P1","recipient":"TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7","amount":"1","symbol":"USDT"}`,
		`{"contractId":"ct_eth","payoutType":2,"fromAddress":"0x2222222222222222222222222222222222222222","orders":[{"orderNo":"B1","recipient":"0x1111111111111111111111111111111111111111","amount":"1","symbol":"USDC"}]}`,
		`{"cashierId":"cs_1","orderNo":"C2","amount":"1","symbol":"USDT","chainId":"42161","redirectUrl":"http://x"}`,
		`{"contractId":"ct_eth","orderNo":"P2","recipient":"0x1111111111111111111111111111111111111111","amount":"0.000001","symbol":"USDT","chainId":"1"}`,
		`{"contractId":"ct_tron","orders":[{"orderNo":"B2","recipient":"T","amount":"1e2","symbol":"usdt"},{}]}`,
	} {
		f.Add(uint8(i%3), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		p, err := sign.ParseJSONObject(body)
		if err != nil {
			p = sign.Params{}
		}
		ts := ms(e.clock.Now())
		sig, err := sign.Request(secretKey, p, ts, sign.Raw)
		if err != nil {
			return
		}
		req := httptest.NewRequest(http.MethodPost, paths[int(which)%len(paths)], bytes.NewReader(body))
		hdr := sign.HeaderNames("")
		req.Header.Set(hdr.APIKey, apiKey)
		req.Header.Set(hdr.RequestTime, ts)
		req.Header.Set(hdr.SignatureV2, sig)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s: %d %s", req.URL.Path, body, rec.Code, rec.Body)
		}
	})
}
