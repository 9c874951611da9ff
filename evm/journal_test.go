package evm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
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

// A crash can cut a record just before its newline. That record was never
// acknowledged; kept, it would glue itself to the next one and take an
// acknowledged send with it on the following open.
func TestFileJournalDropsUnterminatedRecord(t *testing.T) {
	dir := t.TempDir()
	const from = "0xabc"
	j, err := OpenFileJournal(dir, 1, from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []JournalEntry{entry("a", 0, "a"), entry("b", 1, "b")} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	f, err := os.OpenFile(dir+"/txjournal-1-0xabc.jsonl", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"op":"send","entry":{"send":"d","nonce":5,"hash":"d"}}`)
	f.Close()

	j, err = OpenFileJournal(dir, 1, from)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := j.NextNonce(); n != 2 {
		t.Fatalf("next nonce = %d, want 2: the unterminated record counted", n)
	}
	if err := j.Append(entry("e", 2, "e")); err != nil {
		t.Fatal(err)
	}
	j.Close()

	j, err = OpenFileJournal(dir, 1, from)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	un, _ := j.Unsettled()
	var hashes []string
	for _, e := range un {
		hashes = append(hashes, e.Hash)
	}
	if len(hashes) != 3 || hashes[2] != "e" {
		t.Fatalf("unsettled after reopen = %v, want [a b e]", hashes)
	}
}

// A write that fails leaves the journal refusing further records rather
// than appending them after a partial one.
func TestFileJournalFailedWrite(t *testing.T) {
	dir := t.TempDir()
	j, err := OpenFileJournal(dir, 1, "0xabc")
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(entry("a", 0, "a")); err != nil {
		t.Fatal(err)
	}
	j.f.Close() // every later write and the truncation that undoes it fail
	if err := j.Append(entry("b", 1, "b")); err == nil {
		t.Fatal("append to a closed file succeeded")
	}
	if err := j.Settle("a", "a"); err == nil || !strings.Contains(err.Error(), "unusable") {
		t.Fatalf("settle after a failed write: %v, want the journal refused as unusable", err)
	}
	if n, _ := j.NextNonce(); n != 1 {
		t.Fatalf("next nonce = %d, want 1: the failed record counted", n)
	}
}

// journalRecords reads the journal file of from on chainID in dir as
// written: every transaction, and the settlement of every send.
func journalRecords(t *testing.T, dir string, chainID uint64, from string) ([]JournalEntry, map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("txjournal-%d-%s.jsonl", chainID, strings.ToLower(from))))
	if err != nil {
		t.Fatal(err)
	}
	var entries []JournalEntry
	settled := map[string]string{}
	for _, l := range bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'}) {
		var r journalRecord
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		switch r.Op {
		case "send":
			entries = append(entries, *r.Entry)
		case "settle":
			settled[r.Send] = r.Mined
		}
	}
	return entries, settled
}

// Settled sends leave memory; their nonces still count.
func TestFileJournalKeepsOnlyUnsettledInMemory(t *testing.T) {
	dir := t.TempDir()
	j, err := OpenFileJournal(dir, 1, "0xabc")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := range uint64(100) {
		send := fmt.Sprint("s", i)
		if err := j.Append(entry(send, i, send)); err != nil {
			t.Fatal(err)
		}
		if i < 99 {
			if err := j.Settle(send, send); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(j.open) != 1 || len(j.nonces) != 1 {
		t.Fatalf("%d transactions and %d nonces in memory, want those of the one unsettled send", len(j.open), len(j.nonces))
	}
	if err := j.Settle("s99", ""); err != nil {
		t.Fatal(err)
	}
	if n, _ := j.NextNonce(); n != 99 {
		t.Fatalf("next nonce = %d, want 99 (98 mined, 99 released)", n)
	}
	j.Close()
	j, err = OpenFileJournal(dir, 1, "0xabc")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if n, _ := j.NextNonce(); n != 99 || len(j.open) != 0 {
		t.Fatalf("after reopen: next nonce %d, %d transactions in memory", n, len(j.open))
	}
}
