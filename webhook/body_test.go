package webhook

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// fields decodes a body, failing unless every value is a string.
func fields(t *testing.T, body []byte) map[string]string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	out := map[string]string{}
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			t.Errorf("field %s is %T, want string", k, v)
		}
		out[k] = s
	}
	return out
}

func TestCollectionEventBody(t *testing.T) {
	at := t0.Add(3 * time.Minute)
	m := &cashier.Merchant{ID: "m_alpha"}
	o := collection(m, "co_9f2", cashier.CollectionSuccess, at)
	o.PaidAmount = big.NewInt(100_500_000)
	o.Num = 41
	c1 := &cashier.Cashier{ID: "c_1", Num: 7, WebhookURL: "https://hooks.example.com/pay"}
	// Typed (the default): the provider's documented number types.
	ev, err := NewWriter(nil).CollectionEvent(o, c1, at)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"eventId":"` + ev.ID + `","event":"payment","eventType":"payment.success","custNo":"C86002201","orderNo":"NO-co_9f2",` +
		`"id":41,"orderId":"co_9f2","cashierId":7,"symbol":"USDT","amount":"100.00","paidAmount":"100.50","status":"SUCCESS",` +
		`"txId":"0xabc123","txHash":"0xabc123","fromAddress":"0x00000000000000000000000000000000000000f1","network":"Ethereum","chainId":"1",` +
		`"orderType":3,"blockTime":1772366580000,"createTime":1772366400000,"updateTime":1772366580000}`
	if string(ev.Body) != want {
		t.Errorf("body\n%s\nwant\n%s", ev.Body, want)
	}
	// All strings (the setting): the earlier values, every one a string.
	evs, err := (&Writer{Strings: true}).CollectionEvent(o, c1, at)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"eventId":"` + evs.ID + `","event":"payment","eventType":"payment.success","custNo":"C86002201","orderNo":"NO-co_9f2",` +
		`"id":"co_9f2","orderId":"co_9f2","cashierId":"c_1","symbol":"USDT","amount":"100.00","paidAmount":"100.50","status":"SUCCESS",` +
		`"txId":"0xabc123","txHash":"0xabc123","fromAddress":"0x00000000000000000000000000000000000000f1","network":"Ethereum","chainId":"1",` +
		`"orderType":"collection","blockTime":"1772366580000","createTime":"1772366400000","updateTime":"1772366580000"}`
	if string(evs.Body) != want {
		t.Errorf("strings body\n%s\nwant\n%s", evs.Body, want)
	}
	fields(t, evs.Body)
	if !strings.HasPrefix(ev.ID, "evt_") || len(ev.ID) != 28 {
		t.Errorf("event id %q", ev.ID)
	}
	if ev.Type != cashier.EventPayment || ev.OrderID != o.ID || ev.OrderNo != o.OrderNo || ev.Status != "SUCCESS" ||
		ev.MerchantID != "m_alpha" || ev.URL != "https://hooks.example.com/pay" || !ev.CreatedAt.Equal(at) {
		t.Errorf("event %+v", ev)
	}

	pending := collection(m, "co_9f3", cashier.CollectionPending, at)
	ev2, _ := NewWriter(nil).CollectionEvent(pending, &cashier.Cashier{WebhookURL: "https://x.example"}, at)
	var f map[string]any
	if err := json.Unmarshal(ev2.Body, &f); err != nil {
		t.Fatal(err)
	}
	if f["eventType"] != "payment.pending" || f["txId"] != "" || f["blockTime"] != float64(pending.UpdatedAt.UnixMilli()) || f["paidAmount"] != "0.00" {
		t.Errorf("pending body %s", ev2.Body)
	}
	if ev2.ID == ev.ID {
		t.Error("two events share an id")
	}
	if ev, err := NewWriter(nil).CollectionEvent(o, &cashier.Cashier{}, at); ev != nil || err != nil {
		t.Errorf("cashier without URL: %v %v", ev, err)
	}
}

func TestPayoutEventBody(t *testing.T) {
	at := t0.Add(time.Hour)
	o := &cashier.PayoutOrder{
		ID: "po_77", MerchantID: "m_alpha", ContractID: "k_1", OrderNo: "P-1", Chain: cashier.ChainARB,
		Recipient: "0x00000000000000000000000000000000000000a1", Symbol: "USDC", Decimals: 6,
		Amount: big.NewInt(25_000_000), Fee: big.NewInt(1_000_000), PayoutType: cashier.PayoutBalance,
		Status: cashier.PayoutSuccess, TxID: "0xfeed", GasAmount: "51234", CreatedAt: t0, UpdatedAt: at, Num: 77, CustNo: "C86002201",
	}
	k := &cashier.Contract{ID: "k_1", Num: 3, Address: "0x00000000000000000000000000000000000000c0"}
	reg := &cashier.Registry{Networks: []cashier.Network{{Chain: cashier.ChainARB, NetworkName: "Arbitrum One"}}}
	ev, err := NewWriter(reg).PayoutEvent(o, k, "https://hooks.example.com/payout", at)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"eventId":"` + ev.ID + `","event":"payout","eventType":"payout.success","custNo":"C86002201","orderNo":"P-1","id":77,"bizOrderNo":"P-1",` +
		`"orderId":"po_77","contractId":3,"amount":"25.00","fee":"1.00","gasAmount":"51234",` +
		`"toAddress":"0x00000000000000000000000000000000000000a1","fromAddress":"0x00000000000000000000000000000000000000c0",` +
		`"network":"Arbitrum One","chainId":"42161","symbol":"USDC","txId":"0xfeed","txHash":"0xfeed","type":1,"status":"SUCCESS",` +
		`"createTime":1772366400000,"updateTime":1772370000000,"blockTime":1772370000000,"failReason":"","reason":""}`
	if string(ev.Body) != want {
		t.Errorf("body\n%s\nwant\n%s", ev.Body, want)
	}
	ev, err = (&Writer{Registry: reg, Strings: true}).PayoutEvent(o, k, "https://hooks.example.com/payout", at)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"eventId":"` + ev.ID + `","event":"payout","eventType":"payout.success","custNo":"C86002201","orderNo":"P-1","id":"po_77","bizOrderNo":"P-1",` +
		`"orderId":"po_77","contractId":"k_1","amount":"25.00","fee":"1.00","gasAmount":"51234",` +
		`"toAddress":"0x00000000000000000000000000000000000000a1","fromAddress":"0x00000000000000000000000000000000000000c0",` +
		`"network":"Arbitrum One","chainId":"42161","symbol":"USDC","txId":"0xfeed","txHash":"0xfeed","type":"1","status":"SUCCESS",` +
		`"createTime":"1772366400000","updateTime":"1772370000000","blockTime":"1772370000000","failReason":"","reason":""}`
	if string(ev.Body) != want {
		t.Errorf("body\n%s\nwant\n%s", ev.Body, want)
	}
	if ev.Type != cashier.EventPayout || ev.OrderID != "po_77" || ev.URL != "https://hooks.example.com/payout" {
		t.Errorf("event %+v", ev)
	}

	// Settled with its block's time: blockTime is that block's, not the
	// time the service recorded it.
	o.BlockTime = t0.Add(59*time.Minute + 27*time.Second)
	ev, _ = (&Writer{Registry: reg, Strings: true}).PayoutEvent(o, k, "https://hooks.example.com/payout", at)
	if f := fields(t, ev.Body); f["blockTime"] != "1772369967000" || f["updateTime"] != "1772370000000" {
		t.Errorf("blockTime %s updateTime %s, want the block's 1772369967000 and 1772370000000", f["blockTime"], f["updateTime"])
	}
	o.BlockTime = time.Time{}

	// Without a customer number custNo is an empty string; a refusal without a
	// transaction carries the time of the change as blockTime and its
	// reason under both names.
	o.PayoutType, o.FromAddress, o.Status, o.TxID, o.Chain = cashier.PayoutAllowance, "TXYZ", cashier.PayoutRefuse, "", cashier.ChainTRON
	o.CustNo, o.FailReason = "", "refused in review"
	ev, _ = (&Writer{Strings: true}).PayoutEvent(o, k, "https://hooks.example.com/payout", at)
	f := fields(t, ev.Body)
	if custNo, has := f["custNo"]; !has || custNo != "" || f["fromAddress"] != "TXYZ" || f["type"] != "2" || f["eventType"] != "payout.refuse" || f["chainId"] != "TRON" ||
		f["network"] != "TRON" || f["blockTime"] != "1772370000000" || f["reason"] != "refused in review" || f["failReason"] != "refused in review" {
		t.Errorf("allowance refuse body %s", ev.Body)
	}
	if ev, err := NewWriter(nil).PayoutEvent(o, k, "", at); ev != nil || err != nil {
		t.Errorf("no URL: %v %v", ev, err)
	}
}

// The body must be exactly what JavaScript's JSON.stringify(JSON.parse(body))
// gives back, or receivers that sign the re-serialized payload disagree.
func TestBodyEscapesLikeJSONStringify(t *testing.T) {
	var b body
	b.add("k", "<a&b>\u2028\n\x01\x7f\b\f\"\\é")
	b.add("bad", "x\xffy")
	want := "{\"k\":\"<a&b>\u2028\\n\\u0001\x7f\\b\\f\\\"\\\\é\",\"bad\":\"x\uFFFDy\"}"
	if got := string(b.bytes()); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	f := fields(t, b.bytes())
	if f["k"] != "<a&b>\u2028\n\x01\x7f\b\f\"\\é" {
		t.Errorf("round trip %q", f["k"])
	}
	if _, err := sign.ParseJSONObject(b.bytes()); err != nil {
		t.Errorf("sign cannot parse the body: %v", err)
	}
}

// The worked example of docs/webhooks.md.
func TestDocumentedSignatureExample(t *testing.T) {
	body := []byte(`{"eventId":"evt_5f1c0a9e3b7d2c4a6e8f0b1d","eventType":"payment.success","custNo":"C86002201","orderNo":"C202503225","status":"SUCCESS","amount":"100.00"}`)
	v2, plain, err := sign.Webhook(sign.WebhookRaw, "whk_demo_key", body, "1772366400000")
	if err != nil {
		t.Fatal(err)
	}
	sorted, _, err := sign.Webhook(sign.WebhookSorted, "whk_demo_key", body, "1772366400000")
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := sign.Canonical(mustParams(t, body), "1772366400000", sign.Raw)
	const wantMsg = "amount=100.00&custNo=C86002201&eventId=evt_5f1c0a9e3b7d2c4a6e8f0b1d&eventType=payment.success&orderNo=C202503225&status=SUCCESS&time=1772366400000"
	if msg != wantMsg {
		t.Errorf("signed text %q", msg)
	}
	if v2 != docV2 || sorted != docSorted || plain != docPlain {
		t.Errorf("signatures changed: v2 %s sorted %s plain %s; update docs/webhooks.md", v2, sorted, plain)
	}
}

const (
	docV2     = "048cc7d0f7619b52fbf409e024d6edc9e40f2b694bc7b94e18da92ef1f7abedb"
	docSorted = "2fda7cc2193c8a8fbb3731a0392538f0330d9826bb934cc444e82b5aea858be2"
	docPlain  = "cae3374f26935dff5f2641d05ec5f0cc576ac66b8bf2bc2b28bad651877a443d"
)

func mustParams(t *testing.T, body []byte) sign.Params {
	p, err := sign.ParseJSONObject(body)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNumbersOfLoadedOrders: an order loaded from the store (reads do not
// fill Num) still gets its numeric id, and its cashier's, in typed bodies.
func TestNumbersOfLoadedOrders(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := &cashier.Cashier{ID: "c_1", MerchantID: e.m.ID, Name: "Main", WebhookURL: "https://x.example/h", Status: cashier.CashierActive, CreatedAt: t0}
	e.update(func(tx cashier.Tx) error { return tx.CreateCashier(ctx, c) })
	for _, id := range []string{"co_1", "co_2"} {
		o := collection(e.m, id, cashier.CollectionPending, t0)
		o.DepositAddress += id
		e.update(func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
	}
	loaded, err := e.db.Collection(ctx, "co_2")
	if err != nil {
		t.Fatal(err)
	}
	loadedCashier, err := e.db.Cashier(ctx, "c_1")
	if err != nil {
		t.Fatal(err)
	}
	loaded.Status = cashier.CollectionExpired
	ev, err := (&Writer{Numbers: e.db}).CollectionEvent(loaded, loadedCashier, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ev.Body), `"id":2,"orderId":"co_2","cashierId":1,`) {
		t.Fatalf("body %s", ev.Body)
	}
}

// A flagged order's body is the same body with chainAlert added last, in
// both body forms and under the sorted signature scheme; status and
// paidAmount are unchanged.
func TestFlaggedOrderBodyAddsChainAlert(t *testing.T) {
	at := t0.Add(3 * time.Minute)
	o := collection(&cashier.Merchant{ID: "m_alpha"}, "co_9f2", cashier.CollectionSuccess, at)
	o.PaidAmount, o.Num = big.NewInt(100_000_000), 41
	c := &cashier.Cashier{ID: "c_1", Num: 7, WebhookURL: "https://hooks.example.com/pay"}
	for _, w := range []*Writer{NewWriter(nil), {Strings: true}, {Scheme: sign.WebhookSorted}} {
		o.ReorgedAt = time.Time{}
		plain, err := w.CollectionEvent(o, c, at)
		if err != nil {
			t.Fatal(err)
		}
		o.ReorgedAt = at
		flagged, err := w.CollectionEvent(o, c, at)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.Replace(string(plain.Body), plain.ID, flagged.ID, 1)
		if string(flagged.Body) != strings.TrimSuffix(base, "}")+`,"chainAlert":"REORGED"}` || strings.Contains(string(plain.Body), "chainAlert") {
			t.Errorf("flagged body\n%s\nplain body\n%s", flagged.Body, plain.Body)
		}
		if flagged.Status != "SUCCESS" {
			t.Errorf("flagged event status %s", flagged.Status)
		}
	}
}

// Event ids made later sort after those made earlier (the indexes on them
// take new events on their newest pages), and those of one millisecond
// still differ.
func TestEventIDsSortByTime(t *testing.T) {
	t1 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	a, b, c := newEventID(t1), newEventID(t1), newEventID(t1.Add(time.Millisecond))
	for _, id := range []string{a, b, c} {
		if !strings.HasPrefix(id, "evt_") || len(id) != 28 || strings.Trim(id[4:], "0123456789abcdef") != "" {
			t.Fatalf("event id %q", id)
		}
	}
	if a == b || a[:16] != b[:16] {
		t.Fatalf("ids of one millisecond: %s %s", a, b)
	}
	if !(a < c && b < c) {
		t.Fatalf("ids %s, %s then %s a millisecond later: not in order", a, b, c)
	}
	if got := NewEventID(); got <= c {
		t.Fatalf("an id made now (%s) sorts before one of 2026-11-28 (%s)", got, c)
	}
}
