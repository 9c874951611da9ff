package dashboard_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/orders"
)

// A reviewer cannot approve more than the pool holds: an allowance-mode
// payout whose wallet lowered its approval after the order was created is
// refused at approval, and approved once the allowance covers it again.
func TestReviewCannotApproveBeyondPool(t *testing.T) {
	ctx := context.Background()
	sb, e := newSandboxEnv(t)
	info := sb.Info

	if _, err := sb.Service.Orders.SetReviewPolicy(ctx, info.MerchantID, cashier.ReviewAlways, ""); err != nil {
		t.Fatal(err)
	}
	m, _ := sb.Service.Store.Merchant(ctx, info.MerchantID)
	wallet := info.Wallets["allowance"]
	o, err := sb.Service.Orders.CreatePayout(ctx, m, orders.PayoutRequest{ContractID: info.ContractIDs["ETH"], OrderNo: "AL-1",
		Recipient: "0x00000000000000000000000000000000000be1f0", Amount: "10.00", Symbol: "USDT", PayoutType: 2,
		FromAddress: wallet.EVMAddress})
	if err != nil {
		t.Fatal(err)
	}
	if !o.NeedsReview {
		t.Fatal("the order does not wait for review")
	}
	approve := func(units int64) {
		t.Helper()
		token := common.HexToAddress(info.Networks["ETH"].Tokens["USDT"])
		data := bindings.NewTestUSDC().PackApprove(common.HexToAddress(info.Networks["ETH"].PayoutContract), big.NewInt(units))
		if _, err := sb.ETH.Transact(ctx, wallet.MustKey(), &token, nil, data, 0); err != nil {
			t.Fatal(err)
		}
	}
	approve(1_000_000) // 1 USDT: less than 10 + 1 fee

	e.addUser("reviewer@sandbox.example", info.MerchantID, "reviewer", false)
	r := e.signIn("reviewer@sandbox.example")
	var q struct {
		Data struct{ List []map[string]any } `json:"data"`
	}
	r.getJSON("/dashboard/api/review", &q)
	// The pool as every page shows it: 1.00 on chain (the allowance),
	// 11.00 locked by the order awaiting review, nothing available.
	if pool, _ := q.Data.List[0]["pool"].(map[string]any); len(q.Data.List) != 1 || pool["balance"] != "1.00" || pool["locked"] != "11.00" ||
		pool["available"] != "0.00" || pool["awaitingReview"] != "11.00" {
		t.Fatalf("queue: %+v", q.Data.List)
	}
	st, out := r.post("/dashboard/api/review", map[string]any{"action": "approve", "ids": []string{o.ID}}, r.csrf)
	if st != 400 || !strings.Contains(fmtAny(out), "1.00 USDT is free for approval; the selection needs 11.00 USDT") {
		t.Fatalf("approval beyond the pool: %d %v", st, out)
	}
	if got, _ := sb.Service.Store.Payout(ctx, o.ID); !got.NeedsReview || got.Status != cashier.PayoutPending {
		t.Fatalf("refused approval changed the order: %s review=%v", got.Status, got.NeedsReview)
	}

	approve(1_000_000_000) // 1000 USDT
	if st, out := r.post("/dashboard/api/review", map[string]any{"action": "approve", "ids": []string{o.ID}}, r.csrf); st != 200 {
		t.Fatalf("approval within the pool: %d %v", st, out)
	}
	if got, _ := sb.Service.Store.Payout(ctx, o.ID); got.NeedsReview {
		t.Fatal("approved order still waits for review")
	}
	// Approving it again is refused: it no longer waits for review.
	if st, _ := r.post("/dashboard/api/review", map[string]any{"action": "approve", "ids": []string{o.ID}}, r.csrf); st != 400 {
		t.Fatalf("second approval: %d", st)
	}
}
