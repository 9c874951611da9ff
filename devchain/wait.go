package devchain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// PollInterval is how often WaitMined asks for a receipt. A dev chain seals
// a block within a few milliseconds of a transaction's arrival, so the
// one-second polling of go-ethereum's bind.WaitMined would dominate every
// test that sends transactions.
const PollInterval = 2 * time.Millisecond

// ReceiptReader is the part of an Ethereum client WaitMined needs.
type ReceiptReader interface {
	TransactionReceipt(ctx context.Context, txHash common.Hash) (*types.Receipt, error)
}

// WaitMined polls for the receipt of hash until it exists or ctx ends.
func WaitMined(ctx context.Context, client ReceiptReader, hash common.Hash) (*types.Receipt, error) {
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	for {
		r, err := client.TransactionReceipt(ctx, hash)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, ethereum.NotFound) && !IsIndexing(err) {
			return nil, fmt.Errorf("devchain: receipt %s: %w", hash, err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("devchain: waiting for %s: %w", hash, ctx.Err())
		case <-t.C:
		}
	}
}

// WaitReceipt waits for the receipt of hash on this chain.
func (c *Chain) WaitReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	return WaitMined(ctx, c.Client, hash)
}

// IsIndexing reports whether err is go-ethereum's answer to a receipt query
// while its transaction index is still being built (shortly after start): the
// receipt may exist but cannot be found yet, so the query is to be repeated.
func IsIndexing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "transaction indexing is in progress")
}
