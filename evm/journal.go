package evm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
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
// disk on every write. The whole history is replayed on open, but only
// unsettled sends keep their transactions in memory: a payout batch is
// kilobytes of call data, and a long-running sender makes many.
type FileJournal struct {
	mu      sync.Mutex
	f       *os.File
	open    []JournalEntry    // transactions of unsettled sends, in append order
	nonces  map[string]uint64 // unsettled send → nonce
	settled map[string]string // send → mined hash ("" released)
	floor   uint64            // one more than the highest nonce of a send settled as mined
	size    int64             // bytes of complete records in the file
	err     error             // set when a failed write could not be undone
}

type journalRecord struct {
	Op    string        `json:"op"` // "send" or "settle"
	Entry *JournalEntry `json:"entry,omitempty"`
	Send  string        `json:"send,omitempty"`
	Mined string        `json:"mined,omitempty"`
}

// FileJournalPath is the file of account from's journal on chain chainID
// in dir.
func FileJournalPath(dir string, chainID uint64, from string) string {
	return filepath.Join(dir, fmt.Sprintf("txjournal-%d-%s.jsonl", chainID, strings.ToLower(from)))
}

// OpenFileJournal opens (creating it if needed) the journal of account from
// on chain chainID in dir.
func OpenFileJournal(dir string, chainID uint64, from string) (*FileJournal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("evm: journal dir: %w", err)
	}
	name := FileJournalPath(dir, chainID, from)
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
	j := &FileJournal{f: f, nonces: map[string]uint64{}, settled: map[string]string{}}
	if err := j.replay(); err != nil {
		f.Close()
		return nil, fmt.Errorf("evm: journal %s: %w", name, err)
	}
	return j, nil
}

func (j *FileJournal) replay() error {
	// Every record is written as one line ending in '\n' and acknowledged
	// only after it is synced. Text after the last '\n' is a record a crash
	// cut short, even when it happens to parse: it was never acknowledged,
	// and left there it would glue itself to the next record. A complete
	// but unreadable last line was never acknowledged either (a torn write
	// can leave zeros); an unreadable line in the middle is corruption.
	r := bufio.NewReader(j.f)
	var (
		read, good int64
		bad        error
	)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		read += int64(len(line))
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if bad != nil {
			return bad
		}
		var rec journalRecord
		if err := json.Unmarshal(line, &rec); err != nil || !rec.valid() {
			if err == nil {
				err = errors.New("not a journal record")
			}
			bad = fmt.Errorf("line %d: %w", n, err)
			continue
		}
		j.apply(rec)
		good = read
	}
	if good < read {
		if err := j.truncate(good); err != nil {
			return err
		}
	}
	j.size = good
	return nil
}

// valid reports whether r is a record write could have produced.
func (r *journalRecord) valid() bool {
	switch r.Op {
	case "send":
		return r.Entry != nil
	case "settle":
		return r.Send != ""
	}
	return false
}

// truncate cuts the file to size bytes and syncs the cut.
func (j *FileJournal) truncate(size int64) error {
	if err := j.f.Truncate(size); err != nil {
		return err
	}
	return j.f.Sync()
}

func (j *FileJournal) apply(r journalRecord) {
	switch r.Op {
	case "send":
		e := *r.Entry
		if mined, done := j.settled[e.Send]; done {
			// Only a settled send's nonce still matters.
			if mined != "" {
				j.floor = max(j.floor, e.Nonce+1)
			}
			return
		}
		j.open = append(j.open, e)
		j.nonces[e.Send] = e.Nonce
	case "settle":
		j.settled[r.Send] = r.Mined
		n, ok := j.nonces[r.Send]
		if !ok {
			return
		}
		if r.Mined != "" {
			j.floor = max(j.floor, n+1)
		}
		delete(j.nonces, r.Send)
		j.open = slices.DeleteFunc(j.open, func(e JournalEntry) bool { return e.Send == r.Send })
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
	if j.err != nil {
		return j.err
	}
	line := append(b, '\n')
	_, err = j.f.Write(line)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		// The record may be partly on disk: cut it off, so the next record
		// starts on a line of its own, or refuse every later write.
		if terr := j.truncate(j.size); terr != nil {
			j.err = fmt.Errorf("evm: journal unusable after a failed write: %w", errors.Join(err, terr))
		}
		return fmt.Errorf("evm: journal write: %w", err)
	}
	j.size += int64(len(line))
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
	return slices.Clone(j.open), nil
}

// NextNonce implements Journal.
func (j *FileJournal) NextNonce() (uint64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	next := j.floor
	for _, n := range j.nonces {
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
