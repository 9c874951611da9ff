package tronnode

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/stablecashier/cashier/tron"
)

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
