package dashboard_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/browsertest"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sandbox"
)

// The dashboard driven in headless Chromium as a person would, against a
// sandbox (dev chains, deployed contracts, the payout executor running):
// sign in, rotate keys and use them, set a webhook URL and test it, close a
// cashier, review payouts and see them executed, find an order by txId;
// and that the dashboard tells the truth: a failed test delivery says so,
// a notice shows once, approving asks first, failing webhooks are listed,
// a viewer sees no control, the TOTP QR code holds the otpauth URI.
// A screenshot of every page goes to $CASHIER_ARTIFACTS (default
// artifacts/ at the repository root, git-ignored).

func artifacts(t *testing.T) string {
	dir := os.Getenv("CASHIER_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	dir = filepath.Join(dir, "dashboard")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

type browser struct {
	t    *testing.T
	ctx  context.Context
	base string
	shot string
}

func (b *browser) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// follow clicks sel, which loads another page, and waits until the new
// page has loaded and shows ready: waiting for ready alone could match the
// page being left, which is still there right after the click.
func (b *browser) follow(what, sel, ready string) {
	b.t.Helper()
	var before string
	b.run(what, chromedp.Location(&before))
	b.run(what, chromedp.Click(sel, chromedp.ByQuery))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var loc, state string
		// Errors while the old document goes away are expected; poll on.
		if err := chromedp.Run(b.ctx, chromedp.Location(&loc), chromedp.Evaluate(`document.readyState`, &state)); err == nil &&
			loc != before && state == "complete" {
			break
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: still at %s", what, before)
		}
	}
	b.run(what, chromedp.WaitVisible(ready, chromedp.ByQuery))
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	var png []byte
	b.run("screenshot "+name, chromedp.FullScreenshot(&png, 100))
	if err := os.WriteFile(filepath.Join(b.shot, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	var s string
	b.run("read "+sel, chromedp.Text(sel, &s, chromedp.ByQuery))
	return strings.TrimSpace(s)
}

func TestDashboardInBrowser(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu    sync.Mutex
		hooks []string
	)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		hooks = append(hooks, r.Header.Get("Service-Event"))
		mu.Unlock()
		io.WriteString(w, "SUCCESS")
	}))
	defer recv.Close()

	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.PayoutWindow = 300 * time.Millisecond
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, TRONBlockInterval: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- sb.Serve(ctx) }()
	defer func() {
		cancel()
		<-served
		sb.Close()
	}()
	info := sb.Info
	if info.Dashboard == nil || info.Dashboard.Password == "" {
		t.Fatal("the sandbox made no demo dashboard account")
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browsertest.Chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(browsertest.ProfileDir(t)),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(412, 915)) // a phone's width
	defer cancelAlloc()
	// The protocol of the installed Chromium may be newer than the pinned
	// library's: events it cannot decode (network details) are dropped
	// quietly, real failures still fail the actions.
	bctx, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(func(f string, a ...any) {
		// The page's own dialog (top layer) raises events the pinned
		// library does not handle: not failures either.
		if msg := fmt.Sprintf(f, a...); !strings.Contains(msg, "could not unmarshal event") && !strings.Contains(msg, "unhandled node event") {
			t.Logf(f, a...)
		}
	}))
	defer cancelBrowser()
	// Start the browser on its own context: a per-step timeout context must
	// not own (and on cancel close) the tab.
	if err := chromedp.Run(bctx); err != nil {
		t.Fatal(err)
	}
	// A person answers "OK" to the confirmation of a destructive button
	// (or "Cancel" while decline is set); every question asked is kept.
	var (
		decline atomic.Bool
		dmu     sync.Mutex
		dialogs []string
	)
	chromedp.ListenTarget(bctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			dmu.Lock()
			dialogs = append(dialogs, d.Message)
			dmu.Unlock()
			go chromedp.Run(bctx, page.HandleJavaScriptDialog(!decline.Load()))
		}
	})
	asked := func() []string {
		dmu.Lock()
		defer dmu.Unlock()
		return append([]string(nil), dialogs...)
	}
	b := &browser{t: t, ctx: bctx, base: info.BaseURL, shot: artifacts(t)}

	// Sign in.
	b.run("sign in",
		chromedp.Navigate(info.Dashboard.URL+"signin"),
		chromedp.WaitVisible("#signin-form", chromedp.ByQuery),
	)
	b.screenshot("01-signin")
	b.run("submit sign-in",
		chromedp.SendKeys("#email", info.Dashboard.Email, chromedp.ByQuery),
		chromedp.SendKeys("#password", info.Dashboard.Password, chromedp.ByQuery),
		chromedp.Click("#signin", chromedp.ByQuery),
		chromedp.WaitVisible("#awaiting", chromedp.ByQuery),
	)
	b.screenshot("02-overview")

	// Rotate the keys and use the new ones against the API.
	b.run("integration", chromedp.Click("#nav-integration", chromedp.ByQuery), chromedp.WaitVisible("#keys-rotate", chromedp.ByQuery))
	b.screenshot("03-integration")
	b.run("rotate", chromedp.Click("#keys-rotate", chromedp.ByQuery), chromedp.WaitVisible("#key-secret", chromedp.ByQuery))
	b.screenshot("04-new-keys")
	apiKey, secret := b.text("#key-api"), b.text("#key-secret")
	if !strings.HasPrefix(apiKey, "pk_") || !strings.HasPrefix(secret, "sk_") {
		t.Fatalf("keys shown: %q %q", apiKey, secret)
	}
	cli := client.New(info.BaseURL, apiKey, secret)
	// The old key works through its grace (the default 24 h) and the page
	// says until when; a refresh of the result page shows no keys again.
	if _, err := client.New(info.BaseURL, info.APIKey, info.SecretKey).CashierInfo(ctx, info.CashierID); err != nil {
		t.Fatalf("old key within its grace: %v", err)
	}
	if until := b.text("#old-key-until"); !strings.Contains(until, "until") {
		t.Fatalf("the result page does not say when the old key ends: %q", until)
	}
	b.run("refresh the result", chromedp.Reload(), chromedp.WaitVisible("#keys-gone", chromedp.ByQuery))
	if _, err := cli.CashierInfo(ctx, info.CashierID); err != nil {
		t.Fatalf("new key: %v", err)
	}
	if _, err := cli.ListCollections(ctx, client.ListRequest{}); err != nil {
		t.Fatalf("signed call with the new secret: %v", err)
	}

	// Set the webhook URL and send a test event.
	row := "#cashier-" + info.CashierID
	b.run("webhook URL",
		chromedp.Navigate(info.Dashboard.URL+"integration"),
		chromedp.SetValue(row+" input.webhook-url", recv.URL+"/hooks", chromedp.ByQuery),
		chromedp.Click(row+" button.save", chromedp.ByQuery),
		chromedp.WaitVisible("#notice", chromedp.ByQuery),
	)
	if c, _ := sb.Service.Store.Cashier(ctx, info.CashierID); c.WebhookURL != recv.URL+"/hooks" {
		t.Fatalf("webhook URL stored: %q", c.WebhookURL)
	}
	// Each form is used from a freshly loaded page, so the notice waited
	// for is the answer to this submission.
	b.run("test event", chromedp.Navigate(info.Dashboard.URL+"integration"),
		chromedp.Click(row+" button.test-event", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	if n := b.text("#notice"); !strings.Contains(n, "confirmed the test event") || strings.Contains(n, "not") {
		t.Fatalf("test event notice: %q", n)
	}
	mu.Lock()
	if len(hooks) != 1 || !strings.EqualFold(hooks[0], "test") {
		t.Fatalf("receiver got %v", hooks)
	}
	mu.Unlock()
	b.screenshot("05-webhook-tested")
	// A notice is the answer to the action just taken, once: reloading
	// the page shows none, and the URL carries none.
	var loc string
	b.run("reload", chromedp.Navigate(info.Dashboard.URL+"integration"), chromedp.WaitVisible(row, chromedp.ByQuery), chromedp.Location(&loc))
	if b.exists("#notice") || strings.Contains(loc, "notice") {
		t.Fatalf("the notice came back on reload (%s): %q", loc, b.text("#notice"))
	}

	// A test delivery to a dead URL says it failed, with the error. The
	// URL stays, so the payout's events below fail too.
	dead := deadURL(t)
	b.run("dead webhook URL",
		chromedp.SetValue(row+" input.webhook-url", dead, chromedp.ByQuery),
		chromedp.Click(row+" button.save", chromedp.ByQuery),
		chromedp.WaitVisible("#notice", chromedp.ByQuery))
	if n := b.text("#notice"); !strings.Contains(n, "saved") {
		t.Fatalf("save notice: %q", n)
	}
	b.run("failed test event", chromedp.Navigate(info.Dashboard.URL+"integration"),
		chromedp.Click(row+" button.test-event", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	if n := b.text("#notice"); !strings.Contains(n, "failed") || strings.Contains(n, "confirmed") || !strings.Contains(n, dead) ||
		!strings.Contains(n, "refused") || !b.exists("#notice.failed") {
		t.Fatalf("failed test event notice: %q", n)
	}
	b.screenshot("05b-webhook-test-failed")

	// Close the cashier: the API refuses it.
	b.run("close cashier", chromedp.Navigate(info.Dashboard.URL+"integration"), chromedp.Click(row+" button.close-cashier", chromedp.ByQuery), chromedp.WaitVisible(row+" button.open-cashier", chromedp.ByQuery))
	if _, err := cli.CashierInfo(ctx, info.CashierID); !client.IsCode(err, "ERROR_000102") {
		t.Fatalf("closed cashier info: %v", err)
	}
	if _, err := cli.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: "closed-1", Amount: "5.00", Symbol: "USDT", ChainID: "ETH"}); err == nil {
		t.Fatal("a closed cashier took an order")
	}
	b.screenshot("06-cashier-closed")
	b.run("reopen cashier", chromedp.Click(row+" button.open-cashier", chromedp.ByQuery), chromedp.WaitVisible(row+" button.close-cashier", chromedp.ByQuery))

	// Review: approve one payout, refuse another; the approved one is paid.
	m, _ := sb.Service.Store.Merchant(ctx, info.MerchantID)
	create := func(no, amount string) *cashier.PayoutOrder {
		o, err := sb.Service.Orders.CreatePayout(ctx, m, orders.PayoutRequest{ContractID: info.ContractIDs["ETH"], OrderNo: no,
			Recipient: "0x00000000000000000000000000000000000be1f0", Amount: amount, Symbol: "USDT", PayoutType: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !o.NeedsReview {
			t.Fatalf("%s does not wait for review", no)
		}
		return o
	}
	pa, pb := create("RA1", "7.00"), create("RB1", "3.00")
	b.run("review", chromedp.Click("#nav-review", chromedp.ByQuery), chromedp.WaitVisible("#pick-RA1", chromedp.ByQuery))
	b.screenshot("07-review-queue")
	// Approving asks first, in a dialog naming each payout and its whole
	// recipient; "Cancel" approves nothing.
	b.run("approve, cancelled", chromedp.Click("#pick-RA1", chromedp.ByQuery), chromedp.Click("#approve", chromedp.ByQuery),
		chromedp.WaitVisible("#review-confirm", chromedp.ByQuery))
	if q := b.text("#review-confirm"); !strings.Contains(q, "Approve 1 payout") || !strings.Contains(strings.ToLower(q), "0x00000000000000000000000000000000000be1f0") {
		t.Fatalf("approve asked %q", q)
	}
	b.run("cancel", chromedp.Click("#confirm-cancel", chromedp.ByQuery), chromedp.WaitNotVisible("#review-confirm", chromedp.ByQuery))
	if o, _ := sb.Service.Store.Payout(ctx, pa.ID); o.Status != cashier.PayoutPending || !o.NeedsReview || !b.exists("#pick-RA1") {
		t.Fatalf("a cancelled approval approved: %s review %v", o.Status, o.NeedsReview)
	}
	b.run("approve", chromedp.Click("#approve", chromedp.ByQuery), chromedp.WaitVisible("#confirm-ok", chromedp.ByQuery),
		chromedp.Click("#confirm-ok", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	if n := b.text("#notice"); n != "Payouts approved." {
		t.Fatalf("approve notice %q", n)
	}
	b.run("refuse",
		chromedp.Navigate(info.Dashboard.URL+"review"),
		chromedp.WaitVisible("#pick-RB1", chromedp.ByQuery),
		chromedp.Click("#pick-RB1", chromedp.ByQuery),
		chromedp.SendKeys("#reason", "recipient not verified", chromedp.ByQuery),
		chromedp.Click("#refuse", chromedp.ByQuery), chromedp.WaitVisible("#confirm-ok", chromedp.ByQuery),
		chromedp.Click("#confirm-ok", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	b.screenshot("08-review-done")
	if o, _ := sb.Service.Store.Payout(ctx, pb.ID); o.Status != cashier.PayoutRefuse || o.FailReason != "recipient not verified" {
		t.Fatalf("refused payout: %s %q", o.Status, o.FailReason)
	}
	var paid *cashier.PayoutOrder
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		o, _ := sb.Service.Store.Payout(ctx, pa.ID)
		if o.Status == cashier.PayoutSuccess && o.TxID != "" {
			paid = o
			break
		}
		if o.Status.Final() || time.Now().After(deadline) {
			t.Fatalf("approved payout: %s %q", o.Status, o.FailReason)
		}
	}

	// The payout's webhook to the dead URL shows among the failing ones,
	// and can be resent from there.
	var failing string
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		b.run("failing webhooks", chromedp.Navigate(info.Dashboard.URL+"webhooks"), chromedp.WaitVisible("#webhooks-failing", chromedp.ByQuery))
		if failing = b.text("#webhooks-failing"); strings.Contains(failing, "RA1") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("failing webhooks: %q", failing)
		}
	}
	if !strings.Contains(failing, "refused") || !strings.Contains(failing, dead) {
		t.Fatalf("failing webhook row lacks its error or URL: %q", failing)
	}
	b.screenshot("09a-failing-webhooks")
	b.run("resend", chromedp.Click("#webhooks-failing button.resend", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	if n := b.text("#notice"); !strings.Contains(n, "queued") {
		t.Fatalf("resend notice %q", n)
	}
	b.run("overview", chromedp.Navigate(info.Dashboard.URL), chromedp.WaitVisible("#failing", chromedp.ByQuery))
	if n := b.text("#failing"); n == "0" || n == "" {
		t.Fatalf("overview counts %q failing webhooks", n)
	}

	// Find the paid order by its txId.
	b.follow("payouts", "#nav-payouts", "#filter-txid")
	// In capitals: hashes are found in any case.
	b.run("search by txId", chromedp.SendKeys("#filter-txid", strings.ToUpper(paid.TxID), chromedp.ByQuery))
	b.follow("search by txId", "#filter-go", "#payout-list")
	list := b.text("#payout-list")
	if !strings.Contains(list, "RA1") || strings.Contains(list, "RB1") {
		t.Fatalf("search by txId shows %q", list)
	}
	b.screenshot("09-payouts-by-txid")
	b.run("payout detail", chromedp.Click(`#payout-list a[href*="`+pa.ID+`"]`, chromedp.ByQuery), chromedp.WaitVisible("#order-detail", chromedp.ByQuery))
	if st := b.text("#order-status"); st != "SUCCESS" {
		t.Fatalf("detail status %q", st)
	}
	// Labels, not field names; amounts with token and network; no link to
	// a mainnet explorer for a sandbox transaction; the test-mode banner.
	detail := b.text("#order-detail")
	for _, field := range []string{"orderId", "gasAmount", "failReason", "remark"} {
		if strings.Contains(detail, field) {
			t.Errorf("detail page shows the field name %s", field)
		}
	}
	if amt := b.text("#order-amount"); amt != "7.00 USDT · ETH" {
		t.Errorf("amount shown as %q", amt)
	}
	if b.exists("#tx-link") || b.exists(`a[href*="etherscan"]`) || !strings.Contains(b.text("#test-mode"), "Test mode") {
		t.Error("sandbox detail page links an explorer or lacks the test-mode banner")
	}
	b.screenshot("10-payout-detail")

	// Status is a choice; the order number matches by prefix.
	b.run("filter", chromedp.Navigate(info.Dashboard.URL+"payouts"), chromedp.WaitVisible("#filter-status", chromedp.ByQuery),
		chromedp.SetValue("#filter-status", "REFUSE", chromedp.ByQuery), chromedp.SendKeys("#filter-orderno", "R", chromedp.ByQuery))
	b.follow("filter", "#filter-go", "#payout-list")
	if list := b.text("#payout-list"); !strings.Contains(list, "RB1") || strings.Contains(list, "RA1") {
		t.Fatalf("status REFUSE, order number R…: %q", list)
	}

	// The remaining pages, and the Chinese texts.
	for i, p := range []string{"collections", "audit", "account"} {
		b.follow(p, "#nav-"+p, "main")
		b.screenshot("1" + string(rune('1'+i)) + "-" + p)
	}
	b.run("audit", chromedp.Click("#nav-audit", chromedp.ByQuery), chromedp.WaitVisible("#audit-list", chromedp.ByQuery))
	audit := b.text("#audit-list")
	for _, want := range []string{"keys.rotate", "cashier.update", "cashier.test", "payout.review"} {
		if !strings.Contains(audit, want) {
			t.Errorf("audit log lacks %s", want)
		}
	}
	b.run("chinese", chromedp.Navigate(info.Dashboard.URL+"?lang=zh"), chromedp.WaitVisible("#awaiting", chromedp.ByQuery))
	if h := b.text("h1"); h != "概览" {
		t.Fatalf("Chinese overview title %q", h)
	}
	b.screenshot("14-overview-zh")

	// The second factor's set-up shows a QR code of its otpauth URI.
	var src string
	b.run("account", chromedp.Navigate(info.Dashboard.URL+"account?lang=en"), chromedp.WaitVisible("#totp-qr", chromedp.ByQuery),
		chromedp.AttributeValue("#totp-qr", "src", &src, nil, chromedp.ByQuery))
	uri := b.text("section .muted code")
	if got := zbar(t, src); !strings.HasPrefix(uri, "otpauth://totp/") || got != uri {
		t.Fatalf("TOTP QR decodes to %q, the page's URI is %q", got, uri)
	}

	// The users page: the owner resets a viewer's password (asked first,
	// shown once); the viewer signs in with it and sees no control it
	// cannot use; the owner disables the viewer, who is signed out.
	viewer, err := dashboard.CreateUser(ctx, sb.Service.Store, cashier.SystemClock{},
		dashboard.UserSpec{Email: "viewer@sandbox.example", MerchantID: info.MerchantID, Role: "viewer"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	vrow := "#user-" + viewer.UserID
	n := len(asked())
	b.run("users", chromedp.Click("#nav-users", chromedp.ByQuery), chromedp.WaitVisible(vrow, chromedp.ByQuery))
	b.screenshot("15-users")
	b.follow("reset password", vrow+" button.reset-password", "#new-password")
	if q := asked(); len(q) != n+1 || !strings.Contains(q[n], "new password") {
		t.Fatalf("reset password asked %q", q[n:])
	}
	password := b.text("#new-password")
	if password == "" || password == viewer.Password {
		t.Fatalf("new password %q", password)
	}
	b.run("sign out", chromedp.Click("#signout", chromedp.ByQuery), chromedp.WaitVisible("#signin-form", chromedp.ByQuery))
	b.run("viewer signs in",
		chromedp.SendKeys("#email", "viewer@sandbox.example", chromedp.ByQuery),
		chromedp.SendKeys("#password", password, chromedp.ByQuery),
		chromedp.Click("#signin", chromedp.ByQuery),
		chromedp.WaitVisible("#awaiting", chromedp.ByQuery))
	create("RC1", "2.00")
	for _, pg := range []struct{ path, ready string }{{"review", "#review-list"}, {"integration", "#merchant-status"}, {"webhooks", "#webhooks-failed"},
		{"payouts/" + pa.ID, "#order-detail"}} {
		b.run("viewer "+pg.path, chromedp.Navigate(info.Dashboard.URL+pg.path), chromedp.WaitVisible(pg.ready, chromedp.ByQuery))
		var controls int
		// Copy buttons beside addresses are for everyone: not counted.
		b.run("count controls", chromedp.Evaluate(`document.querySelectorAll("main button:not(.copy), main input:not([type=hidden]), main select").length`, &controls))
		if controls != 0 || b.exists("#nav-users") || b.exists("#nav-audit") {
			t.Errorf("viewer sees %d controls on %s", controls, pg.path)
		}
		if pg.path == "review" {
			if !strings.Contains(b.text("#review-list"), "RC1") {
				t.Error("viewer does not see the payout awaiting review")
			}
			b.screenshot("16-viewer-review")
		}
	}
	b.run("sign out", chromedp.Click("#signout", chromedp.ByQuery), chromedp.WaitVisible("#signin-form", chromedp.ByQuery))
	b.run("owner signs in",
		chromedp.SendKeys("#email", info.Dashboard.Email, chromedp.ByQuery),
		chromedp.SendKeys("#password", info.Dashboard.Password, chromedp.ByQuery),
		chromedp.Click("#signin", chromedp.ByQuery),
		chromedp.WaitVisible("#awaiting", chromedp.ByQuery),
		chromedp.Navigate(info.Dashboard.URL+"users"), chromedp.WaitVisible(vrow, chromedp.ByQuery))
	b.run("disable", chromedp.Click(vrow+" button.disable", chromedp.ByQuery), chromedp.WaitVisible(vrow+" button.enable", chromedp.ByQuery))
	if n := b.text("#notice"); !strings.Contains(n, "disabled") {
		t.Fatalf("disable notice %q", n)
	}
	if u, _ := sb.Service.Store.UserByEmail(ctx, "viewer@sandbox.example"); !u.Disabled {
		t.Fatal("viewer not disabled")
	}
	if audit := sb.Service.Store; audit != nil {
		es, _ := audit.Audit(ctx, cashier.AuditFilter{MerchantID: info.MerchantID})
		var by string
		for _, e := range es {
			if e.Action == "user.disable" {
				by = e.Email
			}
		}
		if by != info.Dashboard.Email {
			t.Errorf("audit names %q as who disabled the viewer", by)
		}
	}
}

// exists reports whether the page has an element matching sel.
func (b *browser) exists(sel string) bool {
	b.t.Helper()
	var ok bool
	b.run("look for "+sel, chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q) !== null`, sel), &ok))
	return ok
}

// deadURL is a loopback URL nothing listens on.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/hooks"
}

// zbar decodes a PNG data URI with zbarimg, as a phone's camera would.
func zbar(t *testing.T, dataURI string) string {
	t.Helper()
	b64, ok := strings.CutPrefix(dataURI, "data:image/png;base64,")
	if !ok {
		t.Fatalf("not a PNG data URI: %.40q", dataURI)
	}
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "qr.png")
	if err := os.WriteFile(f, png, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("zbarimg", "--quiet", "--raw", f).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	return strings.TrimSpace(string(out))
}
