package dashboard_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// Ether a customer sent to the deposit address by mistake is listed on the
// order's page as what it is: its amount in ETH and the effect NATIVE.
func TestCollectionDetailShowsNativeCoin(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	o, err := e.svc.Store.Collection(ctx, e.o1)
	if err != nil {
		t.Fatal(err)
	}
	wei, err := cashier.ParseAmount("0.05", 18)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	p := &cashier.Payment{Chain: o.Chain, TxHash: "0x" + strings.Repeat("ab", 32), LogIndex: cashier.NativeIndex, OrderID: o.ID,
		MerchantID: o.MerchantID, Token: "", Symbol: "ETH", Decimals: 18,
		From: "0x00000000000000000000000000000000000000f1", To: o.DepositAddress, Amount: wei,
		BlockNumber: 43, BlockHash: "0xb10d", BlockTime: now, Status: cashier.PaymentConfirmed,
		Effect: cashier.EffectNative, SeenAt: now, ConfirmedAt: now, UpdatedAt: now}
	if err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, p) }); err != nil {
		t.Fatal(err)
	}
	u := e.signIn("viewer@one.example")
	var d struct{ Data map[string]any }
	u.getJSON("/dashboard/api/collections/"+o.ID, &d)
	ps, _ := d.Data["payments"].([]any)
	if len(ps) != 1 || ps[0].(map[string]any)["amount"] != "0.05" || ps[0].(map[string]any)["symbol"] != "ETH" || ps[0].(map[string]any)["effect"] != "NATIVE" {
		t.Fatalf("payments: %v", d.Data["payments"])
	}
	res, err := u.c.Get(e.srv.URL + "/dashboard/collections/" + o.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), "0.05 ETH") || !strings.Contains(string(body), "NATIVE") {
		t.Fatalf("detail page lacks the native payment:\n%s", body)
	}
}
