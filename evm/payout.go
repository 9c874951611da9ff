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
)

// payoutTransferTopic is the payout contract's PayoutTransfer event, whose
// first indexed argument is the batch's contract nonce.
var payoutTransferTopic = crypto.Keccak256Hash([]byte("PayoutTransfer(uint256,uint256,address,uint256)"))

// FindPayout returns the hash of the transaction in which contract paid
// the batch signed with nonce, searching from block from to the head, or
// "" when there is none (yet). The executor uses it to learn a paying
// transaction it may not have recorded (a crash right after sending).
func (c *Client) FindPayout(ctx context.Context, contract string, nonce *big.Int, from uint64) (string, error) {
	k, err := parseAddress(contract)
	if err != nil {
		return "", err
	}
	head, err := c.Head(ctx)
	if err != nil {
		return "", err
	}
	const chunk = 5000
	for lo := from; lo <= head.Number; lo += chunk {
		hi := min(lo+chunk-1, head.Number)
		q := ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(lo), ToBlock: new(big.Int).SetUint64(hi),
			Addresses: []common.Address{k},
			Topics:    [][]common.Hash{{payoutTransferTopic}, {common.BigToHash(nonce)}},
		}
		var logs []types.Log
		err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
			logs, err = ec.FilterLogs(ctx, q)
			return err
		})
		if err != nil {
			return "", fmt.Errorf("evm: payout logs %d-%d: %w", lo, hi, err)
		}
		for _, l := range logs {
			if !l.Removed {
				return l.TxHash.Hex(), nil
			}
		}
	}
	return "", nil
}

// NativeBalance is addr's balance of the network's coin (wei), what pays gas.
func (c *Client) NativeBalance(ctx context.Context, addr string) (*big.Int, error) {
	a, err := parseAddress(addr)
	if err != nil {
		return nil, err
	}
	var b *big.Int
	err = c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		b, err = ec.BalanceAt(ctx, a, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: balance of %s: %w", a.Hex(), err)
	}
	return b, nil
}
