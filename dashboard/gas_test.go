package dashboard_test

import (
	"context"
	"io"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// The overview shows, per network and token, the fees and gas charged by
// the paid payouts of its days against the gas their transactions cost: a
// fee+gas order (gasAmount in the token, gasSpent in the coin) and a fee
// order (gasAmount in the coin) are summed each in its own unit; a pending
// order and another merchant's are not counted.
func TestOverviewFeesAgainstGas(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	k1, k2 := e.contractPair()
	order := func(id string, k *cashier.Contract, status cashier.PayoutStatus, gasAmount, gasSpent string) *cashier.PayoutOrder {
		return &cashier.PayoutOrder{ID: id, MerchantID: k.MerchantID, ContractID: k.ID, OrderNo: id, Chain: cashier.ChainETH,
			Recipient: "0x00000000000000000000000000000000000d0001", Symbol: "USDT", Decimals: 6, Amount: big.NewInt(5_000_000),
			Fee: big.NewInt(1_000_000), Status: status, GasAmount: gasAmount, GasSpent: gasSpent, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	}
	err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		for _, k := range []*cashier.Contract{k1, k2} {
			if err := tx.CreateContract(ctx, k); err != nil {
				return err
			}
		}
		for _, o := range []*cashier.PayoutOrder{
			order("po_gas", k1, cashier.PayoutSuccess, "0.123457", "0.000041152263374486"),
			order("po_fee", k1, cashier.PayoutSuccess, "0.000052", ""),
			order("po_pending", k1, cashier.PayoutPending, "", ""),
			order("po_other", k2, cashier.PayoutSuccess, "9", "1"),
		} {
			if err := tx.CreatePayout(ctx, o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Data struct {
			Gas []map[string]any `json:"gas"`
		} `json:"data"`
	}
	u := e.signIn("owner@one.example")
	if code := u.getJSON("/dashboard/api/overview", &res); code != 200 {
		t.Fatalf("overview: %d", code)
	}
	ov := res.Data
	if len(ov.Gas) != 1 {
		t.Fatalf("gas rows %v", ov.Gas)
	}
	g := ov.Gas[0]
	want := map[string]any{"chainId": "ETH", "symbol": "USDT", "count": float64(2), "fees": "2.00", "gasCharged": "0.123457",
		"gasSpent": "0.000093152263374486", "coin": "ETH"}
	for k, v := range want {
		if g[k] != v {
			t.Errorf("%s = %v, want %v (row %v)", k, g[k], v, g)
		}
	}
	// The overview page shows the same figures with their units.
	page, err := u.c.Get(e.srv.URL + "/dashboard/")
	if err != nil {
		t.Fatal(err)
	}
	defer page.Body.Close()
	b, _ := io.ReadAll(page.Body)
	for _, want := range []string{"Payout fees against gas", "2.00 USDT", "0.123457 USDT", "0.000093152263374486 ETH"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("overview page lacks %q", want)
		}
	}
}
