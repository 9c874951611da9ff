package evm

import (
	"math/big"
	"os"
	"testing"
	"time"
)

func entry(send string, nonce uint64, hash string) JournalEntry {
	return JournalEntry{Send: send, Nonce: nonce, Hash: hash, Raw: []byte{1, 2, 3}, TipCap: big.NewInt(1), FeeCap: big.NewInt(2), Time: time.Unix(1700000000, 0).UTC()}
}

func TestFileJournal(t *testing.T) {
	dir := t.TempDir()
	const from = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	j, err := OpenFileJournal(dir, 1, from)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := j.NextNonce(); n != 0 {
		t.Fatalf("empty journal next nonce = %d", n)
	}
	for _, e := range []JournalEntry{entry("a", 0, "a"), entry("b", 1, "b"), entry("a", 0, "a2"), entry("c", 2, "c")} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	// a mined through its replacement; c refused by the node.
	if err := j.Settle("a", "a2"); err != nil {
		t.Fatal(err)
	}
	if err := j.Settle("c", ""); err != nil {
		t.Fatal(err)
	}
	j.Close()

	// A crash while writing leaves a torn last line.
	name := dir + "/txjournal-1-" + lower(from) + ".jsonl"
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"op":"send","entry":{"send":"d","no`)
	f.Close()

	j, err = OpenFileJournal(dir, 1, from)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	un, _ := j.Unsettled()
	if len(un) != 1 || un[0].Hash != "b" || un[0].FeeCap.Int64() != 2 || string(un[0].Raw) != "\x01\x02\x03" {
		t.Fatalf("unsettled after reopen = %+v", un)
	}
	// c was released, so its nonce is free again; b's is not.
	if n, _ := j.NextNonce(); n != 2 {
		t.Fatalf("next nonce = %d, want 2", n)
	}
	// The torn record is gone and new records are readable after it.
	if err := j.Append(entry("e", 2, "e")); err != nil {
		t.Fatal(err)
	}
	j.Close()
	j, err = OpenFileJournal(dir, 1, from)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := j.NextNonce(); n != 3 {
		t.Fatalf("next nonce after append = %d, want 3", n)
	}
}

func TestFileJournalRejectsCorruption(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/txjournal-1-0xabc.jsonl"
	if err := os.WriteFile(name, []byte("garbage\n{\"op\":\"settle\",\"send\":\"a\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFileJournal(dir, 1, "0xabc"); err == nil {
		t.Fatal("a corrupt line in the middle was accepted")
	}
}
