package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
)

func TestSessionCookieFlags(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.DashboardSecureCookie = "true" })
	// A client without a jar, to read the Set-Cookie headers themselves.
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(e.srv.URL + "/dashboard/signin")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var pre *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == "cashier_dashboard_pre" {
			pre = ck
		}
	}
	if pre == nil {
		t.Fatal("sign-in form set no pre-session cookie")
	}
	form := url.Values{"csrf": {pre.Value}, "email": {"owner@one.example"}, "password": {testPassword}}
	req, _ := http.NewRequest("POST", e.srv.URL+"/dashboard/signin", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(pre)
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in answered %d", res.StatusCode)
	}
	var raw string
	for _, h := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(h, "cashier_dashboard=") {
			raw = h
		}
	}
	for _, want := range []string{"Path=/dashboard/", "HttpOnly", "Secure", "SameSite=Strict", "Max-Age="} {
		if !strings.Contains(raw, want) {
			t.Errorf("session cookie %q lacks %s", raw, want)
		}
	}
	// The stored session is the token's hash, never the token.
	tok := strings.TrimPrefix(strings.Split(raw, ";")[0], "cashier_dashboard=")
	if _, err := e.svc.Store.SessionByHash(context.Background(), []byte(tok)); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("session found by the plain token: %v", err)
	}
	// The customer pages never set or read a dashboard cookie.
	res, err = c.Get(e.srv.URL + "/admin/api/v2/pub/network/list")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if len(res.Cookies()) != 0 {
		t.Fatalf("API set cookies: %v", res.Cookies())
	}
	// Every dashboard answer carries the strict CSP.
	if csp := res.Header.Get("Content-Security-Policy"); csp != "" {
		t.Fatalf("merchant API got the dashboard's CSP: %q", csp)
	}
	res, _ = c.Get(e.srv.URL + "/dashboard/signin")
	res.Body.Close()
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("CSP %q", csp)
	}
}

func TestCSRFTokenRequired(t *testing.T) {
	e := newEnv(t, nil)
	u := e.signIn("owner@one.example")
	before := e.cashier(e.c1)
	body := map[string]any{"name": "Renamed", "status": "inactive"}
	for _, tok := range []string{"", "not-the-token"} {
		if st, _ := u.post("/dashboard/api/cashiers/"+e.c1, body, tok); st != http.StatusForbidden {
			t.Fatalf("token %q: status %d, want 403", tok, st)
		}
	}
	// A cross-site form post carries the cookie (were it sent) but no token.
	res, err := u.c.PostForm(e.srv.URL+"/dashboard/api/cashiers/"+e.c1, url.Values{"name": {"Renamed"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("form without token: %d", res.StatusCode)
	}
	if after := e.cashier(e.c1); !reflect.DeepEqual(*after, *before) {
		t.Fatalf("cashier changed without a CSRF token: %+v", after)
	}
	for _, a := range e.audit(e.m1.ID) {
		if a.Action == "cashier.update" {
			t.Fatalf("audit records a change that did not happen: %+v", a)
		}
	}
	// With the token the same change goes through and is audited.
	if st, out := u.post("/dashboard/api/cashiers/"+e.c1, body, u.csrf); st != 200 {
		t.Fatalf("with token: %d %v", st, out)
	}
	if c := e.cashier(e.c1); c.Name != "Renamed" || c.Status != cashier.CashierInactive {
		t.Fatalf("cashier after change: %+v", c)
	}
	found := false
	for _, a := range e.audit(e.m1.ID) {
		found = found || (a.Action == "cashier.update" && a.Email == "owner@one.example" && a.Target == e.c1 && a.IP == "127.0.0.1")
	}
	if !found {
		t.Fatalf("no audit entry: %+v", e.audit(e.m1.ID))
	}
}

func TestViewerCannotChangeAnything(t *testing.T) {
	e := newEnv(t, nil)
	v := e.signIn("viewer@one.example")
	before := e.cashier(e.c1)
	changes := []struct {
		path string
		body map[string]any
	}{
		{"/dashboard/api/keys/rotate", map[string]any{}},
		{"/dashboard/api/keys/revoke", map[string]any{}},
		{"/dashboard/api/cashiers/" + e.c1, map[string]any{"status": "inactive"}},
		{"/dashboard/api/cashiers/" + e.c1 + "/test", map[string]any{}},
		{"/dashboard/api/contracts", map[string]any{"chainId": "ETH", "address": "0x00000000000000000000000000000000000000aa"}},
		{"/dashboard/api/review", map[string]any{"action": "approve", "ids": []string{"p_1"}}},
		{"/dashboard/api/networks/ETH", map[string]any{"status": "maintenance"}},
	}
	for _, c := range changes {
		if st, out := v.post(c.path, c.body, v.csrf); st != http.StatusForbidden {
			t.Errorf("viewer %s: %d %v, want 403", c.path, st, out)
		}
	}
	if st := v.getJSON("/dashboard/api/audit", nil); st != http.StatusForbidden {
		t.Errorf("viewer read the audit log: %d", st)
	}
	if after := e.cashier(e.c1); !reflect.DeepEqual(*after, *before) {
		t.Fatalf("viewer changed the cashier: %+v", after)
	}
	// The API key still works: nothing was rotated or revoked.
	cli := client.New(e.srv.URL, e.m1.APIKey, e.m1.SecretKey)
	if _, err := cli.CashierInfo(context.Background(), e.c1); err != nil {
		t.Fatalf("API key stopped working: %v", err)
	}
	// The viewer can read.
	var list struct {
		Data struct{ Total int } `json:"data"`
	}
	if st := v.getJSON("/dashboard/api/collections", &list); st != 200 || list.Data.Total != 1 {
		t.Fatalf("viewer list: %d %+v", st, list)
	}
}

func TestMerchantIsolation(t *testing.T) {
	e := newEnv(t, nil)
	u := e.signIn("owner@one.example")
	reads := []string{
		"/dashboard/api/collections/" + e.o2,
		"/dashboard/collections/" + e.o2,
		"/dashboard/api/cashiers?merchantId=" + e.m2.ID,
		"/dashboard/api/contracts?merchantId=" + e.m2.ID,
	}
	for _, p := range reads {
		if st := u.getJSON(p, nil); st != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, st)
		}
	}
	var list struct {
		Data struct {
			List  []map[string]any
			Total int
		} `json:"data"`
	}
	u.getJSON("/dashboard/api/collections?merchantId="+e.m2.ID, &list)
	if list.Data.Total != 1 || list.Data.List[0]["merchantId"] != e.m1.ID {
		t.Fatalf("list shows another merchant's orders: %+v", list.Data)
	}
	before := e.cashier(e.c2)
	if st, _ := u.post("/dashboard/api/cashiers/"+e.c2, map[string]any{"status": "inactive"}, u.csrf); st != http.StatusNotFound {
		t.Fatalf("changing another merchant's cashier: %d", st)
	}
	if st, _ := u.post("/dashboard/api/keys/rotate", map[string]any{"merchantId": e.m2.ID}, u.csrf); st != http.StatusNotFound {
		t.Fatalf("rotating another merchant's keys: %d", st)
	}
	if !reflect.DeepEqual(*e.cashier(e.c2), *before) {
		t.Fatal("another merchant's cashier changed")
	}
	if _, err := client.New(e.srv.URL, e.m2.APIKey, e.m2.SecretKey).CashierInfo(context.Background(), e.c2); err != nil {
		t.Fatalf("merchant two's key stopped working: %v", err)
	}
	// Owners read only their merchant's audit log.
	var audit struct{ Data []map[string]any }
	u.getJSON("/dashboard/api/audit?merchantId="+e.m2.ID, &audit)
	for _, a := range audit.Data {
		if a["merchantId"] != e.m1.ID {
			t.Fatalf("owner sees audit of %v", a["merchantId"])
		}
	}
	// Operators see both.
	op := e.signIn("ops@service.example")
	u.getJSON("/dashboard/api/collections", &list)
	op.getJSON("/dashboard/api/collections", &list)
	if list.Data.Total != 2 {
		t.Fatalf("operator sees %d orders, want 2", list.Data.Total)
	}
}

func TestSignInRateLimited(t *testing.T) {
	// A clock that stands still: the six attempts fall in one window
	// however slowly the machine hashes.
	clock := cashier.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	e := newEnvClock(t, nil, clock)
	for i := range 5 {
		if _, res := e.trySignIn("owner@one.example", "wrong password!!", ""); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d, want 401", i+1, res.StatusCode)
		}
	}
	// The sixth attempt in the minute is refused even with the right password.
	if _, res := e.trySignIn("owner@one.example", testPassword, ""); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("sixth attempt: %d, want 429", res.StatusCode)
	}
	// Another account from the same address still signs in (per-IP limit
	// is higher), so one attacked account does not lock out the office.
	e.signIn("developer@one.example")
	// The next minute the account may try again.
	clock.Advance(time.Minute)
	e.signIn("owner@one.example")
}

func TestUnknownUserAndWrongPasswordLookAlike(t *testing.T) {
	e := newEnv(t, nil)
	_, a := e.trySignIn("nobody@one.example", testPassword, "")
	_, b := e.trySignIn("owner@one.example", "wrong password!!", "")
	if a.StatusCode != b.StatusCode || a.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unknown user %d, wrong password %d", a.StatusCode, b.StatusCode)
	}
}

func TestSignedOutGetsNothing(t *testing.T) {
	e := newEnv(t, nil)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, _ := c.Get(e.srv.URL + "/dashboard/api/collections")
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("API without session: %d", res.StatusCode)
	}
	res, _ = c.Get(e.srv.URL + "/dashboard/integration")
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/dashboard/signin" {
		t.Fatalf("page without session: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
}

func TestSecondFactor(t *testing.T) {
	clock := cashier.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	e := newEnvClock(t, nil, clock)
	u := e.signIn("developer@one.example")
	secret := []byte("0123456789abcdefghij")
	b32 := dashboard.TOTPSecretText(secret)
	if st, _ := u.post("/dashboard/api/account/totp", map[string]any{"secret": b32, "code": "000000"}, u.csrf); st != 400 {
		t.Fatalf("wrong code turned TOTP on: %d", st)
	}
	code := dashboard.TOTPCode(secret, clock.Now())
	if st, out := u.post("/dashboard/api/account/totp", map[string]any{"secret": b32, "code": code}, u.csrf); st != 200 {
		t.Fatalf("turn on: %d %v", st, out)
	}
	if _, res := e.trySignIn("developer@one.example", testPassword, ""); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("sign-in without the code: %d", res.StatusCode)
	}
	// An hour-old code is outside the ±30 s window.
	if _, res := e.trySignIn("developer@one.example", testPassword, dashboard.TOTPCode(secret, clock.Now().Add(-time.Hour))); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("sign-in with an old code: %d", res.StatusCode)
	}
	// The code that turned TOTP on is spent; the next one signs in.
	clock.Advance(30 * time.Second)
	if _, res := e.trySignIn("developer@one.example", testPassword, dashboard.TOTPCode(secret, clock.Now())); res.StatusCode != http.StatusOK {
		t.Fatalf("sign-in with the code: %d", res.StatusCode)
	}
	usr, _ := e.svc.Store.UserByEmail(context.Background(), "developer@one.example")
	if string(usr.TOTPSecret) != string(secret) {
		t.Fatal("stored secret differs")
	}
}
