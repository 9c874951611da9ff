package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/stablecashier/cashier"
)

// nativeBatch is how many blocks one batched eth_getBlockByNumber request
// asks for.
const nativeBatch = 50

// rpcBlock is the part of eth_getBlockByNumber(n, true) the native scan
// reads.
type rpcBlock struct {
	Hash         common.Hash    `json:"hash"`
	Number       hexutil.Uint64 `json:"number"`
	Timestamp    hexutil.Uint64 `json:"timestamp"`
	Transactions []struct {
		Hash  common.Hash     `json:"hash"`
		From  common.Address  `json:"from"`
		To    *common.Address `json:"to"`
		Value *hexutil.Big    `json:"value"`
	} `json:"transactions"`
}

// NativeTransfers returns the ether (the network's coin) that top-level
// transactions of blocks [from, to] sent to the addresses keep accepts,
// from successful transactions only, in chain order. Blocks are read with
// their transactions in batched requests; keep is asked once with every
// recipient of a value transfer, and only the transactions it keeps cost a
// receipt. Value moved by internal calls (a contract forwarding ether) is
// not in a block's transactions and is not seen: that needs a tracing node.
// LogIndex is cashier.NativeIndex.
func (c *Client) NativeTransfers(ctx context.Context, from, to uint64, keep func(addrs []string) (map[string]bool, error)) ([]cashier.Transfer, error) {
	if from > to {
		return nil, nil
	}
	var cand []cashier.Transfer
	for start := from; ; start += nativeBatch {
		end := min(to, start+nativeBatch-1)
		blocks, err := c.fullBlocks(ctx, start, end)
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			for _, tx := range b.Transactions {
				if tx.To == nil || tx.Value == nil || tx.Value.ToInt().Sign() <= 0 {
					continue
				}
				cand = append(cand, cashier.Transfer{
					Chain: c.cfg.Chain, From: tx.From.Hex(), To: tx.To.Hex(), Amount: new(big.Int).Set(tx.Value.ToInt()),
					TxHash: tx.Hash.Hex(), LogIndex: cashier.NativeIndex, BlockNumber: uint64(b.Number),
					BlockHash: b.Hash.Hex(), BlockTime: time.Unix(int64(b.Timestamp), 0).UTC(),
				})
			}
		}
		if end == to {
			break
		}
	}
	kept, err := cashier.KeepRecipients(cand, keep)
	if err != nil {
		return nil, err
	}
	var out []cashier.Transfer
	for _, t := range kept {
		r, err := c.receipt(ctx, common.HexToHash(t.TxHash))
		if err != nil {
			return nil, err
		}
		if r == nil || !strings.EqualFold(r.BlockHash.Hex(), t.BlockHash) {
			// Its block was replaced between the two reads: the round is
			// retried on a settled chain.
			return nil, fmt.Errorf("evm: transaction %s is no longer in block %d", t.TxHash, t.BlockNumber)
		}
		if r.Status != types.ReceiptStatusSuccessful {
			continue // reverted: no value moved
		}
		out = append(out, t)
	}
	return out, nil
}

// fullBlocks reads blocks [from, to] with their transactions, in one
// batched request, or one request per block from nodes that refuse or cap
// batches (remembered once single requests have worked where a batch did
// not).
func (c *Client) fullBlocks(ctx context.Context, from, to uint64) ([]rpcBlock, error) {
	if !c.noBatch.Load() {
		blocks, err := c.batchBlocks(ctx, from, to)
		if err == nil || ctx.Err() != nil {
			return blocks, err
		}
		single, serr := c.singleBlocks(ctx, from, to)
		if serr != nil {
			return nil, err
		}
		c.noBatch.Store(true)
		return single, nil
	}
	return c.singleBlocks(ctx, from, to)
}

// singleBlocks reads blocks [from, to] with one request each.
func (c *Client) singleBlocks(ctx context.Context, from, to uint64) ([]rpcBlock, error) {
	blocks := make([]rpcBlock, 0, to-from+1)
	for n := from; n <= to; n++ {
		var b rpcBlock
		err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) error {
			b = rpcBlock{}
			return ec.Client().CallContext(ctx, &b, "eth_getBlockByNumber", hexutil.EncodeUint64(n), true)
		})
		if err != nil {
			return nil, fmt.Errorf("evm: block %d: %w", n, err)
		}
		if b.Hash == (common.Hash{}) || uint64(b.Number) != n {
			return nil, fmt.Errorf("evm: block %d: %w", n, errors.New("missing from the node's answer"))
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// batchBlocks reads blocks [from, to] in one batched request.
func (c *Client) batchBlocks(ctx context.Context, from, to uint64) ([]rpcBlock, error) {
	blocks := make([]rpcBlock, to-from+1)
	errs := make([]error, len(blocks))
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) error {
		batch := make([]rpc.BatchElem, len(blocks))
		for i := range batch {
			blocks[i] = rpcBlock{}
			batch[i] = rpc.BatchElem{Method: "eth_getBlockByNumber",
				Args: []any{hexutil.EncodeUint64(from + uint64(i)), true}, Result: &blocks[i]}
		}
		if err := ec.Client().BatchCallContext(ctx, batch); err != nil {
			return err
		}
		for i, b := range batch {
			errs[i] = b.Error
			if b.Error != nil && retryable(b.Error) {
				return b.Error
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("evm: blocks %d-%d: %w", from, to, err)
	}
	for i, b := range blocks {
		n := from + uint64(i)
		if errs[i] != nil {
			return nil, fmt.Errorf("evm: block %d: %w", n, errs[i])
		}
		if b.Hash == (common.Hash{}) || uint64(b.Number) != n {
			// A missing block (null) or a partial answer: never skip it.
			return nil, fmt.Errorf("evm: block %d: %w", n, errors.New("missing from the node's answer"))
		}
	}
	return blocks, nil
}
