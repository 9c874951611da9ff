package http

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stablecashier/cashier"
)

// Ether sent to a deposit address shows on the cashier page and in the
// order's payments as what it is (ETH, NATIVE), never as a payment on its
// way or towards the amount.
func TestNativeCoinOnPageAndDetail(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	po := e.pageOrder(t, "ST-NATIVE", "25.50", "")
	r := po.transfer("USDT", "1")
	wei, err := cashier.ParseAmount("0.05", 18) // ether has 18 decimals
	if err != nil {
		t.Fatal(err)
	}
	r.Transfer.Token, r.Transfer.LogIndex, r.Transfer.Amount = "", cashier.NativeIndex, wei
	e.seen(t, r, 2)
	e.confirmed(t, r)

	res, err := http.Get(e.srv.URL + "/pay/" + po.id + "/status")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st pageStatus
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if st.State != pageWaiting || st.PaidAmount != "0.00" || st.Remaining != "25.50" || st.CanCancel || len(st.Payments) != 1 ||
		st.Payments[0].Symbol != "ETH" || st.Payments[0].Amount != "0.05" || st.Payments[0].Effect != "NATIVE" {
		t.Fatalf("page status after ether: %+v", st)
	}
	d, err := e.cli.CollectionDetail(ctx, "ST-NATIVE")
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != "PENDING" || d.PaidAmount != "0.00" || d.TxID != "" || len(d.Payments) != 1 || d.Payments[0].Effect != "NATIVE" ||
		d.Payments[0].Symbol != "ETH" || d.Payments[0].Amount != "0.05" || d.Payments[0].LogIndex != int64(cashier.NativeIndex) {
		t.Fatalf("detail after ether: %+v", d)
	}
	// The order's own token still completes it.
	tok := po.transfer("USDT", "25.50")
	e.seen(t, tok, 1)
	e.confirmed(t, tok)
	if d, err = e.cli.CollectionDetail(ctx, "ST-NATIVE"); err != nil || d.Status != "SUCCESS" || d.PaidAmount != "25.50" {
		t.Fatalf("detail after the token payment: %+v, %v", d, err)
	}
}
