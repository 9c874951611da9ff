package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// chainWallets are wallets injected into the cashier page whose signing
// is done by the test in Go with the sandbox customer's key: a real
// transaction on the dev chain (EVM) and on the TRON stand-in.
const chainWallets = `(function () {
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
    case "eth_requestAccounts": return Promise.resolve([window.customerEVM]);
    case "eth_chainId": return Promise.resolve(chainId);
    case "wallet_switchEthereumChain": chainId = a.params[0].chainId; return Promise.resolve(null);
    case "eth_sendTransaction": return viaGo("evm", a.params[0]);
    }
    return Promise.reject({code: 4200, message: "unsupported " + a.method});
  }};
  window.tronWeb = { ready: true, defaultAddress: {base58: window.customerTRON},
    contract: function () { return { at: function (token) { return Promise.resolve({ transfer: function (to, amount) {
      return { send: function () { return viaGo("tron", {token: token, to: to, amount: amount}); } }; } }); } }; } };
})();`

const chainMerchantPage = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><div id="pay"></div>
<script src="%s/libs/v2/cashier.umd.js?apiKey=%s"></script>
<script>
window.results = [];
var q = new URLSearchParams(location.search);
Cashier.init(document.getElementById("pay"), {cashierId: %q, amount: q.get("amount"), currency: q.get("currency"), chainId: q.get("chain"),
  orderNo: q.get("orderNo"), callback: function (r) { window.results.push(r); }});
</script></body></html>`

// The acceptance path on the real service with its dev chains: a merchant
// page on another origin includes the SDK; the customer pays USDC on
// Arbitrum through an injected EIP-1193 wallet whose transaction is a real
// one, signed with the funded customer key; the callback receives finish
// with the order's txId. The same on TRON with an injected tronWeb.
func TestSDKWalletOnDevChains(t *testing.T) {
	chrome := os.Getenv("CHROMIUM")
	if chrome == "" {
		chrome = "chromium"
	}
	dir := os.Getenv("CASHIER_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	dir = filepath.Join(dir, "cashier-page", "sdk-chain")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.WatchInterval = 200 * time.Millisecond
	cfg.SweepInterval = 0
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, BlockPeriod: time.Second, TRONBlockInterval: time.Second, Confirmations: 1})
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
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, chainMerchantPage, info.BaseURL, info.APIKey, info.CashierID)
	}))
	defer shop.Close()
	err = sb.Service.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		c, err := tx.Cashier(ctx, info.CashierID)
		if err != nil {
			return err
		}
		c.AllowedOrigins = []string{shop.URL}
		return tx.UpdateCashier(ctx, c)
	})
	if err != nil {
		t.Fatal(err)
	}
	customer := info.Wallets["customer"]
	key, err := customer.Key()
	if err != nil {
		t.Fatal(err)
	}

	// sendEVM signs and sends the page's transaction request on ARB.
	sendEVM := func(req map[string]string) (string, error) {
		n := info.Networks["ARB"]
		c, err := ethclient.DialContext(ctx, n.RPCURL)
		if err != nil {
			return "", err
		}
		defer c.Close()
		from, to := common.HexToAddress(customer.EVMAddress), common.HexToAddress(req["to"])
		data, err := hexutil.Decode(req["data"])
		if err != nil {
			return "", err
		}
		nonce, err := c.PendingNonceAt(ctx, from)
		if err != nil {
			return "", err
		}
		gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
		if err != nil {
			return "", err
		}
		tip, err := c.SuggestGasTipCap(ctx)
		if err != nil {
			return "", err
		}
		head, err := c.HeaderByNumber(ctx, nil)
		if err != nil {
			return "", err
		}
		id := new(big.Int).SetUint64(n.ChainID)
		tx, err := types.SignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{ChainID: id, Nonce: nonce, GasTipCap: tip,
			GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))), Gas: gas + gas/5, To: &to, Data: data})
		if err != nil {
			return "", err
		}
		return tx.Hash().Hex(), c.SendTransaction(ctx, tx)
	}

	profile, err := os.MkdirTemp("", "cashier-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile) // best effort: the browser may still be exiting
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(profile), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900))
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(func(string, ...any) {}))
	defer cancelBrowser()
	if err := chromedp.Run(bctx); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var orderNo string // the order being paid, for TRON's sandbox payment
	var sentTx []string
	chromedp.ListenTarget(bctx, func(ev any) {
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
			var hash string
			var err error
			if m.Kind == "evm" {
				hash, err = sendEVM(m.Payload)
			} else {
				mu.Lock()
				no := orderNo
				mu.Unlock()
				var p *sandbox.Payment
				amount, _ := new(big.Int).SetString(m.Payload["amount"], 10)
				p, err = sandbox.Pay(ctx, info, sb.Service.Store, sandbox.PayRequest{OrderNo: no, Amount: cashier.FormatAmount(amount, 6)})
				if p != nil {
					hash = p.TxID
				}
			}
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			mu.Lock()
			sentTx = append(sentTx, hash)
			mu.Unlock()
			js := fmt.Sprintf(`window.__walletDone(%d, %q, %q)`, m.ID, hash, errText)
			chromedp.Run(bctx, chromedp.ActionFunc(func(ctx context.Context) error {
				_, _, err := runtime.Evaluate(js).WithContextID(call.ExecutionContextID).Do(ctx)
				return err
			}))
		}()
	})
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		c, stop := context.WithTimeout(bctx, 60*time.Second)
		defer stop()
		if err := chromedp.Run(c, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	inject := fmt.Sprintf(`window.customerEVM = %q; window.customerTRON = %q;`, customer.EVMAddress, customer.TRONAddress) + chainWallets
	run("wallets", runtime.AddBinding("cashierWallet"), chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(inject).Do(ctx)
		return err
	}))

	for _, c := range []struct{ chain, currency, no, amount string }{{"ARB", "USDC", "CHAIN-ARB", "12.34"}, {"TRON", "USDT", "CHAIN-TRON", "5.50"}} {
		mu.Lock()
		orderNo = c.no
		mu.Unlock()
		run("open the merchant page", chromedp.Navigate(fmt.Sprintf("%s/?chain=%s&currency=%s&orderNo=%s&amount=%s", shop.URL, c.chain, c.currency, c.no, c.amount)),
			chromedp.WaitVisible("#pay iframe", chromedp.ByQuery))
		deadline := time.Now().Add(30 * time.Second)
		for clicked := false; !clicked; {
			var frames []*cdp.Node
			run("iframe", chromedp.Nodes("#pay iframe", &frames, chromedp.ByQuery))
			short, stop := context.WithTimeout(bctx, 2*time.Second)
			clicked = chromedp.Run(short, chromedp.Click("#connect", chromedp.ByQuery, chromedp.FromNode(frames[0]), chromedp.NodeVisible)) == nil
			stop()
			if !clicked && time.Now().After(deadline) {
				t.Fatalf("%s: no Connect wallet button", c.chain)
			}
		}
		var got string
		deadline = time.Now().Add(90 * time.Second)
		for !strings.Contains(got, `"finish"`) {
			run("results", chromedp.Evaluate(`JSON.stringify(window.results)`, &got))
			if time.Now().After(deadline) {
				t.Fatalf("%s: callback results %s; wallet sent %v", c.chain, got, sentTx)
			}
			time.Sleep(200 * time.Millisecond)
		}
		var png []byte
		run("screenshot", chromedp.FullScreenshot(&png, 100))
		os.WriteFile(filepath.Join(dir, "paid-"+strings.ToLower(c.chain)+".png"), png, 0o644)
		o, err := sb.Service.Store.CollectionByOrderNo(ctx, info.MerchantID, c.no)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`[{"type":"finish","data":{"orderNo":%q,"txId":%q,"status":"SUCCESS"}}]`, c.no, o.TxID)
		mu.Lock()
		sent := strings.Join(sentTx, ",")
		mu.Unlock()
		if got != want || string(o.Chain) != c.chain || o.Symbol != c.currency || o.Origin != shop.URL || !strings.Contains(strings.ToLower(sent), strings.ToLower(o.TxID)) {
			t.Fatalf("%s: callback %s, want %s; order %+v; wallet sent %s", c.chain, got, want, o, sent)
		}
	}
}
