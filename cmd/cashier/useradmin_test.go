package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
)

// TestUserCommands drives cashier user list|disable|enable|reset-password|
// reset-totp|remove on the binary while `serve` runs on the same data
// directory, and checks each against a real dashboard sign-in: a disabled
// user cannot sign in and their session ends; a reset password replaces
// the old one; a reset second factor lets the user in without a code; the
// last owner and the last operator cannot be removed or disabled.
func TestUserCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary's service")
	}
	// The SQLite binary: the test sets a second factor through the file
	// (no command sets one); the commands' SQL is the store's shared SQL.
	bin := sqliteBinary()
	data := t.TempDir()
	run := func(stdin string, args ...string) (map[string]any, error) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader(stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			if len(out) != 0 {
				t.Errorf("%q failed (%v) but printed %q", args, err, out)
			}
			return nil, &exec.ExitError{ProcessState: cmd.ProcessState, Stderr: stderr.Bytes()}
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("%q printed %q: %v", args, out, err)
		}
		return m, nil
	}
	must := func(stdin string, args ...string) map[string]any {
		t.Helper()
		m, err := run(stdin, args...)
		if err != nil {
			t.Fatalf("%q: %v %s", args, err, err.(*exec.ExitError).Stderr)
		}
		return m
	}
	user := func(args ...string) map[string]any {
		return must("", append(append([]string{"user"}, args...), "--data", data)...)
	}

	must("", "init", "--data", data)
	m := must("", "merchant", "create", "--data", data, "--name", "Accounts Shop")["merchantId"].(string)
	pw := map[string]string{}
	for _, u := range []struct{ email, role string }{{"owner@acc.example", "owner"}, {"viewer@acc.example", "viewer"}, {"rev@acc.example", "reviewer"}, {"dev@acc.example", "developer"}} {
		pw[u.email] = user("create", "--email", u.email, "--merchant", m, "--role", u.role)["password"].(string)
	}
	pw["ops@acc.example"] = user("create", "--email", "ops@acc.example", "--operator")["password"].(string)

	srv, base := serveWith(t, bin, []string{"CASHIER_DASHBOARD_SECURE_COOKIE=false"}, data)
	defer srv.stop(t)
	// signIn signs in through the dashboard's form and returns a client
	// holding the session, or nil when the sign-in was refused.
	signIn := func(email, password string) *http.Client {
		t.Helper()
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Get(base + dashboard.Prefix + "signin")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		u, _ := url.Parse(base + dashboard.Prefix)
		var csrf string
		for _, ck := range jar.Cookies(u) {
			if ck.Name == "cashier_dashboard_pre" {
				csrf = ck.Value
			}
		}
		resp, err = c.PostForm(base+dashboard.Prefix+"signin", url.Values{"email": {email}, "password": {password}, "csrf": {csrf}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			return nil
		}
		return c
	}
	signedIn := func(c *http.Client) bool {
		t.Helper()
		resp, err := c.Get(base + dashboard.Prefix + "api/session")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}

	t.Run("list", func(t *testing.T) {
		l := user("list")
		raw, _ := json.Marshal(l)
		if l["total"] != float64(5) || strings.Contains(string(raw), "password") || strings.Contains(string(raw), "argon2") {
			t.Fatalf("user list: %s", raw)
		}
		if l := user("list", "--merchant", m); l["total"] != float64(4) {
			t.Errorf("--merchant: %v", l)
		}
		if l := user("list", "--operator"); l["total"] != float64(1) || l["users"].([]any)[0].(map[string]any)["role"] != "operator" {
			t.Errorf("--operator: %v", l)
		}
		if _, err := run("", "user", "list", "--data", data, "--merchant", "m_nobody"); err == nil {
			t.Error("list of an unknown merchant succeeded")
		}
	})

	t.Run("disable and enable", func(t *testing.T) {
		c := signIn("viewer@acc.example", pw["viewer@acc.example"])
		if c == nil || !signedIn(c) {
			t.Fatal("viewer cannot sign in")
		}
		if d := user("disable", "--email", "Viewer@acc.example"); d["disabled"] != true || d["sessionsEnded"] != float64(1) {
			t.Fatalf("disable: %v", d)
		}
		if signedIn(c) {
			t.Error("a disabled user's session still works")
		}
		if signIn("viewer@acc.example", pw["viewer@acc.example"]) != nil {
			t.Error("a disabled user signed in")
		}
		if e := user("enable", "--email", "viewer@acc.example"); e["disabled"] != false {
			t.Fatalf("enable: %v", e)
		}
		if c := signIn("viewer@acc.example", pw["viewer@acc.example"]); c == nil || !signedIn(c) {
			t.Error("an enabled user cannot sign in")
		}
	})

	t.Run("reset-password", func(t *testing.T) {
		email := "rev@acc.example"
		c := signIn(email, pw[email])
		if c == nil {
			t.Fatal("reviewer cannot sign in")
		}
		r := user("reset-password", "--email", email)
		newPw, _ := r["password"].(string)
		if len(newPw) != 20 || r["sessionsEnded"] != float64(1) {
			t.Fatalf("reset-password: %v", r)
		}
		if signedIn(c) {
			t.Error("the session before the reset still works")
		}
		if signIn(email, pw[email]) != nil {
			t.Error("the old password still signs in")
		}
		if signIn(email, newPw) == nil {
			t.Error("the new password does not sign in")
		}
		chosen := "a chosen long password"
		if r := must(chosen+"\n", "user", "reset-password", "--data", data, "--email", email, "--password-stdin"); r["password"] != nil {
			t.Errorf("printed a password given on stdin: %v", r)
		}
		if signIn(email, chosen) == nil {
			t.Error("the password from stdin does not sign in")
		}
		if _, err := run("short\n", "user", "reset-password", "--data", data, "--email", email, "--password-stdin"); err == nil {
			t.Error("a short password was accepted")
		}
	})

	t.Run("reset-totp", func(t *testing.T) {
		email := "dev@acc.example"
		cfg := config.Default()
		cfg.Data = data
		st, err := app.OpenStore(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		secret, _ := dashboard.NewTOTPSecret()
		err = st.UpdateAccounts(context.Background(), func(tx cashier.AccountTx) error {
			u, err := tx.UserByEmail(context.Background(), email)
			if err != nil {
				return err
			}
			u.TOTPSecret = secret
			return tx.UpdateUser(context.Background(), u)
		})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		if signIn(email, pw[email]) != nil {
			t.Fatal("signed in without the second factor's code")
		}
		if r := user("reset-totp", "--email", email); r["totp"] != false {
			t.Fatalf("reset-totp: %v", r)
		}
		if signIn(email, pw[email]) == nil {
			t.Error("cannot sign in without a code after reset-totp")
		}
	})

	t.Run("remove", func(t *testing.T) {
		for _, email := range []string{"owner@acc.example", "ops@acc.example"} {
			for _, action := range []string{"remove", "disable"} {
				if _, err := run("", "user", action, "--data", data, "--email", email); err == nil || !strings.Contains(string(err.(*exec.ExitError).Stderr), "last enabled") {
					t.Errorf("%s the last %s: %v", action, email, err)
				}
			}
		}
		user("create", "--email", "owner2@acc.example", "--merchant", m, "--role", "owner")
		if r := user("remove", "--email", "owner@acc.example"); r["removed"] != true {
			t.Fatalf("remove: %v", r)
		}
		if signIn("owner@acc.example", pw["owner@acc.example"]) != nil {
			t.Error("a removed user signed in")
		}
		l, _ := json.Marshal(user("list", "--merchant", m))
		if strings.Contains(string(l), "owner@acc.example") || !strings.Contains(string(l), "owner2@acc.example") {
			t.Errorf("after remove: %s", l)
		}
		if _, err := run("", "user", "disable", "--data", data, "--email", "owner2@acc.example"); err == nil {
			t.Error("disabled the new last owner")
		}
		if _, err := run("", "user", "remove", "--data", data, "--email", "nobody@acc.example"); err == nil {
			t.Error("removed an unknown user")
		}
		if _, err := run("", "user", "remove", "--data", data); err == nil {
			t.Error("remove without --email succeeded")
		}
	})
}
