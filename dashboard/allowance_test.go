package dashboard_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/orders"
)

// A contract's approving wallets show the allowance the chain watcher
// recorded from the wallet's Approval, what pending payouts lock of it and
// what is left for new ones.
func TestContractShowsRecordedAllowance(t *testing.T) {
	ctx := context.Background()
	sb, e := newSandboxEnv(t)
	info := sb.Info
	rounds := func() {
		t.Helper()
		for _, w := range sb.Service.Watchers {
			if err := w.Round(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	rounds() // the watchers start at the confirmed tip

	wallet := info.Wallets["allowance"]
	token := common.HexToAddress(info.Networks["ETH"].Tokens["USDT"])
	rc, err := sb.ETH.Transact(ctx, wallet.MustKey(), &token, nil,
		bindings.NewTestUSDC().PackApprove(common.HexToAddress(info.Networks["ETH"].PayoutContract), big.NewInt(50_000_000)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Service.Orders.SetReviewPolicy(ctx, info.MerchantID, cashier.ReviewAlways, ""); err != nil {
		t.Fatal(err)
	}
	m, _ := sb.Service.Store.Merchant(ctx, info.MerchantID)
	if _, err := sb.Service.Orders.CreatePayout(ctx, m, orders.PayoutRequest{ContractID: info.ContractIDs["ETH"], OrderNo: "AL-1",
		Recipient: "0x00000000000000000000000000000000000be1f0", Amount: "10.00", Symbol: "USDT", PayoutType: 2,
		FromAddress: wallet.EVMAddress}); err != nil {
		t.Fatal(err)
	}
	rounds()

	e.addUser("owner2@sandbox.example", info.MerchantID, "owner", false)
	u := e.signIn("owner2@sandbox.example")
	var got struct {
		Data []map[string]any `json:"data"`
	}
	u.getJSON("/dashboard/api/contracts", &got)
	var row map[string]any
	for _, k := range got.Data {
		if k["contractId"] != info.ContractIDs["ETH"] {
			continue
		}
		for _, a := range k["approvals"].([]any) {
			if a := a.(map[string]any); a["wallet"] == wallet.EVMAddress && a["symbol"] == "USDT" {
				row = a
			}
		}
	}
	if row == nil || row["allowance"] != "50.00" || row["approved"] != "50.00" || row["locked"] != "11.00" ||
		row["available"] != "39.00" || row["approvalTx"] != rc.TxHash.Hex() {
		t.Fatalf("approving wallet row %v in %v", row, got.Data)
	}
}
