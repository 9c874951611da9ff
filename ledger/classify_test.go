package ledger

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

type refundsByTx map[string][]RefundMove

func (r refundsByTx) RefundsByTx(_ context.Context, _ cashier.Chain, txID string) ([]RefundMove, error) {
	return r[txKey(txID)], nil
}

// Each transfer of the contract is named from the records of its
// transaction: refunds before payouts, the rest of a payout transaction
// is its fee, and transfers no record explains stay in the ledger as
// deposits and withdrawals, so the sum is still the balance.
func TestClassify(t *testing.T) {
	k := cashier.Contract{ID: "k_1", Chain: cashier.ChainETH, Address: "0x00000000000000000000000000000000000000C0"}
	tok := cashier.Token{Symbol: "USDT", Decimals: 6}
	at := time.Unix(1_800_000_000, 0)
	tr := func(from, to, tx string, amount int64, idx uint) cashier.Transfer {
		return cashier.Transfer{From: from, To: to, TxHash: tx, LogIndex: idx, Amount: big.NewInt(amount), BlockTime: at}
	}
	const (
		contract = "0x00000000000000000000000000000000000000c0" // lower case: compared case-insensitively
		deposit  = "0x00000000000000000000000000000000000000d1"
		alice    = "0x00000000000000000000000000000000000000a1"
		bob      = "0x00000000000000000000000000000000000000b2"
		feeAddr  = "0x00000000000000000000000000000000000000fe"
		owner    = "0x0000000000000000000000000000000000000011"
	)
	trs := []cashier.Transfer{
		tr(owner, contract, "0xAA", 1000, 0),  // top-up
		tr(deposit, contract, "0xBB", 20, 0),  // sweep
		tr(contract, alice, "0xCC", 5, 0),     // payout
		tr(contract, bob, "0xCC", 7, 1),       // refund paid in the same call
		tr(contract, feeAddr, "0xCC", 2, 2),   // the call's fee
		tr(contract, owner, "0xDD", 100, 0),   // owner's withdraw
		tr(contract, contract, "0xEE", 50, 0), // to itself: no movement
	}
	n := &names{sweeps: map[string]string{"bb": "sw_1"}, payouts: map[string][]cashier.PayoutOrder{
		"cc": {{OrderNo: "P-1", Recipient: alice, Amount: big.NewInt(5), GasAmount: "0.001"}, {OrderNo: "R-AS-PAYOUT", Recipient: bob, Amount: big.NewInt(7)}},
	}}
	s := &Service{Refunds: refundsByTx{"cc": {{RefundNo: "RF-1", Recipient: bob, Amount: big.NewInt(7)}}}}
	got, err := s.classify(context.Background(), k, tok, trs, n)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind   Kind
		amount int64
		ref    string
	}{{KindDeposit, 1000, ""}, {KindSweep, 20, "sw_1"}, {KindPayout, -5, "P-1"}, {KindRefund, -7, "RF-1"}, {KindFee, -2, "P-1 R-AS-PAYOUT RF-1"}, {KindWithdraw, -100, ""}}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	sum := new(big.Int)
	for i, w := range want {
		e := got[i]
		sum.Add(sum, e.Amount)
		if e.Kind != w.kind || e.Amount.Int64() != w.amount || e.Ref != w.ref || e.ContractID != "k_1" || !e.Time.Equal(at) {
			t.Errorf("entry %d: %+v, want %v %d %q", i, e, w.kind, w.amount, w.ref)
		}
	}
	if got[2].GasAmount != "0.001" {
		t.Errorf("payout gas %q", got[2].GasAmount)
	}
	if sum.Int64() != 1000+20-5-7-2-100 {
		t.Errorf("sum %s", sum)
	}
}
