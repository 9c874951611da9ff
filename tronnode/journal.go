package tronnode

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stablecashier/cashier/tron"
)

// The journal is a JSON-lines file of everything that changes the chain:
// the genesis time, fundings and blocks with their transactions. Replaying
// it re-executes the blocks deterministically and rebuilds the same state,
// block ids and transaction infos. Pending transactions are not journaled,
// as a real node's pool does not survive a restart either.
const journalFile = "chain.jsonl"

type entry struct {
	Genesis *genesisEntry `json:"genesis,omitempty"`
	Fund    *fundEntry    `json:"fund,omitempty"`
	Block   *blockEntry   `json:"block,omitempty"`
}

type genesisEntry struct {
	Time int64 `json:"time"`
}

type fundEntry struct {
	Address string `json:"address"`
	Sun     int64  `json:"sun"`
}

type blockEntry struct {
	Time int64     `json:"time"`
	Txs  []txEntry `json:"txs,omitempty"`
}

type txEntry struct {
	Raw    string   `json:"raw"`
	Sigs   []string `json:"sigs,omitempty"`
	System bool     `json:"system,omitempty"`
}

func journalTx(t *txRecord) txEntry {
	e := txEntry{Raw: hex.EncodeToString(t.rawPB), System: t.system}
	for _, s := range t.sigs {
		e.Sigs = append(e.Sigs, hex.EncodeToString(s))
	}
	return e
}

type journal struct {
	f *os.File
}

// openJournal reads the entries of dir's journal and opens it for
// appending. A torn last line (a crash mid-write) is cut off.
func openJournal(dir string) (*journal, []entry, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, journalFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	var (
		entries []entry
		good    int64
	)
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a line without its newline was never completely written
		}
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		var e entry
		if err := json.Unmarshal(bytes.TrimSpace(line), &e); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("tronnode: journal line %d: %w", len(entries)+1, err)
		}
		entries = append(entries, e)
		good += int64(len(line))
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &journal{f: f}, entries, nil
}

func (j *journal) append(e entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return j.f.Sync()
}

func (j *journal) close() error { return j.f.Close() }

// replay applies journal entries to a fresh node.
func (n *Node) replay(entries []entry) error {
	for i, e := range entries {
		var err error
		switch {
		case e.Genesis != nil:
			if len(n.blocks) != 0 {
				return fmt.Errorf("tronnode: journal entry %d: second genesis", i+1)
			}
			g := &block{number: 0, time: e.Genesis.Time}
			g.seal()
			n.blocks = append(n.blocks, g)
		case len(n.blocks) == 0:
			return fmt.Errorf("tronnode: journal entry %d comes before the genesis", i+1)
		case e.Fund != nil:
			var a tron.Address
			if a, err = tron.ParseAddress(e.Fund.Address); err == nil {
				n.fund(a, e.Fund.Sun)
			}
		case e.Block != nil:
			err = n.replayBlock(e.Block)
		default:
			err = errors.New("empty entry")
		}
		if err != nil {
			return fmt.Errorf("tronnode: journal entry %d: %w", i+1, err)
		}
	}
	return nil
}

func (n *Node) replayBlock(e *blockEntry) error {
	txs := make([]*txRecord, 0, len(e.Txs))
	for _, je := range e.Txs {
		raw, err := hex.DecodeString(je.Raw)
		if err != nil {
			return err
		}
		var sigs [][]byte
		for _, s := range je.Sigs {
			b, err := hex.DecodeString(s)
			if err != nil {
				return err
			}
			sigs = append(sigs, b)
		}
		t, err := decodeTx(raw, sigs, je.System)
		if err != nil {
			return err
		}
		txs = append(txs, t)
	}
	_, err := n.apply(e.Time, txs)
	return err
}
