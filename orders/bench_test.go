package orders_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// Creating a payout reads and raises running totals, so its cost stays flat
// however many payouts are pending on the same pools:
//
//	go test -run '^$' -bench CreatePayoutPending ./orders
func BenchmarkCreatePayoutPending(b *testing.B) {
	for _, pending := range []int{0, 10_000, 100_000} {
		b.Run(fmt.Sprintf("pending=%d", pending), func(b *testing.B) {
			f := newFixture(b)
			ctx := context.Background()
			f.funds.balance[strings.ToLower(contractAddr)] = new(big.Int).Lsh(big.NewInt(1), 200)
			seedPending(b, f, pending)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: fmt.Sprintf("N-%d", i),
					Recipient: recipient, Amount: "1", Symbol: "USDT"})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// seedPending stores n PENDING balance-mode orders on k_1 with their locks,
// in large transactions.
func seedPending(tb testing.TB, f *fixture, n int) {
	ctx := context.Background()
	pool := "contract/ETH/" + contractAddr + "/USDT"
	for done := 0; done < n; {
		err := f.st.Update(ctx, func(tx cashier.Tx) error {
			for i := 0; i < 5000 && done < n; i, done = i+1, done+1 {
				o := &cashier.PayoutOrder{ID: orders.NewID("po_"), MerchantID: "m_1", ContractID: "k_1", OrderNo: fmt.Sprintf("P-%d", done),
					Chain: cashier.ChainETH, Recipient: recipient, Symbol: "USDT", Decimals: 6, Amount: units("1"), Fee: new(big.Int),
					PayoutType: cashier.PayoutBalance, Status: cashier.PayoutPending, NeedsReview: true, CreatedAt: f.clock.Now()}
				if err := tx.CreatePayout(ctx, o); err != nil {
					return err
				}
				if err := tx.AddPoolLock(ctx, pool, o.Amount); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}
