package dashboard_test

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/browsertest"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/orders"
)

// startBrowser starts headless Chromium at a phone's width, as
// TestDashboardInBrowser does, with clipboard access granted (the copy
// buttons are checked by reading the clipboard back). Every JavaScript
// question (window.confirm) is answered OK and its text kept.
func startBrowser(t *testing.T, ctx context.Context, base string) (*browser, func() []string) {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browsertest.Chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(browsertest.ProfileDir(t)),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(412, 915))
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(func(f string, a ...any) {
		if msg := fmt.Sprintf(f, a...); !strings.Contains(msg, "could not unmarshal event") && !strings.Contains(msg, "unhandled node event") {
			t.Logf(f, a...)
		}
	}))
	t.Cleanup(cancelBrowser)
	if err := chromedp.Run(bctx); err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		dialogs []string
	)
	chromedp.ListenTarget(bctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			mu.Lock()
			dialogs = append(dialogs, d.Message)
			mu.Unlock()
			go chromedp.Run(bctx, page.HandleJavaScriptDialog(true))
		}
	})
	b := &browser{t: t, ctx: bctx, base: base, shot: artifacts(t)}
	b.run("clipboard permission", chromedp.ActionFunc(func(ctx context.Context) error {
		return cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{cdpbrowser.PermissionTypeClipboardReadWrite,
			cdpbrowser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(base).Do(ctx)
	}))
	return b, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), dialogs...)
	}
}

// eval runs a script in the page and stores its result in out.
func (b *browser) eval(what, js string, out any) {
	b.t.Helper()
	b.run(what, chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
}

// signInAs signs in through the form.
func (b *browser) signInAs(email, password string) {
	b.t.Helper()
	b.run("sign in", chromedp.Navigate(b.base+"/dashboard/signin"), chromedp.WaitVisible("#signin-form", chromedp.ByQuery),
		chromedp.SendKeys("#email", email, chromedp.ByQuery), chromedp.SendKeys("#password", password, chromedp.ByQuery),
		chromedp.Click("#signin", chromedp.ByQuery), chromedp.WaitVisible("#awaiting", chromedp.ByQuery))
}

// The review queue, its confirmation, the pool figures, the refusal form
// and the refund action, in a browser at a phone's width against the
// sandbox's chains:
//   - the queue and the confirm dialog show the recipient whole, in
//     monospace text that wraps, with a copy button that copies it;
//   - the pool's available / locked / balance on Review are the figures of
//     the Balances page, the Integration page, the dashboard's JSON API
//     and the merchant API's balance, for the same contract;
//   - the refusal reason's limit is the server's, and a refusal the server
//     refuses comes back to the form with the message and what was typed;
//   - a paid collection's page refunds to an address (the review policy
//     holds the refund's payout for review, as for an API refund) or by a
//     refund link, and a refund beyond what was received comes back to
//     the form with the reason.
func TestReviewAndRefundInBrowser(t *testing.T) {
	ctx := context.Background()
	sb, e := newSandboxEnv(t)
	info := sb.Info
	st := sb.Service.Store
	base := e.srv.URL
	if _, err := sb.Service.Orders.SetReviewPolicy(ctx, info.MerchantID, cashier.ReviewAlways, ""); err != nil {
		t.Fatal(err)
	}
	m, _ := st.Merchant(ctx, info.MerchantID)
	const full = "0x2222222222222222222222222222222222222222"
	create := func(no, amount, recipient string) *cashier.PayoutOrder {
		t.Helper()
		o, err := sb.Service.Orders.CreatePayout(ctx, m, orders.PayoutRequest{ContractID: info.ContractIDs["ETH"], OrderNo: no,
			Recipient: recipient, Amount: amount, Symbol: "USDT", PayoutType: 1})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	p1 := create("FULL-1", "40.00", full)
	p2 := create("FULL-2", "4.00", "0x3333333333333333333333333333333333333333")
	e.addUser("owner@review.example", info.MerchantID, "owner", false)
	b, asked := startBrowser(t, ctx, base)
	b.signInAs("owner@review.example", testPassword)

	// 10: the whole recipient in the queue, selectable monospace that
	// wraps in its cell, and a copy button that copies it.
	b.run("review", chromedp.Navigate(base+"/dashboard/review"), chromedp.WaitVisible("#pick-FULL-1", chromedp.ByQuery))
	row := `#review-list tr[data-order="FULL-1"]`
	var shown struct {
		Text, Font, Select string
		Inside             bool
	}
	b.eval("recipient cell", `(() => { const c = document.querySelector('`+row+` code.addr'); const s = getComputedStyle(c);
		const r = c.getBoundingClientRect(), cell = c.closest("td").getBoundingClientRect();
		return {text: c.textContent, font: s.fontFamily, select: s.userSelect,
			inside: r.left >= cell.left - 1 && r.right <= cell.right + 1 && c.scrollWidth <= c.clientWidth + 1}; })()`, &shown)
	if shown.Text != full || !strings.Contains(strings.ToLower(shown.Font), "mono") || shown.Select != "all" || !shown.Inside {
		t.Fatalf("the queue shows the recipient as %+v, want %s whole, monospace, selectable as one, inside its cell", shown, full)
	}
	b.screenshot("review-10-queue-full-address")
	b.run("copy", chromedp.Click(row+" button.copy", chromedp.ByQuery), chromedp.WaitVisible(row+" button.copy.copied", chromedp.ByQuery))
	var clip string
	b.eval("read clipboard", `navigator.clipboard.readText()`, &clip)
	if clip != full {
		t.Fatalf("the copy button copied %q, want %s", clip, full)
	}

	// The confirm dialog lists the selection with whole recipients;
	// cancelling approves nothing.
	b.run("approve asks", chromedp.Click("#pick-FULL-1", chromedp.ByQuery), chromedp.Click("#approve", chromedp.ByQuery),
		chromedp.WaitVisible("#review-confirm", chromedp.ByQuery))
	var dlg struct {
		Title string
		Addrs []string
	}
	b.eval("dialog", `({title: document.getElementById("confirm-title").textContent,
		addrs: [...document.querySelectorAll("#confirm-list code.addr")].map(c => c.textContent)})`, &dlg)
	if !strings.Contains(dlg.Title, "Approve 1 payout") || len(dlg.Addrs) != 1 || dlg.Addrs[0] != full || !b.exists("#confirm-list button.copy") {
		t.Fatalf("the confirm dialog shows %+v, want the approval of FULL-1 to %s with a copy button", dlg, full)
	}
	b.screenshot("review-10-confirm-dialog")
	b.run("cancel", chromedp.Click("#confirm-cancel", chromedp.ByQuery), chromedp.WaitNotVisible("#review-confirm", chromedp.ByQuery))
	if o, _ := st.Payout(ctx, p1.ID); !o.NeedsReview {
		t.Fatal("a cancelled approval approved")
	}

	// 11: one set of figures for the contract's USDT on every page.
	fig := func(sel string) string { return b.text(row + " " + sel) }
	rev := []string{fig(".pool-available"), fig(".pool-locked"), fig(".pool-balance")}
	wantLocked := new(big.Int)
	for _, o := range []*cashier.PayoutOrder{p1, p2} {
		wantLocked.Add(wantLocked, new(big.Int).Add(o.Amount, o.Fee))
	}
	if rev[1] != cashier.FormatAmount(wantLocked, 6) {
		t.Errorf("Review's pool locks %s, the pending payouts (awaiting review) hold %s", rev[1], cashier.FormatAmount(wantLocked, 6))
	}
	var scrolled bool
	b.eval("show the pool column", `(document.querySelector("#review-list").parentElement.scrollLeft = 10000) > 0`, &scrolled)
	b.screenshot("review-11-pool")
	b.run("balances", chromedp.Navigate(base+"/dashboard/holdings"), chromedp.WaitVisible("#balance-list", chromedp.ByQuery))
	var hold []string
	b.eval("balances row", `(() => { for (const tr of document.querySelectorAll("#balance-list tr")) { const td = [...tr.children].map(c => c.textContent.trim());
		if (td[0] === "ETH" && td[1] === "USDT") return [td[5], td[4], td[3]]; } return []; })()`, &hold)
	b.screenshot("review-11-balances")
	b.run("integration", chromedp.Navigate(base+"/dashboard/integration"), chromedp.WaitVisible("#merchant-status", chromedp.ByQuery))
	var integ []string
	b.eval("integration row", `(() => { const r = document.querySelector('#balances-`+info.ContractIDs["ETH"]+` tr.balance-USDT');
		return r ? ["available", "locked", "balance"].map(c => r.querySelector("td." + c).textContent.trim()) : []; })()`, &integ)
	var q struct {
		Data struct{ List []map[string]any } `json:"data"`
	}
	owner := e.signIn("owner@review.example")
	owner.getJSON("/dashboard/api/review", &q)
	var jsonPool []string
	for _, o := range q.Data.List {
		if o["orderNo"] == "FULL-1" {
			p := o["pool"].(map[string]any)
			jsonPool = []string{fmt.Sprint(p["available"]), fmt.Sprint(p["locked"]), fmt.Sprint(p["balance"])}
		}
	}
	bal, err := client.New(base, info.APIKey, info.SecretKey).Balance(ctx, client.HoldingsFilter{ChainID: "ETH", Symbol: "USDT"})
	if err != nil {
		t.Fatal(err)
	}
	var apiFig []string
	for _, x := range bal.List {
		if x.ContractID == info.ContractIDs["ETH"] {
			apiFig = []string{x.Available, x.Locked, x.OnChain}
		}
	}
	want := fmt.Sprint(rev)
	for name, got := range map[string][]string{"Balances": hold, "Integration": integ, "review JSON": jsonPool, "API balance": apiFig} {
		if fmt.Sprint(got) != want {
			t.Errorf("available/locked/balance: Review says %v, %s says %v", rev, name, got)
		}
	}
	b.screenshot("review-11-integration")

	// 13: the reason field allows what the server takes; a refusal the
	// server refuses comes back to the form with its message and the
	// reason typed. FULL-2 is approved elsewhere while the page is open.
	b.run("review again", chromedp.Navigate(base+"/dashboard/review"), chromedp.WaitVisible("#pick-FULL-2", chromedp.ByQuery))
	var maxLen string
	b.run("reason limit", chromedp.AttributeValue("#reason", "maxlength", &maxLen, nil, chromedp.ByQuery))
	if maxLen != fmt.Sprint(orders.MaxReasonLen) {
		t.Errorf("the reason field allows %s characters, the server %d", maxLen, orders.MaxReasonLen)
	}
	if _, err := sb.Service.Orders.ApprovePayout(ctx, p2.ID); err != nil {
		t.Fatal(err)
	}
	b.run("refuse", chromedp.Click("#pick-FULL-2", chromedp.ByQuery), chromedp.SendKeys("#reason", "duplicate request", chromedp.ByQuery),
		chromedp.Click("#refuse", chromedp.ByQuery), chromedp.WaitVisible("#confirm-ok", chromedp.ByQuery))
	b.run("confirm refuse", chromedp.Click("#confirm-ok", chromedp.ByQuery), chromedp.WaitVisible("#error", chromedp.ByQuery))
	var reason string
	b.run("reason kept", chromedp.Value("#reason", &reason, chromedp.ByQuery))
	if msg := b.text("#error"); !strings.Contains(msg, "FULL-2") || !strings.Contains(msg, "not waiting for review") ||
		!b.exists("#review-form") || reason != "duplicate request" {
		t.Fatalf("a refused refusal shows %q (form there: %v, reason %q)", msg, b.exists("#review-form"), reason)
	}
	b.screenshot("review-13-refusal-error-on-form")
	// A reason longer than the server takes (put past the field's limit by
	// a script, as a paste tool might) is told on the form too.
	b.run("too long", chromedp.Navigate(base+"/dashboard/review"), chromedp.WaitVisible("#pick-FULL-1", chromedp.ByQuery),
		chromedp.Click("#pick-FULL-1", chromedp.ByQuery),
		chromedp.SetValue("#reason", strings.Repeat("x", orders.MaxReasonLen+1), chromedp.ByQuery),
		chromedp.Click("#refuse", chromedp.ByQuery), chromedp.WaitVisible("#confirm-ok", chromedp.ByQuery),
		chromedp.Click("#confirm-ok", chromedp.ByQuery), chromedp.WaitVisible("#error", chromedp.ByQuery))
	if msg := b.text("#error"); !strings.Contains(msg, fmt.Sprint(orders.MaxReasonLen)) || !b.exists("#pick-FULL-1:checked") {
		t.Fatalf("a too long reason shows %q", msg)
	}
	if o, _ := st.Payout(ctx, p1.ID); o.Status != cashier.PayoutPending || !o.NeedsReview {
		t.Fatalf("a refused refusal changed FULL-1: %s", o.Status)
	}

	// 13: refunds from a paid collection's page.
	co := paidCollection(t, sb.Service.Store, info.MerchantID, info.CashierID, info.Networks["ETH"].Tokens["USDT"], "PAID-1", 20_000_000)
	colURL := base + "/dashboard/collections/" + co.ID
	b.run("collection", chromedp.Navigate(colURL), chromedp.WaitVisible("#refund-form", chromedp.ByQuery))
	var amount string
	b.run("refundable", chromedp.Value("#refund-amount", &amount, chromedp.ByQuery))
	if amount != "20.00" {
		t.Errorf("the refund form offers %q, the order received 20.00", amount)
	}
	b.screenshot("refund-13-form")
	const back = "0x4444444444444444444444444444444444444444"
	n := len(asked())
	b.run("refund to an address", chromedp.SetValue("#refund-amount", "5", chromedp.ByQuery),
		chromedp.SendKeys("#refund-address", back, chromedp.ByQuery), chromedp.SendKeys("#refund-reason", "damaged in transit", chromedp.ByQuery))
	b.run("submit", chromedp.Click("#refund-submit", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	if q := asked(); len(q) != n+1 || !strings.Contains(q[n], "Refund this order") {
		t.Errorf("the refund asked %q", q[n:])
	}
	if msg := b.text("#notice"); !strings.Contains(msg, "Refund created") || !strings.Contains(msg, "waiting for review") {
		t.Errorf("refund notice %q", msg)
	}
	fs, _ := st.Refunds(ctx, cashier.RefundFilter{OrderID: co.ID})
	if len(fs) != 1 || fs[0].Address != back || fs[0].Amount.Int64() != 5_000_000 || fs[0].Reason != "damaged in transit" || fs[0].PayoutID == "" {
		t.Fatalf("refunds stored: %+v", fs)
	}
	// The review policy holds the refund's payout, as it holds an API
	// refund's: it is in the queue with its recipient whole.
	if po, _ := st.Payout(ctx, fs[0].PayoutID); !po.NeedsReview || po.Status != cashier.PayoutPending {
		t.Errorf("the refund's payout does not wait for review: %s %v", po.Status, po.NeedsReview)
	}
	if !strings.Contains(b.text("#refunds"), back) {
		t.Errorf("the refunds table lacks the address: %q", b.text("#refunds"))
	}
	b.screenshot("refund-13-to-address")
	b.run("queue", chromedp.Navigate(base+"/dashboard/review"), chromedp.WaitVisible(`tr[data-order="refund/`+fs[0].RefundNo+`"]`, chromedp.ByQuery))
	if got := b.text(`tr[data-order="refund/` + fs[0].RefundNo + `"] code.addr`); got != back {
		t.Errorf("the refund's payout in the queue goes to %q", got)
	}

	// By link: no address.
	b.run("refund by link", chromedp.Navigate(colURL), chromedp.WaitVisible("#refund-form", chromedp.ByQuery),
		chromedp.SetValue("#refund-amount", "3", chromedp.ByQuery))
	b.run("submit", chromedp.Click("#refund-submit", chromedp.ByQuery), chromedp.WaitVisible("#notice", chromedp.ByQuery))
	// The link is under the service's public URL (the sandbox's own), as
	// the API gives it; fetched here from the served handler.
	link := b.text("#refunds code.refund-link")
	fs, _ = st.Refunds(ctx, cashier.RefundFilter{OrderID: co.ID})
	if len(fs) != 2 || !fs[1].ByLink || link != strings.TrimRight(sb.Service.Config.PublicURL, "/")+"/refund/"+fs[1].ID {
		t.Fatalf("the refund link shown is %q for %+v", link, fs)
	}
	if res, err := http.Get(base + "/refund/" + fs[1].ID); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the refund link answers %v %v", res, err)
	}
	b.screenshot("refund-13-link")

	// More than is left (20 − 5 − 3): back to the form with the reason.
	b.run("too much", chromedp.Navigate(colURL), chromedp.WaitVisible("#refund-form", chromedp.ByQuery),
		chromedp.SetValue("#refund-amount", "12.50", chromedp.ByQuery))
	b.run("submit", chromedp.Click("#refund-submit", chromedp.ByQuery), chromedp.WaitVisible("#refund-error", chromedp.ByQuery))
	b.run("amount kept", chromedp.Value("#refund-amount", &amount, chromedp.ByQuery))
	if msg := b.text("#refund-error"); !strings.Contains(msg, "refundable 12.00") || amount != "12.50" || !b.exists("#refund-form") {
		t.Fatalf("a refund beyond the order shows %q, amount %q", msg, amount)
	}
	b.screenshot("refund-13-error-on-form")
	if fs, _ := st.Refunds(ctx, cashier.RefundFilter{OrderID: co.ID}); len(fs) != 2 {
		t.Fatalf("%d refunds stored, want 2", len(fs))
	}
}

// paidCollection stores a collection order paid in full by one confirmed
// transfer, as the chain watcher records it.
func paidCollection(t *testing.T, st cashier.Store, merchantID, cashierID, token, no string, units int64) *cashier.CollectionOrder {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	o := &cashier.CollectionOrder{ID: "co_" + strings.ToLower(no), MerchantID: merchantID, CashierID: cashierID, OrderNo: no,
		Chain: cashier.ChainETH, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(units), PaidAmount: big.NewInt(units),
		DepositAddress: "0x00000000000000000000000000000000000d0001", Status: cashier.CollectionSuccess,
		TxID: "0x" + strings.Repeat("ab", 32), PayTime: now, CreatedAt: now, UpdatedAt: now, ExpireAt: now.Add(time.Hour)}
	p := &cashier.Payment{Chain: cashier.ChainETH, TxHash: o.TxID, OrderID: o.ID, MerchantID: merchantID, Token: token, Symbol: "USDT",
		Decimals: 6, From: "0x00000000000000000000000000000000000f0001", To: o.DepositAddress, Amount: big.NewInt(units),
		BlockNumber: 1, BlockTime: now, Status: cashier.PaymentConfirmed, Effect: cashier.EffectCredited, SeenAt: now, ConfirmedAt: now, UpdatedAt: now}
	if err := st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, o); err != nil {
			return err
		}
		return tx.CreatePayment(ctx, p)
	}); err != nil {
		t.Fatal(err)
	}
	return o
}

// The overview's volume charts read at a phone's width: each label is
// text of a readable size, no two labels of a chart overlap, and every
// table on the page (the charts' and the per-token volumes') has a header.
func TestOverviewChartsReadable(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil)
	now := time.Now().UTC()
	i := 0
	err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		for day := range 14 {
			for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainARB, cashier.ChainTRON} {
				for _, sym := range []string{"USDT", "USDC"} {
					i++
					at := now.AddDate(0, 0, -day)
					o := &cashier.CollectionOrder{ID: fmt.Sprintf("co_chart%d", i), MerchantID: e.m1.ID, CashierID: e.c1, OrderNo: fmt.Sprintf("CH-%d", i),
						Chain: c, Symbol: sym, Decimals: 6, Amount: big.NewInt(int64(1_000_000 * (day*7 + i%5 + 1))),
						DepositAddress: fmt.Sprintf("0x%040x", 0xd000+i), Status: cashier.CollectionSuccess, PayTime: at, CreatedAt: at, UpdatedAt: at}
					o.PaidAmount = o.Amount
					if err := tx.CreateCollection(ctx, o); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := startBrowser(t, ctx, e.srv.URL)
	b.signInAs("owner@one.example", testPassword)
	var got struct {
		Labels   int
		Small    []string
		Overlaps []string
		Headless int
	}
	b.eval("measure", `(() => {
		const labels = [...document.querySelectorAll("main .chart .label")];
		const box = el => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
		const out = {labels: labels.length, small: [], overlaps: [], headless: 0};
		labels.forEach((l, i) => {
			const a = box(l);
			if (a.height < 12) out.small.push(l.textContent.trim() + " " + a.height.toFixed(1) + "px");
			labels.slice(i + 1).forEach(m => {
				if (m.closest(".chart") !== l.closest(".chart")) return;
				const c = box(m);
				if (a.left < c.right - 0.5 && c.left < a.right - 0.5 && a.top < c.bottom - 0.5 && c.top < a.bottom - 0.5)
					out.overlaps.push(l.textContent.trim() + " / " + m.textContent.trim());
			});
		});
		out.headless = [...document.querySelectorAll("main table")].filter(t => !t.querySelector("th")).length;
		return out; })()`, &got)
	b.screenshot("overview-13-charts")
	if got.Labels < 14+6 || len(got.Small) > 0 || len(got.Overlaps) > 0 || got.Headless > 0 {
		t.Fatalf("%d chart labels; too small: %v; overlapping: %v; %d tables without a header", got.Labels, got.Small, got.Overlaps, got.Headless)
	}
}

// The refund operation's JSON form: only owners and operators may refund,
// another merchant's order is not found, and the API's rules answer (an
// order that received nothing refunds nothing).
func TestRefundAPIRolesAndRules(t *testing.T) {
	e := newEnv(t, nil)
	k1, _ := e.contractPair()
	if err := e.svc.Store.Update(context.Background(), func(tx cashier.Tx) error { return tx.CreateContract(context.Background(), k1) }); err != nil {
		t.Fatal(err)
	}
	path := "/dashboard/api/collections/" + e.o1 + "/refunds"
	body := map[string]any{"refundNo": "RF-1", "amount": "1.00"} // a refund link
	for _, who := range []string{"developer@one.example", "reviewer@one.example", "viewer@one.example"} {
		u := e.signIn(who)
		if st, out := u.post(path, body, u.csrf); st != http.StatusForbidden {
			t.Errorf("%s refunds: %d %v", who, st, out)
		}
	}
	other := e.signIn("owner@two.example")
	if st, out := other.post(path, body, other.csrf); st != http.StatusNotFound {
		t.Errorf("another merchant's owner refunds: %d %v", st, out)
	}
	for _, who := range []string{"owner@one.example", "ops@service.example"} {
		u := e.signIn(who)
		if st, out := u.post(path, body, ""); st != http.StatusForbidden {
			t.Errorf("%s without the CSRF token: %d %v", who, st, out)
		}
		if st, out := u.post(path, body, u.csrf); st != http.StatusBadRequest || !strings.Contains(fmtAny(out), "can still refund") {
			t.Errorf("%s refunds an unpaid order: %d %v", who, st, out)
		}
	}
	if fs, _ := e.svc.Store.Refunds(context.Background(), cashier.RefundFilter{OrderID: e.o1}); len(fs) != 0 {
		t.Fatalf("refunds stored: %+v", fs)
	}
}
