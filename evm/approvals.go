package evm

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

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
	q, err := approvalQuery(tokens, spenders)
	if err != nil {
		return nil, err
	}
	logs, err := c.chunkedLogs(from, to, func(start, end uint64) ([]types.Log, error) {
		return c.verifiedLogs(ctx, "approval logs", q, start, end, map[uint64]time.Time{})
	})
	if err != nil {
		return nil, err
	}
	out := make([]cashier.Approval, 0, len(logs))
	for _, l := range logs {
		owner, spender, value, ok := tokenEvent(l)
		if !ok {
			continue
		}
		out = append(out, cashier.Approval{Chain: c.cfg.Chain, Token: l.Address.Hex(), Owner: owner, Spender: spender, Value: value,
			TxHash: l.TxHash.Hex(), LogIndex: l.Index, BlockNumber: l.BlockNumber, BlockHash: l.BlockHash.Hex()})
	}
	return out, nil
}

// approvalQuery filters the Approval events of tokens to one of spenders.
func approvalQuery(tokens, spenders []string) (ethereum.FilterQuery, error) {
	addrs, err := parseAddresses(tokens)
	if err != nil {
		return ethereum.FilterQuery{}, err
	}
	topics, err := addressTopics(spenders)
	return ethereum.FilterQuery{Addresses: addrs, Topics: [][]common.Hash{{ApprovalTopic}, nil, topics}}, err
}
