package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/dashboard"
	"github.com/stablecashier/cashier/sign"
)

// TestKeyGraceOnTheBinary rotates a merchant's keys on the binary while
// `serve` runs: the old key works during its grace and is refused after
// it (merchant rotate-keys --key-grace); a dashboard rotation keeps the
// previous key until merchant revoke-old-key ends it at once; the
// dashboard's rotation result is a one-time view a refresh cannot re-post.
func TestKeyGraceOnTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary's service")
	}
	bin := binary // on PostgreSQL too in the PostgreSQL stage
	data := t.TempDir()
	must := func(args ...string) map[string]any {
		t.Helper()
		return cliWith(t, bin, nil, args...)
	}
	must("init", "--data", data)
	m := must("merchant", "create", "--data", data, "--name", "Grace Shop")
	mid := m["merchantId"].(string)
	cid := must("cashier", "create", "--data", data, "--merchant", mid)["cashierId"].(string)
	pw := must("user", "create", "--data", data, "--email", "owner@grace.example", "--merchant", mid, "--role", "owner")["password"].(string)
	srv, base := serveWith(t, bin, []string{"CASHIER_DASHBOARD_SECURE_COOKIE=false", "CASHIER_KEY_GRACE=1h"}, data)
	defer srv.stop(t)

	ctx := context.Background()
	works := func(apiKey, secret string) bool {
		t.Helper()
		info, err := client.New(base, apiKey, secret).CashierInfo(ctx, cid)
		if err != nil && !client.IsCode(err, "ERROR_000401") {
			t.Fatalf("cashier info: %v", err)
		}
		return err == nil && info.MerchantID == mid
	}
	first := [2]string{m["apiKey"].(string), m["secretKey"].(string)}
	if !works(first[0], first[1]) {
		t.Fatal("the first key does not work")
	}

	// The CLI's rotation with a short grace: old and new keys both work,
	// then the old one is refused once the grace ends.
	r := must("merchant", "rotate-keys", "--data", data, "--merchant", mid, "--key-grace", "3s")
	second := [2]string{r["apiKey"].(string), r["secretKey"].(string)}
	until := time.UnixMilli(int64(r["previousKeyUntil"].(float64)))
	if d := time.Until(until); d <= 0 || d > 3*time.Second {
		t.Fatalf("previousKeyUntil %v is not 3s ahead", until)
	}
	if !works(first[0], first[1]) || !works(second[0], second[1]) {
		t.Fatal("during the grace both keys should work")
	}
	waitFor(t, "the old key's grace to end", 10*time.Second, func() bool { return !works(first[0], first[1]) })
	if time.Now().Before(until) {
		t.Fatalf("the old key was refused before its grace ended (%v)", until)
	}
	if !works(second[0], second[1]) {
		t.Fatal("the new key stopped with the old one")
	}

	// The dashboard: sign in, rotate by the form (grace 1h from serve's
	// setting), read the result once, refresh.
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := c.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	get(dashboard.Prefix + "signin")
	u, _ := url.Parse(base + dashboard.Prefix)
	var pre string
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "cashier_dashboard_pre" {
			pre = ck.Value
		}
	}
	resp, err := c.PostForm(base+dashboard.Prefix+"signin", url.Values{"email": {"owner@grace.example"}, "password": {pw}, "csrf": {pre}})
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %v %v", err, resp)
	}
	resp.Body.Close()
	var sess struct {
		Data struct {
			CSRF string `json:"csrfToken"`
		} `json:"data"`
	}
	_, body := get(dashboard.Prefix + "api/session")
	json.Unmarshal([]byte(body), &sess)
	resp, err = c.PostForm(base+dashboard.Prefix+"api/keys/rotate", url.Values{"csrf": {sess.Data.CSRF}, "merchantId": {mid}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, dashboard.Prefix+"keys?view=") {
		t.Fatalf("rotate form: %d to %q", resp.StatusCode, loc)
	}
	_, page := get(loc)
	third := [2]string{between(page, `id="key-api">`, "<"), between(page, `id="key-secret">`, "<")}
	if third[0] == "" || !strings.Contains(page, `id="old-key-until"`) {
		t.Fatalf("the result page shows no keys:\n%s", page)
	}
	if _, again := get(loc); strings.Contains(again, third[0]) || !strings.Contains(again, `id="keys-gone"`) {
		t.Fatal("a refresh of the result showed the keys again")
	}
	// The refresh rotated nothing: the shown key is current and the one
	// before it is in its grace, shown with its end on the integration page.
	if !works(third[0], third[1]) || !works(second[0], second[1]) {
		t.Fatal("after one dashboard rotation the new and previous keys should both work")
	}
	if _, integ := get(dashboard.Prefix + "integration"); !strings.Contains(integ, `id="key-previous-until"`) || !strings.Contains(integ, `id="keys-revoke-old"`) {
		t.Fatal("the integration page does not show the previous key's end and the revoke button")
	}

	// Revoke now, from the CLI: the previous key is refused at once (after
	// the serving process's short cache), the current one goes on.
	must("merchant", "revoke-old-key", "--data", data, "--merchant", mid)
	waitFor(t, "the revoked previous key to be refused", 5*time.Second, func() bool { return !works(second[0], second[1]) })
	if !works(third[0], third[1]) {
		t.Fatal("revoking the old key stopped the current one")
	}
	if err := exec.Command(bin, "merchant", "revoke-old-key", "--data", data, "--merchant", mid).Run(); err == nil {
		t.Fatal("revoke-old-key with no previous key succeeded")
	}
}

// TestWebhookKeyGraceOnTheBinary: after merchant rotate-keys with a key
// grace, a webhook the binary delivers verifies with the previous webhook
// key through the unchanged Service-Signature-V2 and Service-Signature
// headers (a receiver not yet switched goes on working) and with the new
// key through Service-Signature-V2-Next and Service-Signature-Next; once
// the previous key is revoked, the main headers carry the new key and the
// -Next headers are gone.
func TestWebhookKeyGraceOnTheBinary(t *testing.T) {
	bin := binary // on PostgreSQL too in the PostgreSQL stage
	data := t.TempDir()
	var (
		mu   sync.Mutex
		got  []*http.Request
		body [][]byte
	)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hook := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, body = append(got, r), append(body, b)
		mu.Unlock()
	})}
	go hook.Serve(ln)
	defer hook.Close()

	must := func(args ...string) map[string]any {
		t.Helper()
		return cliWith(t, bin, []string{"CASHIER_MODE=sandbox"}, args...) // a loopback receiver
	}
	must("init", "--data", data)
	m := must("merchant", "create", "--data", data, "--name", "Hook Grace Shop")
	mid := m["merchantId"].(string)
	cid := must("cashier", "create", "--data", data, "--merchant", mid, "--mode", "sandbox",
		"--webhook-url", "http://"+ln.Addr().String()+"/hook")["cashierId"].(string)
	prev := m["webhookKey"].(string)
	r := must("merchant", "rotate-keys", "--data", data, "--merchant", mid, "--key-grace", "1h")
	next := r["webhookKey"].(string)
	if next == "" || next == prev {
		t.Fatalf("rotate-keys printed webhook key %q (previous %q)", next, prev)
	}

	h := sign.HeaderNames("")
	// deliver sends a signed test event and returns the request received.
	deliver := func() (*http.Request, []byte) {
		t.Helper()
		if res := must("webhook", "test", "--data", data, "--cashier", cid); res["ok"] != true {
			t.Fatalf("webhook test: %v", res)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) == 0 {
			t.Fatal("the receiver got nothing")
		}
		return got[len(got)-1], body[len(body)-1]
	}
	verifies := func(r *http.Request, b []byte, key, v2Header, plainHeader string) bool {
		ts := r.Header.Get(h.RequestTime)
		return sign.VerifyWebhook(sign.WebhookRaw, key, b, ts, r.Header.Get(v2Header)) == nil &&
			sign.VerifyWebhookBody(key, b, r.Header.Get(plainHeader)) == nil
	}
	sdk := func(r *http.Request, b []byte, keys ...string) error {
		c := r.Clone(context.Background())
		c.Body = io.NopCloser(bytes.NewReader(b))
		_, _, err := client.VerifyWebhookKeys(c, keys)
		return err
	}

	// During the grace.
	req, b := deliver()
	if !verifies(req, b, prev, h.SignatureV2, h.Signature) {
		t.Errorf("during the grace %s/%s do not verify with the previous webhook key", h.SignatureV2, h.Signature)
	}
	if !verifies(req, b, next, h.SignatureV2Next, h.SignatureNext) {
		t.Errorf("during the grace %s/%s do not verify with the new webhook key", h.SignatureV2Next, h.SignatureNext)
	}
	if verifies(req, b, next, h.SignatureV2, h.Signature) {
		t.Error("the main headers switched to the new key during the grace")
	}
	for _, k := range []string{prev, next} {
		if err := sdk(req, b, k); err != nil {
			t.Errorf("the Go SDK refused the key %q during the grace: %v", k[:6], err)
		}
	}

	// Revoked: the new key in the main headers, no -Next headers.
	must("merchant", "revoke-old-key", "--data", data, "--merchant", mid)
	req, b = deliver()
	if !verifies(req, b, next, h.SignatureV2, h.Signature) {
		t.Errorf("after the revoke %s/%s do not verify with the new webhook key", h.SignatureV2, h.Signature)
	}
	if v := req.Header.Get(h.SignatureV2Next) + req.Header.Get(h.SignatureNext); v != "" {
		t.Errorf("-Next headers sent after the grace ended: %q", v)
	}
	if err := sdk(req, b, prev); err == nil {
		t.Error("the previous key verifies after the revoke")
	}
	if ts, _ := strconv.ParseInt(req.Header.Get(h.RequestTime), 10, 64); ts <= 0 {
		t.Errorf("request time %q", req.Header.Get(h.RequestTime))
	}
}

// between is the text of s after a and before the next b.
func between(s, a, b string) string {
	_, rest, ok := strings.Cut(s, a)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, b)
	return v
}

// cliWith runs bin with env added to this process's environment and
// decodes the one JSON object it prints.
func cliWith(t *testing.T, bin string, env []string, args ...string) map[string]any {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Stderr = append(os.Environ(), env...), &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%q: %v %s", args, err, stderr.Bytes())
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%q printed %q: %v", args, out, err)
	}
	return m
}
