package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func testCashiersAndContracts(t *testing.T) {
	db := openTest(t)
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.CreateCashier(ctx, &cashier.Cashier{ID: "c1b", MerchantID: "m1", Name: "Second",
			Status: cashier.CashierInactive, CreatedAt: t0.Add(time.Second)})
	})

	c, err := db.Cashier(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	want := cashier.Cashier{ID: "c1", MerchantID: "m1", Name: "Shop 1", WebhookURL: "https://shop1.example/hook",
		Status: cashier.CashierActive, CreatedAt: t0, Num: 1} // reads carry the number, for webhook bodies
	if !reflect.DeepEqual(*c, want) {
		t.Fatalf("Cashier = %+v, want %+v", *c, want)
	}
	// The allowed origins of browser-created orders round-trip.
	c.AllowedOrigins = []string{"https://shop1.example", "http://127.0.0.1:8081"}
	if err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.UpdateCashier(ctx, c) }); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Cashier(ctx, "c1"); err != nil || !reflect.DeepEqual(got.AllowedOrigins, c.AllowedOrigins) || !got.AllowsOrigin("https://SHOP1.example") || got.AllowsOrigin("https://shop1.example.evil") {
		t.Fatalf("allowed origins: %+v, %v", got, err)
	}
	c.AllowedOrigins = nil
	if err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.UpdateCashier(ctx, c) }); err != nil {
		t.Fatal(err)
	}
	list, err := db.CashiersByMerchant(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "c1" || list[1].ID != "c1b" || list[1].Status != cashier.CashierInactive {
		t.Fatalf("CashiersByMerchant = %+v", list)
	}
	if list, err := db.CashiersByMerchant(ctx, "nobody"); err != nil || len(list) != 0 {
		t.Fatalf("CashiersByMerchant(nobody) = %v, %v", list, err)
	}
	_, err = db.Cashier(ctx, "nope")
	wantCode(t, err, cashier.ECashierNotFound)

	k, err := db.Contract(ctx, "k2")
	if err != nil {
		t.Fatal(err)
	}
	if k.MerchantID != "m2" || k.Chain != cashier.ChainETH || k.Address != "0x00000000000000000000000000000000000000a2" ||
		k.Status != cashier.ContractActive || !k.CreatedAt.Equal(t0) {
		t.Fatalf("Contract = %+v", *k)
	}
	_, err = db.Contract(ctx, "nope")
	wantCode(t, err, cashier.EContractNotFound)

	// A contract with a deposit factory keeps it; ContractsByMerchant lists
	// the merchant's contracts oldest first.
	withFactory := cashier.Contract{ID: "k2b", MerchantID: "m2", Chain: cashier.ChainARB, Address: "0x00000000000000000000000000000000000000b2",
		Status: cashier.ContractActive, CreatedAt: t0.Add(time.Second),
		DepositFactory: "0x00000000000000000000000000000000000000f2", DepositImplementation: "0x00000000000000000000000000000000000000e2"}
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.CreateContract(ctx, &withFactory) })
	if withFactory.Num != 3 {
		t.Fatalf("Create numbered the third contract %d", withFactory.Num)
	}
	ks, err := db.ContractsByMerchant(ctx, "m2")
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != 2 || ks[0].ID != "k2" || ks[0].DepositFactory != "" || ks[1] != withFactory {
		t.Fatalf("ContractsByMerchant = %+v", ks)
	}
	if ks, err := db.ContractsByMerchant(ctx, "nobody"); err != nil || len(ks) != 0 {
		t.Fatalf("ContractsByMerchant(nobody) = %v, %v", ks, err)
	}

	// References are enforced: a cashier of an unknown merchant is refused.
	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateCashier(ctx, &cashier.Cashier{ID: "cx", MerchantID: "ghost", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EInvalid)
	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateContract(ctx, &cashier.Contract{ID: "k1", MerchantID: "m1", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EDuplicate)
	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateContract(ctx, &cashier.Contract{MerchantID: "m1", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EInvalid)
}
