package tron

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// SignedTx is a transaction signed by SignCall and not yet known to be on
// chain. Raw is exactly what Broadcast sends, so sending it again (after a
// lost answer or a crash) is the same transaction, never a second one.
type SignedTx struct {
	ID  string // txID, lowercase hex
	Raw []byte // the broadcasttransaction body
	// Expiration is the latest block time that may include it: once the
	// head block's time is past it and the transaction is in no block, it
	// never will be.
	Expiration time.Time
}

func signedTx(tx *apiTransaction, id [32]byte) (*SignedTx, error) {
	raw, err := hex.DecodeString(tx.RawDataHex)
	if err != nil {
		return nil, fmt.Errorf("%w: raw_data_hex is not hex", ErrTxMismatch)
	}
	r, err := UnmarshalRawData(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	body, err := json.Marshal(tx)
	if err != nil {
		return nil, err
	}
	return &SignedTx{ID: hex.EncodeToString(id[:]), Raw: body, Expiration: time.UnixMilli(r.Expiration).UTC()}, nil
}

// ErrExpired is a broadcast refused because the transaction expired: it
// can never be included.
var ErrExpired = fmt.Errorf("tron: transaction expired")

// Broadcast sends a transaction signed by SignCall and returns its txID.
// Sending it again is harmless: a node that has it answers
// DUP_TRANSACTION_ERROR, which counts as success.
func (c *Client) Broadcast(ctx context.Context, raw []byte) (string, error) {
	var tx apiTransaction
	if err := json.Unmarshal(raw, &tx); err != nil {
		return "", fmt.Errorf("tron: signed transaction: %w", err)
	}
	if len(tx.Signature) == 0 {
		return "", fmt.Errorf("tron: transaction %s is not signed", tx.TxID)
	}
	if err := c.broadcast(ctx, &tx); err != nil {
		if strings.Contains(err.Error(), "TRANSACTION_EXPIRATION_ERROR") {
			return "", fmt.Errorf("%w: %v", ErrExpired, err)
		}
		return "", err
	}
	return strings.ToLower(tx.TxID), nil
}
