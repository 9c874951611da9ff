package evm

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	cashier "github.com/stablecashier/cashier"
)

// TokenTransfers returns every Transfer event of the given token contracts
// in blocks [from, to], whoever received it, in chain order: one
// eth_getLogs per LogChunk blocks for all tokens together. The chain
// watcher matches recipients against its own index, so the cost of a scan
// follows the blocks, never the number of addresses watched. BlockTime is
// left zero (one header per block would dominate the scan); the caller
// reads it for the blocks that matter.
func (c *Client) TokenTransfers(ctx context.Context, tokens []string, from, to uint64) ([]cashier.Transfer, error) {
	if len(tokens) == 0 || from > to {
		return nil, nil
	}
	addrs := make([]common.Address, 0, len(tokens))
	for _, t := range tokens {
		a, err := parseAddress(t)
		if err != nil {
			return nil, err
		}
		addrs = append(addrs, a)
	}
	logs, err := c.chunkedLogs(from, to, func(start, end uint64) ([]types.Log, error) {
		return c.allTransferLogs(ctx, addrs, start, end)
	})
	if err != nil {
		return nil, err
	}
	out := make([]cashier.Transfer, 0, len(logs))
	for _, l := range logs {
		if l.Removed || len(l.Topics) != 3 || len(l.Data) != 32 {
			continue // not an ERC20 Transfer (ERC721 puts the amount in a topic)
		}
		out = append(out, cashier.Transfer{
			Chain:       c.cfg.Chain,
			Token:       l.Address.Hex(),
			From:        common.BytesToAddress(l.Topics[1][:]).Hex(),
			To:          common.BytesToAddress(l.Topics[2][:]).Hex(),
			Amount:      new(big.Int).SetBytes(l.Data),
			TxHash:      l.TxHash.Hex(),
			LogIndex:    l.Index,
			BlockNumber: l.BlockNumber,
			BlockHash:   l.BlockHash.Hex(),
		})
	}
	return out, nil
}

func (c *Client) allTransferLogs(ctx context.Context, tokens []common.Address, from, to uint64) ([]types.Log, error) {
	q := ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from),
		ToBlock:   new(big.Int).SetUint64(to),
		Addresses: tokens,
		Topics:    [][]common.Hash{{TransferTopic}},
	}
	var logs []types.Log
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		logs, err = ec.FilterLogs(ctx, q)
		return err
	})
	if err != nil && from < to && ctx.Err() == nil && !retryable(err) && tooLarge(err) {
		// A range or result-size limit of the node: halve the range.
		mid := from + (to-from)/2
		a, err := c.allTransferLogs(ctx, tokens, from, mid)
		if err != nil {
			return nil, err
		}
		b, err := c.allTransferLogs(ctx, tokens, mid+1, to)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	if err != nil {
		return nil, fmt.Errorf("evm: transfer logs %d-%d: %w", from, to, err)
	}
	return logs, nil
}

// chunkedLogs runs fetch over [from, to] in ranges of at most LogChunk
// blocks (nodes cap the range of one eth_getLogs) and returns the logs in
// chain order.
func (c *Client) chunkedLogs(from, to uint64, fetch func(start, end uint64) ([]types.Log, error)) ([]types.Log, error) {
	var logs []types.Log
	for start := from; start <= to; {
		end := min(to, start+c.cfg.LogChunk-1)
		got, err := fetch(start, end)
		if err != nil {
			return nil, err
		}
		logs = append(logs, got...)
		if end == to {
			break
		}
		start = end + 1
	}
	slices.SortFunc(logs, func(a, b types.Log) int {
		if a.BlockNumber != b.BlockNumber {
			return cmpU64(a.BlockNumber, b.BlockNumber)
		}
		return cmpU64(uint64(a.Index), uint64(b.Index))
	})
	return logs, nil
}
