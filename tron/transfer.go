package tron

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/stablecashier/cashier"
)

// TransferCall is TransferContract of balance_contract.proto: Amount sun
// of TRX from Owner to To.
type TransferCall struct {
	Owner  Address // field 1
	To     Address // field 2
	Amount int64   // field 3: sun
}

// Marshal encodes the message.
func (t *TransferCall) Marshal() []byte {
	var b []byte
	b = appendBytes(b, 1, t.Owner.Bytes21())
	b = appendBytes(b, 2, t.To.Bytes21())
	b = appendVarint(b, 3, t.Amount)
	return b
}

// UnmarshalTransferCall decodes a TransferContract.
func UnmarshalTransferCall(b []byte) (*TransferCall, error) {
	t := new(TransferCall)
	err := walk(b, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			return parse21(bs, &t.Owner)
		case num == 2 && typ == protowire.BytesType:
			return parse21(bs, &t.To)
		case num == 3 && typ == protowire.VarintType:
			t.Amount = int64(v)
		default:
			return fmt.Errorf("unsupported TransferContract field %d (wire type %d)", num, typ)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// NewTransferRaw wraps a transfer into raw data; the reference block and
// times are the caller's.
func NewTransferRaw(call *TransferCall) *RawData {
	return &RawData{Contract: Contract{Type: TransferContract, TypeURL: TransferContract.TypeURL(), Value: call.Marshal()}}
}

// SendTRX has the node build a TransferContract of sun to addr
// (createtransaction), checks that it is exactly that, signs it and
// broadcasts it; it returns the transaction id.
func (c *Client) SendTRX(ctx context.Context, addr string, sun int64) (string, error) {
	if c.key == nil {
		return "", ErrNoKey
	}
	to, err := ParseAddress(addr)
	if err != nil {
		return "", err
	}
	if sun <= 0 {
		return "", fmt.Errorf("tron: amount %d sun must be above zero", sun)
	}
	want := TransferCall{Owner: c.from, To: to, Amount: sun}
	var tx apiTransaction
	req := map[string]any{"owner_address": c.from.Hex(), "to_address": to.Hex(), "amount": sun, "visible": false}
	if err := c.t.post(ctx, "/wallet/createtransaction", req, &tx); err != nil {
		return "", err
	}
	raw, err := hex.DecodeString(tx.RawDataHex)
	if err != nil {
		return "", fmt.Errorf("%w: raw_data_hex is not hex", ErrTxMismatch)
	}
	id := sha256.Sum256(raw)
	if !strings.EqualFold(tx.TxID, hex.EncodeToString(id[:])) {
		return "", fmt.Errorf("%w: txID %s, sha256(raw_data_hex) %x", ErrTxIDMismatch, tx.TxID, id)
	}
	r, err := UnmarshalRawData(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	if r.Contract.Type != TransferContract || r.Contract.TypeURL != TransferContract.TypeURL() || r.Contract.PermissionID != 0 || len(r.Data) != 0 {
		return "", fmt.Errorf("%w: contract is %s (%s, permission %d)", ErrTxMismatch, r.Contract.Type, r.Contract.TypeURL, r.Contract.PermissionID)
	}
	got, err := UnmarshalTransferCall(r.Contract.Value)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	if *got != want {
		return "", fmt.Errorf("%w: transfer %+v, asked %+v", ErrTxMismatch, *got, want)
	}
	// The node re-encodes raw_data on broadcast: it must say the same.
	var d apiTransferRaw
	if err := json.Unmarshal(tx.RawData, &d); err != nil || len(d.Contract) != 1 {
		return "", fmt.Errorf("%w: raw_data JSON: %v", ErrTxMismatch, err)
	}
	v := d.Contract[0].Parameter.Value
	if d.Contract[0].Type != TransferContract.String() || !strings.EqualFold(v.OwnerAddress, want.Owner.Hex()) ||
		!strings.EqualFold(v.ToAddress, want.To.Hex()) || v.Amount != want.Amount || d.Expiration != r.Expiration || d.Timestamp != r.Timestamp {
		return "", fmt.Errorf("%w: raw_data JSON differs from raw_data_hex", ErrTxMismatch)
	}
	sig, err := Sign(id, c.key)
	if err != nil {
		return "", err
	}
	tx.Signature = []string{hex.EncodeToString(sig)}
	if err := c.broadcast(ctx, &tx); err != nil {
		return "", err
	}
	return hex.EncodeToString(id[:]), nil
}

// apiTransferRaw is raw_data of a TransferContract transaction.
type apiTransferRaw struct {
	Contract []struct {
		Parameter struct {
			Value struct {
				Amount       int64  `json:"amount"`
				OwnerAddress string `json:"owner_address"`
				ToAddress    string `json:"to_address"`
			} `json:"value"`
		} `json:"parameter"`
		Type string `json:"type"`
	} `json:"contract"`
	Expiration int64 `json:"expiration"`
	Timestamp  int64 `json:"timestamp"`
}

// apiFullBlock is a block of getblockbynum with its transactions.
type apiFullBlock struct {
	apiBlock
	Transactions []struct {
		TxID string `json:"txID"`
		Ret  []struct {
			ContractRet string `json:"contractRet"`
		} `json:"ret"`
		RawData apiTransferRaw `json:"raw_data"`
	} `json:"transactions"`
}

// NativeTransfers returns the TRX that successful TransferContract
// transactions of blocks [from, to] sent to the addresses keep accepts,
// in chain order: one getblockbynum per block, whatever the number of
// addresses watched; keep is asked once with every recipient. TRX moved
// by contract calls (call_value, internal transactions) is not seen.
// LogIndex is cashier.NativeIndex.
func (c *Client) NativeTransfers(ctx context.Context, from, to uint64, keep func(addrs []string) (map[string]bool, error)) ([]cashier.Transfer, error) {
	if from > to {
		return nil, nil
	}
	var cand []cashier.Transfer
	for n := from; ; n++ {
		var b apiFullBlock
		if err := c.t.post(ctx, "/wallet/getblockbynum", map[string]any{"num": n}, &b); err != nil {
			return nil, err
		}
		if b.BlockID == "" || b.BlockHeader.RawData.Number != n {
			return nil, fmt.Errorf("tron: block %d not found (node answered %d)", n, b.BlockHeader.RawData.Number)
		}
		ref := blockRef(&b.apiBlock)
		for _, tx := range b.Transactions {
			if len(tx.RawData.Contract) != 1 || tx.RawData.Contract[0].Type != TransferContract.String() {
				continue
			}
			if len(tx.Ret) == 0 || tx.Ret[0].ContractRet != "SUCCESS" {
				continue
			}
			v := tx.RawData.Contract[0].Parameter.Value
			dst, err1 := ParseAddress(v.ToAddress)
			src, err2 := ParseAddress(v.OwnerAddress)
			if err1 != nil || err2 != nil || v.Amount <= 0 {
				continue
			}
			cand = append(cand, cashier.Transfer{Chain: cashier.ChainTRON, From: src.String(), To: dst.String(),
				Amount: big.NewInt(v.Amount), TxHash: strings.ToLower(tx.TxID), LogIndex: cashier.NativeIndex,
				BlockNumber: n, BlockHash: ref.Hash, BlockTime: ref.Time.UTC().Truncate(time.Millisecond)})
		}
		if n == to {
			break
		}
	}
	return cashier.KeepRecipients(cand, keep)
}
