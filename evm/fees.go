package evm

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// fees is a priority fee and fee cap pair, with the base fee they were
// priced on (nil for fixed fees).
type fees struct{ tip, cap, base *big.Int }

// suggestFees prices a transaction for the next block: the node's suggested
// priority fee (at least MinTipCap) and a fee cap of the latest base fee
// times BaseFeeMultiplier plus the tip, so it stays includable while the
// base fee rises for a few blocks; both capped by MaxFeeCap.
func (c *Client) suggestFees(ctx context.Context) (*fees, error) {
	var tip *big.Int
	var head *types.Header
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		if tip, err = ec.SuggestGasTipCap(ctx); err != nil {
			return err
		}
		head, err = ec.HeaderByNumber(ctx, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: fees: %w", err)
	}
	if tip.Cmp(c.cfg.MinTipCap) < 0 {
		tip = new(big.Int).Set(c.cfg.MinTipCap)
	}
	base := head.BaseFee
	if base == nil {
		base = new(big.Int)
	}
	feeCap := new(big.Int).Mul(base, big.NewInt(c.cfg.BaseFeeMultiplier))
	feeCap.Add(feeCap, tip)
	return c.capFees(&fees{tip: tip, cap: feeCap, base: base}), nil
}

func (c *Client) capFees(f *fees) *fees {
	if m := c.cfg.MaxFeeCap; m != nil && f.cap.Cmp(m) > 0 {
		f.cap = new(big.Int).Set(m)
	}
	if f.tip.Cmp(f.cap) > 0 {
		f.tip = new(big.Int).Set(f.cap)
	}
	return f
}

// bump raises v by BumpPercent, rounding up.
func (c *Client) bump(v *big.Int) *big.Int {
	n := new(big.Int).Mul(v, big.NewInt(int64(100+c.cfg.BumpPercent)))
	n.Add(n, big.NewInt(99))
	return n.Div(n, big.NewInt(100))
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return new(big.Int).Set(b)
}
