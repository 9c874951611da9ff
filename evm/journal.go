package evm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// JournalEntry is one signed transaction as it was about to be broadcast.
// Every transaction of a logical send (the first one and each fee-bumped
// replacement, all with the same nonce) is one entry with the same Send.
type JournalEntry struct {
	Send   string    `json:"send"`  // hash of the send's first transaction: its identity
	Nonce  uint64    `json:"nonce"` //
	Hash   string    `json:"hash"`  // hash of Raw
	Raw    []byte    `json:"raw"`   // signed transaction, binary encoding
	TipCap *big.Int  `json:"tipCap"`
	FeeCap *big.Int  `json:"feeCap"`
	Time   time.Time `json:"time"` // when it was signed
}

// Journal records outgoing transactions of one sending account on one chain
// durably, before they are broadcast, so that after a crash or restart no
// nonce is reused and every signed transaction can be re-broadcast. It is
// small on purpose: a file (FileJournal) or a table with the columns of
// JournalEntry plus a settled hash can implement it.
type Journal interface {
	// Append records e durably; it returns only once e survives a crash.
	Append(e JournalEntry) error
	// Settle closes the send: mined is the hash of its transaction that was
	// mined and confirmed, or "" when none of its transactions will ever be
	// mined (a node refused it, or another transaction took its nonce).
	Settle(send, mined string) error
	// Unsettled returns the entries of every send not yet settled, in the
	// order they were appended.
	Unsettled() ([]JournalEntry, error)
	// NextNonce returns one more than the highest nonce of any send not
	// settled with "", or 0 when there is none. A nonce another transaction
	// took is covered by the chain's own nonce, which the sender also reads.
	NextNonce() (uint64, error)
}

// FileJournal is a Journal in an append-only file of JSON lines, synced to
// disk on every write. The whole history is replayed into memory on open; a
// sending account produces a few hundred bytes per transaction.
type FileJournal struct {
	mu       sync.Mutex
	f        *os.File
	entries  []JournalEntry
	settled  map[string]string // send → mined hash ("" released)
	maxNonce map[string]uint64 // send → nonce
}

type journalRecord struct {
	Op    string        `json:"op"` // "send" or "settle"
	Entry *JournalEntry `json:"entry,omitempty"`
	Send  string        `json:"send,omitempty"`
	Mined string        `json:"mined,omitempty"`
}

// OpenFileJournal opens (creating it if needed) the journal of account from
// on chain chainID in dir.
func OpenFileJournal(dir string, chainID uint64, from string) (*FileJournal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("evm: journal dir: %w", err)
	}
	name := filepath.Join(dir, fmt.Sprintf("txjournal-%d-%s.jsonl", chainID, strings.ToLower(from)))
	_, statErr := os.Stat(name)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("evm: journal: %w", err)
	}
	if os.IsNotExist(statErr) {
		// A new file's directory entry must reach the disk too, or a crash
		// can lose the file with every record synced into it.
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, fmt.Errorf("evm: journal dir sync: %w", err)
		}
	}
	j := &FileJournal{f: f, settled: map[string]string{}, maxNonce: map[string]uint64{}}
	if err := j.replay(); err != nil {
		f.Close()
		return nil, fmt.Errorf("evm: journal %s: %w", name, err)
	}
	return j, nil
}

func (j *FileJournal) replay() error {
	sc := bufio.NewScanner(j.f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for line := 1; sc.Scan(); line++ {
		var r journalRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			// A crash can leave a torn last line; a record that was not
			// completely written was never acknowledged, so dropping it is
			// right. A bad line in the middle is corruption.
			if !sc.Scan() {
				return j.truncateTorn()
			}
			return fmt.Errorf("line %d: %w", line, err)
		}
		j.apply(r)
	}
	return sc.Err()
}

// truncateTorn cuts the file after its last complete line so new records do
// not get glued to a torn one.
func (j *FileJournal) truncateTorn() error {
	data, err := os.ReadFile(j.f.Name())
	if err != nil {
		return err
	}
	cut := strings.LastIndexByte(string(data), '\n') + 1
	if err := j.f.Truncate(int64(cut)); err != nil {
		return err
	}
	return j.f.Sync()
}

func (j *FileJournal) apply(r journalRecord) {
	switch r.Op {
	case "send":
		j.entries = append(j.entries, *r.Entry)
		j.maxNonce[r.Entry.Send] = r.Entry.Nonce
	case "settle":
		j.settled[r.Send] = r.Mined
	}
}

func (j *FileJournal) write(r journalRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return errors.New("evm: journal is closed")
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("evm: journal write: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("evm: journal sync: %w", err)
	}
	j.apply(r)
	return nil
}

// Append implements Journal.
func (j *FileJournal) Append(e JournalEntry) error {
	return j.write(journalRecord{Op: "send", Entry: &e})
}

// Settle implements Journal.
func (j *FileJournal) Settle(send, mined string) error {
	return j.write(journalRecord{Op: "settle", Send: send, Mined: mined})
}

// Unsettled implements Journal.
func (j *FileJournal) Unsettled() ([]JournalEntry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []JournalEntry
	for _, e := range j.entries {
		if _, done := j.settled[e.Send]; !done {
			out = append(out, e)
		}
	}
	return out, nil
}

// NextNonce implements Journal.
func (j *FileJournal) NextNonce() (uint64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var next uint64
	for send, n := range j.maxNonce {
		if mined, done := j.settled[send]; done && mined == "" {
			continue
		}
		next = max(next, n+1)
	}
	return next, nil
}

// Close closes the file.
func (j *FileJournal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
