// Package payoutexec carries approved payout orders to SUCCESS or REFUSE
// through the merchants' payout contracts, exactly once.
//
// Orders are grouped by (contract, token, mode, fromAddress) into
// executions of up to BatchSize orders. An execution's contract nonce is
// stored with it before anything is signed or sent and never changes; the
// contract accepts a nonce once, so an execution pays at most once however
// often it is sent. Its state says what may still happen:
//
//   - created: nothing was sent under the nonce. Its orders may change: a
//     pre-flight revert naming one order refuses that order, a batch-wide
//     shortfall splits the batch, a single order that cannot be paid is
//     refused with the contract's reason.
//   - sending: stored before every send. After a crash, a transport error or
//     a failed receipt whose cause is unknown, the execution is resolved from
//     the chain only: the nonce used (the paying transaction is found by its
//     PayoutTransfer events), or the signature's window passed with the nonce
//     unused (nothing can pay it any more: back to created, same nonce).
//     It is re-sent meanwhile with the same signature and nonce.
//   - sent: a transaction is known; SUCCESS once the receipt's block has the
//     network's confirmations and is still canonical. A transaction reorged
//     out before that is broadcast again by the sender (same account nonce,
//     same contract nonce); a stuck one is fee-bumped (evm.Client.CheckAll).
package payoutexec

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
)

// Client is a network's sending client (holding the executor key) with the
// reads the executor needs; evm.Client and tron.Client implement it.
type Client interface {
	cashier.ChainClient
	ViewUint(ctx context.Context, contract string, data []byte) (*big.Int, error)
	FindPayout(ctx context.Context, contract string, nonce *big.Int, from uint64) (string, error)
	NativeBalance(ctx context.Context, addr string) (*big.Int, error)
}

// Network is what the executor needs of one network.
type Network struct {
	Client Client
	Signer *ecdsa.PrivateKey
	// Clef signs the batches of contracts whose merchant signer is held
	// outside the service (EVM networks); nil: such batches wait.
	Clef          ExternalSigner
	Executor      string   // the executor key's address
	DomainChainID *big.Int // what the chain's CHAINID opcode returns
	Confirmations uint64
	CoinDecimals  int      // of the native coin, for gasAmount
	MinGas        *big.Int // executor balance below which payouts wait
	// EnergyPerRecipient and EnergyBase set a TRON call's energy limit; zero
	// on EVM networks, where gas is estimated.
	EnergyPerRecipient, EnergyBase uint64
	// GasBase and GasPerRecipient bound an EVM call's gas: a batch whose
	// estimate exceeds GasBase + GasPerRecipient × recipients is not sent
	// (its orders wait, logged), so an unexpected contract cannot burn the
	// executor's coin. Zero: no bound.
	GasBase, GasPerRecipient uint64
	// GasPrice, when set, is the policy fee+gas on this (EVM) network:
	// every batch's totalFee also carries its gas, priced with it (gas.go).
	// Nil: the policy fee, the operator pays the gas.
	GasPrice CoinPrice
}

// Config tunes batching and retries.
type Config struct {
	BatchSize    int           // most orders per call (≤ payoutcontract.MaxRecipients)
	Window       time.Duration // how long a partial batch waits for more orders
	Poll         time.Duration // pause between rounds
	ExpiryMargin time.Duration // after a signature's window, before it is given up
	MaxAttempts  int           // sends of one execution before its orders are refused
}

// DefaultConfig are the documented defaults.
var DefaultConfig = Config{BatchSize: 100, Window: 2 * time.Second, Poll: 500 * time.Millisecond, ExpiryMargin: 2 * time.Minute, MaxAttempts: 5}

// Executor runs executions on every configured network.
type Executor struct {
	Orders   *orders.Service
	Store    cashier.Store
	Registry *cashier.Registry
	Networks map[cashier.Chain]*Network
	Clock    cashier.Clock
	Logger   *slog.Logger
	Config   Config

	lowGasLogged map[cashier.Chain]time.Time
	capLogged    map[string]time.Time // by execution: gas cap refusals, once a minute
	pausedLogged map[string]time.Time // by token: paused-token alerts, once a minute
	// refusedLogged: batches a signer refused, by execution, once a minute
	refusedLogged map[string]time.Time
	// Alerts, when set, holds the token alerts raised here (a paused
	// token, a blacklisted paying account) for metrics and /readyz.
	Alerts    *cashier.TokenAlerts
	recovered map[cashier.Chain]bool
}

var payoutABI = bindings.NewCashierPayout()

// Run executes payouts until ctx ends.
func (x *Executor) Run(ctx context.Context) error {
	if x.Config.BatchSize <= 0 || x.Config.BatchSize > payoutcontract.MaxRecipients {
		return fmt.Errorf("payout batch size must be 1..%d", payoutcontract.MaxRecipients)
	}
	for {
		if err := x.Tick(ctx); err != nil && ctx.Err() == nil {
			x.Logger.Warn("payout round", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(x.Config.Poll):
		}
	}
}

// Tick runs one round: new batches, then every open execution one step,
// then the senders' own upkeep (fee bumps, re-broadcasts).
func (x *Executor) Tick(ctx context.Context) error {
	var errs []error
	if err := x.batch(ctx); err != nil {
		errs = append(errs, err)
	}
	execs, err := x.Store.OpenExecs(ctx)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for i := range execs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := x.advance(ctx, &execs[i]); err != nil {
			errs = append(errs, fmt.Errorf("execution %s: %w", execs[i].ID, err))
		}
	}
	for c, n := range x.Networks {
		ec, ok := n.Client.(*evm.Client)
		if ok && !x.recovered[c] {
			// Loads the sender's journal: transactions of an earlier run
			// are re-broadcast and from now on bumped or settled.
			if err := ec.Recover(ctx); err != nil {
				errs = append(errs, fmt.Errorf("%s sender: %w", c, err))
				continue
			}
			if x.recovered == nil {
				x.recovered = map[cashier.Chain]bool{}
			}
			x.recovered[c] = true
		}
		if ok && len(ec.Pending()) > 0 {
			if _, err := ec.CheckAll(ctx); err != nil {
				errs = append(errs, fmt.Errorf("%s sends: %w", c, err))
			}
		}
	}
	if err := x.Store.Update(ctx, func(tx cashier.Tx) error {
		_, err := tx.PruneSettles(ctx, x.Clock.Now().Add(-x.Orders.Config.SettleRetention))
		return err
	}); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (x *Executor) advance(ctx context.Context, e *cashier.PayoutExec) error {
	net := x.Networks[e.Chain]
	if net == nil {
		return nil
	}
	switch e.State {
	case cashier.ExecCreated:
		return x.send(ctx, net, e)
	case cashier.ExecSending:
		return x.resolve(ctx, net, e)
	case cashier.ExecSent:
		return x.confirm(ctx, net, e)
	}
	return nil
}

// live returns the orders an execution still carries, in batch order.
func (x *Executor) live(ctx context.Context, e *cashier.PayoutExec) ([]cashier.PayoutOrder, error) {
	all, err := x.Store.ExecOrders(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(o cashier.PayoutOrder) bool { return o.Status != cashier.PayoutProcessing }), nil
}

func orderIDs(os []cashier.PayoutOrder) []string {
	ids := make([]string, len(os))
	for i := range os {
		ids[i] = os[i].ID
	}
	return ids
}
