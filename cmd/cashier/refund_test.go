package main

import (
	"context"
	"crypto/rand"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
)

// TestRefunds runs the sandbox's chains and the service as two processes
// and refunds paid orders through the API, black box: a refund larger
// than what was paid is refused and stores nothing; a partial refund to a
// given address, whose refundNo repeated returns the same refund and
// repeated with another amount is refused; a full refund; and an overpaid
// order's excess refunded through the refund link, whose customer enters
// the address on the hosted page. The service is SIGKILLed while the
// refunds' payouts execute. In the end each recipient holds exactly its
// refund, once, each refund is SUCCESS on the order's detail and sent one
// refund.success webhook.
func TestRefunds(t *testing.T) {
	ctx := context.Background()

	// The merchant's webhook receiver: refund.success events by refundNo.
	var mu sync.Mutex
	successes := map[string]map[string]bool{} // refundNo → event ids
	hook := newReceiver(t, func(ev *client.WebhookEvent) {
		if ev.Type == "refund" && ev.Status == "SUCCESS" {
			no, _ := ev.Fields["refundNo"].(string)
			mu.Lock()
			if successes[no] == nil {
				successes[no] = map[string]bool{}
			}
			successes[no][ev.ID] = true
			mu.Unlock()
		}
	})

	tw := newWorld(t, worldOpts{Env: []string{"CASHIER_PAYOUT_WINDOW=300ms"}, Service: []string{"--webhook-url", hook.URL}})
	defer tw.Chains.stop(t)
	data, info, api := tw.Data, tw.Info, tw.API
	hook.setKey(info.WebhookKey)
	balance := usdtBalances(t, info)

	// Three ETH orders: A overpaid (12.50 of 10.00), B and C paid exactly.
	orders := map[string][2]string{"RF-A": {"10.00", "12.50"}, "RF-B": {"5.00", "5.00"}, "RF-C": {"8.00", "8.00"}}
	for no, v := range orders {
		if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: no, Amount: v[0], Symbol: "USDT", ChainID: "ETH"}); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(binary, "sandbox", "pay", "--data", data, "--order", no, "--amount", v[1]).CombinedOutput(); err != nil {
			t.Fatalf("pay %s: %v\n%s", no, err, out)
		}
	}
	for no, v := range orders {
		waitFor(t, no+" paid", time.Minute, func() bool {
			d, err := api.CollectionDetail(ctx, no)
			return err == nil && d.Status == "SUCCESS" && d.PaidAmount == v[1] && len(d.Payments) == 1 && d.Payments[0].Status == "CONFIRMED"
		})
	}

	fresh := func() string {
		var b [20]byte
		rand.Read(b[:])
		return common.BytesToAddress(b[:]).Hex()
	}
	code := func(err error) string {
		e, ok := err.(*client.Error)
		if !ok {
			t.Fatalf("want an API error, got %v", err)
		}
		return e.Code + "/" + strconv.Itoa(e.HTTPStatus)
	}

	// Too large: refused with a clear error, nothing stored.
	_, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-C", RefundNo: "R-BIG", Amount: "8.01", Address: fresh()})
	if err == nil || !strings.Contains(err.Error(), "exceeds what order RF-C can still refund") || !strings.Contains(err.Error(), "refundable 8.00") {
		t.Fatalf("refund above the paid amount: %v", err)
	}
	if c := code(err); c != "000105/400" {
		t.Fatalf("refund above the paid amount: code %s", c)
	}
	if _, err := api.RefundDetail(ctx, "R-BIG"); err == nil || code(err) != "000202/404" {
		t.Fatalf("a refused refund was stored: %v", err)
	}

	// Partial: 3.00 of C's 8.00; the refundNo again returns the same refund,
	// with another amount it is refused; what is left is 5.00.
	toC := fresh()
	partial, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-C", RefundNo: "R-C1", Amount: "3.00", Address: toC})
	if err != nil {
		t.Fatal(err)
	}
	if partial.Status != "PENDING" || partial.Amount != "3.00" || partial.Address != toC || partial.PayoutOrderNo != "refund/R-C1" || partial.RefundURL != "" {
		t.Fatalf("partial refund %+v", partial)
	}
	again, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-C", RefundNo: "R-C1", Amount: "3.00", Address: toC})
	if err != nil || again.RefundID != partial.RefundID {
		t.Fatalf("refundNo reused: %+v %v, want refund %s", again, err, partial.RefundID)
	}
	_, err = api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-C", RefundNo: "R-C1", Amount: "4.00", Address: toC})
	if err == nil || !strings.Contains(err.Error(), "refundNo R-C1 was used already") {
		t.Fatalf("refundNo reused with another amount: %v", err)
	}
	if c := code(err); c != "000201/409" {
		t.Fatalf("refundNo reused with another amount: code %s", c)
	}
	_, err = api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-C", RefundNo: "R-C2", Amount: "5.01", Address: fresh()})
	if err == nil || !strings.Contains(err.Error(), "refunded 3.00, refundable 5.00") {
		t.Fatalf("refund above what is left: %v", err)
	}

	// Full: all of B.
	toB := fresh()
	if _, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-B", RefundNo: "R-B", Amount: "5.00", Address: toB}); err != nil {
		t.Fatal(err)
	}

	// A link the merchant withdraws before the customer uses it: CANCELLED,
	// its page says so and takes no address, and its amount (all of A's
	// excess) is refundable again.
	withdrawn, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-A", RefundNo: "R-A0", Amount: "2.50"})
	if err != nil {
		t.Fatal(err)
	}
	if f, err := api.CancelRefund(ctx, "R-A0"); err != nil || f.Status != "CANCELLED" {
		t.Fatalf("cancel the link: %+v %v", f, err)
	}
	if _, err := api.CancelRefund(ctx, "R-C1"); err == nil || !strings.Contains(err.Error(), "only a refund link") {
		t.Fatalf("cancel a refund with an address: %v", err)
	}
	if page := getPage(t, withdrawn.RefundURL); strings.Contains(page, `name="address"`) || !strings.Contains(page, "withdrew") {
		t.Fatalf("the withdrawn link's page:\n%s", page)
	}
	if res, err := http.PostForm(withdrawn.RefundURL, url.Values{"address": {fresh()}}); err != nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("an address for the withdrawn link: %v %v", res, err)
	} else {
		res.Body.Close()
	}

	// Excess of A through the refund link: the customer enters the address.
	link, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-A", RefundNo: "R-A", Amount: "2.50", Reason: "overpaid"})
	if err != nil {
		t.Fatal(err)
	}
	if link.Status != "AWAITING_ADDRESS" || link.RefundURL == "" || link.Address != "" {
		t.Fatalf("refund link %+v", link)
	}
	page := getPage(t, link.RefundURL)
	if !strings.Contains(page, `name="address"`) || !strings.Contains(page, "2.50") {
		t.Fatalf("refund page without its form:\n%s", page)
	}
	toA := fresh()
	res, err := http.PostForm(link.RefundURL, url.Values{"address": {"0x1234"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "address") {
		t.Fatalf("bad address: %d %s", res.StatusCode, body)
	}
	if res, err = http.PostForm(link.RefundURL, url.Values{"address": {toA}}); err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), toA) {
		t.Fatalf("address entered: %d %s", res.StatusCode, body)
	}
	// The page's JSON form: the same address again answers the refund,
	// another is refused.
	postJSON := func(addr string) (int, string) {
		res, err := http.Post(link.RefundURL, "application/json", strings.NewReader(`{"address":"`+addr+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if st, b := postJSON(strings.ToLower(toA)); st != http.StatusOK || !strings.Contains(b, `"refundNo":"R-A"`) {
		t.Fatalf("the same address again: %d %s", st, b)
	}
	if st, b := postJSON(fresh()); st != http.StatusConflict || !strings.Contains(b, "going to "+toA) {
		t.Fatalf("a second address was taken: %d %s", st, b)
	}

	// The refunds' payouts wait for review like the merchant's payouts
	// (the sandbox's default policy): approve them, then kill the service
	// while they execute.
	args := []string{"payout", "approve", "--data", data}
	for _, no := range []string{"R-C1", "R-B", "R-A"} {
		f, err := api.RefundDetail(ctx, no)
		if err != nil {
			t.Fatal(err)
		}
		p, err := api.PayoutDetail(ctx, f.PayoutOrderNo)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, "--id", p.OrderID)
	}
	if out, err := exec.Command(binary, args...).CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	// The first kill lands once a refund's payout is in a batch (signed,
	// being sent or mined), the others at random moments after.
	waitFor(t, "a refund executing", time.Minute, func() bool {
		f, err := api.RefundDetail(ctx, "R-A")
		return err == nil && f.Status != "PENDING"
	})
	for k := 0; k < 3; k++ {
		time.Sleep(time.Duration(mrand.IntN(1000)) * time.Millisecond)
		tw.restart()
	}
	want := map[string]struct{ to, amount string }{"R-C1": {toC, "3.00"}, "R-B": {toB, "5.00"}, "R-A": {toA, "2.50"}}
	for no := range want {
		waitFor(t, "refund "+no+" SUCCESS", 3*time.Minute, func() bool {
			f, err := api.RefundDetail(ctx, no)
			return err == nil && f.Status == "SUCCESS"
		})
	}
	waitFor(t, "the refund webhooks", time.Minute, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(successes) == len(want)
	})
	time.Sleep(3 * time.Second) // a second payment would land by now
	tw.Svc.stop(t)

	for no, w := range want {
		v, _ := cashier.ParseAmount(w.amount, 6)
		if got := balance(cashier.ChainETH, w.to); got.Cmp(v) != 0 {
			t.Errorf("refund %s: recipient holds %s base units, want %s", no, got, v)
		}
		if n := len(successes[no]); n != 1 {
			t.Errorf("refund %s: %d refund.success events, want 1", no, n)
		}
	}
	// The order's detail lists its refunds.
	tw.Svc = tw.startService()
	defer tw.Svc.stop(t)
	d, err := api.CollectionDetail(ctx, "RF-C")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Refunds) != 1 || d.Refunds[0].RefundNo != "R-C1" || d.Refunds[0].Status != "SUCCESS" || d.Refunds[0].TxID == "" || d.Refunds[0].SentTime == 0 {
		t.Fatalf("RF-C refunds %+v", d.Refunds)
	}
	d, err = api.CollectionDetail(ctx, "RF-A")
	if err != nil {
		t.Fatal(err)
	}
	// The withdrawn link first, then the one paid.
	if len(d.Refunds) != 2 || d.Refunds[0].RefundNo != "R-A0" || d.Refunds[0].Status != "CANCELLED" ||
		d.Refunds[1].Address != toA || d.Refunds[1].Amount != "2.50" || d.Refunds[1].Reason != "overpaid" {
		t.Fatalf("RF-A refunds %+v", d.Refunds)
	}
	// The merchant's ledger names each refund's transfer, once.
	led, err := api.Ledger(ctx, client.LedgerRequest{HoldingsFilter: client.HoldingsFilter{ChainID: "ETH"}, Kind: "refund", PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range led.List {
		seen[e.Ref]++
		if w, ok := want[e.Ref]; !ok || e.Amount != "-"+w.amount || e.Counterparty != w.to || e.TxID == "" {
			t.Errorf("ledger refund entry %+v", e)
		}
	}
	for no := range want {
		if seen[no] != 1 {
			t.Errorf("refund %s: %d ledger entries, want 1 (ledger %+v)", no, seen[no], led.List)
		}
	}
	// Everything paid is refunded: B refuses more.
	if _, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-B", RefundNo: "R-B2", Amount: "0.01", Address: fresh()}); err == nil || !strings.Contains(err.Error(), "refundable 0.00") {
		t.Fatalf("refund of a fully refunded order: %v", err)
	}
}

func getPage(t *testing.T, u string) string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, res.StatusCode, b)
	}
	return string(b)
}
