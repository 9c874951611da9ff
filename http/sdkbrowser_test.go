package http

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/http/pagetest"
	"github.com/stablecashier/cashier/orders"
)

// merchantPage is the merchant's checkout page on its own origin: it
// includes the SDK and calls init with the options of its query, and
// keeps every callback result in window.results.
const merchantPage = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head>
<body><h1>Acme checkout</h1><div id="pay"></div>
<script src="%s/libs/v2/cashier.umd.js?apiKey=%s"></script>
<script>
window.results = [];
var q = new URLSearchParams(location.search);
var opts = {cashierId: q.get("cashierId"), amount: q.get("amount"), symbol: "USDT", chainId: q.get("chainId") || "ETH",
  lang: q.get("lang") || "en-US", theme: q.get("theme") || "light",
  callback: function (r) { window.results.push(r); }};
if (q.get("orderNo")) opts.orderNo = q.get("orderNo");
if (q.get("orderToken")) opts.orderToken = q.get("orderToken");
window.handle = Cashier.init(document.getElementById("pay"), opts);
</script></body></html>`

// sdkBrowser is the shared page driver (pagetest) with the iframe of the
// merchant page at frameSel ("#pay iframe" when empty).
type sdkBrowser struct {
	*pagetest.Browser
	frameSel string
}

func newSDKBrowser(t *testing.T, dir string, opts ...chromedp.ExecAllocatorOption) *sdkBrowser {
	return &sdkBrowser{Browser: pagetest.Start(t, dir, opts...)}
}

func (b *sdkBrowser) frame() string {
	if b.frameSel == "" {
		return "#pay iframe"
	}
	return b.frameSel
}

func (b *sdkBrowser) run(what string, actions ...chromedp.Action) {
	b.T.Helper()
	b.Run(what, actions...)
}

func (b *sdkBrowser) inFrame(sel string, act func(*cdp.Node) chromedp.Action) bool {
	b.T.Helper()
	return b.InFrame(sel, act)
}

func (b *sdkBrowser) frameState() string { b.T.Helper(); return b.FrameState(b.frame()) }

func (b *sdkBrowser) waitFrame(want string) {
	b.T.Helper()
	b.WaitFrame(b.frame(), want, 20*time.Second)
}

// results waits for n callback results and returns them as JSON text.
func (b *sdkBrowser) results(n int) string { b.T.Helper(); return b.Results(n, 20*time.Second) }

func (b *sdkBrowser) shot(name string, w, h int64) { b.T.Helper(); b.Shot(name, w, h) }

// The widget SDK in a real browser: a merchant page on another origin
// includes the script and calls init; the cashier opens in an iframe; the
// customer's cancel reaches the callback as cancel, a completed payment as
// finish with the order's txId; an origin not listed gets an error and no
// order; the provider's documented three-step page works under the brand
// BlockATM with only the script host changed. Screenshots of the embedded
// states in light and dark, English and Chinese, phone and desktop.
func TestSDKInBrowser(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.HeaderPrefix = "BlockATM" })
	ctx := context.Background()
	dir := filepath.Join(artifacts(t), "sdk")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	threeStep, err := os.ReadFile("testdata/widget-sdk-three-step.html")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/checkout":
			fmt.Fprintf(w, merchantPage, e.srv.URL, apiKey)
		case "/three-step":
			mu.Lock()
			defer mu.Unlock()
			page := strings.NewReplacer("{{SCRIPT_HOST}}", e.srv.URL, "{{API_KEY}}", apiKey, "{{CASHIER_ID}}", cashierID).Replace(string(threeStep))
			fmt.Fprint(w, page)
		default:
			http.NotFound(w, r)
		}
	}))
	defer shop.Close()
	// Another origin than the service: the same host on another port (the
	// same site, so the test can read inside the iframe).
	shopURL := shop.URL
	e.allowOrigins(t, shopURL)

	b := newSDKBrowser(t, dir)

	order := func(no string) *pageOrder {
		t.Helper()
		o, err := e.store.CollectionByOrderNo(ctx, "m_1", no)
		if err != nil {
			t.Fatal(err)
		}
		return &pageOrder{no: no, id: o.ID, address: o.DepositAddress}
	}
	// The merchant's server signs its own order numbers for the page.
	open := func(q string) {
		qs, _ := url.ParseQuery(q)
		if no := qs.Get("orderNo"); no != "" {
			q += "&orderToken=" + url.QueryEscape(orderToken(no, qs.Get("amount")))
		}
		b.run("open the merchant page", chromedp.Navigate(shopURL+"/checkout?cashierId="+cashierID+"&"+q),
			chromedp.WaitVisible("#pay iframe", chromedp.ByQuery))
	}

	// 1. Cancel: the customer's click in the iframe; the callback says cancel.
	open("amount=12.50&orderNo=SDK-CANCEL")
	b.waitFrame(pageWaiting)
	b.shot("sdk-waiting-en-light-desktop", 1280, 900)
	if !b.inFrame("#pay iframe", func(n *cdp.Node) chromedp.Action {
		return chromedp.Click("#cancel", chromedp.ByQuery, chromedp.FromNode(n))
	}) {
		t.Fatal("could not click cancel in the iframe")
	}
	if got := b.results(1); got != `[{"type":"cancel"}]` {
		t.Fatalf("callback after cancel: %s", got)
	}
	b.waitFrame(pageCancelled)
	b.shot("sdk-cancelled-en-light-desktop", 1280, 900)
	if o, _ := e.store.CollectionByOrderNo(ctx, "m_1", "SDK-CANCEL"); o.Status != cashier.CollectionCancelled || o.Origin != shopURL {
		t.Fatalf("cancelled order: %+v", o)
	}
	// A reload of the merchant's page in the same browser: the same order
	// (its resumeToken kept by the SDK in this browser).
	open("amount=12.50&orderNo=SDK-CANCEL")
	b.waitFrame(pageCancelled)
	// The page's own number without the merchant's signature: refused, no
	// order, no iframe.
	b.run("open the merchant page unsigned", chromedp.Navigate(shopURL+"/checkout?cashierId="+cashierID+"&amount=4&orderNo=SDK-UNSIGNED"))
	if got := b.results(1); !strings.Contains(got, `"code":1003`) {
		t.Fatalf("callback for an unsigned orderNo: %s", got)
	}
	if _, err := e.store.CollectionByOrderNo(ctx, "m_1", "SDK-UNSIGNED"); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("an unsigned orderNo was created: %v", err)
	}

	// 2. Paid: a partial payment first (the iframe asks for the rest), then
	// the rest; the callback says finish with the order's txId.
	open("amount=20&orderNo=SDK-PAY&lang=zh-CN&theme=dark")
	b.waitFrame(pageWaiting)
	b.shot("sdk-waiting-zh-dark-phone", 375, 812)
	po := order("SDK-PAY")
	r1 := po.transfer("USDT", "5")
	e.seen(t, r1, 1)
	e.confirmed(t, r1)
	b.waitFrame(pageUnderpaid)
	var amount string
	b.inFrame("#pay iframe", func(n *cdp.Node) chromedp.Action {
		return chromedp.Text("#amount", &amount, chromedp.ByQuery, chromedp.FromNode(n))
	})
	if amount != "15.00" {
		t.Fatalf("amount shown after 5 of 20: %q", amount)
	}
	b.shot("sdk-underpaid-zh-dark-phone", 375, 812)
	b.shot("sdk-underpaid-zh-dark-desktop", 1280, 900)
	r2 := po.transfer("USDT", "15")
	e.seen(t, r2, 2)
	b.waitFrame(pageConfirming)
	b.shot("sdk-confirming-zh-dark-phone", 375, 812)
	e.confirmed(t, r2)
	want := fmt.Sprintf(`[{"type":"finish","data":{"orderNo":"SDK-PAY","txId":"%s","status":"SUCCESS"}}]`, r2.Transfer.TxHash)
	if got := b.results(1); got != want {
		t.Fatalf("callback after payment: %s, want %s", got, want)
	}
	b.shot("sdk-paid-zh-dark-phone", 375, 812)
	b.shot("sdk-paid-zh-dark-desktop", 1280, 900)

	// 3. An origin not listed: an error to the callback, no order, no iframe.
	e.allowOrigins(t, "https://elsewhere.example")
	open0 := shopURL + "/checkout?cashierId=" + cashierID + "&amount=3&orderNo=SDK-REFUSED"
	b.run("open the merchant page", chromedp.Navigate(open0))
	got := b.results(1)
	if !strings.Contains(got, `"type":"error"`) || !strings.Contains(got, `"code":1005`) {
		t.Fatalf("callback on a refused origin: %s", got)
	}
	var n int
	b.run("count iframes", chromedp.Evaluate(`document.querySelectorAll("#pay iframe").length`, &n))
	if _, err := e.store.CollectionByOrderNo(ctx, "m_1", "SDK-REFUSED"); cashier.ErrorCode(err) != cashier.ENotFound || n != 0 {
		t.Fatalf("refused origin: order lookup %v, %d iframes", err, n)
	}
	e.allowOrigins(t, shopURL)

	// 4. The provider's three-step page, unchanged but for the script host.
	b.run("open the three-step page", chromedp.Navigate(shopURL+"/three-step"), chromedp.WaitVisible("#cashier-container iframe", chromedp.ByQuery))
	var orderNo string
	deadline := time.Now().Add(20 * time.Second)
	for orderNo == "" {
		b.inFrame("#cashier-container iframe", func(n *cdp.Node) chromedp.Action {
			return chromedp.Text("#order-no", &orderNo, chromedp.ByQuery, chromedp.FromNode(n))
		})
		if time.Now().After(deadline) {
			t.Fatal("no order in the three-step page")
		}
	}
	// No chainId: the customer chooses the network first; no address
	// before that.
	b.frameSel = "#cashier-container iframe"
	b.waitFrame(pageChoose)
	b.shot("sdk-three-step-choose-en-light-desktop", 1280, 900)
	if o := order(orderNo); o.address != "" {
		t.Fatalf("an address before the choice: %+v", o)
	}
	if !b.inFrame("#cashier-container iframe", func(n *cdp.Node) chromedp.Action {
		return chromedp.Click(`#choose .choice[data-chain="TRON"]`, chromedp.ByQuery, chromedp.FromNode(n))
	}) {
		t.Fatal("could not choose TRON in the iframe")
	}
	b.waitFrame(pageWaiting)
	b.shot("sdk-three-step-en-light-desktop", 1280, 900)
	tp := order(orderNo)
	o, _ := e.store.Collection(ctx, tp.id)
	if o.Chain != cashier.ChainTRON || o.Origin != shopURL || cashier.FormatAmount(o.Amount, o.Decimals) != "100.00" || o.DepositAddress == "" || o.Choose != "chain" {
		t.Fatalf("three-step order: %+v", o)
	}
	// Paid on TRON: the stand-in records of the env's store.
	tr := tp.transfer("USDT", "100")
	tr.Transfer.Chain = cashier.ChainTRON
	tr.Transfer.Token = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
	if err := e.svc.ApplySeen(ctx, cashier.ChainTRON, tr.Transfer.BlockNumber, tr.Transfer.BlockNumber, nil); err != nil {
		t.Fatal(err)
	}
	cur := cashier.ChainCursor{Confirmed: tr.Transfer.BlockNumber, ConfirmedHash: tr.Transfer.BlockHash, Head: tr.Transfer.BlockNumber + 30}
	if err := e.svc.ApplyConfirmed(ctx, cashier.ChainTRON, tr.Transfer.BlockNumber, tr.Transfer.BlockNumber, []orders.Received{tr}, cur); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(20 * time.Second)
	for {
		done := b.Console()
		if strings.Contains(done, "Payment completed:") && strings.Contains(done, orderNo) && strings.Contains(done, tr.Transfer.TxHash) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the three-step page's callback never logged the finish; console:\n%s", done)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("screenshots in %s", dir)
}

// browserDir is a profile directory for a driven Chromium. It is removed
// after the test as far as possible: the browser may still be writing to
// it while it exits, which must not fail the test.
func browserDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "cashier-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
