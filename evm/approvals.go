package evm

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	cashier "github.com/stablecashier/cashier"
)

// ApprovalTopic is the ERC-20 Approval(owner, spender, value) event.
var ApprovalTopic = crypto.Keccak256Hash([]byte("Approval(address,address,uint256)"))

// TokenApprovals returns the Approval events of the given token contracts
// in blocks [from, to] whose spender is one of spenders, in chain order:
// one eth_getLogs per LogChunk blocks with the spenders as the third topic,
// halved when a node finds the range too large.
func (c *Client) TokenApprovals(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Approval, error) {
	if len(tokens) == 0 || len(spenders) == 0 || from > to {
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
	topics := make([]common.Hash, 0, len(spenders))
	for _, s := range spenders {
		a, err := parseAddress(s)
		if err != nil {
			return nil, err
		}
		topics = append(topics, common.BytesToHash(a.Bytes()))
	}
	logs, err := c.chunkedLogs(from, to, func(start, end uint64) ([]types.Log, error) {
		return c.approvalLogs(ctx, addrs, topics, start, end)
	})
	if err != nil {
		return nil, err
	}
	out := make([]cashier.Approval, 0, len(logs))
	for _, l := range logs {
		if l.Removed || len(l.Topics) != 3 || len(l.Data) != 32 {
			continue // not an ERC-20 Approval (ERC-721 puts the token id in a topic)
		}
		out = append(out, cashier.Approval{
			Chain:       c.cfg.Chain,
			Token:       l.Address.Hex(),
			Owner:       common.BytesToAddress(l.Topics[1][:]).Hex(),
			Spender:     common.BytesToAddress(l.Topics[2][:]).Hex(),
			Value:       new(big.Int).SetBytes(l.Data),
			TxHash:      l.TxHash.Hex(),
			LogIndex:    l.Index,
			BlockNumber: l.BlockNumber,
			BlockHash:   l.BlockHash.Hex(),
		})
	}
	return out, nil
}

func (c *Client) approvalLogs(ctx context.Context, tokens []common.Address, spenders []common.Hash, from, to uint64) ([]types.Log, error) {
	q := ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from),
		ToBlock:   new(big.Int).SetUint64(to),
		Addresses: tokens,
		Topics:    [][]common.Hash{{ApprovalTopic}, nil, spenders},
	}
	var logs []types.Log
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		logs, err = ec.FilterLogs(ctx, q)
		return err
	})
	if err != nil && from < to && ctx.Err() == nil && !retryable(err) && tooLarge(err) {
		mid := from + (to-from)/2
		a, err := c.approvalLogs(ctx, tokens, spenders, from, mid)
		if err != nil {
			return nil, err
		}
		b, err := c.approvalLogs(ctx, tokens, spenders, mid+1, to)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	if err != nil {
		return nil, fmt.Errorf("evm: approval logs %d-%d: %w", from, to, err)
	}
	return logs, nil
}
