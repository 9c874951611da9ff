package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The users API: owners change their merchant's users only, other roles
// none; the last enabled owner stays; a reset password is answered once
// and works; the audit entry names who did it.
func TestUsersAPIScope(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	id := func(email string) string {
		u, err := e.svc.Store.UserByEmail(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		return u.ID
	}
	owner, other, dev, ops := e.signIn("owner@one.example"), e.signIn("owner@two.example"), e.signIn("developer@one.example"), e.signIn("ops@service.example")
	viewer := id("viewer@one.example")

	var list struct {
		Data []map[string]any `json:"data"`
	}
	if st := owner.getJSON("/dashboard/api/users", &list); st != 200 || len(list.Data) != 4 {
		t.Fatalf("owner's users: %d %v", st, list.Data)
	}
	if st := dev.getJSON("/dashboard/api/users", nil); st != 403 {
		t.Fatalf("developer listed users: %d", st)
	}
	for _, c := range []struct {
		who    *user
		target string
		action string
		want   int
	}{
		{other, viewer, "disable", 404},                    // another merchant's user
		{owner, id("ops@service.example"), "disable", 404}, // an operator
		{dev, viewer, "disable", 403},                      // not an owner
		{owner, viewer, "explode", 400},                    // no such action
		{owner, id("owner@one.example"), "disable", 400},   // the last enabled owner
		{ops, id("owner@two.example"), "remove", 400},      // the last enabled owner, for operators too
		{owner, viewer, "disable", 200},
	} {
		if st, out := c.who.post("/dashboard/api/users/"+c.target, map[string]string{"action": c.action}, c.who.csrf); st != c.want {
			t.Errorf("%s %s: %d %v, want %d", c.action, c.target, st, out, c.want)
		}
	}
	if u, _ := e.svc.Store.User(ctx, viewer); !u.Disabled {
		t.Fatal("viewer not disabled")
	}
	if st, _ := owner.post("/dashboard/api/users/"+viewer, map[string]string{"action": "enable"}, ""); st != 403 {
		t.Fatalf("a change without the CSRF token: %d", st)
	}
	st, out := ops.post("/dashboard/api/users/"+viewer, map[string]string{"action": "enable"}, ops.csrf)
	if st != 200 {
		t.Fatalf("operator enables: %d %v", st, out)
	}
	st, out = owner.post("/dashboard/api/users/"+viewer, map[string]string{"action": "reset-password"}, owner.csrf)
	pw, _ := out["data"].(map[string]any)["password"].(string)
	if st != 200 || len(pw) < 12 {
		t.Fatalf("reset password: %d %v", st, out)
	}
	if _, res := e.trySignIn("viewer@one.example", pw, ""); !strings.HasSuffix(res.Request.URL.Path, "/dashboard/") {
		t.Fatalf("sign-in with the reset password ended at %s", res.Request.URL)
	}
	var by []string
	for _, a := range e.audit(e.m1.ID) {
		if strings.HasPrefix(a.Action, "user.") {
			by = append(by, a.Action+" "+a.Email)
		}
	}
	if got := strings.Join(by, ","); !strings.Contains(got, "user.disable owner@one.example") ||
		!strings.Contains(got, "user.enable ops@service.example") || !strings.Contains(got, "user.reset-password owner@one.example") {
		t.Fatalf("audit: %s", got)
	}
}

// A notice is a one-time flash bound to the session: a form's redirect
// carries none in its URL, the next page shows it once, and a notice in
// the URL or a flash cookie from another session shows nothing.
func TestNoticeIsOneTimeFlash(t *testing.T) {
	e := newEnv(t, nil)
	owner := e.signIn("owner@one.example")
	form := url.Values{"csrf": {owner.csrf}, "next": {"/dashboard/integration?notice=cashier.saved"}, "name": {"Front"}}
	res, err := owner.c.PostForm(e.srv.URL+"/dashboard/api/cashiers/"+e.c1, form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.Request.URL.RawQuery != "" || !strings.Contains(string(body), `id="notice"`) || !strings.Contains(string(body), "Cashier saved.") {
		t.Fatalf("after the form: %s %q", res.Request.URL, between(string(body), "<main>", "</h1>"))
	}
	get := func(u *user, path string) string {
		res, err := u.c.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if page := get(owner, "/dashboard/integration?notice=cashier.saved"); strings.Contains(page, `id="notice"`) {
		t.Fatal("the notice showed again, or from the URL")
	}
	// Another session's flash cookie is not shown.
	form.Set("name", "Back")
	nr := &http.Client{Jar: owner.c.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = nr.PostForm(e.srv.URL+"/dashboard/api/cashiers/"+e.c1, form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var flash *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "cashier_dashboard_flash" {
			flash = c
		}
	}
	if flash == nil || flash.MaxAge <= 0 || !flash.HttpOnly {
		t.Fatalf("flash cookie %+v", flash)
	}
	dev := e.signIn("developer@one.example")
	u, _ := url.Parse(e.srv.URL + "/dashboard/")
	dev.c.Jar.SetCookies(u, []*http.Cookie{{Name: flash.Name, Value: flash.Value, Path: "/dashboard/"}})
	if page := get(dev, "/dashboard/integration"); strings.Contains(page, `id="notice"`) {
		t.Fatal("another session's flash was shown")
	}
}
