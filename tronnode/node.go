package tronnode

import (
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/holiman/uint256"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

// Network constants as on TRON mainnet.
const (
	// defaultExpiration is how long after building a transaction expires,
	// java-tron's trx.expiration.timeInMilliseconds default.
	defaultExpiration = 60_000
	maxExpiration     = 24 * 60 * 60 * 1000
	tapoBlocks        = 65536
	maxTxSize         = 500 * 1024
	// systemEnergy is the energy limit of transactions added through the
	// Go API, which pay no fees.
	systemEnergy = 100_000_000
)

// Options configures a Node. The zero value is an in-memory node that
// produces blocks only when asked, with mainnet prices.
type Options struct {
	// Dir holds the journal; empty keeps everything in memory.
	Dir string
	// BlockInterval produces a block every interval (TRON: 3 s); zero
	// produces blocks only through ProduceBlock and Deploy.
	BlockInterval time.Duration
	// Clock gives block times and judges expiration.
	Clock cashier.Clock
	// EnergyPrice in sun per energy (getEnergyFee); default 100.
	EnergyPrice int64
	// BandwidthPrice in sun per byte (getTransactionFee); default 1000.
	BandwidthPrice int64
	// FreeBandwidth is every account's daily free bandwidth; default 600.
	FreeBandwidth int64
}

// Node is the stand-in node. It is safe for concurrent use.
type Node struct {
	opts Options

	mu        sync.Mutex
	db        state.Database
	st        *state.StateDB
	blocks    []*block
	txs       map[[32]byte]txLoc
	pending   []*txRecord
	pendingID map[[32]byte]bool
	accounts  map[tron.Address]int64 // activated accounts: creation time (ms)
	netUsed   map[tron.Address]netUse
	journal   *journal
	closed    bool

	stop chan struct{}
	done chan struct{}
}

type txLoc struct {
	block uint64
	index int
}

// netUse is an account's free bandwidth used on one UTC day.
type netUse struct {
	day  int64
	used int64
}

// Open starts a node, replaying the journal in opts.Dir if there is one.
func Open(opts Options) (*Node, error) {
	if opts.Clock == nil {
		opts.Clock = cashier.SystemClock{}
	}
	if opts.EnergyPrice <= 0 {
		opts.EnergyPrice = 100
	}
	if opts.BandwidthPrice <= 0 {
		opts.BandwidthPrice = 1000
	}
	if opts.FreeBandwidth <= 0 {
		opts.FreeBandwidth = 600
	}
	kv := rawdb.NewMemoryDatabase()
	n := &Node{
		opts:      opts,
		db:        state.NewDatabase(triedb.NewDatabase(kv, nil), state.NewCodeDB(kv)),
		txs:       make(map[[32]byte]txLoc),
		pendingID: make(map[[32]byte]bool),
		accounts:  make(map[tron.Address]int64),
		netUsed:   make(map[tron.Address]netUse),
	}
	var err error
	if n.st, err = state.New(types.EmptyRootHash, n.db); err != nil {
		return nil, err
	}
	if opts.Dir != "" {
		j, entries, err := openJournal(opts.Dir)
		if err != nil {
			return nil, err
		}
		n.journal = j
		if err := n.replay(entries); err != nil {
			j.close()
			return nil, err
		}
	}
	if len(n.blocks) == 0 {
		g := &block{number: 0, time: opts.Clock.Now().UnixMilli()}
		g.seal()
		n.blocks = append(n.blocks, g)
		if err := n.record(entry{Genesis: &genesisEntry{Time: g.time}}); err != nil {
			return nil, err
		}
	}
	if opts.BlockInterval > 0 {
		n.stop, n.done = make(chan struct{}), make(chan struct{})
		go n.produceLoop()
	}
	return n, nil
}

// Close stops block production and closes the journal.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	n.mu.Unlock()
	if n.stop != nil {
		close(n.stop)
		<-n.done
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.journal != nil {
		return n.journal.close()
	}
	return nil
}

func (n *Node) produceLoop() {
	defer close(n.done)
	t := time.NewTicker(n.opts.BlockInterval)
	defer t.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-t.C:
			_, _ = n.ProduceBlock()
		}
	}
}

func (n *Node) record(e entry) error {
	if n.journal == nil {
		return nil
	}
	return n.journal.append(e)
}

func (n *Node) head() *block { return n.blocks[len(n.blocks)-1] }

// chainTime is the node's notion of now: the clock, but never before the
// head block.
func (n *Node) chainTime() int64 {
	return max(n.opts.Clock.Now().UnixMilli(), n.head().time)
}

func (n *Node) env(number uint64, t int64) env {
	return env{number: number, time: t, witness: tron.KeyAddress(witnessKey), hash: func(h uint64) common.Hash {
		if h < uint64(len(n.blocks)) {
			return common.Hash(n.blocks[h].id)
		}
		return common.Hash{}
	}}
}

// Fund credits addr with sun, activating the account; TRX on this chain
// comes only from here.
func (n *Node) Fund(addr tron.Address, sun int64) error {
	if sun <= 0 {
		return errors.New("tronnode: fund amount must be positive")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return errors.New("tronnode: closed")
	}
	if err := n.record(entry{Fund: &fundEntry{Address: addr.Hex(), Sun: sun}}); err != nil {
		return err
	}
	n.fund(addr, sun)
	return nil
}

func (n *Node) fund(addr tron.Address, sun int64) {
	n.st.AddBalance(addr.EVM(), uint256.NewInt(uint64(sun)), tracing.BalanceIncreaseGenesisBalance)
	n.activate(addr)
}

func (n *Node) activate(addr tron.Address) {
	if _, ok := n.accounts[addr]; !ok {
		n.accounts[addr] = n.head().time
	}
}

// Balance is addr's TRX balance in sun.
func (n *Node) Balance(addr tron.Address) int64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.st.GetBalance(addr.EVM()).ToBig().Int64()
}

// GenesisID is the block id of the node's block 0, what a client checks
// to know it talks to this chain (TRON mainnet's is the registry's
// default).
func (n *Node) GenesisID() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return hex.EncodeToString(n.blocks[0].id[:])
}
