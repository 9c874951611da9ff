package http

import (
	"fmt"
	"net/http"
	"testing"
)

// TestSignFieldPolicies: by default a collection create without the body
// field sign is accepted (the header signature authenticates) and one with
// a differing sign is refused; "require" (and its alias "match") demands
// the field; "ignore" accepts any value.
func TestSignFieldPolicies(t *testing.T) {
	cases := []struct {
		policy           SignFieldPolicy
		absentOK, diffOK bool
	}{
		{"", true, false},
		{SignFieldOptional, true, false},
		{SignFieldRequire, false, false},
		{SignFieldMatch, false, false},
		{SignFieldIgnore, true, true},
	}
	for _, c := range cases {
		t.Run(string(c.policy), func(t *testing.T) {
			e := newEnv(t, func(cfg *Config) { cfg.SignField = c.policy })
			now := ms(t0)
			n := 0
			try := func(params map[string]any, wantOK bool, code, msg string) {
				t.Helper()
				n++
				params["orderNo"] = fmt.Sprintf("S%d", n)
				r := e.do(request{method: http.MethodPost, path: pathCollection, params: params, timeMs: now})
				if wantOK {
					if r.status != 200 || r.body["code"] != "200" {
						t.Fatalf("refused: %s", r.raw)
					}
					return
				}
				expectError(t, r, map[string]int{"000103": 400, "000306": 401}[code], code, msg)
			}
			before, _ := e.counts()
			try(collectionBody(nil), c.absentOK, "000103", "sign is required")
			try(withSign(collectionBody(map[string]any{"orderNo": "S2"}), secretKey, now), true, "", "")
			try(withSign(collectionBody(map[string]any{"orderNo": "S3"}), "sk_other", now), c.diffOK, "000306", "body field sign")
			after, _ := e.counts()
			want := 1
			if c.absentOK {
				want++
			}
			if c.diffOK {
				want++
			}
			if after-before != want {
				t.Fatalf("%d orders created, want %d", after-before, want)
			}
		})
	}
}
