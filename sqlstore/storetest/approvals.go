package storetest

import (
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// An approval is stored once per (chain, txHash, logIndex); only a newer
// one (block, then log index) replaces the allowance, resetting spent and
// the checked mark; payouts count as spent only from the approval's block
// on; marking checked needs the approval it was checked against.
func testApprovalsAndAllowances(t *testing.T) {
	db := openTest(t)
	ap := func(tx string, block uint64, idx uint, v int64) *cashier.Approval {
		return &cashier.Approval{Chain: cashier.ChainETH, Token: "0xT", Owner: "0xW", Spender: "0xK", Value: big.NewInt(v),
			TxHash: tx, LogIndex: idx, BlockNumber: block, BlockHash: "0xb", BlockTime: t0}
	}
	record := func(a *cashier.Approval, spent int64) bool {
		t.Helper()
		var fresh bool
		mustUpdate(t, db, func(tx cashier.Tx) (err error) {
			fresh, err = tx.RecordApproval(ctx, a, "USDT", big.NewInt(spent), t0)
			return err
		})
		return fresh
	}
	one := func() cashier.Allowance {
		t.Helper()
		list, err := db.Allowances(ctx, cashier.ChainETH, "0xK")
		if err != nil || len(list) != 1 {
			t.Fatalf("allowances %+v, %v", list, err)
		}
		return list[0]
	}
	if !record(ap("0xa", 10, 2, 100), 0) || record(ap("0xa", 10, 2, 100), 7) {
		t.Fatal("first recording not new, or second one new")
	}
	if a := one(); a.Approved.Int64() != 100 || a.Spent.Sign() != 0 || a.Checked || a.Block != 10 || a.Symbol != "USDT" {
		t.Fatalf("after the first approval %+v", a)
	}
	mustUpdate(t, db, func(tx cashier.Tx) error {
		if err := tx.SpendAllowance(ctx, cashier.ChainETH, "0xT", "0xW", "0xK", 9, big.NewInt(5)); err != nil {
			return err // paid before the approval: not counted
		}
		if err := tx.SpendAllowance(ctx, cashier.ChainETH, "0xT", "0xW", "0xK", 12, big.NewInt(11)); err != nil {
			return err
		}
		if err := tx.MarkAllowanceChecked(ctx, cashier.ChainETH, "0xT", "0xW", "0xK", "0xother", 0); err != nil {
			return err
		}
		return tx.SpendAllowance(ctx, cashier.ChainETH, "0xT", "0xOther", "0xK", 12, big.NewInt(11)) // no approval: nothing
	})
	if a := one(); a.Spent.Int64() != 11 || a.Left().Int64() != 89 || a.Checked {
		t.Fatalf("after spending %+v", a)
	}
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.MarkAllowanceChecked(ctx, cashier.ChainETH, "0xT", "0xW", "0xK", "0xa", 2)
	})
	if !one().Checked {
		t.Fatal("not checked")
	}
	// An older approval, and one earlier in the same block, are recorded
	// but do not set the allowance.
	if !record(ap("0xold", 9, 0, 5), 0) || !record(ap("0xsame", 10, 1, 6), 0) {
		t.Fatal("older approvals not recorded")
	}
	if a := one(); a.TxHash != "0xa" || a.Approved.Int64() != 100 || a.Spent.Int64() != 11 || !a.Checked {
		t.Fatalf("an older approval changed the allowance: %+v", a)
	}
	// A newer one lowers it: spent starts from what the caller found.
	record(ap("0xb", 11, 0, 30), 4)
	if a := one(); a.TxHash != "0xb" || a.Approved.Int64() != 30 || a.Spent.Int64() != 4 || a.Checked || a.Left().Int64() != 26 {
		t.Fatalf("after lowering %+v", a)
	}
	un, err := db.UncheckedAllowances(ctx, cashier.ChainETH)
	if err != nil || len(un) != 1 || un[0].TxHash != "0xb" {
		t.Fatalf("unchecked %+v, %v", un, err)
	}
	got, err := db.Approval(ctx, cashier.ChainETH, "0xold", 0)
	if err != nil || got.Value.Int64() != 5 || got.BlockNumber != 9 || !got.BlockTime.Equal(t0) {
		t.Fatalf("approval %+v, %v", got, err)
	}
	if _, err := db.Approval(ctx, cashier.ChainETH, "0xnone", 0); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("unknown approval: %v", err)
	}
	bad := ap("0xneg", 12, 0, 1)
	bad.Value = big.NewInt(-1)
	if err := db.Update(ctx, func(tx cashier.Tx) error {
		_, err := tx.RecordApproval(ctx, bad, "USDT", nil, t0)
		return err
	}); err == nil {
		t.Fatal("a negative approval was stored")
	}
}

// A signed send is journaled once per (execution, txID), oldest first.
func testSignedSends(t *testing.T) {
	db := openTest(t)
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.CreateExec(ctx, &cashier.PayoutExec{ID: "px_1", Chain: cashier.ChainTRON, ContractID: "k1", Contract: "TK", Symbol: "USDT",
			Mode: cashier.PayoutBalance, Nonce: big.NewInt(7), State: cashier.ExecCreated, CreatedAt: t0, UpdatedAt: t0})
	})
	s := func(id string, at int) *cashier.SignedSend {
		return &cashier.SignedSend{ExecID: "px_1", TxID: id, Raw: []byte(`{"txID":"` + id + `"}`), Expiration: t0.Add(time.Minute),
			CreatedAt: t0.Add(time.Duration(at) * time.Millisecond)}
	}
	mustUpdate(t, db, func(tx cashier.Tx) error {
		for _, x := range []*cashier.SignedSend{s("aa", 1), s("aa", 1), s("bb", 2)} {
			if err := tx.AddSignedSend(ctx, x); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := db.SignedSends(ctx, "px_1")
	if err != nil || len(got) != 2 || got[0].TxID != "aa" || got[1].TxID != "bb" || string(got[1].Raw) != `{"txID":"bb"}` ||
		!got[0].Expiration.Equal(t0.Add(time.Minute)) {
		t.Fatalf("signed sends %+v, %v", got, err)
	}
	if err := db.Update(ctx, func(tx cashier.Tx) error {
		return tx.AddSignedSend(ctx, &cashier.SignedSend{ExecID: "px_1", TxID: "cc", CreatedAt: t0})
	}); cashier.ErrorCode(err) != cashier.EInvalid {
		t.Fatalf("incomplete send: %v", err)
	}
}
