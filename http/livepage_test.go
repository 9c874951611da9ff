package http_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/stablecashier/cashier/browsertest"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// The cashier page open in headless Chromium while the customer really
// pays on a dev chain and the service's chain watcher follows it: the page
// moves from waiting through confirming n/N to paid by its live status
// alone (never reloaded); the customer's cancel button cancels a fresh
// order (CANCELLED webhook) and is gone, and refused by the server, once
// a payment is seen. Screenshots go to $CASHIER_ARTIFACTS/cashier-page.

// livePage is one open tab of the cashier page.
type livePage struct {
	t   *testing.T
	ctx context.Context
	dir string
}

func (p *livePage) run(what string, actions ...chromedp.Action) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// state is the page's data-state and status title now, read in one
// evaluation: the page may update between two.
func (p *livePage) state() (string, string) {
	p.t.Helper()
	var both []string
	p.run("read the state", chromedp.Evaluate(`[document.getElementById("cashier").getAttribute("data-state"),
		document.getElementById("state-title").textContent]`, &both))
	if len(both) != 2 {
		p.t.Fatalf("read the state: got %q", both)
	}
	return both[0], strings.TrimSpace(both[1])
}

func (p *livePage) shot(name string) {
	p.t.Helper()
	var png []byte
	p.run("screenshot "+name, chromedp.FullScreenshot(&png, 100))
	if err := os.WriteFile(filepath.Join(p.dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// until polls the page until ok accepts its state, recording every
// distinct state title on the way.
func (p *livePage) until(what string, d time.Duration, seen *[]string, ok func(state, title string) bool) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		st, title := p.state()
		if len(*seen) == 0 || (*seen)[len(*seen)-1] != st+": "+title {
			*seen = append(*seen, st+": "+title)
		}
		if ok(st, title) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("page never %s; states: %q", what, *seen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestCashierPageLiveOnChain(t *testing.T) {
	chrome := browsertest.Chromium(t)
	dir := os.Getenv("CASHIER_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	dir = filepath.Join(dir, "cashier-page")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// The merchant's webhook receiver, verifying signatures.
	var mu sync.Mutex
	var key string
	var events []*client.WebhookEvent
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		k := key
		mu.Unlock()
		ev, _, err := client.VerifyWebhook(r, k)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}))
	defer hooks.Close()
	hook := func(orderNo, status string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range events {
			if ev.OrderNo == orderNo && ev.Status == status {
				return true
			}
		}
		return false
	}

	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.WatchInterval = 200 * time.Millisecond
	cfg.SweepInterval = 0
	// Blocks every 4 s and 3 confirmations: each step lasts longer than the
	// page's 2 s poll, so the page must show it.
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, BlockPeriod: 4 * time.Second,
		TRONBlockInterval: time.Second, Confirmations: 3, WebhookURL: hooks.URL + "/hook"})
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
	mu.Lock()
	key = info.WebhookKey
	mu.Unlock()
	api := client.New(info.BaseURL, info.APIKey, info.SecretKey)
	order := func(no string) string {
		t.Helper()
		o, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: no,
			Amount: "12.50", Symbol: "USDT", ChainID: "ETH"})
		if err != nil {
			t.Fatal(err)
		}
		return o.PayURL
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(browsertest.ProfileDir(t)),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(375, 812)) // a phone
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(func(f string, a ...any) {
		if !strings.Contains(fmt.Sprintf(f, a...), "could not unmarshal event") {
			t.Logf(f, a...)
		}
	}))
	defer cancelBrowser()
	if err := chromedp.Run(bctx); err != nil {
		t.Fatal(err)
	}
	// The customer answers OK to "cancel this payment?".
	chromedp.ListenTarget(bctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			go chromedp.Run(bctx, page.HandleJavaScriptDialog(true))
		}
	})
	p := &livePage{t: t, ctx: bctx, dir: dir}

	// 1. Paid while the page is open.
	payURL := order("LIVE-1")
	var seen []string
	p.run("open the page", chromedp.Navigate(payURL), chromedp.WaitVisible("#address", chromedp.ByQuery),
		chromedp.Evaluate(`window.loadedOnce = "yes"; true`, nil))
	p.until("waiting", 10*time.Second, &seen, func(st, _ string) bool { return st == "waiting" })
	p.shot("live-1-waiting")
	paid, err := sandbox.Pay(ctx, info, sb.Service.Store, sandbox.PayRequest{OrderNo: "LIVE-1"})
	if err != nil {
		t.Fatal(err)
	}
	p.until("confirming", 30*time.Second, &seen, func(st, title string) bool {
		return st == "confirming" && strings.Contains(title, "/3")
	})
	p.shot("live-2-confirming")
	p.until("paid", 60*time.Second, &seen, func(st, _ string) bool { return st == "paid" })
	p.shot("live-3-paid")
	var marker string
	p.run("no reload", chromedp.Evaluate(`String(window.loadedOnce)`, &marker))
	if marker != "yes" {
		t.Fatalf("the page was reloaded on the way (marker %q); states %q", marker, seen)
	}
	// The states came in order: waiting, confirming with a count below 3,
	// paid; nothing else in between.
	var counts []string
	for i, s := range seen {
		st, title, _ := strings.Cut(s, ": ")
		switch {
		case i == 0 && st != "waiting":
			t.Fatalf("first state %q; states %q", s, seen)
		case st == "confirming":
			if !strings.Contains(title, "confirming") {
				t.Fatalf("confirming title %q", title)
			}
			counts = append(counts, title)
		case st == "seen", st == "waiting", st == "paid":
		default:
			t.Fatalf("unexpected state %q; states %q", s, seen)
		}
	}
	under := false
	for _, c := range counts {
		under = under || strings.Contains(c, "1/3") || strings.Contains(c, "2/3")
	}
	if !under {
		t.Fatalf("no confirmation count under 3 shown; states %q", seen)
	}
	if seen[len(seen)-1][:4] != "paid" {
		t.Fatalf("last state %q", seen[len(seen)-1])
	}
	t.Logf("states the page showed: %q", seen)
	d, err := api.CollectionDetail(ctx, "LIVE-1")
	if err != nil || d.Status != "SUCCESS" || d.TxID != paid.TxID {
		t.Fatalf("order after the page said paid: %+v, %v", d, err)
	}

	// 2. A fresh order cancelled by the customer's click.
	cancelURL := order("LIVE-2")
	seen = nil
	p.run("open the page", chromedp.Navigate(cancelURL), chromedp.WaitVisible("#cancel", chromedp.ByQuery))
	p.shot("live-4-cancel-offered")
	p.run("click cancel", chromedp.Click("#cancel", chromedp.ByQuery))
	p.until("cancelled", 20*time.Second, &seen, func(st, _ string) bool { return st == "cancelled" })
	p.shot("live-5-cancelled")
	if d, err := api.CollectionDetail(ctx, "LIVE-2"); err != nil || d.Status != "CANCELLED" {
		t.Fatalf("order after the click: %+v, %v", d, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !hook("LIVE-2", "CANCELLED") {
		if time.Now().After(deadline) {
			t.Fatal("no CANCELLED webhook for LIVE-2")
		}
		time.Sleep(100 * time.Millisecond)
	}

	// 3. Once a payment is seen the button goes, and the server refuses a
	// cancel sent anyway.
	thirdURL := order("LIVE-3")
	seen = nil
	p.run("open the page", chromedp.Navigate(thirdURL), chromedp.WaitVisible("#cancel", chromedp.ByQuery))
	if _, err := sandbox.Pay(ctx, info, sb.Service.Store, sandbox.PayRequest{OrderNo: "LIVE-3", Amount: "5"}); err != nil {
		t.Fatal(err)
	}
	p.until("showing the payment", 30*time.Second, &seen, func(st, _ string) bool { return st == "confirming" || st == "seen" })
	var hidden bool
	p.run("cancel button", chromedp.Evaluate(`document.getElementById("cancel").hidden`, &hidden))
	if !hidden {
		t.Fatalf("the cancel button still shows after a payment was seen; states %q", seen)
	}
	p.shot("live-6-cancel-gone")
	var status int
	id := path.Base(thirdURL)
	p.run("cancel anyway", chromedp.Evaluate(fmt.Sprintf(`fetch("/pay/%s/cancel", {method: "POST"}).then(r => r.status)`, id), &status,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if status != http.StatusConflict {
		t.Fatalf("cancel after a payment answered %d, want 409", status)
	}
	if d, err := api.CollectionDetail(ctx, "LIVE-3"); err != nil || d.Status != "PENDING" {
		t.Fatalf("order after the refused cancel: %+v, %v", d, err)
	}
	t.Logf("screenshots in %s", dir)
}
