package http

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/orders"
)

// choose posts the page's choice of network and token.
func (e *env) choose(t *testing.T, id, chain, symbol string) (int, string) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"chainId": chain, "symbol": symbol})
	res, err := http.Post(e.srv.URL+"/pay/"+id+"/choose", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

// Choosing the network and token: an SDK order without chainId and
// currency has no deposit address until the customer chooses among the
// cashier's networks and tokens (each with its fee and minimum); the
// choice may change until a payment is seen, then it is final. Orders
// with a fixed network refuse a choice, and the API detail says where the
// choice stands.
func TestChooseNetwork(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	e.allowOrigins(t, shopOrigin)
	a := e.sdkOrder(t, shopOrigin, map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "20", "orderToken": orderToken("CH-1", "20"),
		"defaultChainId": "ARB", "defaultCurrency": "USDC"})
	if !a.body.Success {
		t.Fatalf("open order: %+v", a)
	}
	id := a.body.Data.OrderID
	d, err := e.cli.CollectionDetail(ctx, "CH-1")
	if err != nil {
		t.Fatal(err)
	}
	if d.DepositAddress != "" || d.NetworkChoice != "open" || d.ChainID != "ARB" || d.Symbol != "USDC" {
		t.Fatalf("detail before the choice: %+v", d)
	}
	po := &pageOrder{no: "CH-1", id: id}
	if st := e.pageStatusOfOrder(t, po); st.State != pageChoose || !st.Choosing || st.Payable || st.QR != "" {
		t.Fatalf("status before the choice: %+v", st)
	}
	page := getPage(t, e.srv.URL+"/pay/"+id)
	for _, want := range []string{`data-chain="ETH" data-symbol="USDT"`, `data-chain="ARB" data-symbol="USDC"`, `data-chain="TRON" data-symbol="USDT"`, `data-min="1.00"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("page lacks choice %s", want)
		}
	}
	if strings.Contains(page, `id="qr" class="qr" src="data:`) {
		t.Fatal("a QR code before the choice")
	}
	// The same request again (the browser that created it): the same
	// order; with a fixed chainId: another.
	if again := e.sdkOrder(t, shopOrigin, map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "20", "orderToken": orderToken("CH-1", "20"),
		"resumeToken": a.body.Data.ResumeToken, "defaultChainId": "ARB", "defaultCurrency": "USDC"}); again.body.Data.OrderID != id {
		t.Fatalf("repeated open order: %+v", again)
	}
	if other := e.sdkOrder(t, shopOrigin, map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "20", "orderToken": orderToken("CH-1", "20"),
		"resumeToken": a.body.Data.ResumeToken, "chainId": "ARB", "symbol": "USDC"}); other.status != 409 {
		t.Fatalf("a fixed order under an open order's number: %+v", other)
	}
	// Bad choices change nothing.
	for _, c := range [][2]string{{"BTC", "USDT"}, {"ETH", "DAI"}, {"ETH", ""}} {
		if code, body := e.choose(t, id, c[0], c[1]); code < 400 {
			t.Fatalf("choice %v: %d %s", c, code, body)
		}
	}
	if o, _ := e.store.Collection(ctx, id); o.DepositAddress != "" {
		t.Fatalf("a refused choice gave an address: %+v", o)
	}
	if code, body := e.choose(t, id, "ETH", "usdt"); code != 200 {
		t.Fatalf("choose ETH USDT: %d %s", code, body)
	}
	o, _ := e.store.Collection(ctx, id)
	if o.Chain != cashier.ChainETH || o.Symbol != "USDT" || o.DepositAddress == "" || cashier.FormatAmount(o.Amount, o.Decimals) != "20.00" {
		t.Fatalf("after choosing: %+v", o)
	}
	po.address = o.DepositAddress
	if st := e.pageStatusOfOrder(t, po); st.State != pageWaiting || !st.Payable || st.QR == "" || !st.CanChange {
		t.Fatalf("status after the choice: %+v", st)
	}
	if d, _ := e.cli.CollectionDetail(ctx, "CH-1"); d.NetworkChoice != "chosen" || d.DepositAddress != o.DepositAddress || d.ChainID != "ETH" {
		t.Fatalf("detail after the choice: %+v", d)
	}
	// A payment is seen: the choice is final; choosing it again is harmless.
	e.seen(t, po.transfer("USDT", "5"), 1)
	if code, body := e.choose(t, id, "ARB", "USDC"); code != http.StatusConflict || !strings.Contains(body, "final") {
		t.Fatalf("a change after a payment: %d %s", code, body)
	}
	if code, _ := e.choose(t, id, "ETH", "USDT"); code != 200 {
		t.Fatalf("the same choice again: %d", code)
	}
	if o2, _ := e.store.Collection(ctx, id); o2.Chain != cashier.ChainETH || o2.DepositAddress != o.DepositAddress {
		t.Fatalf("after a refused change: %+v", o2)
	}
	if st := e.pageStatusOfOrder(t, po); st.CanChange {
		t.Fatalf("changeable after a payment: %+v", st)
	}
	// A fixed order (API, or SDK with chainId and symbol): no choice, and
	// its detail is as before (no networkChoice).
	fixed := e.pageOrder(t, "CH-FIXED", "10", "")
	if code, _ := e.choose(t, fixed.id, "ARB", "USDT"); code != http.StatusConflict {
		t.Fatalf("choice on a fixed order: %d", code)
	}
	raw := e.do(request{method: "GET", path: api.PathCollectionDetail, query: "orderNo=CH-FIXED"})
	if raw.status != 200 || strings.Contains(string(raw.raw), "networkChoice") {
		t.Fatalf("fixed order's detail: %d %s", raw.status, raw.raw)
	}
}

// A payment in flight during a switch: the customer chose Arbitrum USDC,
// sent to its address, then switched to Ethereum USDT before that payment
// was seen. The Arbitrum address stays the order's (the watcher's index
// of shown addresses), and the payment, seen after the switch, takes the
// order back to Arbitrum USDC and pays it once; a later payment to the
// Ethereum address is recorded with the order but not counted.
func TestChooseSwitchPaidBefore(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	e.allowOrigins(t, shopOrigin)
	a := e.sdkOrder(t, shopOrigin, map[string]any{"apiKey": apiKey, "cashierId": cashierID, "amount": "20", "orderToken": orderToken("CH-SW", "20")})
	if !a.body.Success {
		t.Fatalf("open order: %+v", a)
	}
	id := a.body.Data.OrderID
	if code, body := e.choose(t, id, "ARB", "USDC"); code != 200 {
		t.Fatalf("choose ARB USDC: %d %s", code, body)
	}
	first, _ := e.store.Collection(ctx, id)
	if code, body := e.choose(t, id, "ETH", "USDT"); code != 200 {
		t.Fatalf("switch to ETH USDT: %d %s", code, body)
	}
	second, _ := e.store.Collection(ctx, id)
	// Here (as with a factory at the same address on both networks) the
	// address text is the same on both: what matters is the network.
	if second.Chain != cashier.ChainETH || second.Symbol != "USDT" {
		t.Fatalf("after the switch: %+v", second)
	}
	// The watcher's lookup still finds the order by the Arbitrum address,
	// and by nothing else there.
	if os, _ := e.store.CollectionsByAddress(ctx, cashier.ChainARB, []string{first.DepositAddress}); len(os) != 0 {
		t.Fatalf("the Arbitrum address is still the order's current one: %+v", os)
	}
	shown, err := e.store.ShownAddresses(ctx, cashier.ChainARB, []string{first.DepositAddress, second.DepositAddress})
	if err != nil || len(shown) != 1 || shown[first.DepositAddress] != id {
		t.Fatalf("shown addresses on ARB: %v %v", shown, err)
	}

	po := &pageOrder{no: "CH-SW", id: id, address: first.DepositAddress}
	r := po.transfer("USDC", "20")
	r.Transfer.Chain, r.Transfer.Token = cashier.ChainARB, "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
	b := r.Transfer.BlockNumber
	if err := e.svc.ApplySeen(ctx, cashier.ChainARB, b, b, []orders.Received{r}); err != nil {
		t.Fatal(err)
	}
	o, _ := e.store.Collection(ctx, id)
	if o.Chain != cashier.ChainARB || o.Symbol != "USDC" || o.DepositAddress != first.DepositAddress || o.TxID != r.Transfer.TxHash || o.Status != cashier.CollectionPending {
		t.Fatalf("seen after the switch: %+v", o)
	}
	if code, _ := e.choose(t, id, "ETH", "USDT"); code != http.StatusConflict {
		t.Fatalf("a change after the payment was seen: %d", code)
	}
	settle := func(r orders.Received) {
		t.Helper()
		b := r.Transfer.BlockNumber
		cur := cashier.ChainCursor{Confirmed: b, ConfirmedHash: r.Transfer.BlockHash, Head: b + 20}
		if err := e.svc.ApplyConfirmed(ctx, r.Transfer.Chain, b, b, []orders.Received{r}, cur); err != nil {
			t.Fatal(err)
		}
	}
	settle(r)
	settle(r) // the same block again: never credited twice
	o, _ = e.store.Collection(ctx, id)
	if o.Status != cashier.CollectionSuccess || o.Chain != cashier.ChainARB || cashier.FormatAmount(o.PaidAmount, o.Decimals) != "20.00" || o.TxID != r.Transfer.TxHash {
		t.Fatalf("credited: %+v paid %v", o, o.PaidAmount)
	}
	// The customer pays again to the Ethereum address: recorded, not counted.
	po.address = second.DepositAddress
	r2 := po.transfer("USDT", "20")
	settle(r2)
	o, _ = e.store.Collection(ctx, id)
	if cashier.FormatAmount(o.PaidAmount, o.Decimals) != "20.00" || o.TxID != r.Transfer.TxHash || o.Chain != cashier.ChainARB {
		t.Fatalf("a second payment elsewhere counted: %+v paid %v", o, o.PaidAmount)
	}
	ps, err := e.store.PaymentsByOrder(ctx, id)
	if err != nil || len(ps) != 2 || ps[1].Effect != cashier.EffectWrongToken {
		t.Fatalf("payments: %+v %v", ps, err)
	}
	d, err := e.cli.CollectionDetail(ctx, "CH-SW")
	if err != nil || d.ChainID != "ARB" || d.Symbol != "USDC" || d.DepositAddress != first.DepositAddress || d.Status != "SUCCESS" {
		t.Fatalf("detail: %+v %v", d, err)
	}
}
