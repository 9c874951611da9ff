package tron

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// ContractType is Transaction.Contract.ContractType of Tron.proto.
type ContractType int32

const (
	TransferContract     ContractType = 1
	CreateSmartContract  ContractType = 30
	TriggerSmartContract ContractType = 31
)

// TypeURL is the google.protobuf.Any type URL nodes put on a contract.
func (t ContractType) TypeURL() string { return "type.googleapis.com/protocol." + t.String() }

func (t ContractType) String() string {
	switch t {
	case TransferContract:
		return "TransferContract"
	case CreateSmartContract:
		return "CreateSmartContract"
	case TriggerSmartContract:
		return "TriggerSmartContract"
	}
	return fmt.Sprintf("ContractType(%d)", int32(t))
}

// RawData is Transaction.raw of Tron.proto restricted to what a single
// contract call uses. Encoding follows protobuf-java: fields in number order,
// zero values omitted, so Marshal reproduces a node's raw_data_hex byte for
// byte and TxID equals the node's txID.
type RawData struct {
	RefBlockBytes []byte // field 1: bytes 6..8 of the reference block's number
	RefBlockNum   int64  // field 3: unused by current nodes
	RefBlockHash  []byte // field 4: bytes 8..16 of the reference block's id
	Expiration    int64  // field 8: Unix ms
	Data          []byte // field 10: memo
	Contract      Contract
	Timestamp     int64 // field 14: Unix ms
	FeeLimit      int64 // field 18: sun
}

// Contract is Transaction.Contract: the action and its parameter, an Any
// whose value is the protobuf of e.g. TriggerSmartContract.
type Contract struct {
	Type         ContractType // field 1
	TypeURL      string       // field 2.1
	Value        []byte       // field 2.2
	PermissionID int32        // field 5
}

// Raw-data field numbers (Tron.proto, message Transaction.raw).
const (
	rawRefBlockBytes = 1
	rawRefBlockNum   = 3
	rawRefBlockHash  = 4
	rawExpiration    = 8
	rawData          = 10
	rawContract      = 11
	rawTimestamp     = 14
	rawFeeLimit      = 18
)

// Marshal encodes r as a node does.
func (r *RawData) Marshal() []byte {
	var b []byte
	b = appendBytes(b, rawRefBlockBytes, r.RefBlockBytes)
	b = appendVarint(b, rawRefBlockNum, r.RefBlockNum)
	b = appendBytes(b, rawRefBlockHash, r.RefBlockHash)
	b = appendVarint(b, rawExpiration, r.Expiration)
	b = appendBytes(b, rawData, r.Data)
	b = protowire.AppendTag(b, rawContract, protowire.BytesType)
	b = protowire.AppendBytes(b, r.Contract.marshal())
	b = appendVarint(b, rawTimestamp, r.Timestamp)
	b = appendVarint(b, rawFeeLimit, r.FeeLimit)
	return b
}

// TxID is the transaction id: sha256 of the encoded raw data.
func (r *RawData) TxID() [32]byte { return sha256.Sum256(r.Marshal()) }

func (c *Contract) marshal() []byte {
	var any []byte
	if c.TypeURL != "" {
		any = protowire.AppendTag(any, 1, protowire.BytesType)
		any = protowire.AppendString(any, c.TypeURL)
	}
	any = appendBytes(any, 2, c.Value)
	var b []byte
	b = appendVarint(b, 1, int64(c.Type))
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, any)
	b = appendVarint(b, 5, int64(c.PermissionID))
	return b
}

// UnmarshalRawData decodes raw data holding exactly one contract. It is
// strict on purpose: unknown fields, several contracts, authorities or
// scripts are errors, because the client signs only what it fully
// understands.
func UnmarshalRawData(b []byte) (*RawData, error) {
	r := new(RawData)
	contracts := 0
	err := walk(b, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error {
		switch {
		case num == rawRefBlockBytes && typ == protowire.BytesType:
			r.RefBlockBytes = bs
		case num == rawRefBlockNum && typ == protowire.VarintType:
			r.RefBlockNum = int64(v)
		case num == rawRefBlockHash && typ == protowire.BytesType:
			r.RefBlockHash = bs
		case num == rawExpiration && typ == protowire.VarintType:
			r.Expiration = int64(v)
		case num == rawData && typ == protowire.BytesType:
			r.Data = bs
		case num == rawContract && typ == protowire.BytesType:
			contracts++
			c, err := unmarshalContract(bs)
			if err != nil {
				return err
			}
			r.Contract = *c
		case num == rawTimestamp && typ == protowire.VarintType:
			r.Timestamp = int64(v)
		case num == rawFeeLimit && typ == protowire.VarintType:
			r.FeeLimit = int64(v)
		default:
			return fmt.Errorf("unsupported raw_data field %d (wire type %d)", num, typ)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if contracts != 1 {
		return nil, fmt.Errorf("raw_data has %d contracts, want exactly 1", contracts)
	}
	return r, nil
}

func unmarshalContract(b []byte) (*Contract, error) {
	c := new(Contract)
	err := walk(b, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			c.Type = ContractType(int32(v))
		case num == 2 && typ == protowire.BytesType:
			return walk(bs, func(num protowire.Number, typ protowire.Type, _ uint64, bs []byte) error {
				switch {
				case num == 1 && typ == protowire.BytesType:
					c.TypeURL = string(bs)
				case num == 2 && typ == protowire.BytesType:
					c.Value = bs
				default:
					return fmt.Errorf("unsupported Any field %d", num)
				}
				return nil
			})
		case num == 5 && typ == protowire.VarintType:
			c.PermissionID = int32(v)
		default:
			return fmt.Errorf("unsupported contract field %d (wire type %d)", num, typ)
		}
		return nil
	})
	return c, err
}

// TriggerCall is the TriggerSmartContract message: a contract call.
type TriggerCall struct {
	Owner     Address // field 1
	Contract  Address // field 2
	CallValue int64   // field 3: sun
	Data      []byte  // field 4: ABI-encoded input
}

// Marshal encodes the message.
func (t *TriggerCall) Marshal() []byte {
	var b []byte
	b = appendBytes(b, 1, t.Owner.Bytes21())
	b = appendBytes(b, 2, t.Contract.Bytes21())
	b = appendVarint(b, 3, t.CallValue)
	b = appendBytes(b, 4, t.Data)
	return b
}

// UnmarshalTriggerCall decodes a TriggerSmartContract; TRC-10 token
// fields (5, 6) are refused rather than ignored.
func UnmarshalTriggerCall(b []byte) (*TriggerCall, error) {
	t := new(TriggerCall)
	err := walk(b, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			return parse21(bs, &t.Owner)
		case num == 2 && typ == protowire.BytesType:
			return parse21(bs, &t.Contract)
		case num == 3 && typ == protowire.VarintType:
			t.CallValue = int64(v)
		case num == 4 && typ == protowire.BytesType:
			t.Data = bs
		default:
			return fmt.Errorf("unsupported TriggerSmartContract field %d (wire type %d)", num, typ)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// NewTriggerRaw wraps a call into raw data; the reference block, times and
// fee limit are the caller's.
func NewTriggerRaw(call *TriggerCall) *RawData {
	return &RawData{Contract: Contract{
		Type:    TriggerSmartContract,
		TypeURL: TriggerSmartContract.TypeURL(),
		Value:   call.Marshal(),
	}}
}

func parse21(b []byte, a *Address) error {
	if len(b) != 21 || b[0] != AddressPrefix {
		return errors.New("address field is not 21 bytes with prefix 0x41")
	}
	copy(a[:], b[1:])
	return nil
}

func appendVarint(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// walk calls fn for each field of a protobuf message; varint fields pass
// their value in v, length-delimited ones their bytes in bs.
func walk(b []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var (
			v  uint64
			bs []byte
		)
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			bs, n = protowire.ConsumeBytes(b)
		default:
			return fmt.Errorf("unsupported wire type %d for field %d", typ, num)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, typ, v, bs); err != nil {
			return err
		}
	}
	return nil
}
