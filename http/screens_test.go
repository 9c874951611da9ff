package http

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Every state of the payment page in light and dark, English and Chinese,
// phone and desktop, under $CASHIER_ARTIFACTS/cashier-page/states; each
// shot checks the state, language and theme it claims, and that a phone
// never scrolls sideways.
func TestPageStatesScreenshots(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	dir := filepath.Join(artifacts(t), "states")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type shotCase struct {
		name, state string
		po          *pageOrder
	}
	var cases []shotCase
	add := func(name, state string, po *pageOrder) { cases = append(cases, shotCase{name, state, po}) }
	add("waiting", pageWaiting, e.pageOrder(t, "SHOT-WAIT", "25.50", "https://shop.example/done"))
	under := e.pageOrder(t, "SHOT-UNDER", "40", "")
	r := under.transfer("USDT", "10")
	e.seen(t, r, 1)
	e.confirmed(t, r)
	add("underpaid", pageUnderpaid, under)
	conf := e.pageOrder(t, "SHOT-CONF", "40", "")
	e.seen(t, conf.transfer("USDT", "40"), 3)
	add("confirming", pageConfirming, conf)
	paid := e.pageOrder(t, "SHOT-PAID", "40", "https://shop.example/done")
	pr := paid.transfer("USDT", "40")
	e.seen(t, pr, 1)
	e.confirmed(t, pr)
	add("paid", pagePaid, paid)
	over := e.pageOrder(t, "SHOT-OVER", "5", "")
	or := over.transfer("USDT", "7")
	e.seen(t, or, 1)
	e.confirmed(t, or)
	add("overpaid", pagePaid, over)
	canc := e.pageOrder(t, "SHOT-CANCEL", "5", "")
	if _, err := e.svc.CancelCollection(ctx, canc.id); err != nil {
		t.Fatal(err)
	}
	add("cancelled", pageCancelled, canc)
	after := e.pageOrder(t, "SHOT-AFTER", "5", "")
	if _, err := e.svc.CancelCollection(ctx, after.id); err != nil {
		t.Fatal(err)
	}
	ar := after.transfer("USDT", "5")
	e.seen(t, ar, 1)
	e.confirmed(t, ar)
	add("paid-after-cancel", pageCancelled, after)
	exp := e.pageOrder(t, "SHOT-EXP", "5", "")
	// A browser-created order without chainId and currency: the customer
	// chooses the network and token first.
	e.allowOrigins(t, shopOrigin)
	ch := e.sdkOrder(t, shopOrigin, map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "25.50", "orderToken": orderToken("SHOT-CHOOSE", "25.50")})
	if !ch.body.Success {
		t.Fatalf("open order: %+v", ch)
	}
	add("choose", pageChoose, &pageOrder{no: "SHOT-CHOOSE", id: ch.body.Data.OrderID, payURL: ch.body.Data.PayURL})

	b := newSDKBrowser(t, dir)
	shootAll := func(cases []shotCase) {
		for _, c := range cases {
			for _, theme := range []string{"light", "dark"} {
				for _, lang := range []string{"en-US", "zh-CN"} {
					for _, dev := range []struct {
						name string
						w, h int64
					}{{"phone", 375, 812}, {"desktop", 1280, 900}} {
						name := fmt.Sprintf("%s-%s-%s-%s", c.name, theme, lang, dev.name)
						var got []string
						b.run(name, chromedp.EmulateViewport(dev.w, dev.h), chromedp.Navigate(c.po.payURL+"?lang="+lang+"&theme="+theme),
							chromedp.WaitVisible("#state-title", chromedp.ByQuery),
							// rendered from the status answer (a fixed pause was too short under -race)
							chromedp.WaitReady("#cashier[data-fits]", chromedp.ByQuery), chromedp.Sleep(100*time.Millisecond),
							chromedp.Evaluate(`[document.getElementById("cashier").getAttribute("data-state"), document.documentElement.lang,
							document.body.className, document.getElementById("cashier").getAttribute("data-fits") || ""]`, &got))
						wantLang := map[string]string{"en-US": "en", "zh-CN": "zh-CN"}[lang]
						if len(got) != 4 || got[0] != c.state || got[1] != wantLang || got[2] != "theme-"+theme || (dev.name == "phone" && got[3] != "yes") {
							t.Fatalf("%s: state, lang, theme, fits = %q", name, got)
						}
						b.shot(name, dev.w, dev.h)
					}
				}
			}
		}
	}
	shootAll(cases)
	// Then the time runs out.
	e.clock.Advance(31 * time.Minute)
	if _, err := e.svc.ExpireDue(ctx, 100); err != nil {
		t.Fatal(err)
	}
	shootAll([]shotCase{{"expired", pageExpired, exp}})
	t.Logf("%d screenshots in %s", (len(cases)+1)*8, dir)
}
