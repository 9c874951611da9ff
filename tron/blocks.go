package tron

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

func (c *Client) Head(ctx context.Context) (cashier.BlockRef, error) {
	var b apiBlock
	if err := c.t.post(ctx, "/wallet/getnowblock", struct{}{}, &b); err != nil {
		return cashier.BlockRef{}, err
	}
	if b.BlockID == "" {
		return cashier.BlockRef{}, errors.New("tron: getnowblock returned no block")
	}
	return blockRef(&b), nil
}

func (c *Client) BlockByNumber(ctx context.Context, n uint64) (cashier.BlockRef, error) {
	var b *apiBlock
	err := c.untilCaughtUp(ctx, func() (err error) {
		b, err = c.block(ctx, n)
		return err
	})
	if err != nil {
		return cashier.BlockRef{}, err
	}
	return blockRef(b), nil
}

func (c *Client) block(ctx context.Context, n uint64) (*apiBlock, error) {
	var b apiBlock
	if err := c.t.post(ctx, "/wallet/getblockbynum", map[string]any{"num": n}, &b); err != nil {
		return nil, err
	}
	if b.BlockID == "" {
		return nil, fmt.Errorf("%w: block %d not found", ErrBehind, n)
	}
	if b.BlockHeader.RawData.Number != n {
		return nil, fmt.Errorf("tron: asked for block %d, node returned %d", n, b.BlockHeader.RawData.Number)
	}
	return &b, nil
}

func blockRef(b *apiBlock) cashier.BlockRef {
	return cashier.BlockRef{
		Number: b.BlockHeader.RawData.Number,
		Hash:   strings.ToLower(b.BlockID),
		Time:   time.UnixMilli(b.BlockHeader.RawData.Timestamp).UTC(),
	}
}

// TransferLogs scans the transaction infos of each block in [from, toBlock]
// for successful Transfer events of token to a watched address. Log
// indexes count within the transaction, as TRON has no block-wide index.
func (c *Client) TransferLogs(ctx context.Context, token string, to []string, from, toBlock uint64) ([]cashier.Transfer, error) {
	tk, err := ParseAddress(token)
	if err != nil {
		return nil, err
	}
	watched, err := addressSet(to)
	if err != nil {
		return nil, err
	}
	var out []cashier.Transfer
	if from > toBlock || len(watched) == 0 {
		return nil, nil
	}
	tokens := map[Address]bool{tk: true}
	for n := from; ; n++ {
		hits, err := c.blockTransfers(ctx, n, tokens, watched)
		if err != nil {
			return nil, err
		}
		out = append(out, hits...)
		if n == toBlock { // not n <= toBlock: n++ would wrap at the top of uint64
			break
		}
	}
	return out, nil
}

// blockTransfers returns the watched transfers of block n.
func (c *Client) blockTransfers(ctx context.Context, n uint64, tokens, watched map[Address]bool) ([]cashier.Transfer, error) {
	var hits []cashier.Transfer
	err := c.tokenLogs(ctx, transferTopic, tokens, n, n, func(e tokenLog) {
		if watched[e.b] {
			hits = append(hits, e.transfer())
		}
	})
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// ErrBehind reports a node that answered as if a block it was asked about
// did not exist yet: a lagging node (often one of several behind a
// provider's load balancer) answers a block past its head with {} and its
// transaction infos with []. Such an answer is never read as an empty
// block; the request is retried, and failing that the caller's round is.
var ErrBehind = errors.New("tron: node is behind the block asked for")

// blockWithInfos reads block n and its transaction infos and checks that
// they agree: one info per transaction, the same ids. An info list that
// lacks transactions the block has came from a node behind the block, so
// the pair is read again (after a pause, on the next node) rather than
// taken as a block without payments.
func (c *Client) blockWithInfos(ctx context.Context, n uint64) (b *apiBlock, infos []apiTxInfo, err error) {
	err = c.untilCaughtUp(ctx, func() error {
		if b, err = c.block(ctx, n); err != nil {
			return err
		}
		if infos, err = c.blockInfos(ctx, n); err != nil {
			return err
		}
		return sameTransactions(n, b, infos)
	})
	return b, infos, err
}

// untilCaughtUp runs f again, after a growing pause, while it fails with
// ErrBehind: the next request may reach a node that has the block.
func (c *Client) untilCaughtUp(ctx context.Context, f func() error) error {
	delay := c.t.backoff
	var err error
	for attempt := 0; attempt < c.t.attempts; attempt++ {
		if attempt > 0 {
			if werr := sleepCtx(ctx, delay); werr != nil {
				return errors.Join(werr, err)
			}
			delay = min(2*delay, maxBackoff)
		}
		if err = f(); !errors.Is(err, ErrBehind) {
			return err
		}
	}
	return err
}

// sameTransactions checks that infos are those of b's transactions.
func sameTransactions(n uint64, b *apiBlock, infos []apiTxInfo) error {
	if n == 0 {
		return nil // the genesis block's transactions have no infos
	}
	if len(infos) != len(b.Transactions) {
		return fmt.Errorf("%w: block %d has %d transactions, the node gave %d transaction infos", ErrBehind, n, len(b.Transactions), len(infos))
	}
	ids := make(map[string]bool, len(b.Transactions))
	for _, t := range b.Transactions {
		ids[strings.ToLower(t.TxID)] = true
	}
	for _, i := range infos {
		if !ids[strings.ToLower(i.ID)] {
			return fmt.Errorf("%w: transaction info %s is not of block %d %s", ErrBehind, i.ID, n, b.BlockID)
		}
	}
	return nil
}

func (c *Client) blockInfos(ctx context.Context, n uint64) ([]apiTxInfo, error) {
	var raw json.RawMessage
	if err := c.t.post(ctx, "/wallet/gettransactioninfobyblocknum", map[string]any{"num": n}, &raw); err != nil {
		return nil, err
	}
	// An empty block is [], block 0 is {} (and so is a block past a
	// lagging node's head: blockWithInfos tells them apart).
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] == '{' || string(t) == "null" {
		return nil, nil
	}
	var infos []apiTxInfo
	if err := json.Unmarshal(raw, &infos); err != nil {
		return nil, fmt.Errorf("tron: transaction infos of block %d: %w", n, err)
	}
	for _, i := range infos {
		if i.BlockNumber != n {
			return nil, fmt.Errorf("tron: asked for infos of block %d, got one of block %d", n, i.BlockNumber)
		}
	}
	return infos, nil
}
