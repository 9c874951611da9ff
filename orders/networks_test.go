package orders_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// inactiveOn says that only its networks are not active.
type inactiveOn map[cashier.Chain]bool

func (n inactiveOn) Inactive(c cashier.Chain) error {
	if n[c] {
		return cashier.Errorf(cashier.ENetworkMaintenance, "network %s is not active: no node URL is configured for %s", c, c)
	}
	return nil
}

// A network the service cannot watch refuses new collections and payouts
// with its reason, stores nothing, and leaves the other networks working.
func TestInactiveNetworkRefusesOrders(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.svc.Networks = inactiveOn{cashier.ChainTRON: true, cashier.ChainETH: true}
	_, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "N-1", Amount: "10", Symbol: "USDT", ChainID: "TRON"})
	wantCode(t, err, cashier.ENetworkMaintenance)
	if !strings.Contains(err.Error(), "network TRON is not active") {
		t.Fatalf("refusal: %v", err)
	}
	f.funds.balance[strings.ToLower(contractAddr)] = units("1000")
	_, err = f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "N-P", Recipient: recipient, Amount: "10", Symbol: "USDT"})
	wantCode(t, err, cashier.ENetworkMaintenance)
	if !strings.Contains(err.Error(), "network ETH is not active") {
		t.Fatalf("payout refusal: %v", err)
	}
	if _, total, _ := f.st.Payouts(ctx, cashier.PayoutFilter{MerchantID: "m_1", Page: 1, PageSize: 10}); total != 0 {
		t.Fatalf("a refused payout was stored (%d)", total)
	}
	if _, err := f.svc.Collection(ctx, f.m, "N-1"); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("a refused collection was stored: %v", err)
	}
	// Arbitrum is watched: its orders are taken.
	if _, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "N-2", Amount: "10", Symbol: "USDT", ChainID: "ARB"}); err != nil {
		t.Fatal(err)
	}
}
