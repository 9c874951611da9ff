package storetest

import (
	"bytes"
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
