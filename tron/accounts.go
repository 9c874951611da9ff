package tron

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
)

func (c *Client) TokenBalance(ctx context.Context, token, owner string) (*big.Int, error) {
	o, err := ParseAddress(owner)
	if err != nil {
		return nil, err
	}
	return c.viewUint(ctx, token, o, abiCall("balanceOf(address)", o))
}

func (c *Client) Allowance(ctx context.Context, token, owner, spender string) (*big.Int, error) {
	o, err := ParseAddress(owner)
	if err != nil {
		return nil, err
	}
	s, err := ParseAddress(spender)
	if err != nil {
		return nil, err
	}
	return c.viewUint(ctx, token, o, abiCall("allowance(address,address)", o, s))
}

// abiCall encodes a call whose arguments are all addresses.
func abiCall(sig string, args ...Address) []byte {
	b := crypto.Keccak256([]byte(sig))[:4]
	for _, a := range args {
		b = append(b, make([]byte, 12)...)
		b = append(b, a[:]...)
	}
	return b
}

// AccountTransfers implements cashier.TransferHistory, block by block.
func (c *Client) AccountTransfers(ctx context.Context, token, account string, from, toBlock uint64) ([]cashier.Transfer, error) {
	tk, err := ParseAddress(token)
	if err != nil {
		return nil, err
	}
	acct, err := ParseAddress(account)
	if err != nil {
		return nil, err
	}
	var out []cashier.Transfer
	err = c.tokenLogs(ctx, transferTopic, map[Address]bool{tk: true}, from, toBlock, func(e tokenLog) {
		if e.a == acct || e.b == acct {
			out = append(out, e.transfer())
		}
	})
	return out, err
}
