package orders_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// poolRace runs hook once, after the first pool read outside a
// transaction: the allowance check reads the pool right before it refuses.
type poolRace struct {
	cashier.Store
	hook func()
}

func (s *poolRace) PoolLocked(ctx context.Context, pool string, after uint64) (*big.Int, error) {
	v, err := s.Store.PoolLocked(ctx, pool, after)
	if h := s.hook; h != nil {
		s.hook = nil
		h()
	}
	return v, err
}

// A lowered allowance no longer covers a pending order, but the executor
// takes the order into a batch and sends it between the check's read and
// its refusal: the refusal is refused, the order stays PROCESSING with no
// REFUSE webhook, and the allowance waits unchecked for the batch to
// settle. Had the batch not been sent, the refusal would have gone through.
func TestAllowanceCheckRacingTheSend(t *testing.T) {
	for _, sent := range []bool{true, false} {
		name := map[bool]string{true: "sent", false: "created"}[sent]
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			w := strings.ToLower(walletAddr)
			f.funds.balance[w], f.funds.allow[w] = units("100"), units("100")
			o, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: "AL-1", Recipient: recipient,
				Amount: "50", Symbol: "USDT", PayoutType: 2, FromAddress: walletAddr})
			if err != nil {
				t.Fatal(err)
			}
			usdt, _ := f.svc.Registry.LookupToken(cashier.ChainETH, "USDT")
			if _, err := f.svc.RecordApprovals(ctx, cashier.ChainETH, []cashier.Approval{{Chain: cashier.ChainETH, Token: usdt.ContractAddress,
				Owner: walletAddr, Spender: contractAddr, Value: units("10"), TxHash: "0xa11", BlockNumber: 50, BlockHash: "0xb50"}}); err != nil {
				t.Fatal(err)
			}
			race := &poolRace{Store: f.st}
			race.hook = func() {
				e := &cashier.PayoutExec{ID: orders.NewID("px_"), Chain: cashier.ChainETH, ContractID: "k_1", Contract: contractAddr, Symbol: "USDT",
					Mode: cashier.PayoutAllowance, From: o.FromAddress, Nonce: big.NewInt(1), State: cashier.ExecCreated, CreatedAt: f.clock.Now()}
				if err := f.svc.StartExec(ctx, e, []string{o.ID}); err != nil {
					t.Fatal(err)
				}
				if sent {
					e.State, e.Timestamp = cashier.ExecSending, f.clock.Now().Unix()
					if err := f.svc.SaveSending(ctx, e, []string{o.ID}, nil); err != nil {
						t.Fatal(err)
					}
				}
			}
			svc := *f.svc
			svc.Store = race
			refused, err := svc.HoldToAllowances(ctx, cashier.ChainETH)
			if err != nil {
				t.Fatal(err)
			}
			if race.hook != nil {
				t.Fatal("the race did not happen")
			}
			got, _ := f.st.Payout(ctx, o.ID)
			evs, _ := f.st.Events(ctx, cashier.EventFilter{OrderID: o.ID})
			left, _ := f.st.UncheckedAllowances(ctx, cashier.ChainETH)
			if !sent {
				if len(refused) != 1 || got.Status != cashier.PayoutRefuse || evs[0].Status != string(cashier.PayoutRefuse) || len(left) != 0 {
					t.Fatalf("in a batch never sent: refused %d, order %s, last webhook %s, unchecked %d", len(refused), got.Status, evs[0].Status, len(left))
				}
				return
			}
			if len(refused) != 0 || got.Status != cashier.PayoutProcessing {
				t.Fatalf("a sent order was refused: refused %d, order %s (%s)", len(refused), got.Status, got.FailReason)
			}
			for _, e := range evs {
				if e.Status == string(cashier.PayoutRefuse) {
					t.Fatalf("REFUSE webhook for a sent order: %+v", evs)
				}
			}
			if len(left) != 1 {
				t.Fatalf("the allowance was marked checked while its order is in flight: %d unchecked", len(left))
			}
			// The next round waits for the batch rather than refusing.
			if again, err := f.svc.HoldToAllowances(ctx, cashier.ChainETH); err != nil || len(again) != 0 {
				t.Fatalf("next round: refused %d, %v", len(again), err)
			}
		})
	}
}
