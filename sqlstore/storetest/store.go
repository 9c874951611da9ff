package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func testMerchantSecrets(t *testing.T) {
	db := openTest(t)

	m, err := db.Merchant(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	want := cashier.Merchant{ID: "m1", Name: "Merchant 1", SecretKey: "sk_1", WebhookKey: "wk_1",
		Status: cashier.MerchantActive, CreatedAt: t0, KeyPrefix: "ak_liv"}
	if *m != want {
		t.Fatalf("Merchant = %+v, want %+v (API key not recoverable)", *m, want)
	}

	m, err = db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef2")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "m2" || m.APIKey != "ak_live_0123456789abcdef2" || m.SecretKey != "sk_2" || m.WebhookKey != "wk_2" {
		t.Fatalf("MerchantByAPIKey = %+v", *m)
	}

	_, err = db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef3")
	wantCode(t, err, cashier.EUnauthorized)
	_, err = db.MerchantByAPIKey(ctx, "")
	wantCode(t, err, cashier.EUnauthorized)
	_, err = db.Merchant(ctx, "nope")
	wantCode(t, err, cashier.ENotFound)

	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m3", APIKey: "ak_live_0123456789abcdef1", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EDuplicate) // the API key is taken
	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m1", APIKey: "other-key-000000000000", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EDuplicate)
	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateMerchant(ctx, &cashier.Merchant{APIKey: "k", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EInvalid)
	err = db.Update(ctx, func(tx cashier.Tx) error {
		return tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m9", CreatedAt: t0})
	})
	wantCode(t, err, cashier.EInvalid)
}

// A replaced API key kept for a grace is found with its own secret and its
// end; ending the grace, or a replacement without one, forgets it.
func testPreviousAPIKey(t *testing.T) {
	db := openTest(t)
	until := t0.Add(time.Hour)
	replace := func(api, secret string, prevUntil time.Time) {
		t.Helper()
		err := db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
			m, err := tx.Merchant(ctx, "m1")
			if err != nil {
				return err
			}
			m.APIKey, m.SecretKey, m.WebhookKey, m.PrevKeyUntil = api, secret, "wk_new", prevUntil
			return tx.ReplaceMerchantKeys(ctx, m)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	replace("ak_live_second_key_00000001", "sk_second", until)
	old, err := db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef1")
	if err != nil {
		t.Fatal(err)
	}
	if old.ID != "m1" || old.SecretKey != "sk_1" || !old.KeyUntil.Equal(until) || old.KeyValid(until) || !old.KeyValid(until.Add(-time.Millisecond)) {
		t.Fatalf("previous key: %+v", *old)
	}
	cur, err := db.MerchantByAPIKey(ctx, "ak_live_second_key_00000001")
	if err != nil || cur.SecretKey != "sk_second" || !cur.KeyUntil.IsZero() || cur.WebhookKey != "wk_new" {
		t.Fatalf("current key: %v %+v", err, cur)
	}
	m, _ := db.Merchant(ctx, "m1")
	if m.PrevKeyPrefix != "ak_liv" || !m.PrevKeyUntil.Equal(until) || m.KeyPrefix != "ak_liv" {
		t.Fatalf("merchant's key prefixes: %+v", *m)
	}
	// The webhook key replaced is kept for the grace too.
	if m.WebhookKey != "wk_new" || m.PrevWebhookKey != "wk_1" {
		t.Fatalf("merchant's webhook keys: current %q previous %q", m.WebhookKey, m.PrevWebhookKey)
	}
	// Ending the grace forgets the previous key; a second end finds none.
	end := func() error {
		return db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.EndPreviousKey(ctx, "m1") })
	}
	if err := end(); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Merchant(ctx, "m1"); m.PrevWebhookKey != "" {
		t.Fatalf("the previous webhook key outlived the end of the grace: %q", m.PrevWebhookKey)
	}
	_, err = db.MerchantByAPIKey(ctx, "ak_live_0123456789abcdef1")
	wantCode(t, err, cashier.EUnauthorized)
	wantCode(t, end(), cashier.ENotFound)
	// A replacement without a grace keeps no previous key.
	replace("ak_live_third_key_000000001", "sk_third", until)
	replace("ak_live_fourth_key_00000001", "sk_fourth", time.Time{})
	for _, k := range []string{"ak_live_second_key_00000001", "ak_live_third_key_000000001"} {
		_, err = db.MerchantByAPIKey(ctx, k)
		wantCode(t, err, cashier.EUnauthorized)
	}
}

// A copy of the database files alone must not reveal any merchant secret.
func testSecretsNotInDatabaseFiles(t *testing.T) {
	path := newLocation(t)
	key := newKey(t)
	db := openAt(t, path, key)
	secrets := []string{"ak_SEARCHABLE_apikey_7d1e0c94f2", "sk_SEARCHABLE_secret_5b8a36e1", "wk_SEARCHABLE_webhook_93c0d2aa"}
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m1", Name: "Visible Name", APIKey: secrets[0],
			SecretKey: secrets[1], WebhookKey: secrets[2], Status: cashier.MerchantActive, CreatedAt: t0})
	})

	// Check the files both while open (data in a write-ahead log) and
	// after Close.
	check := func(when string) {
		all := backend.RawBytes(t, path)
		if !bytes.Contains(all, []byte("Visible Name")) {
			t.Fatalf("%s: the merchant row is not in the database files; the search proves nothing", when)
		}
		for _, s := range secrets {
			// The whole secret, and its tail alone in case of a stored prefix.
			for _, needle := range []string{s, s[len(s)-12:]} {
				if bytes.Contains(all, []byte(needle)) {
					t.Errorf("%s: %q found in the database files", when, needle)
				}
			}
		}
	}
	check("open")
	db.Close()
	check("closed")

	// The right key opens them again; another key does not.
	db = openAt(t, path, key)
	m, err := db.MerchantByAPIKey(ctx, secrets[0])
	if err != nil || m.SecretKey != secrets[1] || m.WebhookKey != secrets[2] {
		t.Fatalf("reopened: %+v, %v", m, err)
	}
	db.Close()
	db = openAt(t, path, newKey(t))
	if _, err := db.Merchant(ctx, "m1"); err == nil || cashier.ErrorCode(err) != cashier.EInternal {
		t.Fatalf("wrong master key: err = %v, want an internal error", err)
	}
}

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
		Status: cashier.CashierActive, CreatedAt: t0}
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
	withFactory.Num = 0 // set by Create only; see NumericID
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

func testCollectionRoundTrip(t *testing.T) {
	db := openTest(t)
	huge, _ := new(big.Int).SetString("115792089237316195423570985008687907853269984665640564039457584007913129639935", 10) // 2^256-1
	o := Collection("o1", "m1", "A-1", t0)
	o.Amount = huge
	o.PaidAmount = nil
	createCollection(t, db, o)

	got, err := db.Collection(ctx, "o1")
	if err != nil {
		t.Fatal(err)
	}
	sameCollection(t, got, o)
	if got.Amount.String() != huge.String() || got.PaidAmount != nil {
		t.Fatalf("amounts %v %v", got.Amount, got.PaidAmount)
	}
	got, err = db.CollectionByOrderNo(ctx, "m1", "A-1")
	if err != nil {
		t.Fatal(err)
	}
	sameCollection(t, got, o)

	_, err = db.Collection(ctx, "nope")
	wantCode(t, err, cashier.ENotFound)
	_, err = db.CollectionByOrderNo(ctx, "m2", "A-1") // order numbers are per merchant
	wantCode(t, err, cashier.ENotFound)

	// The same order number is fine for another merchant, and for a payout.
	createCollection(t, db, Collection("o2", "m2", "A-1", t0))
	createPayout(t, db, payout("p1", "m1", "A-1", t0))

	for _, bad := range []func(*cashier.CollectionOrder){
		func(o *cashier.CollectionOrder) { o.ID = "" },
		func(o *cashier.CollectionOrder) { o.CreatedAt = time.Time{} },
		func(o *cashier.CollectionOrder) { o.CashierID = "ghost" },
	} {
		o := Collection("o3", "m1", "A-3", t0)
		bad(o)
		err := db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
		wantCode(t, err, cashier.EInvalid)
	}
	o3 := Collection("o3", "m1", "A-3", t0)
	o3.Amount = big.NewInt(-1)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o3) })
	wantCode(t, err, cashier.EInvalidAmount)
	o3.Amount = nil
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o3) })
	wantCode(t, err, cashier.EInvalidAmount)
}

// Many goroutines create the same order number at once: exactly one wins.
func testCreateCollectionDuplicateRace(t *testing.T) {
	path, key := newLocation(t), newKey(t)
	db := openAt(t, path, key)
	Seed(t, db)
	// A second handle on the same file stands for a second process: its
	// writes meet the first handle's in SQLite's file lock, not in the pool.
	other := openAt(t, path, key)

	const n = 24
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := db
			if i%2 == 1 {
				h = other
			}
			o := Collection(fmt.Sprintf("race-%d", i), "m1", "SAME", t0)
			errs[i] = h.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
		}()
	}
	wg.Wait()
	wins := 0
	for i, err := range errs {
		switch cashier.ErrorCode(err) {
		case "":
			wins++
		case cashier.EDuplicate:
		default:
			t.Errorf("goroutine %d: %v", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d creations succeeded, want exactly 1", wins)
	}
	if _, total, err := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"}); err != nil || total != 1 {
		t.Fatalf("stored %d orders (%v), want 1", total, err)
	}
}

func testCreatePayoutDuplicateRace(t *testing.T) {
	db := openTest(t)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := payout(fmt.Sprintf("race-%d", i), "m1", "SAME", t0)
			errs[i] = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, o) })
		}()
	}
	wg.Wait()
	wins := 0
	for i, err := range errs {
		switch cashier.ErrorCode(err) {
		case "":
			wins++
		case cashier.EDuplicate:
		default:
			t.Errorf("goroutine %d: %v", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d creations succeeded, want exactly 1", wins)
	}
}

func testUpdateCollectionOptimistic(t *testing.T) {
	db := openTest(t)
	createCollection(t, db, Collection("o1", "m1", "A-1", t0))

	a, _ := db.Collection(ctx, "o1")
	b, _ := db.Collection(ctx, "o1")

	a.Status = cashier.CollectionSuccess
	a.PaidAmount = big.NewInt(100_500_000)
	a.TxID, a.FromAddress = "0xabc", "TFROM"
	a.UpdatedAt = t0.Add(time.Minute)
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, a) })
	if a.Version != 1 {
		t.Fatalf("Version after update = %d, want 1", a.Version)
	}
	got, _ := db.Collection(ctx, "o1")
	sameCollection(t, got, a)

	// b was read before a's update: its write is refused and changes nothing.
	b.Status = cashier.CollectionExpired
	err := db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, b) })
	wantCode(t, err, cashier.EInvalidStatus)
	if b.Version != 0 {
		t.Fatalf("stale write bumped the caller's Version to %d", b.Version)
	}
	got, _ = db.Collection(ctx, "o1")
	sameCollection(t, got, a)

	// Two updates in one transaction chain through the bumped Version.
	mustUpdate(t, db, func(tx cashier.Tx) error {
		o, err := tx.Collection(ctx, "o1")
		if err != nil {
			return err
		}
		o.CustNo = "x"
		if err := tx.UpdateCollection(ctx, o); err != nil {
			return err
		}
		o.CustNo = "y"
		return tx.UpdateCollection(ctx, o)
	})
	got, _ = db.Collection(ctx, "o1")
	if got.Version != 3 || got.CustNo != "y" {
		t.Fatalf("after two updates: version %d custNo %q", got.Version, got.CustNo)
	}

	ghost := Collection("ghost", "m1", "G", t0)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, ghost) })
	wantCode(t, err, cashier.ENotFound)
	ghost.ID = ""
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateCollection(ctx, ghost) })
	wantCode(t, err, cashier.EInvalid)
}

func testUpdatePayoutOptimistic(t *testing.T) {
	db := openTest(t)
	createPayout(t, db, payout("p1", "m1", "P-1", t0))
	a, _ := db.Payout(ctx, "p1")
	b, _ := db.PayoutByOrderNo(ctx, "m1", "P-1")

	a.Status, a.TxID, a.GasAmount = cashier.PayoutProcessing, "0xdef", "52000"
	mustUpdate(t, db, func(tx cashier.Tx) error { return tx.UpdatePayout(ctx, a) })
	b.Status, b.FailReason = cashier.PayoutRefuse, "refused"
	err := db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdatePayout(ctx, b) })
	wantCode(t, err, cashier.EInvalidStatus)

	got, _ := db.Payout(ctx, "p1")
	samePayout(t, got, a)
	if got.Version != 1 || got.Status != cashier.PayoutProcessing || got.FailReason != "" {
		t.Fatalf("stored %+v", *got)
	}
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.UpdatePayout(ctx, payout("ghost", "m1", "G", t0)) })
	wantCode(t, err, cashier.ENotFound)
}

func testPayoutRoundTrip(t *testing.T) {
	db := openTest(t)
	o := payout("p1", "m1", "P-1", t0)
	o.BatchID, o.PayoutType, o.FromAddress = "batch-7", cashier.PayoutAllowance, "0x00000000000000000000000000000000000000c1"
	o.Amount, _ = new(big.Int).SetString("98765432109876543210987654321", 10) // beyond int64
	o.Fee = nil
	createPayout(t, db, o)
	got, err := db.Payout(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	samePayout(t, got, o)
	got, err = db.PayoutByOrderNo(ctx, "m1", "P-1")
	if err != nil {
		t.Fatal(err)
	}
	samePayout(t, got, o)

	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, payout("p2", "m1", "P-1", t0)) })
	wantCode(t, err, cashier.EDuplicate)
	_, err = db.Payout(ctx, "p2")
	wantCode(t, err, cashier.ENotFound)
	_, err = db.PayoutByOrderNo(ctx, "m2", "P-1")
	wantCode(t, err, cashier.ENotFound)
	bad := payout("p3", "m1", "P-3", t0)
	bad.ContractID = "ghost"
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, bad) })
	wantCode(t, err, cashier.EInvalid)
	bad = payout("", "m1", "P-3", t0)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayout(ctx, bad) })
	wantCode(t, err, cashier.EInvalid)
}

func ids[T any](list []T, id func(T) string) string {
	var s []string
	for _, v := range list {
		s = append(s, id(v))
	}
	return strings.Join(s, ",")
}

func testCollectionsFilter(t *testing.T) {
	db := openTest(t)
	// o0..o5 for m1, a minute apart; o2 and o4 succeeded; x1 belongs to m2.
	for i := range 6 {
		o := Collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0.Add(time.Duration(i)*time.Minute))
		if i == 2 || i == 4 {
			o.Status = cashier.CollectionSuccess
		}
		createCollection(t, db, o)
	}
	createCollection(t, db, Collection("x1", "m2", "N1", t0.Add(3*time.Minute)))
	// Same millisecond as o5: insertion order breaks the tie.
	createCollection(t, db, Collection("o6", "m1", "N6", t0.Add(5*time.Minute)))

	id := func(o cashier.CollectionOrder) string { return o.ID }
	for _, tc := range []struct {
		name  string
		f     cashier.CollectionFilter
		want  string
		total int
	}{
		{"merchant", cashier.CollectionFilter{MerchantID: "m1"}, "o6,o5,o4,o3,o2,o1,o0", 7},
		{"status", cashier.CollectionFilter{MerchantID: "m1", Status: cashier.CollectionSuccess}, "o4,o2", 2},
		{"range inclusive", cashier.CollectionFilter{MerchantID: "m1", Start: t0.Add(time.Minute), End: t0.Add(3 * time.Minute)}, "o3,o2,o1", 3},
		{"open end", cashier.CollectionFilter{MerchantID: "m1", Start: t0.Add(4 * time.Minute)}, "o6,o5,o4", 3},
		{"open start", cashier.CollectionFilter{MerchantID: "m1", End: t0.Add(time.Minute)}, "o1,o0", 2},
		{"page 1", cashier.CollectionFilter{MerchantID: "m1", Page: 1, PageSize: 3}, "o6,o5,o4", 7},
		{"page 3", cashier.CollectionFilter{MerchantID: "m1", Page: 3, PageSize: 3}, "o0", 7},
		{"page 0 is page 1", cashier.CollectionFilter{MerchantID: "m1", PageSize: 2}, "o6,o5", 7},
		{"past the end", cashier.CollectionFilter{MerchantID: "m1", Page: 9, PageSize: 3}, "", 7},
		{"all merchants", cashier.CollectionFilter{Start: t0.Add(3 * time.Minute), End: t0.Add(3 * time.Minute)}, "x1,o3", 2},
		{"other merchant", cashier.CollectionFilter{MerchantID: "m2"}, "x1", 1},
		{"no match", cashier.CollectionFilter{MerchantID: "m1", Status: cashier.CollectionCancelled}, "", 0},
	} {
		list, total, err := db.Collections(ctx, tc.f)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if got := ids(list, id); got != tc.want || total != tc.total {
			t.Errorf("%s: got %q total %d, want %q total %d", tc.name, got, total, tc.want, tc.total)
		}
	}

	// Inside a transaction the list sees the transaction's own writes.
	mustUpdate(t, db, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, Collection("o7", "m1", "N7", t0.Add(time.Hour))); err != nil {
			return err
		}
		list, total, err := tx.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1", Page: 1, PageSize: 1})
		if err != nil {
			return err
		}
		if total != 8 || len(list) != 1 || list[0].ID != "o7" {
			t.Errorf("in tx: %q total %d", ids(list, id), total)
		}
		return nil
	})
}

func testPayoutsFilter(t *testing.T) {
	db := openTest(t)
	mustUpdate(t, db, func(tx cashier.Tx) error {
		return tx.CreateContract(ctx, &cashier.Contract{ID: "k1b", MerchantID: "m1", Chain: cashier.ChainTRON, CreatedAt: t0})
	})
	for i := range 5 {
		o := payout(fmt.Sprintf("p%d", i), "m1", fmt.Sprintf("P%d", i), t0.Add(time.Duration(i)*time.Second))
		if i%2 == 1 {
			o.ContractID = "k1b"
		}
		if i >= 3 {
			o.Status = cashier.PayoutProcessing
		}
		createPayout(t, db, o)
	}
	createPayout(t, db, payout("q0", "m2", "P0", t0))

	id := func(o cashier.PayoutOrder) string { return o.ID }
	for _, tc := range []struct {
		name  string
		f     cashier.PayoutFilter
		want  string
		total int
	}{
		{"merchant", cashier.PayoutFilter{MerchantID: "m1"}, "p4,p3,p2,p1,p0", 5},
		{"contract", cashier.PayoutFilter{ContractID: "k1b"}, "p3,p1", 2},
		{"status", cashier.PayoutFilter{Status: cashier.PayoutPending}, "p2,p1,q0,p0", 4},
		{"contract+status", cashier.PayoutFilter{MerchantID: "m1", ContractID: "k1", Status: cashier.PayoutProcessing}, "p4", 1},
		{"page 2", cashier.PayoutFilter{MerchantID: "m1", Page: 2, PageSize: 2}, "p2,p1", 5},
	} {
		list, total, err := db.Payouts(ctx, tc.f)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if got := ids(list, id); got != tc.want || total != tc.total {
			t.Errorf("%s: got %q total %d, want %q total %d", tc.name, got, total, tc.want, tc.total)
		}
	}
}

func testUpdateRollsBack(t *testing.T) {
	db := openTest(t)
	boom := errors.New("boom")
	err := db.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, Collection("o1", "m1", "A-1", t0)); err != nil {
			return err
		}
		// Inside, the transaction sees its write; the read pool does not.
		if _, err := tx.Collection(ctx, "o1"); err != nil {
			t.Errorf("in tx: %v", err)
		}
		if _, err := db.Collection(ctx, "o1"); cashier.ErrorCode(err) != cashier.ENotFound {
			t.Errorf("uncommitted write visible outside: %v", err)
		}
		return boom
	})
	if err != boom {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	_, err = db.Collection(ctx, "o1")
	wantCode(t, err, cashier.ENotFound)

	func() {
		defer func() {
			if r := recover(); r != "kaboom" {
				t.Fatalf("recovered %v, want the original panic", r)
			}
		}()
		db.Update(ctx, func(tx cashier.Tx) error {
			if err := tx.CreateCollection(ctx, Collection("o2", "m1", "A-2", t0)); err != nil {
				return err
			}
			panic("kaboom")
		})
	}()
	_, err = db.Collection(ctx, "o2")
	wantCode(t, err, cashier.ENotFound)

	// The write connection was released: the next Update works, and a
	// duplicate inside a transaction leaves the transaction usable.
	mustUpdate(t, db, func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, Collection("o3", "m1", "A-3", t0)); err != nil {
			return err
		}
		err := tx.CreateCollection(ctx, Collection("o4", "m1", "A-3", t0))
		wantCode(t, err, cashier.EDuplicate)
		return tx.CreateCollection(ctx, Collection("o5", "m1", "A-5", t0))
	})
	if _, total, _ := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"}); total != 2 {
		t.Fatalf("%d orders, want 2", total)
	}
}

func testUpdateCancelledContext(t *testing.T) {
	db := openTest(t)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err := db.Update(cctx, func(tx cashier.Tx) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Update with cancelled context: %v", err)
	}
	mustUpdate(t, db, func(tx cashier.Tx) error { return nil })
}

// Concurrent writers queue on the write connection instead of failing.
func testConcurrentWriters(t *testing.T) {
	db := openTest(t)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := Collection(fmt.Sprintf("o%d", i), "m1", fmt.Sprintf("N%d", i), t0)
			errs <- db.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCollection(ctx, o) })
			if _, _, err := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1", PageSize: 5}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, total, _ := db.Collections(ctx, cashier.CollectionFilter{MerchantID: "m1"}); total != n {
		t.Fatalf("%d orders, want %d", total, n)
	}
}

// A sealed secret moved into another merchant's row does not open: someone
// able to write the database cannot give a merchant a secret they know.
func testSealedSecretsAreBoundToTheirRow(t *testing.T) {
	db := openTest(t)
	// The rows are changed behind the store's back (as another process
	// would), so the reads go past the lookup cache.
	if _, err := writePool(db).Exec(`UPDATE merchants SET secret_key_sealed = (SELECT secret_key_sealed FROM merchants WHERE id = 'm2') WHERE id = 'm1'`); err != nil {
		t.Fatal(err)
	}
	if m, err := db.Uncached().Merchant(ctx, "m1"); err == nil {
		t.Fatalf("m1 opened with m2's sealed secret: %q", m.SecretKey)
	}
	if _, err := db.Uncached().Merchant(ctx, "m2"); err != nil {
		t.Fatalf("m2 itself: %v", err)
	}
	// Nor does a webhook key moved into the secret key's column.
	if _, err := writePool(db).Exec(`UPDATE merchants SET secret_key_sealed = webhook_key_sealed WHERE id = 'm2'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Uncached().Merchant(ctx, "m2"); err == nil {
		t.Fatal("a webhook key opened as the secret key")
	}
}
