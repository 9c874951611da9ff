package sweep

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/sqlite"
)

// Native coin (ETH, TRX) sent to deposit addresses by mistake is swept by
// the operator's command, not by Run: DepositFactory.sweepNative moves it
// into the merchant's vault only, where the vault's owner can return it to
// the customer (CashierPayout.withdrawNative). Native sweeps are recorded
// like token sweeps, with token "", so none is sent twice or forgotten.

// NativeStore is the store of native sweeps (sqlite.DB).
type NativeStore interface {
	NativeSweepCandidates(ctx context.Context, c cashier.Chain) ([]sqlite.SweepCandidate, error)
}

// NativeBalancer reads an address's native-coin balance (evm.Client and
// tron.Client).
type NativeBalancer interface {
	NativeBalance(ctx context.Context, addr string) (*big.Int, error)
}

// balance is what addr holds of token, "" being the native coin.
func (s *Sweeper) balance(ctx context.Context, token, addr string) (*big.Int, error) {
	if token != "" {
		return s.Client.TokenBalance(ctx, token, addr)
	}
	nb, ok := s.Client.(NativeBalancer)
	if !ok {
		return nil, fmt.Errorf("sweep: the %s client cannot read native balances", s.Chain)
	}
	return nb.NativeBalance(ctx, addr)
}

// NativeBatches groups the deposit addresses holding native coin per
// factory; only is a deposit address to restrict them to ("" all).
// Whatever the amount: the operator asked for it.
func (s *Sweeper) NativeBatches(ctx context.Context, only string) ([]Batch, error) {
	ns, ok := s.Store.(NativeStore)
	if !ok {
		return nil, fmt.Errorf("sweep: the store cannot list native-coin deposits")
	}
	cands, err := ns.NativeSweepCandidates(ctx, s.Chain)
	if err != nil {
		return nil, err
	}
	fs, err := s.factories()
	if err != nil {
		return nil, err
	}
	groups := map[string]*Batch{}
	var order []string
	for _, c := range cands {
		if only != "" && !strings.EqualFold(c.Address, only) {
			continue
		}
		k, ok, err := fs.of(ctx, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		bal, err := s.balance(ctx, "", c.Address)
		if err != nil {
			return nil, err
		}
		if bal.Sign() == 0 {
			continue
		}
		factory := k.DepositFactory
		g := groups[factory]
		if g == nil {
			g = &Batch{Factory: factory}
			groups[factory] = g
			order = append(order, factory)
		}
		g.Items = append(g.Items, cashier.SweepItem{OrderID: c.OrderID, Address: c.Address, Amount: bal})
	}
	size := s.batchSize()
	var out []Batch
	for _, f := range order {
		out = append(out, largestFirst(*groups[f], size))
	}
	return out, nil
}

// SweepNative settles the sweeps in flight (native ones included), then
// records and sends a native sweep per factory whose deposit addresses
// hold native coin, and returns the sweeps it started. A batch whose
// factory has a native sweep in flight already is left to that one.
func (s *Sweeper) SweepNative(ctx context.Context, only string) ([]*cashier.Sweep, error) {
	if err := s.settle(ctx); err != nil {
		return nil, err
	}
	batches, err := s.NativeBatches(ctx, only)
	if err != nil {
		return nil, err
	}
	var started []*cashier.Sweep
	for _, b := range batches {
		sw, err := s.Prepare(ctx, b)
		if cashier.ErrorCode(err) == cashier.EDuplicate {
			continue
		}
		if err != nil {
			return started, err
		}
		hash, err := s.Send(ctx, sw)
		if err := s.Record(ctx, sw, hash, err); err != nil {
			return started, err
		}
		started = append(started, sw)
	}
	return started, nil
}

// Settle settles the sweeps in flight by their receipts or balances.
func (s *Sweeper) Settle(ctx context.Context) error { return s.settle(ctx) }

// packNative is DepositFactory.sweepNative of the sweep's addresses.
func packNative(sw *cashier.Sweep) []byte {
	salts := make([][32]byte, len(sw.Items))
	for i, it := range sw.Items {
		salts[i] = payoutcontract.DepositSalt(it.OrderID)
	}
	return bindings.NewDepositFactory().PackSweepNative(salts)
}
