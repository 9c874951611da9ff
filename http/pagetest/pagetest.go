// Package pagetest drives the customer's pages in headless Chromium for
// tests: a browser, helpers for the SDK's iframe, and browser wallets (an
// injected EIP-1193 window.ethereum and a TronLink-style window.tronWeb)
// whose signing is done in Go with a funded key, sending real
// transactions to the dev chains, as a wallet extension would outside the
// page.
package pagetest

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Browser is one headless Chromium with one tab.
type Browser struct {
	T   testing.TB
	Ctx context.Context
	Dir string // screenshots

	mu   sync.Mutex
	logs []string
}

// Chromium is the browser binary: $CHROMIUM, else chromium.
func Chromium() string {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c
	}
	return "chromium"
}

// Start starts a browser whose screenshots go to dir; it closes with the
// test. Dialogs (the page's "cancel this payment?") are accepted, and the
// console is kept for a failing test's log. opts add to (or override) the
// browser's flags, such as its window size.
func Start(t testing.TB, dir string, opts ...chromedp.ExecAllocatorOption) *Browser {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	profile, err := os.MkdirTemp("", "cashier-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	flags := append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(Chromium()), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1280, 900)}, opts...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags...)
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithErrorf(func(string, ...any) {}))
	b := &Browser{T: t, Ctx: ctx, Dir: dir}
	t.Cleanup(func() {
		if t.Failed() {
			b.mu.Lock()
			t.Logf("console:\n%s", strings.Join(b.logs, "\n"))
			b.mu.Unlock()
		}
		cancel()
		cancelAlloc()
		os.RemoveAll(profile) // best effort: the browser may still be exiting
	})
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *cdppage.EventJavascriptDialogOpening:
			go chromedp.Run(ctx, cdppage.HandleJavaScriptDialog(true))
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			}
			b.mu.Lock()
			b.logs = append(b.logs, strings.Join(parts, " "))
			b.mu.Unlock()
		}
	})
	if err := chromedp.Run(ctx); err != nil { // the browser starts with ctx, not with a step's deadline
		t.Fatal(err)
	}
	return b
}

// Console is what the pages logged so far.
func (b *Browser) Console() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.logs, "\n")
}

// Run runs actions with a deadline and fails the test on an error.
func (b *Browser) Run(what string, actions ...chromedp.Action) {
	b.T.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		b.T.Fatalf("%s: %v", what, err)
	}
}

// InFrame runs actions on the document inside the iframe at sel, with a
// short deadline: while the iframe still holds its first, empty document
// the query cannot succeed, and the caller asks again.
func (b *Browser) InFrame(sel string, act func(*cdp.Node) chromedp.Action) bool {
	b.T.Helper()
	var frames []*cdp.Node
	b.Run("find the iframe "+sel, chromedp.Nodes(sel, &frames, chromedp.ByQuery))
	ctx, cancel := context.WithTimeout(b.Ctx, 2*time.Second)
	defer cancel()
	return chromedp.Run(ctx, act(frames[0])) == nil
}

// ClickInFrame clicks target (a CSS selector, once visible) inside the
// iframe at sel, trying for up to d.
func (b *Browser) ClickInFrame(sel, target string, d time.Duration) {
	b.T.Helper()
	deadline := time.Now().Add(d)
	for !b.InFrame(sel, func(n *cdp.Node) chromedp.Action {
		return chromedp.Click(target, chromedp.ByQuery, chromedp.FromNode(n), chromedp.NodeVisible)
	}) {
		if time.Now().After(deadline) {
			b.T.Fatalf("could not click %s in %s", target, sel)
		}
	}
}

// TextInFrame is the text of target inside the iframe at sel ("" when
// it cannot be read now).
func (b *Browser) TextInFrame(sel, target string) string {
	b.T.Helper()
	var s string
	b.InFrame(sel, func(n *cdp.Node) chromedp.Action {
		return chromedp.Text(target, &s, chromedp.ByQuery, chromedp.FromNode(n))
	})
	return s
}

// AttrInFrame is an attribute of target inside the iframe at sel.
func (b *Browser) AttrInFrame(sel, target, attr string) string {
	b.T.Helper()
	var s string
	var ok bool
	b.InFrame(sel, func(n *cdp.Node) chromedp.Action {
		return chromedp.AttributeValue(target, attr, &s, &ok, chromedp.ByQuery, chromedp.FromNode(n))
	})
	return s
}

// WaitAttrInFrame waits up to d for an attribute of target inside the
// iframe at sel to be want.
func (b *Browser) WaitAttrInFrame(sel, target, attr, want string, d time.Duration) {
	b.T.Helper()
	deadline := time.Now().Add(d)
	for {
		if got := b.AttrInFrame(sel, target, attr); got == want {
			return
		} else if time.Now().After(deadline) {
			b.T.Fatalf("%s %s in %s: %q, want %q", target, attr, sel, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// FrameState is the data-state of the cashier page inside the iframe at sel.
func (b *Browser) FrameState(sel string) string {
	b.T.Helper()
	return b.AttrInFrame(sel, "#cashier", "data-state")
}

// WaitFrame waits for the cashier page in the iframe at sel to show state.
func (b *Browser) WaitFrame(sel, want string, d time.Duration) {
	b.T.Helper()
	deadline := time.Now().Add(d)
	for {
		if st := b.FrameState(sel); st == want {
			return
		} else if time.Now().After(deadline) {
			b.T.Fatalf("iframe state %q, want %q", st, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Results waits up to d for n callback results in window.results and
// returns them as JSON text.
func (b *Browser) Results(n int, d time.Duration) string {
	b.T.Helper()
	deadline := time.Now().Add(d)
	for {
		// One evaluation: a callback may arrive between two.
		var got string
		b.Run("read results", chromedp.Evaluate(`JSON.stringify(window.results || [])`, &got))
		var list []json.RawMessage
		json.Unmarshal([]byte(got), &list)
		if len(list) >= n {
			return got
		}
		if time.Now().After(deadline) {
			b.T.Fatalf("callback results %s, want %d", got, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Shot saves a full-page screenshot at w×h as Dir/name.png.
func (b *Browser) Shot(name string, w, h int64) {
	b.T.Helper()
	var png []byte
	b.Run("screenshot "+name, chromedp.EmulateViewport(w, h), chromedp.Sleep(300*time.Millisecond), chromedp.FullScreenshot(&png, 100))
	if err := os.WriteFile(filepath.Join(b.Dir, name+".png"), png, 0o644); err != nil {
		b.T.Fatal(err)
	}
}

// Matrix saves screenshots of the payment page at url in both themes and
// both languages, on a phone (375×812) and a desktop (1280×900), as
// Dir/name-theme-lang-device.png. Each theme and language has a tab of its
// own, so the test's tab keeps its page (an SDK's iframe in the middle of
// a payment); every shot must show state, in the language and theme asked
// for.
func (b *Browser) Matrix(name, url, state string) {
	b.T.Helper()
	defer b.Run("back to the test's tab", cdppage.BringToFront())
	for _, theme := range []string{"light", "dark"} {
		for _, lang := range []string{"en-US", "zh-CN"} {
			base := fmt.Sprintf("%s-%s-%s", name, theme, lang)
			tab, closeTab := chromedp.NewContext(b.Ctx)
			ctx, cancel := context.WithTimeout(tab, 30*time.Second)
			var got []string
			err := chromedp.Run(ctx, cdppage.BringToFront(), chromedp.EmulateViewport(375, 812), chromedp.Navigate(url+"?lang="+lang+"&theme="+theme),
				chromedp.WaitVisible("#state-title", chromedp.ByQuery),
				chromedp.Evaluate(`[document.getElementById("cashier").getAttribute("data-state"), document.documentElement.lang, document.body.className]`, &got))
			wantLang := map[string]string{"en-US": "en", "zh-CN": "zh-CN"}[lang]
			if err == nil && (len(got) != 3 || got[0] != state || got[1] != wantLang || got[2] != "theme-"+theme) {
				err = fmt.Errorf("state, lang, theme = %q", got)
			}
			for _, dev := range []struct {
				name string
				w, h int64
			}{{"phone", 375, 812}, {"desktop", 1280, 900}} {
				if err != nil {
					break
				}
				var png []byte
				if err = chromedp.Run(ctx, chromedp.EmulateViewport(dev.w, dev.h), chromedp.Sleep(200*time.Millisecond), chromedp.FullScreenshot(&png, 100)); err == nil {
					err = os.WriteFile(filepath.Join(b.Dir, base+"-"+dev.name+".png"), png, 0o644)
				}
			}
			cancel()
			closeTab()
			if err != nil {
				b.T.Fatalf("screenshots %s: %v", base, err)
			}
		}
	}
}

// Wallet is the customer's browser wallet: its key signs, in Go, what the
// page asks; EVM holds each EVM network's RPC URL by chain id, TRON the
// TRON node's HTTP API.
type Wallet struct {
	Key  *ecdsa.PrivateKey
	EVM  map[uint64]string
	TRON string

	mu   sync.Mutex
	sent []string
}

// Sent lists the transaction hashes the wallet sent.
func (w *Wallet) Sent() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.sent...)
}

// walletScript defines window.ethereum and window.tronWeb on the cashier
// page; their requests go to the Go side through the binding
// cashierWallet and come back through window.__walletDone.
const walletScript = `(function () {
  if (location.pathname.indexOf("/pay/") !== 0) return;
  var chainId = "0x1";
  var pending = {}, next = 0;
  window.__walletDone = function (id, hash, err) { var p = pending[id]; delete pending[id]; err ? p.reject({code: -32000, message: err}) : p.resolve(hash); };
  function viaGo(kind, payload) {
    return new Promise(function (resolve, reject) { var id = ++next; pending[id] = {resolve: resolve, reject: reject};
      window.cashierWallet(JSON.stringify({id: id, kind: kind, payload: payload})); });
  }
  window.ethereum = { request: function (a) {
    switch (a.method) {
    case "eth_requestAccounts": case "eth_accounts": return Promise.resolve([%q]);
    case "eth_chainId": return Promise.resolve(chainId);
    case "wallet_switchEthereumChain": chainId = a.params[0].chainId; return Promise.resolve(null);
    case "eth_sendTransaction": return viaGo("evm", {chainId: chainId, from: a.params[0].from, to: a.params[0].to, data: a.params[0].data});
    }
    return Promise.reject({code: 4200, message: "unsupported " + a.method});
  }};
  window.tronWeb = { ready: true, defaultAddress: {base58: %q},
    contract: function () { return { at: function (token) { return Promise.resolve({ transfer: function (to, amount) {
      return { send: function () { return viaGo("tron", {token: token, to: to, amount: String(amount)}); } }; } }); } }; } };
})();`

// Inject puts w into every cashier page the browser opens from now on.
func (b *Browser) Inject(w *Wallet) {
	b.T.Helper()
	script := fmt.Sprintf(walletScript, evmAddress(w.Key), tronAddress(w.Key))
	chromedp.ListenTarget(b.Ctx, func(ev any) {
		call, ok := ev.(*runtime.EventBindingCalled)
		if !ok || call.Name != "cashierWallet" {
			return
		}
		go func() {
			var m struct {
				ID      int
				Kind    string
				Payload map[string]string
			}
			json.Unmarshal([]byte(call.Payload), &m)
			ctx, cancel := context.WithTimeout(b.Ctx, time.Minute)
			defer cancel()
			var hash string
			var err error
			if m.Kind == "evm" {
				hash, err = w.sendEVM(ctx, m.Payload)
			} else {
				hash, err = w.sendTRON(ctx, m.Payload)
			}
			errText := ""
			if err != nil {
				errText = err.Error()
			} else {
				w.mu.Lock()
				w.sent = append(w.sent, hash)
				w.mu.Unlock()
			}
			js := fmt.Sprintf(`window.__walletDone(%d, %q, %q)`, m.ID, hash, errText)
			chromedp.Run(b.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				_, _, err := runtime.Evaluate(js).WithContextID(call.ExecutionContextID).Do(ctx)
				return err
			}))
		}()
	})
	b.Run("inject the wallet", runtime.AddBinding("cashierWallet"), chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(script).Do(ctx)
		return err
	}))
}

// Zbar decodes the QR code of a PNG data URI with zbarimg, as a phone's
// camera would read it from the screen.
func Zbar(t testing.TB, dataURI string) string {
	t.Helper()
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Fatal("the tests need zbarimg: apt-get install -y zbar-tools")
	}
	b64, ok := strings.CutPrefix(dataURI, "data:image/png;base64,")
	if !ok {
		t.Fatalf("not a PNG data URI: %.40q", dataURI)
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "qr.png")
	if err := os.WriteFile(f, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", f).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	return strings.TrimSpace(string(out))
}
