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

// WaitMined polls for the receipt of hash until it exists or ctx ends. When
// the client can also report the head (as an ethclient can), it then waits
// until the receipt's block is the head or below it: go-ethereum indexes a
// block's receipts a moment before it makes the block the head, and a read
// at "latest" in that moment would not yet see the transaction's effects.
func WaitMined(ctx context.Context, client ReceiptReader, hash common.Hash) (*types.Receipt, error) {
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	var r *types.Receipt
	for {
		if r == nil {
			got, err := client.TransactionReceipt(ctx, hash)
			switch {
			case err == nil:
				r = got
			case !errors.Is(err, ethereum.NotFound) && !IsIndexing(err):
				return nil, fmt.Errorf("devchain: receipt %s: %w", hash, err)
			}
		}
		if r != nil {
			head, ok := client.(interface {
				BlockNumber(context.Context) (uint64, error)
			})
			if !ok {
				return r, nil
			}
			if n, err := head.BlockNumber(ctx); err == nil && n >= r.BlockNumber.Uint64() {
				return r, nil
			}
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
