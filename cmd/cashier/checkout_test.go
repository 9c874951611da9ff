package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/http/pagetest"
	"github.com/stablecashier/cashier/sign"
)

// checkoutPage is a merchant's checkout page on its own origin: it
// includes the SDK and passes the options of its query to init; callback
// results go to window.results.
const checkoutPage = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head>
<body><h1>Acme checkout</h1><div id="pay"></div>
<script src="%s/libs/v2/cashier.umd.js?apiKey=%s"></script>
<script>
window.results = [];
var q = new URLSearchParams(location.search), opts = {cashierId: %q, callback: function (r) { window.results.push(r); }};
["amount", "orderNo", "orderToken", "chainId", "defaultChainId", "currency", "defaultCurrency", "lang", "theme", "defaultPaymentMethod"].forEach(function (k) {
  if (q.get(k)) opts[k] = q.get(k);
});
Cashier.init(document.getElementById("pay"), opts);
</script></body></html>`

// The customer's checkout on the real binary: `cashier sandbox` with the
// brand BlockATM serves a merchant page on another origin (a test
// server, listed with `cashier cashier update --allowed-origins`). In
// headless Chromium the customer picks Arbitrum and USDC and pays through
// an injected EIP-1193 wallet signing with the funded customer key (a
// real transaction); the callback gets finish with the order's txId. The
// provider's Three-Step page, changed only in its script host, lets the
// customer pick TRON and pays through an injected tronWeb (a real TRC20
// transfer built, signed and broadcast against the TRON node's HTTP
// API). Cancel gives cancel; a partial payment turns the QR code into the
// amount still due (decoded with zbarimg); an origin not listed is
// refused. Screenshots of each state go to $CASHIER_ARTIFACTS: as the
// merchant's page shows it, and the order's own page in both themes, both
// languages, on a phone and a desktop.
func TestCheckoutOnBinary(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true, Env: databaseEnv(), Service: []string{"--header-prefix", "BlockATM", "--tron-block-interval", "500ms", "--watch-interval", "200ms"}})
	data, sb, info := tw.Data, tw.Svc, tw.Info
	defer sb.stop(t)
	threeStep, err := os.ReadFile("../../http/testdata/widget-sdk-three-step.html")
	if err != nil {
		t.Fatal(err)
	}
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/checkout":
			fmt.Fprintf(w, checkoutPage, info.BaseURL, info.APIKey, info.CashierID)
		case "/three-step":
			fmt.Fprint(w, strings.NewReplacer("{{SCRIPT_HOST}}", info.BaseURL, "{{API_KEY}}", info.APIKey,
				"{{CASHIER_ID}}", info.CashierID).Replace(string(threeStep)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer shop.Close()
	// The CLI, beside the running service: the service trusts its cached
	// cashier for --cache-ttl (1 s).
	if out, err := exec.Command(binary, "cashier", "update", "--data", data, "--id", info.CashierID, "--allowed-origins", shop.URL).CombinedOutput(); err != nil || !strings.Contains(string(out), shop.URL) {
		t.Fatalf("cashier update: %v\n%s", err, out)
	}
	time.Sleep(1100 * time.Millisecond)

	dir := os.Getenv("CASHIER_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	b := pagetest.Start(t, filepath.Join(dir, "cashier-page", "binary"))
	customer := info.Wallets["customer"]
	key, err := customer.Key()
	if err != nil {
		t.Fatal(err)
	}
	wallet := &pagetest.Wallet{Key: key, TRON: info.Networks["TRON"].RPCURL, EVM: map[uint64]string{}}
	for _, n := range []string{"ETH", "ARB"} {
		wallet.EVM[info.Networks[n].ChainID] = info.Networks[n].RPCURL
	}
	b.Inject(wallet)
	api := client.New(info.BaseURL, info.APIKey, info.SecretKey, client.WithHeaderPrefix("BlockATM"))
	ctx := context.Background()
	const frame = "#pay iframe"
	// The merchant's server signs its own order numbers for the page
	// (the widget URL signing of apiKey, orderNo and amount).
	open := func(q string) {
		qs, _ := url.ParseQuery(q)
		if no := qs.Get("orderNo"); no != "" {
			q += "&orderToken=" + url.QueryEscape(sign.SignWidget(info.SecretKey, []sign.WidgetParam{
				{Key: "apiKey", Value: info.APIKey}, {Key: "orderNo", Value: no}, {Key: "amount", Value: qs.Get("amount")}}))
		}
		b.Run("open "+q, chromedp.Navigate(shop.URL+"/checkout?"+q), chromedp.WaitVisible(frame, chromedp.ByQuery))
	}
	shots := func(name string) { // each state on a phone and a desktop
		b.Shot(name+"-phone", 375, 812)
		b.Shot(name+"-desktop", 1280, 900)
	}
	matrix := func(orderNo, state string) { // the order's own page: both themes, both languages, phone and desktop
		t.Helper()
		d, err := api.CollectionDetail(ctx, orderNo)
		if err != nil {
			t.Fatal(err)
		}
		b.Matrix("page-"+state, info.BaseURL+"/pay/"+d.OrderID, state)
	}
	paidBy := func(orderNo, sentHash string) string {
		t.Helper()
		d, err := api.CollectionDetail(ctx, orderNo)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != "SUCCESS" || !strings.EqualFold(strings.TrimPrefix(d.TxID, "0x"), strings.TrimPrefix(sentHash, "0x")) || d.Origin != shop.URL {
			t.Fatalf("order %s: %+v; the wallet sent %s", orderNo, d, sentHash)
		}
		return d.TxID
	}

	// 1. Arbitrum and USDC, chosen by the customer; paid from the wallet.
	open("amount=12.34&orderNo=BIN-ARB&defaultChainId=TRON&defaultPaymentMethod=connect_wallet")
	b.WaitFrame(frame, "choose", 30*time.Second)
	shots("choose-en-light")
	matrix("BIN-ARB", "choose")
	if d, err := api.CollectionDetail(ctx, "BIN-ARB"); err != nil || d.DepositAddress != "" || d.NetworkChoice != "open" {
		t.Fatalf("before the choice: %+v %v", d, err)
	}
	if out, err := exec.Command(binary, "sandbox", "pay", "--data", data, "--order", "BIN-ARB").CombinedOutput(); err == nil || !strings.Contains(string(out), "no deposit address yet") {
		t.Fatalf("sandbox pay before the choice: %v %s", err, out)
	}
	b.ClickInFrame(frame, `#choose .choice[data-chain="ARB"][data-symbol="USDC"]`, 10*time.Second)
	b.WaitFrame(frame, "waiting", 20*time.Second)
	b.WaitAttrInFrame(frame, "#cashier", "data-method", "connect_wallet", 10*time.Second) // defaultPaymentMethod
	shots("waiting-wallet-en-light")
	b.ClickInFrame(frame, "#connect", 10*time.Second)
	got := b.Results(1, 90*time.Second)
	sent := wallet.Sent()
	if len(sent) != 1 {
		t.Fatalf("the wallet sent %v; callback %s", sent, got)
	}
	tx := paidBy("BIN-ARB", sent[0])
	if want := fmt.Sprintf(`[{"type":"finish","data":{"orderNo":"BIN-ARB","txId":%q,"status":"SUCCESS"}}]`, tx); got != want {
		t.Fatalf("callback %s, want %s", got, want)
	}
	if d, _ := api.CollectionDetail(ctx, "BIN-ARB"); d.ChainID != "ARB" || d.Symbol != "USDC" || d.NetworkChoice != "chosen" {
		t.Fatalf("the chosen order: %+v", d)
	}
	shots("paid-en-light")
	matrix("BIN-ARB", "paid")

	// 2. Cancel, in Chinese on the dark theme.
	open("amount=3&orderNo=BIN-CANCEL&chainId=ETH&currency=USDT&lang=zh-CN&theme=dark")
	b.WaitFrame(frame, "waiting", 30*time.Second)
	shots("waiting-zh-dark")
	b.ClickInFrame(frame, "#cancel", 10*time.Second)
	if got := b.Results(1, 20*time.Second); got != `[{"type":"cancel"}]` {
		t.Fatalf("callback after cancel: %s", got)
	}
	b.WaitFrame(frame, "cancelled", 10*time.Second)
	shots("cancelled-zh-dark")
	matrix("BIN-CANCEL", "cancelled")

	// 3. Paying once: a partial payment; the QR code asks for the rest.
	open("amount=20&orderNo=BIN-PART&chainId=ETH&currency=USDT&defaultPaymentMethod=scan&theme=dark")
	b.WaitFrame(frame, "waiting", 30*time.Second)
	b.WaitAttrInFrame(frame, "#cashier", "data-method", "scan", 10*time.Second) // defaultPaymentMethod
	qrAsks := func() string {
		t.Helper()
		src := b.AttrInFrame(frame, "#qr", "src")
		return pagetest.Zbar(t, src)
	}
	if q := qrAsks(); !strings.Contains(q, "uint256=20000000") {
		t.Fatalf("QR code before paying: %s", q)
	}
	shots("waiting-en-dark")
	matrix("BIN-PART", "waiting")
	pay := func(amount string) {
		t.Helper()
		out, err := exec.Command(binary, "sandbox", "pay", "--data", data, "--order", "BIN-PART", "--amount", amount).CombinedOutput()
		if err != nil {
			t.Fatalf("sandbox pay: %v\n%s", err, out)
		}
	}
	pay("5")
	b.WaitFrame(frame, "underpaid", 30*time.Second)
	if q, amount := qrAsks(), b.TextInFrame(frame, "#amount"); !strings.Contains(q, "uint256=15000000") || amount != "15.00" {
		t.Fatalf("after 5 of 20: QR %s, amount %q", q, amount)
	}
	shots("underpaid-en-dark")
	matrix("BIN-PART", "underpaid")
	pay("15")
	want := `"type":"finish"`
	if got := b.Results(1, 60*time.Second); !strings.Contains(got, want) {
		t.Fatalf("callback after paying the rest: %s", got)
	}

	// 4. An origin not listed: the same shop under another host name.
	other := strings.Replace(shop.URL, "127.0.0.1", "localhost", 1)
	b.Run("open from another origin", chromedp.Navigate(other+"/checkout?amount=3&orderNo=BIN-REFUSED&chainId=ETH"))
	if got := b.Results(1, 20*time.Second); !strings.Contains(got, `"code":1005`) {
		t.Fatalf("callback on a refused origin: %s", got)
	}
	if _, err := api.CollectionDetail(ctx, "BIN-REFUSED"); err == nil {
		t.Fatal("an order from an origin not listed")
	}

	// 5. The provider's Three-Step page under the brand, only the script
	// host changed: no chainId, so the customer picks TRON; the injected
	// tronWeb pays.
	const tsFrame = "#cashier-container iframe"
	b.Run("open the three-step page", chromedp.Navigate(shop.URL+"/three-step"), chromedp.WaitVisible(tsFrame, chromedp.ByQuery))
	b.WaitFrame(tsFrame, "choose", 30*time.Second)
	b.ClickInFrame(tsFrame, `#choose .choice[data-chain="TRON"][data-symbol="USDT"]`, 10*time.Second)
	b.WaitFrame(tsFrame, "waiting", 20*time.Second)
	b.ClickInFrame(tsFrame, "#connect", 10*time.Second)
	orderNo := b.TextInFrame(tsFrame, "#order-no")
	waitFor(t, "the three-step page's finish", 90*time.Second, func() bool { return strings.Contains(b.Console(), "Payment completed:") })
	sent = wallet.Sent()
	tx = paidBy(orderNo, sent[len(sent)-1])
	if log := b.Console(); !strings.Contains(log, orderNo) || !strings.Contains(log, tx) {
		t.Fatalf("the three-step page logged %s; order %s paid by %s", log, orderNo, tx)
	}
	shots("three-step-paid-en-light")
}
