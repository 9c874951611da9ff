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

// TokenEvents is TokenTransfers and TokenApprovals over one range with one
// log read per chunk: the Transfer and Approval events of tokens are asked
// together (and the chunk's headers once), and the approvals to a spender
// not listed are left out here rather than by the node. A watcher
// following approvals thus pays a block's log reads once, as node
// providers count requests.
func (c *Client) TokenEvents(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Transfer, []cashier.Approval, error) {
	if len(tokens) == 0 || from > to {
		return nil, nil, nil
	}
	addrs, err := parseAddresses(tokens)
	if err != nil {
		return nil, nil, err
	}
	wanted := map[common.Address]bool{}
	for _, s := range spenders {
		a, err := parseAddresses([]string{s})
		if err != nil {
			return nil, nil, err
		}
		wanted[a[0]] = true
	}
	q := ethereum.FilterQuery{Addresses: addrs, Topics: [][]common.Hash{{TransferTopic, ApprovalTopic}}}
	times := map[uint64]time.Time{}
	logs, err := c.chunkedLogs(from, to, func(start, end uint64) ([]types.Log, error) {
		return c.verifiedLogs(ctx, "token logs", q, start, end, times)
	})
	if err != nil {
		return nil, nil, err
	}
	var transfers []cashier.Transfer
	var approvals []cashier.Approval
	for _, l := range logs {
		if len(l.Topics) == 0 {
			continue
		}
		switch l.Topics[0] {
		case TransferTopic:
			if tr, ok := c.transferOf(l); ok {
				tr.BlockTime = times[l.BlockNumber]
				transfers = append(transfers, tr)
			}
		case ApprovalTopic:
			owner, spender, value, ok := tokenEvent(l)
			if !ok || !wanted[common.HexToAddress(spender)] {
				continue
			}
			approvals = append(approvals, cashier.Approval{Chain: c.cfg.Chain, Token: l.Address.Hex(), Owner: owner, Spender: spender, Value: value,
				TxHash: l.TxHash.Hex(), LogIndex: l.Index, BlockNumber: l.BlockNumber, BlockHash: l.BlockHash.Hex(), BlockTime: times[l.BlockNumber]})
		}
	}
	return transfers, approvals, nil
}
