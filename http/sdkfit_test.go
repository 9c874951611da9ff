package http

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// fitPage is a merchant's phone checkout: text above and below the
// widget, the script included without apiKey (init's options carry it, as
// the provider's integration pages do), no chainId (the customer chooses).
const fitPage = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
<style>body{margin:0;font:16px sans-serif}.tall{height:700px;background:#eee}</style></head>
<body><div class="tall">Acme checkout</div><div id="pay"></div><div class="tall">More from the shop</div>
<script src="%s/libs/v2/cashier.umd.js"></script>
<script>
window.results = [];
var q = new URLSearchParams(location.search);
var opts = {cashierId: q.get("cashierId"), amount: "12.00", symbol: "USDT", orderNo: q.get("orderNo"),
  callback: function (r) { window.results.push(r); }};
if (q.get("apiKey")) opts.apiKey = q.get("apiKey");
if (q.get("orderToken")) opts.orderToken = q.get("orderToken");
window.handle = Cashier.init(document.getElementById("pay"), opts);
</script></body></html>`

// The widget on a phone: init takes apiKey from its options when the
// script URL has none (and without either says so); the iframe takes the
// height of the page inside it rather than a fixed 640 px; after the
// customer chooses a network, the merchant's page scrolls so the amount
// and "Send exactly…" are on screen; once paid the amount is headed
// "Paid". Screenshots of each step at phone size.
func TestSDKFitsPhoneInBrowser(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	dir := filepath.Join(artifacts(t), "sdk")
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, fitPage, e.srv.URL)
	}))
	defer shop.Close()
	e.allowOrigins(t, shop.URL)
	b := newSDKBrowser(t, dir)
	b.run("phone viewport", chromedp.EmulateViewport(375, 812))

	// No apiKey anywhere: the parameter error names both places.
	b.run("open without a key", chromedp.Navigate(shop.URL+"/?cashierId="+cashierID+"&orderNo=FIT-NOKEY"))
	if got := b.results(1); !strings.Contains(got, `"code":1001`) || !strings.Contains(got, "apiKey") {
		t.Fatalf("callback without any apiKey: %s", got)
	}

	b.run("open the shop", chromedp.Navigate(shop.URL+"/?cashierId="+cashierID+"&orderNo=FIT-1&apiKey="+apiKey+
		"&orderToken="+url.QueryEscape(orderToken("FIT-1", "12.00"))),
		chromedp.WaitVisible("#pay iframe", chromedp.ByQuery))
	b.waitFrame(pageChoose)
	frameHeight := func() int {
		var h float64
		b.run("frame height", chromedp.Evaluate(`document.querySelector("#pay iframe").getBoundingClientRect().height`, &h))
		return int(h + 0.5)
	}
	fits := func(state string) int {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			inner, _ := strconv.Atoi(b.AttrInFrame("#pay iframe", "#cashier", "data-height"))
			h := frameHeight()
			if inner > 0 && h == inner {
				return h
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the iframe is %d px high, its page %d px", state, h, inner)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	chooseHeight := fits("choosing")
	b.shot("sdk-fit-choose-phone", 375, 812)

	// The customer scrolls down to the choices, the amount above the
	// screen, and picks Ethereum.
	var choiceTop float64
	b.inFrame("#pay iframe", func(n *cdp.Node) chromedp.Action {
		return chromedp.JavascriptAttribute(`#choose .choice[data-chain="ETH"]`, "offsetTop", &choiceTop, chromedp.ByQuery, chromedp.FromNode(n))
	})
	if choiceTop < 200 {
		choiceTop = 300
	}
	b.run("scroll to the choices", chromedp.Evaluate(fmt.Sprintf(`window.scrollTo(0, document.querySelector("#pay iframe").getBoundingClientRect().top + window.scrollY + %d)`, int(choiceTop)-40), nil))
	if !b.inFrame("#pay iframe", func(n *cdp.Node) chromedp.Action {
		return chromedp.Click(`#choose .choice[data-chain="ETH"]`, chromedp.ByQuery, chromedp.FromNode(n))
	}) {
		t.Fatal("could not choose Ethereum in the iframe")
	}
	b.waitFrame(pageWaiting)
	b.WaitAttrInFrame("#pay iframe", "#cashier", "data-shown", "amount", 10*time.Second)
	waitingHeight := fits("waiting")
	if waitingHeight == chooseHeight || waitingHeight == 640 {
		t.Fatalf("iframe %d px choosing, %d px waiting: not sized to its page", chooseHeight, waitingHeight)
	}
	// What the customer sees: the amount and the "Send exactly…" line lie
	// inside the phone's screen.
	var box struct{ Top, Height, Inner float64 }
	b.run("where the frame is", chromedp.Evaluate(`(function(){var r=document.querySelector("#pay iframe").getBoundingClientRect();
		return {Top: r.top, Height: r.height, Inner: window.innerHeight};})()`, &box))
	amountTop, _ := strconv.Atoi(b.AttrInFrame("#pay iframe", "#cashier", "data-amount-top"))
	detailBottom, _ := strconv.Atoi(b.AttrInFrame("#pay iframe", "#cashier", "data-detail-bottom"))
	if detailBottom == 0 || box.Top+float64(amountTop) < -1 || box.Top+float64(detailBottom) > box.Inner {
		t.Fatalf("after the choice the amount (%v px) and its detail (%v px) are not on the %v px screen",
			box.Top+float64(amountTop), box.Top+float64(detailBottom), box.Inner)
	}
	if got := b.TextInFrame("#pay iframe", "#state-detail"); !strings.Contains(got, "Send exactly 12.00 USDT") {
		t.Fatalf("detail: %q", got)
	}
	b.shot("sdk-fit-chosen-phone", 375, 812)

	// Paid: the amount is headed "Paid".
	o, err := e.store.CollectionByOrderNo(ctx, "m_1", "FIT-1")
	if err != nil {
		t.Fatal(err)
	}
	po := &pageOrder{no: "FIT-1", id: o.ID, address: o.DepositAddress}
	r := po.transfer("USDT", "12")
	e.seen(t, r, 1)
	e.confirmed(t, r)
	b.waitFrame(pagePaid)
	if got := b.TextInFrame("#pay iframe", "#amount-label"); got != "Paid" {
		t.Fatalf("paid page's amount heading: %q", got)
	}
	if got := b.results(1); !strings.Contains(got, `"type":"finish"`) {
		t.Fatalf("callback: %s", got)
	}
	fits("paid")
	b.shot("sdk-fit-paid-phone", 375, 812)
}
