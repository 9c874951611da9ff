package tron

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// payoutTransferTopic is the payout contract's PayoutTransfer event, whose
// first indexed argument is the batch's contract nonce.
var payoutTransferTopic = crypto.Keccak256Hash([]byte("PayoutTransfer(uint256,uint256,address,uint256)"))

// FindPayout returns the id of the transaction in which contract paid the
// batch signed with nonce, scanning the blocks from block from to the
// head, or "" when there is none (yet). TRON has no log filter, so this
// reads each block's transaction infos; the executor only calls it for a
// batch whose nonce the contract reports used.
func (c *Client) FindPayout(ctx context.Context, contract string, nonce *big.Int, from uint64) (string, error) {
	k, err := ParseAddress(contract)
	if err != nil {
		return "", err
	}
	head, err := c.Head(ctx)
	if err != nil {
		return "", err
	}
	want := common.BigToHash(nonce).Hex()[2:]
	topic := payoutTransferTopic.Hex()[2:]
	for n := from; n <= head.Number; n++ {
		_, infos, err := c.blockWithInfos(ctx, n)
		if err != nil {
			return "", err
		}
		for _, info := range infos {
			if !info.succeeded() {
				continue
			}
			for _, l := range info.Log {
				a, err := AddressFromLog(l.Address)
				if err != nil || a != k || len(l.Topics) < 2 {
					continue
				}
				if strings.EqualFold(l.Topics[0], topic) && strings.EqualFold(l.Topics[1], want) {
					return strings.ToLower(info.ID), nil
				}
			}
		}
	}
	return "", nil
}

// NativeBalance is addr's TRX balance in sun, what pays energy and bandwidth.
func (c *Client) NativeBalance(ctx context.Context, addr string) (*big.Int, error) {
	a, err := ParseAddress(addr)
	if err != nil {
		return nil, err
	}
	var acct apiAccount
	if err := c.t.post(ctx, "/wallet/getaccount", map[string]any{"address": a.Hex()}, &acct); err != nil {
		return nil, fmt.Errorf("tron: account %s: %w", addr, err)
	}
	return big.NewInt(acct.Balance), nil
}
