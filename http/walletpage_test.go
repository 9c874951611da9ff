package http

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/stablecashier/cashier"
)

// injectedWallets are the wallets a browser extension would inject: an
// EIP-1193 provider on a wrong chain that switches when asked, and a
// TronLink-style tronWeb. Both record what the page asks of them; mode
// "refuse" declines like a customer pressing Reject.
const injectedWallets = `(function () {
  window.walletLog = [];
  var mode = new URLSearchParams(location.search).get("wallet") || "";
  var chainId = "0x5";
  window.ethereum = { request: function (a) {
    window.walletLog.push(a);
    switch (a.method) {
    case "eth_requestAccounts": return mode === "refuse" ? Promise.reject({code: 4001, message: "User rejected the request."}) : Promise.resolve(["0x00000000000000000000000000000000000000aa"]);
    case "eth_chainId": return Promise.resolve(chainId);
    case "wallet_switchEthereumChain": chainId = a.params[0].chainId; return Promise.resolve(null);
    case "eth_sendTransaction": return Promise.resolve("0x" + "ab".repeat(32));
    }
    return Promise.reject({code: 4200, message: "unsupported " + a.method});
  }};
  window.tronWeb = { ready: true, defaultAddress: {base58: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"},
    contract: function () { return { at: function (token) {
      window.walletLog.push({method: "at", token: token});
      return Promise.resolve({ transfer: function (to, amount) { return { send: function () {
        window.walletLog.push({method: "transfer", to: to, amount: amount});
        return Promise.resolve("cd".repeat(32)); } }; } });
    } }; } };
})();`

// Connect wallet on the cashier page: the page asks an injected EIP-1193
// wallet for accounts, switches it to the order's chain, and sends the
// token transfer of exactly the amount still due to the deposit address,
// showing the hash at once; a refusal gets its message and a way back to
// scanning; on TRON it pays through tronWeb.
func TestConnectWalletOnPage(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	dir := filepath.Join(artifacts(t), "wallet")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := newSDKBrowser(t, dir, chromedp.WindowSize(375, 812))
	b.run("inject the wallets", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(injectedWallets).Do(ctx)
		return err
	}))
	attr := func(name string) string {
		var v string
		b.run("read "+name, chromedp.Evaluate(fmt.Sprintf(`document.getElementById("cashier").getAttribute(%q) || ""`, name), &v))
		return v
	}
	waitAttr := func(name, want string) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for attr(name) != want {
			if time.Now().After(deadline) {
				t.Fatalf("%s = %q, want %q", name, attr(name), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	shot := func(name string) {
		var png []byte
		b.run("screenshot", chromedp.FullScreenshot(&png, 100))
		os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}

	// EVM: 40 asked, 10 already counted: the wallet is asked for 30.
	po := e.pageOrder(t, "WAL-1", "40", "")
	r := po.transfer("USDT", "10")
	e.seen(t, r, 1)
	e.confirmed(t, r)
	b.run("open", chromedp.Navigate(po.payURL), chromedp.WaitVisible("#connect", chromedp.ByQuery))
	shot("wallet-connect-offered")
	b.run("connect", chromedp.Click("#connect", chromedp.ByQuery))
	waitAttr("data-wallet", "sent")
	shot("wallet-sent")
	var log string
	b.run("wallet log", chromedp.Evaluate(`JSON.stringify(window.walletLog)`, &log))
	data := "0xa9059cbb" + strings.Repeat("0", 24) + strings.TrimPrefix(strings.ToLower(po.address), "0x") + fmt.Sprintf("%064x", 30_000_000)
	for _, want := range []string{`"method":"eth_requestAccounts"`, `{"method":"wallet_switchEthereumChain","params":[{"chainId":"0x1"}]}`,
		`"to":"0xdAC17F958D2ee523a2206206994597C13D831ec7","data":"` + data + `"`} {
		if !strings.Contains(log, want) {
			t.Fatalf("the wallet was not asked %s; log %s", want, log)
		}
	}
	var text string
	b.run("status", chromedp.Text("#wallet-status", &text, chromedp.ByQuery))
	if !strings.Contains(text, "0x"+strings.Repeat("ab", 32)) || attr("data-wallet-tx") != "0x"+strings.Repeat("ab", 32) {
		t.Fatalf("hash not shown: %q", text)
	}
	// The transfer reaches the chain: the page stops asking.
	r2 := po.transfer("USDT", "30")
	e.seen(t, r2, 1)
	waitAttr("data-state", pageConfirming)
	var payBoxHidden bool
	b.run("pay box", chromedp.Evaluate(`document.getElementById("pay-box").hidden`, &payBoxHidden))
	if !payBoxHidden {
		t.Fatal("the payment box still shows while the full amount confirms")
	}

	// Refused: a message and a way back to scanning.
	po2 := e.pageOrder(t, "WAL-2", "5", "")
	b.run("open", chromedp.Navigate(po2.payURL+"?wallet=refuse"), chromedp.WaitVisible("#connect", chromedp.ByQuery))
	b.run("connect", chromedp.Click("#connect", chromedp.ByQuery))
	waitAttr("data-wallet", "wallet.refused")
	b.run("status", chromedp.Text("#wallet-status", &text, chromedp.ByQuery))
	if !strings.Contains(text, "declined") {
		t.Fatalf("refusal text %q", text)
	}
	shot("wallet-refused")
	b.run("scan instead", chromedp.Click("#scan-instead", chromedp.ByQuery))
	var walletHidden, qrShown bool
	b.run("after scan instead", chromedp.Evaluate(`document.getElementById("wallet").hidden`, &walletHidden),
		chromedp.Evaluate(`!document.getElementById("qr").hidden && !document.getElementById("pay-box").hidden`, &qrShown))
	if !walletHidden || !qrShown {
		t.Fatalf("scan instead: wallet hidden %v, QR shown %v", walletHidden, qrShown)
	}

	// hidePaymentMethods: without scanning the wallet alone shows (the QR
	// code hidden, no "Scan instead"); without the wallet, scanning alone.
	po3 := e.pageOrder(t, "WAL-3", "5", "")
	visible := func(id string) bool {
		var v bool
		b.run("visible "+id, chromedp.Evaluate(fmt.Sprintf(`(function (e) { return !!e && !e.hidden && getComputedStyle(e).display !== "none"; })(document.getElementById(%q))`, id), &v))
		return v
	}
	b.run("open", chromedp.Navigate(po3.payURL+"?hide=scan"), chromedp.WaitVisible("#connect", chromedp.ByQuery))
	if m := attr("data-method"); m != "connect_wallet" || visible("qr") || visible("scan-instead") || !visible("connect") {
		t.Fatalf("hide=scan: method %q, qr %v, scan instead %v", m, visible("qr"), visible("scan-instead"))
	}
	b.run("open", chromedp.Navigate(po3.payURL+"?hide=connect_wallet"), chromedp.WaitVisible("#qr", chromedp.ByQuery))
	waitAttr("data-method", "scan")
	if visible("wallet") || visible("use-wallet") {
		t.Fatal("hide=connect_wallet: the wallet still shows")
	}

	// TRON through tronWeb.
	tron, err := e.cli.CreateCollection(ctx, clientCollection("WAL-TRON", "7.5", "TRON"))
	if err != nil {
		t.Fatal(err)
	}
	o, _ := e.store.CollectionByOrderNo(ctx, "m_1", "WAL-TRON")
	b.run("open", chromedp.Navigate(tron.PayURL), chromedp.WaitVisible("#connect", chromedp.ByQuery))
	b.run("connect", chromedp.Click("#connect", chromedp.ByQuery))
	waitAttr("data-wallet", "sent")
	b.run("wallet log", chromedp.Evaluate(`JSON.stringify(window.walletLog)`, &log))
	want := fmt.Sprintf(`[{"method":"at","token":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},{"method":"transfer","to":"%s","amount":"7500000"}]`, o.DepositAddress)
	if log != want || o.Chain != cashier.ChainTRON {
		t.Fatalf("tronWeb log %s, want %s", log, want)
	}
	shot("wallet-tron-sent")
}
