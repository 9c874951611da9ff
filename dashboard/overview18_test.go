package dashboard_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// A symbol's volume sums its networks exactly although their decimals
// differ: 10.50 USDT on Ethereum (6 decimals) and 10.50 USDT on BSC (18)
// are 21.00 USDT that day, and each network's row shows its own 10.50.
func TestOverviewVolumeAcrossDecimals(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	e18 := new(big.Int).Mul(big.NewInt(1050), new(big.Int).Exp(big.NewInt(10), big.NewInt(16), nil))
	err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		for i, o := range []struct {
			chain    cashier.Chain
			decimals int
			amount   *big.Int
		}{{cashier.ChainETH, 6, big.NewInt(10_500_000)}, {cashier.ChainBSC, 18, e18}} {
			id := "co_v" + string(rune('0'+i))
			if err := tx.CreateCollection(ctx, &cashier.CollectionOrder{ID: id, MerchantID: e.m1.ID, CashierID: e.c1, OrderNo: "VOL-" + id,
				Chain: o.chain, Symbol: "USDT", Decimals: o.decimals, Amount: o.amount, PaidAmount: o.amount,
				DepositAddress: "0x000000000000000000000000000000000000e00" + string(rune('1'+i)),
				Status:         cashier.CollectionSuccess, CreatedAt: time.Now(), ExpireAt: time.Now().Add(time.Hour)}); err != nil {
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
			Days []struct {
				Day    string            `json:"day"`
				Volume map[string]string `json:"volume"`
			} `json:"days"`
			ByToken []struct {
				ChainID string `json:"chainId"`
				Symbol  string `json:"symbol"`
				Volume  string `json:"volume"`
			} `json:"byToken"`
		} `json:"data"`
	}
	u := e.signIn("owner@one.example")
	if code := u.getJSON("/dashboard/api/overview", &res); code != 200 {
		t.Fatalf("overview: %d", code)
	}
	today := time.Now().UTC().Format("2006-01-02")
	found := false
	for _, d := range res.Data.Days {
		if d.Day == today {
			found = true
			if d.Volume["USDT"] != "21.00" {
				t.Fatalf("today's USDT volume %q, want 21.00", d.Volume["USDT"])
			}
		}
	}
	if !found {
		t.Fatalf("no row for %s: %+v", today, res.Data.Days)
	}
	rows := map[string]string{}
	for _, r := range res.Data.ByToken {
		rows[r.ChainID+"/"+r.Symbol] = r.Volume
	}
	if rows["ETH/USDT"] != "10.50" || rows["BSC/USDT"] != "10.50" {
		t.Fatalf("per-network volumes %v", rows)
	}
}
