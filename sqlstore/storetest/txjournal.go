package storetest

import (
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// The nonce journal in the store keeps FileJournal's rules: entries in the
// order recorded, a send's transactions settled together, the next nonce
// past every send not released, accounts apart and in any case.
func testTxJournal(t *testing.T) {
	db := openTest(t)
	const chain, acct = 1337, "0xAbC0000000000000000000000000000000000001"
	entry := func(send string, nonce uint64, hash string, at time.Duration) cashier.JournaledTx {
		return cashier.JournaledTx{Send: send, Nonce: nonce, Hash: hash, Raw: []byte("raw-" + hash),
			TipCap: big.NewInt(2_000_000_000), FeeCap: new(big.Int).Lsh(big.NewInt(1), 70), Time: t0.Add(at)}
	}
	if n, err := db.NextJournalNonce(ctx, chain, acct); err != nil || n != 0 {
		t.Fatalf("empty journal: next nonce %d, %v", n, err)
	}
	for _, e := range []cashier.JournaledTx{
		entry("s1", 5, "s1", 0), entry("s2", 6, "s2", time.Second), entry("s1", 5, "s1b", 2*time.Second), // s1 replaced
		entry("s3", 7, "s3", 3*time.Second),
	} {
		if err := db.AppendTx(ctx, chain, acct, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AppendTx(ctx, chain, acct, entry("s2", 6, "s2", time.Second)); err != nil {
		t.Fatalf("recording again: %v", err)
	}
	// Another account and chain do not mix in.
	if err := db.AppendTx(ctx, chain, "0x00000000000000000000000000000000000000ff", entry("x", 40, "x", 0)); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendTx(ctx, 42161, acct, entry("y", 50, "y", 0)); err != nil {
		t.Fatal(err)
	}
	got, err := db.UnsettledTxs(ctx, chain, "0xabc0000000000000000000000000000000000001")
	if err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for _, e := range got {
		hashes = append(hashes, e.Hash)
	}
	if want := []string{"s1", "s2", "s1b", "s3"}; len(hashes) != len(want) || hashes[0] != "s1" || hashes[2] != "s1b" || hashes[3] != "s3" {
		t.Fatalf("unsettled %v, want %v in the order recorded", hashes, want)
	}
	if e := got[3]; e.Nonce != 7 || string(e.Raw) != "raw-s3" || e.FeeCap.Cmp(new(big.Int).Lsh(big.NewInt(1), 70)) != 0 || !e.Time.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("entry read back as %+v", e)
	}
	if n, _ := db.NextJournalNonce(ctx, chain, acct); n != 8 {
		t.Fatalf("next nonce %d, want 8", n)
	}
	// s3 released (never mined), s1 mined by its replacement.
	if err := db.SettleSend(ctx, chain, acct, "s3", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.SettleSend(ctx, chain, acct, "s1", "s1b"); err != nil {
		t.Fatal(err)
	}
	got, _ = db.UnsettledTxs(ctx, chain, acct)
	if len(got) != 1 || got[0].Hash != "s2" {
		t.Fatalf("after settling s1 and s3: %+v", got)
	}
	if n, _ := db.NextJournalNonce(ctx, chain, acct); n != 7 {
		t.Fatalf("next nonce %d, want 7: the released s3's nonce is free again, s2's is not", n)
	}
	if err := db.SettleSend(ctx, chain, acct, "s2", ""); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.NextJournalNonce(ctx, chain, acct); n != 6 {
		t.Fatalf("next nonce %d, want 6: past the mined s1", n)
	}
	if err := db.AppendTx(ctx, chain, acct, cashier.JournaledTx{Send: "bad", Hash: "bad"}); cashier.ErrorCode(err) != cashier.EInvalid {
		t.Fatalf("incomplete entry: %v", err)
	}
}
