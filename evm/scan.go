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
	addrs, err := parseAddresses(tokens)
	if err != nil {
		return nil, err
	}
	q := ethereum.FilterQuery{Addresses: addrs, Topics: [][]common.Hash{{TransferTopic}}}
	logs, err := c.chunkedLogs(from, to, func(start, end uint64) ([]types.Log, error) {
		return c.getLogs(ctx, "transfer logs", q, start, end)
	})
	if err != nil {
		return nil, err
	}
	out := make([]cashier.Transfer, 0, len(logs))
	for _, l := range logs {
		if tr, ok := c.transferOf(l); ok {
			out = append(out, tr)
		}
	}
	return out, nil
}

// transferOf decodes l as an ERC-20 Transfer, BlockTime left zero.
func (c *Client) transferOf(l types.Log) (cashier.Transfer, bool) {
	from, to, amount, ok := tokenEvent(l)
	if !ok {
		return cashier.Transfer{}, false
	}
	return cashier.Transfer{Chain: c.cfg.Chain, Token: l.Address.Hex(), From: from, To: to, Amount: amount,
		TxHash: l.TxHash.Hex(), LogIndex: l.Index, BlockNumber: l.BlockNumber, BlockHash: l.BlockHash.Hex()}, true
}

// tokenEvent decodes l as an ERC-20 Transfer or Approval: two indexed
// addresses and a 32-byte value. ERC-721 puts the token id in a fourth
// topic under the same signatures: that is no token payment.
func tokenEvent(l types.Log) (a, b string, value *big.Int, ok bool) {
	if l.Removed || len(l.Topics) != 3 || len(l.Data) != 32 {
		return "", "", nil, false
	}
	a = common.BytesToAddress(l.Topics[1][:]).Hex()
	b = common.BytesToAddress(l.Topics[2][:]).Hex()
	return a, b, new(big.Int).SetBytes(l.Data), true
}

// parseAddresses parses each of addrs.
func parseAddresses(addrs []string) ([]common.Address, error) {
	out := make([]common.Address, 0, len(addrs))
	for _, s := range addrs {
		a, err := parseAddress(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// addressTopics parses each of addrs as an indexed event argument.
func addressTopics(addrs []string) ([]common.Hash, error) {
	parsed, err := parseAddresses(addrs)
	if err != nil {
		return nil, err
	}
	out := make([]common.Hash, 0, len(parsed))
	for _, a := range parsed {
		out = append(out, common.BytesToHash(a[:]))
	}
	return out, nil
}

// getLogs runs q over blocks [from, to]. A node that answers but refuses
// is most often at a range or result-size limit: the range is halved, and
// a one-block range that still fails is a real error, named by what.
func (c *Client) getLogs(ctx context.Context, what string, q ethereum.FilterQuery, from, to uint64) ([]types.Log, error) {
	q.FromBlock = new(big.Int).SetUint64(from)
	q.ToBlock = new(big.Int).SetUint64(to)
	var logs []types.Log
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		logs, err = ec.FilterLogs(ctx, q)
		return err
	})
	if err != nil && from < to && ctx.Err() == nil && !retryable(err) && tooLarge(err) {
		mid := from + (to-from)/2
		a, err := c.getLogs(ctx, what, q, from, mid)
		if err != nil {
			return nil, err
		}
		b, err := c.getLogs(ctx, what, q, mid+1, to)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	if err != nil {
		return nil, fmt.Errorf("evm: %s %d-%d: %w", what, from, to, err)
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
