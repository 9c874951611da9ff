package tronnode

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/binary"

	"github.com/ethereum/go-ethereum/crypto"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/stablecashier/cashier/tron"
)

// blockVersion is the block_header version current java-tron writes.
const blockVersion = 34

// witnessKey signs every block: a single fixed producer, since there is no
// consensus to model.
var witnessKey = func() *ecdsa.PrivateKey {
	seed := sha256.Sum256([]byte("tronnode witness"))
	k, err := crypto.ToECDSA(seed[:])
	if err != nil {
		panic(err)
	}
	return k
}()

// txRecord is a transaction accepted into the pool or a block.
type txRecord struct {
	id     [32]byte
	raw    *tron.RawData
	rawPB  []byte
	sigs   [][]byte
	system bool // added through the Go API: unsigned and free

	kind      tron.ContractType
	owner     tron.Address
	contract  tron.Address // call target; the new address for a creation
	callValue int64
	data      []byte // call input, or init code for a creation
	name      string // contract name of a creation
}

// size is the bandwidth a transaction consumes: its protobuf with
// signatures plus the 64 bytes per contract result java-tron adds.
func (t *txRecord) size() int64 { return int64(len(t.marshal())) + 64 }

// marshal encodes protocol.Transaction (raw_data = 1, signature = 2).
func (t *txRecord) marshal() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, t.rawPB)
	for _, s := range t.sigs {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, s)
	}
	return b
}

// txInfo is the execution result of an included transaction: the stand-in's
// TransactionInfo.
type txInfo struct {
	id             [32]byte
	blockNumber    uint64
	blockTime      int64
	fee            int64
	contractResult []byte
	contract       tron.Address
	energyUsage    int64 // energy taken from the account's own energy (always 0 here)
	energyFee      int64
	energyTotal    int64
	netUsage       int64
	netFee         int64
	result         string // receipt.result: SUCCESS, REVERT, OUT_OF_ENERGY, ...
	failed         bool
	resMessage     string
	logs           []txLog
}

type txLog struct {
	address tron.Address
	topics  [][32]byte
	data    []byte
}

type block struct {
	number    uint64
	time      int64 // Unix ms
	parent    [32]byte
	txRoot    [32]byte
	id        [32]byte
	witness   tron.Address
	signature []byte
	txs       []*txRecord
	infos     []*txInfo
}

// seal computes the header fields that depend on the transactions and the
// block id: the number in the first 8 bytes, then bytes 8..32 of the
// header's sha256, as java-tron's BlockCapsule does.
func (b *block) seal() {
	b.txRoot = merkleRoot(b.txs)
	b.witness = tron.KeyAddress(witnessKey)
	h := sha256.Sum256(b.headerRaw())
	b.id = h
	binary.BigEndian.PutUint64(b.id[:8], b.number)
	sig, err := crypto.Sign(h[:], witnessKey)
	if err != nil {
		panic(err) // only fails for a malformed key
	}
	b.signature = sig
}

// headerRaw encodes BlockHeader.raw: timestamp 1, txTrieRoot 2,
// parentHash 3, number 7, witness_address 9, version 10.
func (b *block) headerRaw() []byte {
	var r []byte
	if b.time != 0 {
		r = protowire.AppendTag(r, 1, protowire.VarintType)
		r = protowire.AppendVarint(r, uint64(b.time))
	}
	r = protowire.AppendTag(r, 2, protowire.BytesType)
	r = protowire.AppendBytes(r, b.txRoot[:])
	r = protowire.AppendTag(r, 3, protowire.BytesType)
	r = protowire.AppendBytes(r, b.parent[:])
	if b.number != 0 {
		r = protowire.AppendTag(r, 7, protowire.VarintType)
		r = protowire.AppendVarint(r, b.number)
	}
	r = protowire.AppendTag(r, 9, protowire.BytesType)
	r = protowire.AppendBytes(r, b.witness.Bytes21())
	r = protowire.AppendTag(r, 10, protowire.VarintType)
	r = protowire.AppendVarint(r, blockVersion)
	return r
}

// merkleRoot hashes the transactions pairwise up to one root, carrying an
// odd leaf up unchanged, over sha256 of each full transaction.
func merkleRoot(txs []*txRecord) [32]byte {
	if len(txs) == 0 {
		return [32]byte{}
	}
	level := make([][32]byte, len(txs))
	for i, t := range txs {
		level[i] = sha256.Sum256(t.marshal())
	}
	for len(level) > 1 {
		next := level[:0:0]
		for i := 0; i < len(level); i += 2 {
			if i+1 == len(level) {
				next = append(next, level[i])
				continue
			}
			next = append(next, sha256.Sum256(append(level[i][:], level[i+1][:]...)))
		}
		level = next
	}
	return level[0]
}
