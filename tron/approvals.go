package tron

import (
	"context"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
)

// approvalTopic is keccak256("Approval(address,address,uint256)").
var approvalTopic = [32]byte(crypto.Keccak256([]byte("Approval(address,address,uint256)")))

// TokenApprovals returns the Approval events of the given TRC20 contracts
// in successful transactions of blocks [from, to] whose spender is one of
// spenders, in chain order: one block and its transaction infos per block
// (the wallet API has no log filter), as in TokenTransfers.
func (c *Client) TokenApprovals(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Approval, error) {
	want, err := addressSet(tokens)
	if err != nil {
		return nil, err
	}
	spend, err := addressSet(spenders)
	if err != nil || from > to || len(want) == 0 || len(spend) == 0 {
		return nil, err
	}
	var out []cashier.Approval
	err = c.tokenLogs(ctx, approvalTopic, want, from, to, func(e tokenLog) {
		if spend[e.b] {
			out = append(out, e.approval())
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// TokenEvents is TokenTransfers and TokenApprovals in one pass over the
// blocks: each block and its transaction infos are read once, where the
// two would read them twice (node providers count requests).
func (c *Client) TokenEvents(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Transfer, []cashier.Approval, error) {
	want, err := addressSet(tokens)
	if err != nil {
		return nil, nil, err
	}
	spend, err := addressSet(spenders)
	if err != nil || from > to || len(want) == 0 {
		return nil, nil, err
	}
	var transfers []cashier.Transfer
	var approvals []cashier.Approval
	err = c.tokenEventLogs(ctx, map[[32]byte]func(tokenLog){
		transferTopic: func(e tokenLog) { transfers = append(transfers, e.transfer()) },
		approvalTopic: func(e tokenLog) {
			if spend[e.b] {
				approvals = append(approvals, e.approval())
			}
		},
	}, want, from, to)
	if err != nil {
		return nil, nil, err
	}
	return transfers, approvals, nil
}

// approval is e as an Approval.
func (e tokenLog) approval() cashier.Approval {
	return cashier.Approval{Chain: cashier.ChainTRON, Token: e.token.String(), Owner: e.a.String(), Spender: e.b.String(), Value: e.value,
		TxHash: e.tx, LogIndex: e.index, BlockNumber: e.block, BlockHash: e.hash, BlockTime: e.time}
}
