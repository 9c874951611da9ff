package tronnode

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/holiman/uint256"
	"google.golang.org/protobuf/encoding/protowire"

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

// Deploy creates a contract from owner with init code (creation bytecode
// with constructor arguments appended) in a block of its own, and returns
// its address, derived from the transaction id as on TRON. Deployments
// through this method pay no fees.
func (n *Node) Deploy(owner tron.Address, initCode []byte, name string) (tron.Address, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	tx := n.systemTx(tron.CreateSmartContract, owner, tron.Address{}, initCode, name)
	n.queue(tx)
	b, err := n.produce()
	if err != nil {
		return tron.Address{}, err
	}
	for i, t := range b.txs {
		if t.id == tx.id {
			info := b.infos[i]
			if info.failed {
				return tron.Address{}, fmt.Errorf("tronnode: deployment failed: %s %s", info.result, info.resMessage)
			}
			return info.contract, nil
		}
	}
	return tron.Address{}, errors.New("tronnode: deployment was not included")
}

// Exec queues a call from owner without a signature or fees (to mint test
// tokens, say); it runs in the next block like any transaction, so its
// events appear in that block's transaction infos. It returns the txID.
func (n *Node) Exec(owner, contract tron.Address, data []byte) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.st.GetCode(contract.EVM())) == 0 {
		return "", fmt.Errorf("tronnode: no contract at %s", contract)
	}
	tx := n.systemTx(tron.TriggerSmartContract, owner, contract, data, "")
	n.queue(tx)
	return fmt.Sprintf("%x", tx.id), nil
}

// Call runs a read-only call against the head state and returns its
// output; a revert is an error.
func (n *Node) Call(owner, contract tron.Address, data []byte) ([]byte, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	r := n.constant(owner, contract, data, 0)
	if r.err != nil {
		return r.ret, fmt.Errorf("tronnode: call %s: %s (%v)", contract, r.status(), r.err)
	}
	return r.ret, nil
}

func (n *Node) constant(owner, contract tron.Address, data []byte, value int64) *execResult {
	h := n.head()
	st := n.st.Copy()
	if value > 0 && st.GetBalance(owner.EVM()).Cmp(uint256.NewInt(uint64(value))) < 0 {
		return &execResult{err: errors.New("not enough balance for call value")}
	}
	return n.env(h.number, h.time).call(st, common.Hash{}, owner, contract, data, value, maxConstantEnergy)
}

// systemTx builds an unsigned transaction the way the node builds any.
func (n *Node) systemTx(kind tron.ContractType, owner, contract tron.Address, data []byte, name string) *txRecord {
	var value []byte
	if kind == tron.CreateSmartContract {
		value = marshalCreate(owner, data, name)
	} else {
		value = (&tron.TriggerCall{Owner: owner, Contract: contract, Data: data}).Marshal()
	}
	raw := n.newRaw(tron.Contract{Type: kind, TypeURL: kind.TypeURL(), Value: value}, systemEnergy*n.opts.EnergyPrice)
	// Two identical calls must still be two transactions: the memo holds
	// the head number and the position in the pool, unique together.
	var nonce [12]byte
	binary.BigEndian.PutUint64(nonce[:8], n.head().number)
	binary.BigEndian.PutUint32(nonce[8:], uint32(len(n.pending)))
	raw.Data = nonce[:]
	t, err := decodeTx(raw.Marshal(), nil, true)
	if err != nil {
		panic(err) // the node's own encoding must decode
	}
	return t
}

// decodeTx turns encoded raw data into a transaction record; it accepts
// the contract types the node executes.
func decodeTx(rawPB []byte, sigs [][]byte, system bool) (*txRecord, error) {
	raw, err := tron.UnmarshalRawData(rawPB)
	if err != nil {
		return nil, err
	}
	t := &txRecord{id: sha256.Sum256(rawPB), raw: raw, rawPB: rawPB, sigs: sigs, system: system, kind: raw.Contract.Type}
	switch raw.Contract.Type {
	case tron.TriggerSmartContract:
		c, err := tron.UnmarshalTriggerCall(raw.Contract.Value)
		if err != nil {
			return nil, err
		}
		t.owner, t.contract, t.callValue, t.data = c.Owner, c.Contract, c.CallValue, c.Data
	case tron.TransferContract:
		c, err := tron.UnmarshalTransferCall(raw.Contract.Value)
		if err != nil {
			return nil, err
		}
		// The recipient and amount ride in contract and callValue.
		t.owner, t.contract, t.callValue = c.Owner, c.To, c.Amount
	case tron.CreateSmartContract:
		if t.owner, t.data, t.name, err = unmarshalCreate(raw.Contract.Value); err != nil {
			return nil, err
		}
		t.contract = tron.Address(crypto.Keccak256(append(t.id[:], t.owner.Bytes21()...))[12:])
	default:
		return nil, fmt.Errorf("contract type %s is not supported", raw.Contract.Type)
	}
	return t, nil
}

// newRaw fills in what the node decides: the reference block (the head),
// expiration and timestamp.
func (n *Node) newRaw(c tron.Contract, feeLimit int64) *tron.RawData {
	h := n.head()
	now := n.chainTime()
	return &tron.RawData{
		RefBlockBytes: h.id[6:8],
		RefBlockHash:  h.id[8:16],
		Expiration:    now + defaultExpiration,
		Contract:      c,
		Timestamp:     n.opts.Clock.Now().UnixMilli(),
		FeeLimit:      feeLimit,
	}
}

func (n *Node) queue(t *txRecord) {
	n.pending = append(n.pending, t)
	n.pendingID[t.id] = true
}

// ProduceBlock seals the pending transactions into a new block and
// returns its number.
func (n *Node) ProduceBlock() (uint64, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	b, err := n.produce()
	if err != nil {
		return 0, err
	}
	return b.number, nil
}

func (n *Node) produce() (*block, error) {
	if n.closed {
		return nil, errors.New("tronnode: closed")
	}
	// The block is stamped with the clock, never ahead of it (a head
	// already later, from a journal, is kept): mainnet's 3 s slots added
	// to the head ran the stand-in's time ahead of the clock whenever
	// blocks came faster, and receivers compare a webhook's blockTime
	// with their own clock.
	t := max(n.opts.Clock.Now().UnixMilli(), n.head().time)
	var keep []*txRecord
	for _, tx := range n.pending {
		// Expired transactions leave the pool as on a real node.
		if tx.system || tx.raw.Expiration >= t {
			keep = append(keep, tx)
		}
	}
	n.pending, n.pendingID = nil, make(map[[32]byte]bool)
	e := entry{Block: &blockEntry{Time: t}}
	for _, tx := range keep {
		e.Block.Txs = append(e.Block.Txs, journalTx(tx))
	}
	if err := n.record(e); err != nil {
		return nil, err
	}
	return n.apply(t, keep)
}

// apply executes txs in a new block at time t and appends it.
func (n *Node) apply(t int64, txs []*txRecord) (*block, error) {
	parent := n.head()
	b := &block{number: parent.number + 1, time: t, parent: parent.id}
	ev := n.env(b.number, t)
	for _, tx := range txs {
		info := n.execute(ev, tx)
		if info == nil {
			continue // could no longer pay for bandwidth: dropped
		}
		info.blockNumber, info.blockTime = b.number, t
		b.txs = append(b.txs, tx)
		b.infos = append(b.infos, info)
	}
	b.seal()
	root, err := n.st.Commit(ev.rules(), b.number)
	if err != nil {
		return nil, err
	}
	// A fresh StateDB per block drops the finished block's logs and journal.
	if n.st, err = state.New(root, n.db); err != nil {
		return nil, err
	}
	n.blocks = append(n.blocks, b)
	for i, tx := range b.txs {
		n.txs[tx.id] = txLoc{block: b.number, index: i}
	}
	return b, nil
}

// execute runs one transaction and charges its resources: bandwidth from
// the free daily allowance or burned at the bandwidth price, energy burned
// at the energy price within fee_limit.
func (n *Node) execute(ev env, tx *txRecord) *txInfo {
	info := &txInfo{id: tx.id}
	owner := tx.owner.EVM()
	limit := int64(systemEnergy)
	if !tx.system {
		size := tx.size()
		day := ev.time / maxExpiration
		use := n.netUsed[tx.owner]
		if use.day != day {
			use = netUse{day: day}
		}
		if use.used+size <= n.opts.FreeBandwidth {
			use.used += size
			n.netUsed[tx.owner] = use
			info.netUsage = size
		} else {
			fee := size * n.opts.BandwidthPrice
			if n.st.GetBalance(owner).Cmp(uint256.NewInt(uint64(fee))) < 0 {
				return nil
			}
			n.st.SubBalance(owner, uint256.NewInt(uint64(fee)), tracing.BalanceDecreaseGasBuy)
			info.netFee = fee
		}
		if tx.kind == tron.TransferContract {
			n.executeTransfer(ev, tx, info)
			return info
		}
		// Energy the balance can buy, within fee_limit, after the call value.
		spendable := new(big.Int).Sub(n.st.GetBalance(owner).ToBig(), big.NewInt(tx.callValue))
		if spendable.Cmp(big.NewInt(tx.raw.FeeLimit)) > 0 {
			spendable.SetInt64(tx.raw.FeeLimit)
		}
		limit = max(0, spendable.Int64()/n.opts.EnergyPrice)
	}
	var r *execResult
	if tx.kind == tron.CreateSmartContract {
		r = ev.create(n.st, tx.id, tx.owner, tx.contract, tx.data, tx.callValue, limit)
		info.contract = tx.contract
		if r.err == nil {
			info.contract = r.created
			n.activate(r.created)
		}
	} else {
		r = ev.call(n.st, common.Hash(tx.id), tx.owner, tx.contract, tx.data, tx.callValue, limit)
		info.contract = tx.contract
	}
	status := r.status()
	used := r.used
	if status != "SUCCESS" && status != "REVERT" {
		used = limit // failures other than REVERT consume all energy, as on the EVM
	}
	info.energyTotal = used
	info.result = status
	info.contractResult = r.ret
	if !tx.system {
		info.energyFee = used * n.opts.EnergyPrice
		n.st.SubBalance(owner, uint256.NewInt(uint64(info.energyFee)), tracing.BalanceDecreaseGasBuy)
	}
	info.fee = info.energyFee + info.netFee
	if r.err != nil {
		info.failed = true
		info.resMessage = r.err.Error()
		if status == "REVERT" {
			info.resMessage = "REVERT opcode executed"
		}
	} else {
		for _, l := range r.logs {
			info.logs = append(info.logs, txLog{address: tron.Address(l.Address), topics: topics(l.Topics), data: l.Data})
		}
	}
	n.st.Finalise(ev.rules())
	return info
}

func topics(h []common.Hash) [][32]byte {
	out := make([][32]byte, len(h))
	for i, t := range h {
		out[i] = t
	}
	return out
}

// marshalCreate encodes CreateSmartContract{owner_address 1, new_contract 2}
// with SmartContract{origin_address 1, bytecode 4,
// consume_user_resource_percent 6, name 7, origin_energy_limit 8}.
func marshalCreate(owner tron.Address, code []byte, name string) []byte {
	var sc []byte
	sc = protowire.AppendTag(sc, 1, protowire.BytesType)
	sc = protowire.AppendBytes(sc, owner.Bytes21())
	sc = protowire.AppendTag(sc, 4, protowire.BytesType)
	sc = protowire.AppendBytes(sc, code)
	sc = protowire.AppendTag(sc, 6, protowire.VarintType)
	sc = protowire.AppendVarint(sc, 100)
	if name != "" {
		sc = protowire.AppendTag(sc, 7, protowire.BytesType)
		sc = protowire.AppendString(sc, name)
	}
	sc = protowire.AppendTag(sc, 8, protowire.VarintType)
	sc = protowire.AppendVarint(sc, systemEnergy)
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, owner.Bytes21())
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, sc)
	return b
}

// unmarshalCreate reads back what marshalCreate wrote.
func unmarshalCreate(b []byte) (owner tron.Address, code []byte, name string, err error) {
	fields := func(b []byte, fn func(num protowire.Number, v []byte) error) error {
		for len(b) > 0 {
			num, typ, n := protowire.ConsumeTag(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			var v []byte
			if typ == protowire.BytesType {
				v, n = protowire.ConsumeBytes(b)
			} else {
				n = protowire.ConsumeFieldValue(num, typ, b)
			}
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			if err := fn(num, v); err != nil {
				return err
			}
		}
		return nil
	}
	err = fields(b, func(num protowire.Number, v []byte) error {
		switch num {
		case 1:
			if len(v) != 21 {
				return errors.New("bad owner address")
			}
			owner = tron.Address(v[1:])
		case 2:
			return fields(v, func(num protowire.Number, v []byte) error {
				switch num {
				case 4:
					code = v
				case 7:
					name = string(v)
				}
				return nil
			})
		}
		return nil
	})
	return owner, code, name, err
}

// GenesisID is the block id of the node's block 0, what a client checks
// to know it talks to this chain (TRON mainnet's is the registry's
// default).
func (n *Node) GenesisID() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return hex.EncodeToString(n.blocks[0].id[:])
}
