package tronnode

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/holiman/uint256"

	"github.com/stablecashier/cashier/tron"
)

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
