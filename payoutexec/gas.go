package payoutexec

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/payoutcontract"
)

// Gas recovery (policy fee+gas, docs/decisions.md "Gas recovery"): a
// batch's signed totalFee is the orders' fees plus a gas charge in the
// token, priced when the batch is signed as the gas estimate × (base fee +
// priority fee) converted with the network's coin price. The charge is what
// the contract deducts; on confirmation it is read back from the batch
// event (totalFee − the orders' fees) and split over the orders as their
// gasAmount, so gasAmount is exactly what was deducted.

// CoinPrice is the price of a network's coin in a stablecoin: Num/Den whole
// tokens per whole coin.
type CoinPrice interface {
	Price(ctx context.Context) (num, den *big.Int, err error)
}

// FixedPrice is a price the operator configured.
type FixedPrice struct{ Num, Den *big.Int }

// Price implements CoinPrice.
func (p FixedPrice) Price(context.Context) (*big.Int, *big.Int, error) { return p.Num, p.Den, nil }

// ParseFixedPrice reads a decimal price ("3150.25").
func ParseFixedPrice(s string) (FixedPrice, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() <= 0 || len(s) > 40 {
		return FixedPrice{}, fmt.Errorf("price %q: want a positive decimal number of tokens per coin", s)
	}
	return FixedPrice{Num: r.Num(), Den: r.Denom()}, nil
}

// FeedReader reads a contract's views; evm.Client implements it.
type FeedReader interface {
	CallView(ctx context.Context, contract string, data []byte) ([]byte, error)
}

// FeedPrice reads a Chainlink-compatible AggregatorV3 feed on chain:
// latestRoundData's answer over 10^decimals(). An answer that is not
// positive, or older than MaxAge by the injected clock, is refused: the
// batch waits rather than charge with a wrong price.
type FeedPrice struct {
	Reader FeedReader
	Feed   string
	MaxAge time.Duration
	Clock  cashier.Clock
}

var feedABI = bindings.NewTestPriceFeed()

// Price implements CoinPrice.
func (f FeedPrice) Price(ctx context.Context) (*big.Int, *big.Int, error) {
	out, err := f.Reader.CallView(ctx, f.Feed, feedABI.PackDecimals())
	if err != nil {
		return nil, nil, fmt.Errorf("price feed %s: decimals: %w", f.Feed, err)
	}
	dec, err := feedABI.UnpackDecimals(out)
	if err != nil {
		return nil, nil, fmt.Errorf("price feed %s: decimals: %w", f.Feed, err)
	}
	out, err = f.Reader.CallView(ctx, f.Feed, feedABI.PackLatestRoundData())
	if err != nil {
		return nil, nil, fmt.Errorf("price feed %s: latestRoundData: %w", f.Feed, err)
	}
	r, err := feedABI.UnpackLatestRoundData(out)
	if err != nil {
		return nil, nil, fmt.Errorf("price feed %s: latestRoundData: %w", f.Feed, err)
	}
	if r.Answer == nil || r.Answer.Sign() <= 0 {
		return nil, nil, fmt.Errorf("price feed %s answers %v: not a price", f.Feed, r.Answer)
	}
	if f.MaxAge > 0 && r.UpdatedAt != nil {
		if age := f.Clock.Now().Sub(time.Unix(r.UpdatedAt.Int64(), 0)); age > f.MaxAge {
			return nil, nil, fmt.Errorf("price feed %s last updated %s ago, more than %s", f.Feed, age.Round(time.Second), f.MaxAge)
		}
	}
	return r.Answer, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil), nil
}

// estimator prices a call without sending it; evm.Client implements it.
type estimator interface {
	Estimate(ctx context.Context, from string, call cashier.Call) (evm.Estimate, error)
}

// GasCharge converts a coin amount (base units) to token base units at
// num/den whole tokens per whole coin, rounding up: the operator is never
// short by a rounding.
func GasCharge(coin *big.Int, coinDecimals, tokenDecimals int, num, den *big.Int) *big.Int {
	n := new(big.Int).Mul(coin, num)
	n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tokenDecimals)), nil))
	d := new(big.Int).Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(coinDecimals)), nil))
	q, m := new(big.Int).QuoRem(n, d, new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// gasCharge prices the gas of call (signed with the orders' fees alone) in
// the token: estimate × (base fee + tip) at the coin's price.
func (x *Executor) gasCharge(ctx context.Context, net *Network, e *cashier.PayoutExec, call cashier.Call) (*big.Int, error) {
	est, ok := net.Client.(estimator)
	if !ok {
		return nil, fmt.Errorf("%s: gas recovery needs an EVM network", e.Chain)
	}
	token, err := x.Registry.LookupToken(e.Chain, e.Symbol)
	if err != nil {
		return nil, err
	}
	g, err := est.Estimate(ctx, net.Executor, call)
	if err != nil {
		return nil, err
	}
	num, den, err := net.GasPrice.Price(ctx)
	if err != nil {
		return nil, err
	}
	price := new(big.Int).Add(g.TipCap, g.BaseFee)
	coin := new(big.Int).Mul(new(big.Int).SetUint64(g.Gas), price)
	return GasCharge(coin, net.CoinDecimals, token.Decimals, num, den), nil
}

// chargedGas is what the paying batch deducted beyond the orders' fees:
// its event's totalFee minus their sum (never negative).
func chargedGas(e *cashier.PayoutExec, r *cashier.Receipt, os []cashier.PayoutOrder) (*big.Int, error) {
	dec, err := payoutcontract.DecodeLogs(e.Contract, r.Logs)
	if err != nil {
		return nil, err
	}
	for _, b := range dec.Batches {
		if b.Nonce.Cmp(e.Nonce) != 0 {
			continue
		}
		c := new(big.Int).Set(b.TotalFee)
		for _, o := range os {
			if o.Fee != nil {
				c.Sub(c, o.Fee)
			}
		}
		if c.Sign() < 0 {
			c.SetInt64(0)
		}
		return c, nil
	}
	return nil, fmt.Errorf("transaction %s carries no batch with nonce %s", r.TxHash, e.Nonce)
}
