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

// The overview lists the payout batches that were not sent and wait, with
// the reason their last attempt stored (a signer's refusal, a node's
// failure with its URL cut to the host): an operator sees every
// merchant's, a merchant's user only its own; a batch sent, or waiting
// without a reason, is not listed.
func TestOverviewListsBatchesNotSent(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	now := time.Now()
	k1, k2 := e.contractPair()
	const refused = "payout signer did not sign: clef: Request denied"
	exec := func(id string, k *cashier.Contract, nonce int64, state cashier.ExecState, lastError string) *cashier.PayoutExec {
		return &cashier.PayoutExec{ID: id, Chain: k.Chain, ContractID: k.ID, Contract: k.Address, Symbol: "USDT",
			Mode: cashier.PayoutBalance, Nonce: big.NewInt(nonce), State: state, LastError: lastError, CreatedAt: now, UpdatedAt: now}
	}
	err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		for _, k := range []*cashier.Contract{k1, k2} {
			if err := tx.CreateContract(ctx, k); err != nil {
				return err
			}
		}
		for _, x := range []*cashier.PayoutExec{
			exec("px_held1", k1, 1, cashier.ExecCreated, refused),
			exec("px_held2", k2, 1, cashier.ExecCreated, `evm: all RPC attempts failed: https://eth.node.example: Post "https://eth.node.example/v3/S3CRETKEY": dial tcp: connection refused`),
			exec("px_fresh", k1, 2, cashier.ExecCreated, ""),
			exec("px_sent", k1, 3, cashier.ExecSent, "an earlier attempt's error"),
		} {
			if err := tx.CreateExec(ctx, x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	held := func(email string) map[string]string {
		t.Helper()
		var res struct {
			Data struct {
				HeldBatches []struct {
					ExecID, MerchantID, Reason, Contract string
				} `json:"heldBatches"`
			} `json:"data"`
		}
		if code := e.signIn(email).getJSON("/dashboard/api/overview", &res); code != 200 {
			t.Fatalf("overview as %s: %d", email, code)
		}
		got := map[string]string{}
		for _, h := range res.Data.HeldBatches {
			got[h.ExecID] = h.MerchantID + " " + h.Contract + " " + h.Reason
		}
		return got
	}
	all := held("ops@service.example")
	if len(all) != 2 || all["px_held1"] != e.m1.ID+" "+k1.Address+" "+refused || !strings.Contains(all["px_held2"], "connection refused") {
		t.Fatalf("operator sees %v", all)
	}
	// A node's URL is cut to its host: hosted nodes keep the API key in the path.
	if strings.Contains(all["px_held2"], "S3CRETKEY") || !strings.Contains(all["px_held2"], `Post "https://eth.node.example": dial tcp`) {
		t.Fatalf("a node's URL shown as %q", all["px_held2"])
	}
	if own := held("owner@one.example"); len(own) != 1 || own["px_held1"] == "" {
		t.Fatalf("merchant one's owner sees %v", own)
	}
	page, err := e.signIn("owner@one.example").c.Get(e.srv.URL + "/dashboard/")
	if err != nil {
		t.Fatal(err)
	}
	defer page.Body.Close()
	b, _ := io.ReadAll(page.Body)
	for _, want := range []string{"Payout batches not sent", "px_held1", "clef: Request denied"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("overview page lacks %q", want)
		}
	}
	if strings.Contains(string(b), "px_held2") {
		t.Error("merchant one's overview shows another merchant's batch")
	}
}
