package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/browsertest"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/orders"
)

// artifacts is where the page tests keep their screenshots:
// $CASHIER_ARTIFACTS, else a directory of the test's own.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CASHIER_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	dir = filepath.Join(dir, "cashier-page")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page is a browser's view of the cashier page after its script ran.
type page struct {
	dom string
}

// state is the page's data-state as the script left it.
func (p page) attr(name string) string {
	m := regexp.MustCompile(`id="cashier"[^>]*\s` + name + `="([^"]*)"`).FindStringSubmatch(p.dom)
	if m == nil {
		return ""
	}
	return m[1]
}

func (p page) text(id string) string {
	m := regexp.MustCompile(`id="` + id + `"[^>]*>([^<]*)<`).FindStringSubmatch(p.dom)
	if m == nil {
		return ""
	}
	return m[1]
}

func (p page) shown(id string) bool {
	m := regexp.MustCompile(`<[^>]*id="` + id + `"[^>]*>`).FindString(p.dom)
	return m != "" && !strings.Contains(m, " hidden")
}

// view loads url in headless Chromium at width×height, lets the page's
// script run for budget of virtual time, and returns the DOM; with shot
// it also writes a screenshot of the same moment.
func view(t *testing.T, url string, width, height int, budget time.Duration, shot string, extra ...string) page {
	t.Helper()
	run := func(out string) []byte {
		args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
			"--user-data-dir=" + browsertest.ProfileDir(t), fmt.Sprintf("--window-size=%d,%d", width, height),
			fmt.Sprintf("--virtual-time-budget=%d", budget.Milliseconds())}
		args = append(args, extra...)
		if out != "" {
			args = append(args, "--screenshot="+out)
		} else {
			args = append(args, "--dump-dom")
		}
		// A browser that crashes (a signal, seen on loaded machines) is
		// started again, twice at most; a page that fails does not crash it.
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			var b []byte
			b, err = exec.CommandContext(ctx, browsertest.Chromium(t), append(args, url)...).Output()
			cancel()
			var ee *exec.ExitError
			if err == nil {
				return b
			}
			if !errors.As(err, &ee) || ee.ProcessState.Exited() {
				break
			}
			t.Logf("chromium %s: %v; starting it again", url, err)
		}
		t.Fatalf("chromium %s: %v", url, err)
		return nil
	}
	p := page{dom: string(run(""))}
	if shot != "" {
		run(shot)
		raw, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("screenshot %s: %v", shot, err)
		}
		if b := img.Bounds(); b.Dx() != width {
			t.Fatalf("screenshot is %d px wide, want %d", b.Dx(), width)
		}
	}
	return p
}

// pageOrder is a collection order with what the tests need to pay it.
type pageOrder struct {
	no, id, payURL, address string
	block                   uint64
}

func (e *env) pageOrder(t *testing.T, no, amount, redirect string) *pageOrder {
	t.Helper()
	ctx := context.Background()
	o, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: no, Amount: amount,
		Symbol: "USDT", ChainID: "ETH", RedirectURL: redirect})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.cli.CollectionDetail(ctx, no)
	if err != nil {
		t.Fatal(err)
	}
	return &pageOrder{no: no, id: path.Base(o.PayURL), payURL: o.PayURL, address: d.DepositAddress}
}

// pageBlocks hands out block numbers, so the orders' transfers never share
// a block (settling a block drops the seen transfers it no longer has).
var pageBlocks atomic.Uint64

// transfer is a USDT (or other symbol) transfer to the order's address in
// a block of its own.
func (po *pageOrder) transfer(symbol, amount string) orders.Received {
	po.block = 1000 + pageBlocks.Add(1)
	token := map[string]string{"USDT": "0xdAC17F958D2ee523a2206206994597C13D831ec7", "USDC": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}[symbol]
	return orders.Received{OrderID: po.id, Transfer: cashier.Transfer{Chain: cashier.ChainETH, Token: token,
		From: "0x3333333333333333333333333333333333333333", To: po.address, Amount: units(amount),
		TxHash: fmt.Sprintf("0x%064x", po.block*7), BlockNumber: po.block,
		BlockHash: fmt.Sprintf("0x%064x", po.block), BlockTime: t0}}
}

// seen records r as seen with the head at r's block + confirmations - 1.
func (e *env) seen(t *testing.T, r orders.Received, confirmations uint64) {
	t.Helper()
	b := r.Transfer.BlockNumber
	if err := e.svc.ApplySeen(context.Background(), cashier.ChainETH, b, b+confirmations-1, []orders.Received{r}); err != nil {
		t.Fatal(err)
	}
}

// scannedToNow records the chain as scanned and confirmed up to a block of
// the clock's time, as the watcher's round would: orders expire only then.
func (e *env) scannedToNow(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	if err := e.store.Update(ctx, func(tx cashier.Tx) error {
		cur, err := tx.Cursor(ctx, cashier.ChainETH)
		if err != nil {
			return err
		}
		cur.ConfirmedTime, cur.UpdatedAt = e.clock.Now(), e.clock.Now()
		return tx.SetCursor(ctx, cur)
	}); err != nil {
		t.Fatal(err)
	}
}

// confirmed settles r's block with r in it.
func (e *env) confirmed(t *testing.T, r orders.Received) {
	t.Helper()
	b := r.Transfer.BlockNumber
	cur := cashier.ChainCursor{Confirmed: b, ConfirmedHash: r.Transfer.BlockHash, Head: b + 11}
	if err := e.svc.ApplyConfirmed(context.Background(), cashier.ChainETH, b, b, []orders.Received{r}, cur); err != nil {
		t.Fatal(err)
	}
}

func TestPageStatusStates(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	status := func(po *pageOrder) pageStatus {
		t.Helper()
		res, err := http.Get(e.srv.URL + "/pay/" + po.id + "/status")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("status endpoint: %d", res.StatusCode)
		}
		var st pageStatus
		if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}

	waiting := e.pageOrder(t, "ST-WAIT", "25.50", "")
	if st := status(waiting); st.State != pageWaiting || !st.CanCancel || st.Remaining != "25.50" || st.Required != 12 {
		t.Fatalf("new order: %+v", st)
	}

	under := e.pageOrder(t, "ST-UNDER", "25.50", "")
	r := under.transfer("USDT", "10")
	e.seen(t, r, 3)
	if st := status(under); st.State != pageConfirming || st.Confirmations != 3 || st.CanCancel || len(st.Payments) != 1 {
		t.Fatalf("seen payment: %+v", st)
	}
	e.confirmed(t, r)
	if st := status(under); st.State != pageUnderpaid || st.PaidAmount != "10.00" || st.Remaining != "15.50" {
		t.Fatalf("short payment: %+v", st)
	}
	// The rest arrives: paid.
	r2 := under.transfer("USDT", "15.5")
	e.seen(t, r2, 1)
	e.confirmed(t, r2)
	if st := status(under); st.State != pagePaid || st.PaidAmount != "25.50" || st.Late {
		t.Fatalf("completed: %+v", st)
	}

	// A wrong token is listed but does not count.
	wrong := e.pageOrder(t, "ST-WRONG", "5", "")
	w := wrong.transfer("USDC", "5")
	e.seen(t, w, 1)
	e.confirmed(t, w)
	if st := status(wrong); st.State != pageWaiting || len(st.Payments) != 1 || st.Payments[0].Effect != "WRONG_TOKEN" {
		t.Fatalf("wrong token: %+v", st)
	}

	// Cancel: refused once a payment is seen, accepted before.
	post := func(po *pageOrder) (int, map[string]any) {
		res, err := http.Post(e.srv.URL+"/pay/"+po.id+"/cancel", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m
	}
	seenOrder := e.pageOrder(t, "ST-SEEN", "5", "")
	e.seen(t, seenOrder.transfer("USDT", "5"), 1)
	if code, m := post(seenOrder); code != http.StatusConflict || !strings.Contains(fmt.Sprint(m["message"]), "payment") {
		t.Fatalf("cancel after a payment was seen: %d %v", code, m)
	}
	if o, _ := e.store.Collection(ctx, seenOrder.id); o.Status != cashier.CollectionPending {
		t.Fatalf("refused cancel changed the order to %s", o.Status)
	}
	if code, m := post(waiting); code != 200 || m["state"] != pageCancelled {
		t.Fatalf("cancel: %d %v", code, m)
	}
	if o, _ := e.store.Collection(ctx, waiting.id); o.Status != cashier.CollectionCancelled {
		t.Fatalf("cancelled order is %s", o.Status)
	}
	if code, _ := post(waiting); code != http.StatusConflict {
		t.Fatalf("second cancel: %d", code)
	}
	if code, _ := post(&pageOrder{id: "co_000000000000000000000000"}); code != http.StatusNotFound {
		t.Fatalf("cancel of an unknown order: %d", code)
	}

	// Expiry, then a late payment.
	late := e.pageOrder(t, "ST-LATE", "8", "")
	e.clock.Advance(31 * time.Minute)
	if st := status(late); st.State != pageExpired || st.CanCancel {
		t.Fatalf("past expiry: %+v", st)
	}
	e.scannedToNow(t)
	if _, err := e.svc.ExpireDue(ctx, 100); err != nil {
		t.Fatal(err)
	}
	lr := late.transfer("USDT", "3")
	e.seen(t, lr, 1)
	e.confirmed(t, lr)
	if st := status(late); st.State != pageLate || !st.Late || st.PaidAmount != "3.00" {
		t.Fatalf("late short payment: %+v", st)
	}
}

func TestPageHeaders(t *testing.T) {
	e := newEnv(t, nil)
	po := e.pageOrder(t, "HDR-1", "1.00", "")
	for _, u := range []string{po.payURL, e.srv.URL + "/pay/" + po.id + "/status", e.srv.URL + "/assets/cashier.js", e.srv.URL + "/assets/cashier.css"} {
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		if res.StatusCode != 200 || !strings.HasPrefix(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") ||
			res.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("%s: %d, CSP %q, Referrer-Policy %q", u, res.StatusCode, csp, res.Header.Get("Referrer-Policy"))
		}
		if u == po.payURL {
			// Nothing inline: no style attributes or blocks, and the only
			// script blocks are the external one and the JSON texts.
			s := string(body)
			if strings.Contains(s, "<style") || strings.Contains(s, " style=") || strings.Contains(s, " onclick=") ||
				strings.Count(s, "<script") != 3 || !strings.Contains(s, `<script type="application/json" id="i18n">`) {
				t.Fatalf("the page has inline style or script:\n%s", s)
			}
			if strings.Contains(s, secretKey) || strings.Contains(s, apiKey) || strings.Contains(s, "wk_1") {
				t.Fatal("the page shows a merchant key")
			}
		}
	}
	for _, u := range []string{"/assets/nope.js", "/assets/..%2fpages.go", "/assets/i18n.txt"} {
		res, err := http.Get(e.srv.URL + u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: %d, want 404", u, res.StatusCode)
		}
	}
}

// TestCashierPageInBrowser drives one order per state with real store
// data and looks at the page in headless Chromium after its script ran,
// at phone width, with screenshots kept.
func TestCashierPageInBrowser(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	dir := artifacts(t)

	// The merchant's page the customer returns to; it records the Referer
	// it was sent.
	var mu sync.Mutex
	var referers []string
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	shop := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/done" { // not the browser's own favicon request
			mu.Lock()
			referers = append(referers, r.Header.Get("Referer"))
			mu.Unlock()
		}
		fmt.Fprint(w, "<!doctype html><html><body><h1 id=shop>Thank you from Acme</h1></body></html>")
	})}
	go shop.Serve(ln)
	defer shop.Close()
	shopURL := "http://" + ln.Addr().String() + "/done"

	const phoneW, phoneH = 375, 812
	look := func(name string, po *pageOrder, budget time.Duration, extra ...string) page {
		t.Helper()
		return view(t, po.payURL, phoneW, phoneH, budget, filepath.Join(dir, name+".png"), extra...)
	}

	// Waiting: amount, token, network, address with a copy button, QR
	// code, countdown; the script ran (the language switch it reveals).
	waiting := e.pageOrder(t, "PG-WAIT", "25.50", shopURL)
	p := look("waiting", waiting, 1500*time.Millisecond)
	if p.attr("data-state") != pageWaiting || p.text("amount") != "25.50" || p.text("symbol") != "USDT" ||
		p.text("address") != waiting.address || !p.shown("copy") || !p.shown("lang") || !p.shown("cancel") ||
		!strings.Contains(p.dom, `src="data:image/png;base64,`) || !strings.Contains(p.text("state-title"), "Waiting for your payment") {
		t.Fatalf("waiting page:\n%s", p.dom)
	}
	if cd := p.text("countdown"); !regexp.MustCompile(`Time left (29:[0-5]\d|30:00)`).MatchString(cd) {
		t.Fatalf("countdown %q, want about 30 minutes (server time, not the browser's)", cd)
	}
	if p.attr("data-fits") != "yes" {
		t.Fatalf("the page is wider than a %d px phone:\n%s", phoneW, p.dom)
	}

	// Live: the page was loaded waiting; the payment is seen after the page
	// was served, and the page shows it without a reload.
	live := e.pageOrder(t, "PG-LIVE", "25.50", "")
	lr := live.transfer("USDT", "25.50")
	liveSrv := httptest.NewServer(afterPage(e.srv.Config.Handler, "/pay/"+live.id, func() {
		// In the server's goroutine: report, do not stop the test from here.
		b := lr.Transfer.BlockNumber
		if err := e.svc.ApplySeen(context.Background(), cashier.ChainETH, b, b+3, []orders.Received{lr}); err != nil {
			t.Error(err)
		}
	}))
	defer liveSrv.Close()
	live.payURL = liveSrv.URL + "/pay/" + live.id
	p = look("confirming", live, 1500*time.Millisecond)
	if p.attr("data-state") != pageConfirming || !strings.Contains(p.text("state-title"), "confirming 4/12") || p.shown("cancel") {
		t.Fatalf("page after the payment was seen:\n%s", p.dom)
	}

	// Underpaid: what is left.
	under := e.pageOrder(t, "PG-UNDER", "25.50", "")
	ur := under.transfer("USDT", "20")
	e.seen(t, ur, 1)
	e.confirmed(t, ur)
	p = look("underpaid", under, 1500*time.Millisecond)
	if p.attr("data-state") != pageUnderpaid || !strings.Contains(p.text("state-detail"), "remaining 5.50 USDT") || !p.shown("pay-box") {
		t.Fatalf("underpaid page:\n%s", p.dom)
	}

	// Paid: the page says so, then returns to the merchant without telling
	// it the page's URL.
	paid := e.pageOrder(t, "PG-PAID", "25.50", shopURL)
	pr := paid.transfer("USDT", "25.50")
	e.seen(t, pr, 1)
	e.confirmed(t, pr)
	p = look("paid", paid, 1000*time.Millisecond)
	if p.attr("data-state") != pagePaid || p.text("state-title") != "Paid" || p.shown("pay-box") || p.shown("cancel") {
		t.Fatalf("paid page:\n%s", p.dom)
	}
	p = view(t, paid.payURL, phoneW, phoneH, 8*time.Second, "")
	if !strings.Contains(p.dom, "Thank you from Acme") {
		t.Fatalf("the paid page did not return to the merchant:\n%s", p.dom)
	}
	mu.Lock()
	for _, r := range referers {
		if r != "" {
			t.Fatalf("the merchant's page got Referer %q", r)
		}
	}
	if len(referers) == 0 {
		t.Fatal("the merchant's page was never asked for")
	}
	mu.Unlock()

	// Cancelled.
	cancelled := e.pageOrder(t, "PG-CANCEL", "3", "")
	if _, err := e.svc.CancelCollection(ctx, cancelled.id); err != nil {
		t.Fatal(err)
	}
	p = look("cancelled", cancelled, 1000*time.Millisecond)
	if p.attr("data-state") != pageCancelled || p.shown("pay-box") || p.shown("cancel") || p.text("state-title") != "Cancelled" {
		t.Fatalf("cancelled page:\n%s", p.dom)
	}

	// Chinese: from the browser's language, and by the page's switch (?lang).
	p = look("waiting-zh", waiting, 1500*time.Millisecond, "--lang=zh-CN", "--accept-lang=zh-CN")
	if !strings.Contains(p.dom, `lang="zh-CN"`) || p.text("state-title") != "等待付款" || p.text("lang") != "English" {
		t.Fatalf("Chinese page:\n%s", p.dom)
	}
	p = view(t, waiting.payURL+"?lang=zh", phoneW, phoneH, 1500*time.Millisecond, "")
	if p.text("state-title") != "等待付款" || !strings.Contains(p.dom, "收款地址") {
		t.Fatalf("page with lang=zh:\n%s", p.dom)
	}

	// Expired and late: the clock passes the expiry of every open order.
	expired := e.pageOrder(t, "PG-EXPIRED", "4", "")
	lateOrder := e.pageOrder(t, "PG-LATE", "4", "")
	e.clock.Advance(31 * time.Minute)
	e.scannedToNow(t)
	if _, err := e.svc.ExpireDue(ctx, 100); err != nil {
		t.Fatal(err)
	}
	p = look("expired", expired, 1000*time.Millisecond)
	if p.attr("data-state") != pageExpired || p.shown("pay-box") || p.shown("cancel") || p.text("state-title") != "Expired" {
		t.Fatalf("expired page:\n%s", p.dom)
	}
	lt := lateOrder.transfer("USDT", "4")
	e.seen(t, lt, 1)
	e.confirmed(t, lt)
	p = look("late-paid", lateOrder, 1000*time.Millisecond)
	if p.attr("data-state") != pagePaid || !strings.Contains(p.text("state-detail"), "after the time ran out") {
		t.Fatalf("late payment page:\n%s", p.dom)
	}
	short := e.pageOrder(t, "PG-LATE-SHORT", "4", "")
	e.clock.Advance(31 * time.Minute)
	e.scannedToNow(t)
	if _, err := e.svc.ExpireDue(ctx, 100); err != nil {
		t.Fatal(err)
	}
	sr := short.transfer("USDT", "1")
	e.seen(t, sr, 1)
	e.confirmed(t, sr)
	p = look("late", short, 1000*time.Millisecond)
	if p.attr("data-state") != pageLate || p.text("state-title") != "Late payment received" {
		t.Fatalf("late short payment page:\n%s", p.dom)
	}
	t.Logf("screenshots in %s", dir)
}

// afterPage runs fn once, right after the page at path has been served, so
// a change reaches the page only through its live status.
func afterPage(h http.Handler, path string, fn func()) http.Handler {
	var once sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.URL.Path == path {
			once.Do(fn)
		}
	})
}

// The progress bar counts to the confirmation count, or, at the finalized
// block, to the chain's present distance from head to finalized block.
func TestRequiredConfirmations(t *testing.T) {
	for _, c := range []struct {
		n    cashier.Network
		cur  cashier.ChainCursor
		want uint64
	}{
		{cashier.Network{Confirmations: 12}, cashier.ChainCursor{Head: 100, Confirmed: 89}, 12},
		{cashier.Network{Confirmations: 0}, cashier.ChainCursor{Head: 100, Confirmed: 100}, 1},
		{cashier.Network{Confirmations: 12, Finalized: true}, cashier.ChainCursor{Head: 100, Confirmed: 36}, 65},
		{cashier.Network{Confirmations: 12, Finalized: true}, cashier.ChainCursor{Head: 100, Confirmed: 100}, 1},
		// Nothing known yet: the configured count.
		{cashier.Network{Confirmations: 12, Finalized: true}, cashier.ChainCursor{}, 12},
	} {
		if got := requiredConfirmations(c.n, c.cur); got != c.want {
			t.Errorf("%+v at %+v: %d, want %d", c.n, c.cur, got, c.want)
		}
	}
}
