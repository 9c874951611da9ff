package app

import (
	"context"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
)

// Moving to the shared store, the unsettled sends of a file journal left
// in the data directory are copied into it (once) and the file is set
// aside; its settled sends stay behind.
func TestStoreJournalAdoptsFile(t *testing.T) {
	dir := t.TempDir()
	const chain, acct = 1337, "0xAbC0000000000000000000000000000000000001"
	fj, err := evm.OpenFileJournal(dir, chain, acct)
	if err != nil {
		t.Fatal(err)
	}
	e := func(send string, nonce uint64) evm.JournalEntry {
		return evm.JournalEntry{Send: send, Nonce: nonce, Hash: send, Raw: []byte(send), TipCap: big.NewInt(1), FeeCap: big.NewInt(2), Time: time.UnixMilli(1000)}
	}
	for _, x := range []evm.JournalEntry{e("s1", 3), e("s2", 4)} {
		if err := fj.Append(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := fj.Settle("s1", "s1"); err != nil {
		t.Fatal(err)
	}
	fj.Close()

	sealer, err := sqlite.NewAESSealer(make([]byte, sqlite.MasterKeySize))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), sqlitetest.Path(t), sqlite.Options{Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	j := &storeJournal{store: db, chainID: chain, account: "0xabc0000000000000000000000000000000000001"}
	for i := 0; i < 2; i++ { // a second start finds the file set aside
		if err := j.adoptFile(dir); err != nil {
			t.Fatal(err)
		}
	}
	got, err := j.Unsettled()
	if err != nil || len(got) != 1 || got[0].Send != "s2" || got[0].Nonce != 4 {
		t.Fatalf("adopted %+v, %v: want the unsettled s2 alone", got, err)
	}
	if _, err := os.Stat(evm.FileJournalPath(dir, chain, acct)); !os.IsNotExist(err) {
		t.Fatalf("the file journal is still in place: %v", err)
	}
	if _, err := os.Stat(evm.FileJournalPath(dir, chain, acct) + ".moved"); err != nil {
		t.Fatal(err)
	}
}
