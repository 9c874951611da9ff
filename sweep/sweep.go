// Package sweep moves the tokens received at collection deposit addresses
// into each merchant's payout contract through its DepositFactory.sweep,
// batched per factory and token, only when the batch is worth the gas.
// Every sweep is recorded before it is sent and settled from its receipt,
// so none is forgotten; the factory moves only what an address holds, so a
// sweep sent twice never moves a token twice.
package sweep

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/sqlite"
)

// Store is what the sweeper reads and writes (sqlite.DB).
type Store interface {
	SweepCandidates(ctx context.Context, c cashier.Chain) ([]sqlite.SweepCandidate, error)
	CreateSweep(ctx context.Context, s *cashier.Sweep) error
	UpdateSweep(ctx context.Context, s *cashier.Sweep) error
	Sweeps(ctx context.Context, c cashier.Chain, inFlight bool) ([]cashier.Sweep, error)
	ContractsByMerchant(ctx context.Context, merchantID string) ([]cashier.Contract, error)
}

// Sweeper sweeps one network.
type Sweeper struct {
	Chain    cashier.Chain
	Store    Store
	Registry *cashier.Registry
	// Client reads balances and receipts and sends as the sweeper key
	// (the factory's sweeper()).
	Client cashier.ChainClient
	// MinAmount is the smallest batch worth its gas, in whole tokens
	// (decimal text); "" sweeps any amount.
	MinAmount string
	// BatchSize caps the addresses of one sweep transaction; default 100.
	BatchSize int
	// Interval between rounds of Run; default 30 s.
	Interval time.Duration
	Clock    cashier.Clock
	Log      *slog.Logger
	// Alerts, when set, holds the token alerts raised here (a paused
	// token, a blacklisted deposit address or payout contract), shared
	// with the payout executor for metrics and /readyz.
	Alerts *cashier.TokenAlerts

	pausedLogged map[string]time.Time // by token: paused-token logs, once a minute
}

// Run sweeps every Interval until ctx ends. A failing round is logged and
// retried on the next; detection never waits for it.
func (s *Sweeper) Run(ctx context.Context) {
	iv := s.Interval
	if iv <= 0 {
		iv = 30 * time.Second
	}
	// The first round waits an interval too: a start or restart is busy
	// catching up detection, which sweeping must never hold up.
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(iv):
		}
		if _, err := s.Round(ctx); err != nil && ctx.Err() == nil {
			s.log().Warn("sweep round failed", "chain", s.Chain, "error", err)
		}
	}
}

func (s *Sweeper) log() *slog.Logger {
	if s.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Log
}

func (s *Sweeper) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

// Round settles the sweeps in flight, then starts new ones, and returns
// how many it started.
func (s *Sweeper) Round(ctx context.Context) (int, error) {
	if err := s.settle(ctx); err != nil {
		return 0, err
	}
	batches, err := s.Batches(ctx)
	if err != nil {
		return 0, err
	}
	started := 0
	for _, b := range batches {
		sw, err := s.Prepare(ctx, b)
		if cashier.ErrorCode(err) == cashier.EDuplicate {
			continue // one of this factory and token is in flight
		}
		if err != nil {
			return started, err
		}
		hash, err := s.Send(ctx, sw)
		if err := s.Record(ctx, sw, hash, err); err != nil {
			return started, err
		}
		started++
	}
	return started, nil
}

// settle looks at every sweep in flight: a SENT one by its receipt; a
// PREPARED one (sent or not before a crash lost its hash) by the balances
// of its addresses: all empty means it went through, otherwise it is sent
// again, which moves only what is still there.
func (s *Sweeper) settle(ctx context.Context) error {
	open, err := s.Store.Sweeps(ctx, s.Chain, true)
	if err != nil {
		return err
	}
	for i := range open {
		sw := &open[i]
		switch sw.Status {
		case cashier.SweepSent:
			rc, err := s.Client.Receipt(ctx, sw.TxHash)
			if err != nil {
				return err
			}
			if rc == nil {
				continue // not mined yet
			}
			sw.Status, sw.UpdatedAt = cashier.SweepDone, s.now()
			if !rc.Success {
				sw.Status, sw.Error = cashier.SweepFailed, "the sweep transaction "+rc.TxHash+" reverted"
				s.log().Warn("sweep failed", "chain", s.Chain, "sweep", sw.ID, "tx", rc.TxHash)
			}
			if err := s.Store.UpdateSweep(ctx, sw); err != nil {
				return err
			}
		case cashier.SweepPrepared:
			left := new(big.Int)
			for _, it := range sw.Items {
				b, err := s.balance(ctx, sw.Token, it.Address)
				if err != nil {
					return err
				}
				left.Add(left, b)
			}
			if left.Sign() == 0 {
				sw.Status, sw.UpdatedAt = cashier.SweepDone, s.now()
				if err := s.Store.UpdateSweep(ctx, sw); err != nil {
					return err
				}
				continue
			}
			if s.tokenSwitches(ctx, sw.Token, nil).paused {
				continue // sent again once the token is unpaused
			}
			hash, err := s.Send(ctx, sw)
			if err := s.Record(ctx, sw, hash, err); err != nil {
				return err
			}
		}
	}
	return nil
}

// Batch is one factory's addresses holding one token.
type Batch struct {
	Factory string
	Vault   string // the payout contract the factory sweeps into
	Token   string
	Items   []cashier.SweepItem
}

// Batches reads the balances of the candidate addresses and groups those
// holding something per factory and token, keeping batches worth the gas.
// A token's own switches keep addresses out (tokenswitch.go): none while
// the token is paused, not one the token blacklisted (its balance cannot
// move, and it would revert the whole batch), none into a payout
// contract the token blacklisted; each is an alert until it is lifted.
func (s *Sweeper) Batches(ctx context.Context) ([]Batch, error) {
	cands, err := s.Store.SweepCandidates(ctx, s.Chain)
	if err != nil {
		return nil, err
	}
	fs, err := s.factories()
	if err != nil {
		return nil, err
	}
	groups := map[[2]string]*Batch{}
	var order [][2]string
	switches := map[string]*tokenSwitches{}
	for _, c := range cands {
		k, ok, err := fs.of(ctx, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		bal, err := s.Client.TokenBalance(ctx, c.Token, c.Address)
		if err != nil {
			return nil, err
		}
		if bal.Sign() == 0 {
			continue
		}
		sw := s.tokenSwitches(ctx, c.Token, switches)
		if sw.paused || s.stuck(ctx, c.Token, sw, c.Address, "deposit address", "order", c.OrderID) ||
			s.stuck(ctx, c.Token, sw, k.Address, "payout contract", "factory", k.DepositFactory) {
			continue
		}
		key := [2]string{k.DepositFactory, c.Token}
		g := groups[key]
		if g == nil {
			g = &Batch{Factory: k.DepositFactory, Vault: k.Address, Token: c.Token}
			groups[key] = g
			order = append(order, key)
		}
		g.Items = append(g.Items, cashier.SweepItem{OrderID: c.OrderID, Address: c.Address, Amount: bal})
	}
	size := s.batchSize()
	var out []Batch
	for _, k := range order {
		g := groups[k]
		total := new(big.Int)
		for _, it := range g.Items {
			total.Add(total, it.Amount)
		}
		min, err := s.minUnits(g.Token)
		if err != nil {
			return nil, err
		}
		if total.Cmp(min) < 0 {
			continue // not worth the gas yet; more payments will add up
		}
		out = append(out, largestFirst(*g, size))
	}
	return out, nil
}

// batchSize is BatchSize or, unset, 100.
func (s *Sweeper) batchSize() int {
	if s.BatchSize <= 0 {
		return 100
	}
	return s.BatchSize
}

// largestFirst is b with its largest size items, largest first: a batch
// the size caps sweeps what is worth most, the rest next round.
func largestFirst(b Batch, size int) Batch {
	sort.Slice(b.Items, func(i, j int) bool { return b.Items[i].Amount.Cmp(b.Items[j].Amount) > 0 })
	b.Items = b.Items[:min(size, len(b.Items))]
	return b
}

// minUnits is MinAmount in token's base units.
func (s *Sweeper) minUnits(token string) (*big.Int, error) {
	if s.MinAmount == "" {
		return big.NewInt(1), nil
	}
	decimals := 6
	if t, ok := s.Registry.TokenByAddress(s.Chain, token); ok {
		decimals = t.Decimals
	}
	v, err := cashier.ParseAmount(s.MinAmount, decimals)
	if err != nil {
		return nil, fmt.Errorf("sweep: minimum amount %q: %w", s.MinAmount, err)
	}
	return v, nil
}

// factories finds the deposit factory of each candidate address of one
// round, reading each merchant's contracts once.
type factories struct {
	s         *Sweeper
	prefix    byte
	contracts map[string][]cashier.Contract // by merchant
}

func (s *Sweeper) factories() (*factories, error) {
	n, ok := s.Registry.Network(s.Chain)
	if !ok {
		return nil, fmt.Errorf("sweep: network %s is not configured", s.Chain)
	}
	return &factories{s: s, prefix: n.Create2Prefix, contracts: map[string][]cashier.Contract{}}, nil
}

// of is the merchant's contract whose factory derives c's address; ok is
// false, with a warning logged, when none does (the address is left out).
func (f *factories) of(ctx context.Context, c sqlite.SweepCandidate) (k cashier.Contract, ok bool, err error) {
	ks, known := f.contracts[c.MerchantID]
	if !known {
		if ks, err = f.s.Store.ContractsByMerchant(ctx, c.MerchantID); err != nil {
			return k, false, err
		}
		f.contracts[c.MerchantID] = ks
	}
	k, err = factoryOf(f.s.Chain, f.prefix, ks, c.OrderID, c.Address)
	if err != nil {
		f.s.log().Warn("deposit address without its factory", "chain", f.s.Chain, "order", c.OrderID, "address", c.Address, "error", err)
		return k, false, nil
	}
	return k, true, nil
}

// factoryOf finds which of the merchant's contracts on c has the deposit
// factory that derives addr for the order.
func factoryOf(c cashier.Chain, prefix byte, ks []cashier.Contract, orderID, addr string) (cashier.Contract, error) {
	want, err := address.Parse(c, addr)
	if err != nil {
		return cashier.Contract{}, err
	}
	for _, k := range ks {
		if k.Chain != c || k.DepositFactory == "" {
			continue
		}
		f, err1 := address.Parse(c, k.DepositFactory)
		impl, err2 := address.Parse(c, k.DepositImplementation)
		if err1 != nil || err2 != nil {
			continue
		}
		if payoutcontract.DepositAddress(prefix, f, impl, payoutcontract.DepositSalt(orderID)) == want {
			return k, nil
		}
	}
	return cashier.Contract{}, errors.New("no deposit factory of the merchant derives this address")
}

// Prepare records b as a PREPARED sweep, before anything is sent.
func (s *Sweeper) Prepare(ctx context.Context, b Batch) (*cashier.Sweep, error) {
	id := make([]byte, 12)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	total := new(big.Int)
	for _, it := range b.Items {
		total.Add(total, it.Amount)
	}
	now := s.now()
	sw := &cashier.Sweep{ID: "sw_" + hex.EncodeToString(id), Chain: s.Chain, Factory: b.Factory, Token: b.Token, Amount: total,
		Status: cashier.SweepPrepared, Items: b.Items, CreatedAt: now, UpdatedAt: now}
	if err := s.Store.CreateSweep(ctx, sw); err != nil {
		return nil, err
	}
	return sw, nil
}

// Send sends sw's DepositFactory.sweep (sweepNative for the native coin)
// as the sweeper key.
func (s *Sweeper) Send(ctx context.Context, sw *cashier.Sweep) (string, error) {
	if sw.Token == "" {
		return s.Client.SendCall(ctx, cashier.Call{To: sw.Factory, Data: packNative(sw)})
	}
	token, err := address.Parse(s.Chain, sw.Token)
	if err != nil {
		return "", err
	}
	salts := make([][32]byte, len(sw.Items))
	for i, it := range sw.Items {
		salts[i] = payoutcontract.DepositSalt(it.OrderID)
	}
	return s.Client.SendCall(ctx, cashier.Call{To: sw.Factory, Data: bindings.NewDepositFactory().PackSweep(token, salts)})
}

// Record stores the outcome of sending sw: SENT with its hash, or FAILED
// with the reason (out of gas, a node's refusal), reported in the log and
// by `cashier sweep list`; the addresses are swept again next round.
func (s *Sweeper) Record(ctx context.Context, sw *cashier.Sweep, hash string, sendErr error) error {
	sw.Attempts++
	sw.UpdatedAt = s.now()
	if sendErr != nil {
		sw.Status, sw.Error = cashier.SweepFailed, strings.TrimSpace(sendErr.Error())
		s.log().Warn("sweep failed", "chain", s.Chain, "sweep", sw.ID, "token", sw.Token, "amount", sw.Amount.String(), "error", sendErr)
	} else {
		sw.Status, sw.TxHash, sw.Error = cashier.SweepSent, hash, ""
		s.log().Info("sweep sent", "chain", s.Chain, "sweep", sw.ID, "token", sw.Token, "addresses", len(sw.Items), "amount", sw.Amount.String(), "tx", hash)
	}
	return s.Store.UpdateSweep(ctx, sw)
}
