package http

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/http/pagetest"
)

// zbarDecode reads a PNG data URI back with zbar, an independent decoder.
func zbarDecode(t *testing.T, dataURI string) string { return pagetest.Zbar(t, dataURI) }

func (e *env) pageStatusOfOrder(t *testing.T, po *pageOrder) pageStatus {
	t.Helper()
	res, err := http.Get(e.srv.URL + "/pay/" + po.id + "/status")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st pageStatus
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil || res.StatusCode != 200 {
		t.Fatalf("status: %d %v", res.StatusCode, err)
	}
	return st
}

func getPage(t *testing.T, url string, header ...string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d %s", url, res.StatusCode, b)
	}
	return string(b)
}

// Paying once: the QR code, the amount and the wallet link ask for what
// is still due; once it is all on its way the payment box gives way to
// progress; each way the money differs has its own words.
func TestPayOnce(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	const usdt = "0xdAC17F958D2ee523a2206206994597C13D831ec7"

	po := e.pageOrder(t, "ONCE-1", "40.00", "https://shop.example/done")
	st := e.pageStatusOfOrder(t, po)
	want := "ethereum:" + usdt + "@1/transfer?address=" + po.address + "&uint256=40000000"
	if !st.Payable || st.Due != "40.00" || st.WalletURL != want || zbarDecode(t, st.QR) != want {
		t.Fatalf("new order: due %s, payable %v, wallet %q", st.Due, st.Payable, st.WalletURL)
	}
	// 10 counted: 30 due, in the QR code, the link and the server's page.
	r := po.transfer("USDT", "10")
	e.seen(t, r, 1)
	st = e.pageStatusOfOrder(t, po)
	want30 := strings.Replace(want, "40000000", "30000000", 1)
	if st.State != pageConfirming || !st.Payable || st.Due != "30.00" || st.DetailKey != "detail.confirming.partial" || zbarDecode(t, st.QR) != want30 {
		t.Fatalf("a partial payment on its way: %+v", st)
	}
	e.confirmed(t, r)
	st = e.pageStatusOfOrder(t, po)
	if st.State != pageUnderpaid || st.Due != "30.00" || st.WalletURL != want30 || zbarDecode(t, st.QR) != want30 {
		t.Fatalf("underpaid: %+v", st)
	}
	html := getPage(t, po.payURL)
	if !strings.Contains(html, `<span id="amount">30.00</span>`) || !strings.Contains(html, "of 40.00 USDT") ||
		!strings.Contains(html, "Send the remaining 30.00 USDT") || !strings.Contains(html, `href="`+strings.ReplaceAll(want30, "&", "&amp;")+`"`) {
		t.Fatalf("underpaid page:\n%s", html)
	}
	// The rest on its way: nothing due, no QR code, progress instead.
	r2 := po.transfer("USDT", "30")
	e.seen(t, r2, 2)
	st = e.pageStatusOfOrder(t, po)
	if st.State != pageConfirming || st.Payable || st.QR != "" || st.WalletURL != "" || st.Due != "0.00" || st.DetailKey != "detail.confirming.full" {
		t.Fatalf("full amount on its way: %+v", st)
	}
	html = getPage(t, po.payURL)
	if !strings.Contains(html, `id="pay-box" class="pay-box" hidden`) || strings.Contains(html, `<progress id="progress" class="progress" max="12" value="2" hidden`) ||
		!strings.Contains(html, `<progress id="progress"`) || strings.Contains(html, "data:image/png") {
		t.Fatalf("page while the full amount confirms:\n%s", html)
	}
	if strings.Contains(html, `id="back" class="back" href="https://shop.example/done" rel="noreferrer" data-i18n="back">`) {
		t.Fatal("link back to the merchant before the order is final")
	}
	e.confirmed(t, r2)
	st = e.pageStatusOfOrder(t, po)
	if st.State != pagePaid || st.TitleKey != "state.paid" || st.BackURL != "https://shop.example/done" || st.TxID != r2.Transfer.TxHash {
		t.Fatalf("paid: %+v", st)
	}
	html = getPage(t, po.payURL)
	if !strings.Contains(html, `id="back" class="back" href="https://shop.example/done" rel="noreferrer" data-i18n="back">`) {
		t.Fatalf("paid page without the way back:\n%s", html)
	}

	// Overpaid.
	over := e.pageOrder(t, "ONCE-OVER", "5", "")
	ro := over.transfer("USDT", "7.5")
	e.seen(t, ro, 1)
	e.confirmed(t, ro)
	st = e.pageStatusOfOrder(t, over)
	if st.State != pagePaid || st.Note != cashier.NoteOverpaid || st.TitleKey != "state.paid.overpaid" {
		t.Fatalf("overpaid: %+v", st)
	}
	if html := getPage(t, over.payURL); !strings.Contains(html, "Paid, more than asked") || !strings.Contains(html, "Received 7.50 USDT for 5.00 USDT") {
		t.Fatalf("overpaid page:\n%s", html)
	}

	// Paid after cancelling.
	cancelled := e.pageOrder(t, "ONCE-CANCEL", "5", "")
	if _, err := e.svc.CancelCollection(ctx, cancelled.id); err != nil {
		t.Fatal(err)
	}
	rc := cancelled.transfer("USDT", "5")
	e.seen(t, rc, 1)
	e.confirmed(t, rc)
	st = e.pageStatusOfOrder(t, cancelled)
	if st.State != pageCancelled || st.Note != cashier.NoteAfterCancel || st.TitleKey != "state.cancelled.paid" || st.Payable {
		t.Fatalf("paid after cancel: %+v", st)
	}

	// The server renders Chinese when asked (?lang=zh-CN or the browser's
	// language), with no script.
	for _, c := range []struct{ url, lang string }{{po.payURL + "?lang=zh-CN", ""}, {cancelled.payURL, "zh-CN,zh;q=0.9,en;q=0.5"}} {
		html := getPage(t, c.url, "Accept-Language", c.lang)
		if !strings.Contains(html, `<html lang="zh-CN">`) || !strings.Contains(html, "<title>付款</title>") ||
			!(strings.Contains(html, "付款成功") || strings.Contains(html, "取消后收到付款")) {
			t.Fatalf("%s in Chinese:\n%s", c.url, html)
		}
	}
	if html := getPage(t, po.payURL+"?lang=en-US", "Accept-Language", "zh-CN"); !strings.Contains(html, `<html lang="en">`) {
		t.Fatal("?lang=en-US did not win over the browser's language")
	}

	// TRON: the wallet link opens the page in TronLink.
	tron, err := e.cli.CreateCollection(ctx, clientCollection("ONCE-TRON", "3", "TRON"))
	if err != nil {
		t.Fatal(err)
	}
	html = getPage(t, tron.PayURL)
	if !strings.Contains(html, `href="tronlinkoutside://pull.activity?param=`) {
		t.Fatalf("TRON page without the TronLink link:\n%s", html)
	}
}

func clientCollection(no, amount, chain string) client.CollectionRequest {
	return client.CollectionRequest{CashierID: cashierID, OrderNo: no, Amount: amount, Symbol: "USDT", ChainID: chain}
}
