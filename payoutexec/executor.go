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
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/tron"
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

// ExternalSigner signs payout batches for merchant signers held outside
// the service (clef.Signer: Clef's account_signTypedData, under its rules).
type ExternalSigner interface {
	SignTypedDataAs(ctx context.Context, account common.Address, td apitypes.TypedData) ([]byte, error)
}

// batchSigner is who signs an execution's batches: a sealed key, or an
// account of the network's external signer.
type batchSigner struct {
	key      *ecdsa.PrivateKey
	external common.Address
}

// SignerRefused is a batch its signer did not sign (an external signer's
// rules refused it, or it could not be reached): nothing was sent, the
// orders wait.
type SignerRefused struct{ Err error }

func (e SignerRefused) Error() string { return "payout signer did not sign: " + e.Err.Error() }
func (e SignerRefused) Unwrap() error { return e.Err }

// signerFor returns who signs e's batches: the merchant signer its
// contract was proven to name (a sealed key, or an account of the external
// signer), or, for a registration from before ownership proofs that the
// operator confirmed (its recorded signer is the network's service
// signer), that service signer. An unconfirmed registration from before
// the proofs (no recorded signer) signs nothing: its orders wait.
func (x *Executor) signerFor(ctx context.Context, net *Network, e *cashier.PayoutExec) (batchSigner, error) {
	k, err := x.Store.Contract(ctx, e.ContractID)
	if err != nil {
		return batchSigner{}, err
	}
	if k.Signer == "" {
		// The shared service signer proves nothing about whose the
		// contract is: whoever registered it first could spend it.
		return batchSigner{}, SignerRefused{fmt.Errorf("contract %s (%s) was registered before ownership proofs and is not proven: its payouts wait until "+
			"its owner calls setSigner with the merchant's signer and `cashier contract check --id %s` records it, "+
			"or the operator confirms it with `cashier contract confirm --id %s`", k.ID, k.Address, k.ID, k.ID)}
	}
	if net.Signer != nil && strings.EqualFold(k.Signer, address.Format(e.Chain, crypto.PubkeyToAddress(net.Signer.PublicKey))) {
		return batchSigner{key: net.Signer}, nil // confirmed by the operator
	}
	s, err := x.Store.MerchantSigner(ctx, k.MerchantID, e.Chain)
	if err != nil {
		return batchSigner{}, fmt.Errorf("signer of contract %s: %w", k.Address, err)
	}
	if !strings.EqualFold(s.Address, k.Signer) {
		return batchSigner{}, fmt.Errorf("contract %s was registered with signer %s, but merchant %s's signer is %s", k.Address, k.Signer, k.MerchantID, s.Address)
	}
	if s.External() {
		if !common.IsHexAddress(s.Address) {
			return batchSigner{}, fmt.Errorf("merchant %s's signer on %s is held outside the service, which only EVM networks support", k.MerchantID, e.Chain)
		}
		return batchSigner{external: common.HexToAddress(s.Address)}, nil
	}
	key, err := crypto.ToECDSA(s.PrivateKey)
	return batchSigner{key: key}, err
}

// sign signs a batch's digest, or has the external signer sign its typed
// data (which hashes to the same digest: clef.Signer checks it).
func (x *Executor) sign(ctx context.Context, net *Network, bs batchSigner, digest common.Hash, td apitypes.TypedData) ([]byte, error) {
	if bs.key != nil {
		return payoutcontract.Sign(digest, bs.key)
	}
	if net.Clef == nil {
		return nil, SignerRefused{fmt.Errorf("the merchant signer %s is held by Clef, and no Clef is configured (CASHIER_SIGNER_CLEF)", bs.external.Hex())}
	}
	sig, err := net.Clef.SignTypedDataAs(ctx, bs.external, td)
	if err != nil {
		return nil, SignerRefused{err}
	}
	return sig, nil
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

type groupKey struct {
	contract, symbol, from string
	mode                   cashier.PayoutType
}

// batch groups the orders ready for execution and stores full batches, and
// partial ones whose oldest order waited Window.
func (x *Executor) batch(ctx context.Context) error {
	ready, err := x.Store.ExecutablePayouts(ctx, 20*x.Config.BatchSize)
	if err != nil {
		return err
	}
	groups := map[groupKey][]cashier.PayoutOrder{}
	var keys []groupKey
	for _, o := range ready {
		if x.Networks[o.Chain] == nil {
			continue // no keys or node: the orders wait, visible as PENDING/PROCESSING
		}
		k := groupKey{o.ContractID, o.Symbol, o.FromAddress, o.PayoutType}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], o)
	}
	now := x.Clock.Now()
	var errs []error
	for _, k := range keys {
		g := groups[k]
		for len(g) > 0 {
			n := min(len(g), x.Config.BatchSize)
			if n < x.Config.BatchSize && now.Sub(g[0].UpdatedAt) < x.Config.Window && now.Sub(g[0].CreatedAt) < x.Config.Window {
				break // a partial batch waits a little for company
			}
			if err := x.start(ctx, g[:n]); err != nil {
				errs = append(errs, err)
				break
			}
			g = g[n:]
		}
	}
	return errors.Join(errs...)
}

func (x *Executor) start(ctx context.Context, os []cashier.PayoutOrder) error {
	o := os[0]
	net := x.Networks[o.Chain]
	k, err := x.Store.Contract(ctx, o.ContractID)
	if err != nil {
		return err
	}
	head, err := net.Client.Head(ctx)
	if err != nil {
		return err
	}
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	now := x.Clock.Now()
	e := &cashier.PayoutExec{
		ID: orders.NewID("px_"), Chain: o.Chain, ContractID: k.ID, Contract: k.Address, Symbol: o.Symbol, Mode: o.PayoutType,
		From: o.FromAddress, Nonce: new(big.Int).SetBytes(nonce), State: cashier.ExecCreated, StartBlock: head.Number,
		CreatedAt: now, UpdatedAt: now,
	}
	ids := make([]string, len(os))
	for i := range os {
		ids[i] = os[i].ID
	}
	if err := x.Orders.StartExec(ctx, e, ids); err != nil {
		return err
	}
	x.Logger.Info("payout batch stored", "exec", e.ID, "chain", e.Chain, "contract", e.Contract, "orders", len(ids), "nonce", e.Nonce.String())
	return nil
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

// call builds and signs the contract call of e for its orders.
// A non-nil gas is added to the batch's totalFee (fee+gas).
func (x *Executor) call(ctx context.Context, e *cashier.PayoutExec, net *Network, os []cashier.PayoutOrder, gas *big.Int) (cashier.Call, error) {
	signer, err := x.signerFor(ctx, net, e)
	if err != nil {
		return cashier.Call{}, err
	}
	token, err := x.Registry.LookupToken(e.Chain, e.Symbol)
	if err != nil {
		return cashier.Call{}, err
	}
	b := payoutcontract.Batch{TotalFee: new(big.Int), Nonce: e.Nonce, Timestamp: uint64(e.Timestamp)}
	if b.Token, err = address.Parse(e.Chain, token.ContractAddress); err != nil {
		return cashier.Call{}, err
	}
	k, err := address.Parse(e.Chain, e.Contract)
	if err != nil {
		return cashier.Call{}, err
	}
	var from common.Address
	if e.Mode == cashier.PayoutAllowance {
		if from, err = address.Parse(e.Chain, e.From); err != nil {
			return cashier.Call{}, err
		}
	}
	for i, o := range os {
		// An order the contract can never pay (stored before its address
		// was refused at entry) is named, so it alone leaves the batch.
		r, err := address.Parse(e.Chain, o.Recipient)
		switch {
		case err != nil:
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is not an address: " + err.Error()}
		case address.Unpayable(r):
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is the zero address, which the contract cannot pay"}
		case r == k:
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is the payout contract itself"}
		case e.Mode == cashier.PayoutAllowance && r == from:
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is the paying wallet fromAddress itself"}
		}
		b.Recipients = append(b.Recipients, r)
		b.Amounts = append(b.Amounts, o.Amount)
		b.TotalFee.Add(b.TotalFee, o.Fee)
	}
	if gas != nil {
		b.TotalFee.Add(b.TotalFee, gas)
	}
	// Checked before anything is signed: a batch the contract can never
	// take must not wait for a signer, nor be retried for ever.
	if err := b.Validate(); err != nil {
		return cashier.Call{}, err
	}
	d := payoutcontract.Domain{ChainID: net.DomainChainID, Contract: k}
	var data []byte
	if e.Mode == cashier.PayoutAllowance {
		p := payoutcontract.AllowancePayout{Batch: b, From: from}
		sig, err := x.sign(ctx, net, signer, p.Digest(d), p.TypedData(d))
		if err != nil {
			return cashier.Call{}, err
		}
		data, err = p.CallData(sig)
		if err != nil {
			return cashier.Call{}, err
		}
	} else {
		p := payoutcontract.BalancePayout{Batch: b}
		sig, err := x.sign(ctx, net, signer, p.Digest(d), p.TypedData(d))
		if err != nil {
			return cashier.Call{}, err
		}
		data, err = p.CallData(sig)
		if err != nil {
			return cashier.Call{}, err
		}
	}
	call := cashier.Call{To: e.Contract, Data: data}
	if net.EnergyPerRecipient > 0 {
		call.GasLimit = net.EnergyBase + net.EnergyPerRecipient*uint64(len(os))
	}
	if net.GasPerRecipient > 0 || net.GasBase > 0 {
		call.MaxGas = net.GasBase + net.GasPerRecipient*uint64(len(os))
	}
	return call, nil
}

// signedCall is call with, under fee+gas, the batch's gas charge: priced
// on the call signed with the orders' fees alone, then signed again with
// the charge added (the gas hardly depends on the fee's value).
func (x *Executor) signedCall(ctx context.Context, e *cashier.PayoutExec, net *Network, os []cashier.PayoutOrder) (cashier.Call, error) {
	call, err := x.call(ctx, e, net, os, nil)
	if err != nil || net.GasPrice == nil {
		return call, err
	}
	charge, err := x.gasCharge(ctx, net, e, call)
	if err != nil {
		return cashier.Call{}, err
	}
	return x.call(ctx, e, net, os, charge)
}

// send signs and sends an execution nothing was sent for yet.
func (x *Executor) send(ctx context.Context, net *Network, e *cashier.PayoutExec) error {
	os, err := x.live(ctx, e)
	if err != nil {
		return err
	}
	if len(os) == 0 {
		e.State = cashier.ExecFailed
		return x.Orders.SaveExec(ctx, e)
	}
	if e.Attempts >= x.Config.MaxAttempts {
		// Sent that often without paying: refuse rather than retry forever.
		reason := "failed on chain: " + e.LastError
		out := orders.ExecOutcome{Refuse: map[string]string{}}
		for _, o := range os {
			out.Refuse[o.ID] = reason
		}
		e.State = cashier.ExecFailed
		return x.Orders.SettleExec(ctx, e, out)
	}
	if ok, err := x.gasOK(ctx, net, e.Chain); err != nil || !ok {
		return err
	}
	head, err := net.Client.Head(ctx)
	if err != nil {
		return err
	}
	// Signed at the chain's time: the contract compares with block time.
	e.Timestamp = head.Time.Unix()
	call, err := x.signedCall(ctx, e, net, os)
	if err != nil {
		if sr := (SignerRefused{}); errors.As(err, &sr) {
			// Nothing was signed or sent: the orders wait (PROCESSING) for
			// the operator to fix the signer's rules or reach it.
			e.LastError = sr.Error()
			x.refusedLog(e, "payout batch not signed: its signer refused; orders wait", len(os), err)
			return x.Orders.SaveExec(ctx, e)
		}
		if rev, ok := payoutcontract.RevertOf(err); ok {
			// The gas estimate of fee+gas was refused in the pre-flight:
			// handled as the sender's own estimate would be.
			e.LastError = err.Error()
			return x.isolate(ctx, e, os, rev)
		}
		if te := (*payoutcontract.TransferError)(nil); errors.As(err, &te) && te.Index >= 0 && te.Index < len(os) {
			return x.refuseInvalid(ctx, e, os, te)
		}
		return err
	}
	// Stored before the send, checking that no order was refused since
	// they were read: from here on the orders are fixed.
	e.State, e.Attempts = cashier.ExecSending, e.Attempts+1
	ids := orderIDs(os)
	var hash string
	if j, ok := net.Client.(journaled); ok {
		hash, err = x.sendJournaled(ctx, j, e, ids, call) // stored with the signed transaction
	} else if err = x.Orders.SaveSending(ctx, e, ids, nil); err != nil {
		if cashier.ErrorCode(err) == cashier.EInvalidStatus {
			x.Logger.Info("payout batch changed before its send; signed again next round", "exec", e.ID, "err", err)
			return nil
		}
		return err
	} else {
		hash, err = net.Client.SendCall(ctx, call)
	}
	if err == nil {
		if x.Alerts != nil {
			// The token took this batch: it is not paused, the payer not
			// blacklisted (any more).
			token := x.tokenAddress(e)
			payer := e.Contract
			if e.Mode == cashier.PayoutAllowance && e.From != "" {
				payer = e.From
			}
			if x.Alerts.Clear(e.Chain, token, cashier.TokenPaused, "") {
				x.Logger.Info("token contract unpaused: its payouts go on", "chain", e.Chain, "symbol", e.Symbol, "token", token)
			}
			x.Alerts.Clear(e.Chain, token, cashier.TokenBlacklisted, payer)
		}
		e.TxHashes, e.State, e.LastError = append(e.TxHashes, hash), cashier.ExecSent, ""
		x.Logger.Info("payout batch sent", "exec", e.ID, "chain", e.Chain, "tx", hash, "orders", len(os))
		return x.Orders.SaveExec(ctx, e)
	}
	e.LastError = err.Error()
	if e.Chain != cashier.ChainTRON || errors.Is(err, tron.ErrNoKey) {
		// Refused before anything was sent: a paused token refuses every
		// transfer, so the orders wait for it, whatever the node said.
		if x.tokenPaused(ctx, e) {
			e.State, e.Attempts = cashier.ExecCreated, e.Attempts-1
			e.LastError = "token contract paused: " + e.LastError
			return x.Orders.SaveExec(ctx, e)
		}
	}
	if rev, ok := payoutcontract.RevertOf(err); ok {
		// Refused in the pre-flight (gas estimation or constant call): no
		// transaction exists, so the orders may change.
		e.State = cashier.ExecCreated
		return x.isolate(ctx, e, os, rev)
	}
	if gc := (*cashier.GasCapError)(nil); errors.As(err, &gc) {
		// The contract would take more gas than such a batch may: nothing
		// was sent, the orders wait for the operator (a changed token or
		// contract, or a cap set too low).
		e.State, e.Attempts = cashier.ExecCreated, e.Attempts-1
		e.LastError = "not sent: " + gc.Error()
		if x.capLogged == nil {
			x.capLogged = map[string]time.Time{}
		}
		if now := x.Clock.Now(); now.Sub(x.capLogged[e.ID]) >= time.Minute {
			x.capLogged[e.ID] = now
			x.Logger.Error("payout batch not sent: its gas estimate exceeds the cap (CASHIER_PAYOUT_GAS_CAP); orders wait",
				"exec", e.ID, "chain", e.Chain, "contract", e.Contract, "orders", len(os), "estimate", gc.Estimate, "cap", gc.Cap)
		}
		return x.Orders.SaveExec(ctx, e)
	}
	if errors.Is(err, evm.ErrNotSigned) {
		// The executor's signer (Clef) refused the transaction: nothing
		// was journaled or broadcast; the orders wait.
		e.State, e.Attempts = cashier.ExecCreated, e.Attempts-1
		x.refusedLog(e, "payout transaction not signed: the executor's signer refused; orders wait", len(os), err)
		return x.Orders.SaveExec(ctx, e)
	}
	if ns := (notSent{}); errors.As(err, &ns) {
		// Nothing was signed into the journal or broadcast.
		e.State, e.Attempts = cashier.ExecCreated, e.Attempts-1
	} else if e.Chain != cashier.ChainTRON || errors.Is(err, tron.ErrNoKey) {
		// The EVM sender reports an error only when nothing was sent.
		e.State = cashier.ExecCreated
	} else {
		// A TRON broadcast that failed in transport may still be mined
		// before it expires: only the chain can tell now.
		e.Ambiguous = true
	}
	x.Logger.Warn("payout batch not sent", "exec", e.ID, "chain", e.Chain, "err", err)
	return x.Orders.SaveExec(ctx, e)
}

// refusedLog reports a batch its signer refused, as an error once a
// minute per execution.
func (x *Executor) refusedLog(e *cashier.PayoutExec, msg string, orders int, err error) {
	if x.refusedLogged == nil {
		x.refusedLogged = map[string]time.Time{}
	}
	if now := x.Clock.Now(); now.Sub(x.refusedLogged[e.ID]) >= time.Minute {
		x.refusedLogged[e.ID] = now
		x.Logger.Error(msg, "exec", e.ID, "chain", e.Chain, "contract", e.Contract, "orders", orders, "err", err)
	}
}

// isolate handles a pre-flight revert of a created execution: the order it
// names is refused; a shortfall of the whole batch splits it, down to one
// order, which is then refused with the contract's reason; a refusal that
// is the service's own (keys, roles, clock) makes the orders wait.
func (x *Executor) isolate(ctx context.Context, e *cashier.PayoutExec, os []cashier.PayoutOrder, rev payoutcontract.Revert) error {
	reason := describe(rev)
	out := orders.ExecOutcome{Refuse: map[string]string{}}
	switch rev.Name {
	case "InvalidRecipient", "ZeroAmount", "RecipientNotWhitelisted":
		i, _ := rev.Args["index"].(*big.Int)
		if i == nil || !i.IsInt64() || i.Int64() >= int64(len(os)) {
			return x.Orders.SaveExec(ctx, e)
		}
		out.Refuse[os[i.Int64()].ID] = reason
		e.Attempts = 0
	case "NotExecutor", "InvalidSignature", "SignatureExpired", "TimestampInFuture", "NonceUsed":
		x.Logger.Error("payout batch refused by the contract for the service's own keys or clock; orders wait", "exec", e.ID, "reason", reason)
		if rev.Name == "NonceUsed" {
			e.State = cashier.ExecSending // paid already: resolve from the chain
			e.Ambiguous = true
		}
		return x.Orders.SaveExec(ctx, e)
	case "TokenTransferFailed":
		// The token itself refused. A paused token stops every transfer:
		// the orders wait for it, nothing is refused. A recipient on the
		// token's blacklist is refused alone, naming the blacklist.
		if x.tokenPaused(ctx, e) {
			return x.Orders.SaveExec(ctx, e)
		}
		// The paying account (the contract, or the approving wallet) on
		// the blacklist can pay nobody: every order is refused at once,
		// not tried again in ever smaller batches.
		payer := e.Contract
		if e.Mode == cashier.PayoutAllowance && e.From != "" {
			payer = e.From
		}
		if common.IsHexAddress(payer) && x.blacklisted(ctx, e, common.HexToAddress(payer)) {
			x.Logger.Error("paying account blacklisted by the token contract: its payouts are refused", "chain", e.Chain, "symbol", e.Symbol,
				"payer", payer, "exec", e.ID, "orders", len(os))
			if x.Alerts != nil {
				x.Alerts.Set(cashier.TokenAlert{Chain: e.Chain, Symbol: e.Symbol, Token: x.tokenAddress(e), Kind: cashier.TokenBlacklisted,
					Account: payer, Since: x.Clock.Now()})
			}
			for _, o := range os {
				out.Refuse[o.ID] = "paying account " + payer + " is blacklisted by the token contract: " + reason
			}
			e.State = cashier.ExecFailed
			break
		}
		to, _ := rev.Args["to"].(common.Address)
		if x.blacklisted(ctx, e, to) {
			for _, o := range os {
				if strings.EqualFold(o.Recipient, to.Hex()) {
					out.Refuse[o.ID] = "recipient " + to.Hex() + " is blacklisted by the token contract: " + reason
				}
			}
		}
		if len(out.Refuse) > 0 {
			e.Attempts = 0
			break
		}
		fallthrough
	default:
		if len(os) > 1 {
			for _, o := range os[len(os)/2:] {
				out.Detach = append(out.Detach, o.ID)
			}
			e.Attempts = 0
		} else {
			out.Refuse[os[0].ID] = reason
			e.State = cashier.ExecFailed
		}
	}
	x.Logger.Info("payout batch refused in pre-flight", "exec", e.ID, "reason", reason, "refused", len(out.Refuse), "split", len(out.Detach))
	return x.Orders.SettleExec(ctx, e, out)
}

// refuseInvalid takes out of a created execution the order that makes its
// batch one the contract can never take (as a pre-flight revert naming
// that order would): it is refused with the reason and its webhook, and
// the rest of the batch is signed again next round.
func (x *Executor) refuseInvalid(ctx context.Context, e *cashier.PayoutExec, os []cashier.PayoutOrder, te *payoutcontract.TransferError) error {
	o := os[te.Index]
	reason := "the payout can never be sent: " + te.Reason
	out := orders.ExecOutcome{Refuse: map[string]string{o.ID: reason}}
	e.Attempts, e.LastError = 0, reason
	if len(os) == 1 {
		e.State = cashier.ExecFailed
	}
	x.Logger.Error("payout refused: its batch can never be valid with it; the rest of the batch goes on",
		"exec", e.ID, "chain", e.Chain, "order", o.ID, "orderNo", o.OrderNo, "reason", te.Reason, "left", len(os)-1)
	return x.Orders.SettleExec(ctx, e, out)
}

// resolve settles an execution whose send may exist unrecorded.
func (x *Executor) resolve(ctx context.Context, net *Network, e *cashier.PayoutExec) error {
	e.Ambiguous = true
	if found, err := x.findPaid(ctx, net, e); err != nil || found {
		return err
	}
	j, isJournaled := net.Client.(journaled)
	if isJournaled {
		if done, err := x.resolveJournaled(ctx, net, j, e); err != nil || done {
			return err
		}
	}
	expired, err := x.expired(ctx, net, e)
	if err != nil {
		return err
	}
	if expired {
		// Unused nonce, expired signature: nothing sent can pay any more.
		e.State, e.Ambiguous = cashier.ExecCreated, false
		return x.Orders.SaveExec(ctx, e)
	}
	// Send the same signed call again: if an earlier one is mined first,
	// this one is refused by the nonce and pays nothing.
	os, err := x.live(ctx, e)
	if err != nil {
		return err
	}
	call, err := x.signedCall(ctx, e, net, os)
	if err != nil {
		return err
	}
	var hash string
	if isJournaled {
		// Every journaled transaction provably expired unpaid: a new one,
		// journaled like the first.
		hash, err = x.sendJournaled(ctx, j, e, orderIDs(os), call)
	} else {
		hash, err = net.Client.SendCall(ctx, call)
	}
	if err != nil {
		e.LastError = err.Error()
		return x.Orders.SaveExec(ctx, e)
	}
	e.TxHashes, e.State = append(e.TxHashes, hash), cashier.ExecSent
	return x.Orders.SaveExec(ctx, e)
}

// findPaid asks the contract whether e's nonce is used and, if so, records
// the paying transaction (state sent) so confirm can settle it.
func (x *Executor) findPaid(ctx context.Context, net *Network, e *cashier.PayoutExec) (bool, error) {
	used, err := net.Client.ViewUint(ctx, e.Contract, payoutABI.PackNonceUsed(e.Nonce))
	if err != nil || used.Sign() == 0 {
		return false, err
	}
	h, err := net.Client.FindPayout(ctx, e.Contract, e.Nonce, e.StartBlock)
	if err != nil || h == "" {
		return true, err // used but not yet visible in logs: look again next round
	}
	if !slices.ContainsFunc(e.TxHashes, func(s string) bool { return strings.EqualFold(s, h) }) {
		e.TxHashes = append(e.TxHashes, h)
	}
	e.State = cashier.ExecSent
	return true, x.Orders.SaveExec(ctx, e)
}

// expired reports whether the chain's time is past e's signature window
// plus the margin.
func (x *Executor) expired(ctx context.Context, net *Network, e *cashier.PayoutExec) (bool, error) {
	if e.Timestamp == 0 {
		return true, nil // never signed
	}
	w, err := net.Client.ViewUint(ctx, e.Contract, payoutABI.PackSignatureWindow())
	if err != nil {
		return false, err
	}
	head, err := net.Client.Head(ctx)
	if err != nil {
		return false, err
	}
	deadline := time.Unix(e.Timestamp+w.Int64(), 0).Add(x.Config.ExpiryMargin)
	return head.Time.After(deadline), nil
}

// confirm follows a sent execution to SUCCESS.
func (x *Executor) confirm(ctx context.Context, net *Network, e *cashier.PayoutExec) error {
	failed := 0
	for _, h := range slices.Backward(e.TxHashes) {
		r, err := net.Client.Receipt(ctx, h)
		if err != nil {
			return err
		}
		if r == nil {
			continue
		}
		if !r.Success {
			failed++
			continue
		}
		dec, err := payoutcontract.DecodeLogs(e.Contract, r.Logs)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(dec.Batches, func(b payoutcontract.BatchEvent) bool { return b.Nonce.Cmp(e.Nonce) == 0 }) {
			continue
		}
		head, err := net.Client.Head(ctx)
		if err != nil {
			return err
		}
		if head.Number < r.BlockNumber || head.Number-r.BlockNumber+1 < net.Confirmations {
			return nil // not deep enough yet
		}
		b, err := net.Client.BlockByNumber(ctx, r.BlockNumber)
		if err != nil {
			return err
		}
		if !strings.EqualFold(b.Hash, r.BlockHash) {
			return nil // reorged out; the sender broadcasts it again
		}
		return x.paid(ctx, net, e, r, b.Time)
	}
	if found, err := x.findPaid(ctx, net, e); err != nil || found {
		return err
	}
	if _, ok := net.Client.(journaled); ok && failed == 0 {
		// A journaled transaction that provably expired outside every
		// block never pays: resolve signs a new one (same contract nonce).
		s, _, err := x.pendingSend(ctx, net, e)
		if err != nil {
			return err
		}
		if s == nil {
			e.State, e.Ambiguous = cashier.ExecSending, true
			return x.Orders.SaveExec(ctx, e)
		}
	}
	if failed == len(e.TxHashes) && failed > 0 && !e.Ambiguous {
		// Every transaction of the execution failed and none other exists:
		// back to created; the next pre-flight tells why.
		e.State, e.LastError = cashier.ExecCreated, fmt.Sprintf("transaction %s failed on chain", e.TxHashes[len(e.TxHashes)-1])
		return x.Orders.SaveExec(ctx, e)
	}
	expired, err := x.expired(ctx, net, e)
	if err != nil || !expired {
		return err
	}
	e.State, e.Ambiguous = cashier.ExecCreated, false
	return x.Orders.SaveExec(ctx, e)
}

// paid settles every order of e SUCCESS with the transaction and its share
// of the gas; blockTime is the time of the receipt's block.
func (x *Executor) paid(ctx context.Context, net *Network, e *cashier.PayoutExec, r *cashier.Receipt, blockTime time.Time) error {
	os, err := x.live(ctx, e)
	if err != nil {
		return err
	}
	spent := GasShares(r.Fee, os, net.CoinDecimals)
	out := orders.ExecOutcome{Paid: true, TxID: r.TxHash, Block: r.BlockNumber, BlockTime: blockTime, GasShares: spent}
	charged, err := chargedGas(e, r, os)
	if err != nil {
		return err
	}
	if len(os) > 0 && (charged.Sign() > 0 || net.GasPrice != nil) {
		// fee+gas: gasAmount is the token the contract deducted for gas,
		// read from the paying batch itself.
		out.GasShares, out.GasSpent = GasShares(charged, os, os[0].Decimals), spent
	}
	e.State, e.TxID, e.Block = cashier.ExecDone, r.TxHash, r.BlockNumber
	if err := x.Orders.SettleExec(ctx, e, out); err != nil {
		return err
	}
	x.Logger.Info("payout batch confirmed", "exec", e.ID, "chain", e.Chain, "tx", r.TxHash, "orders", len(os))
	return nil
}

// GasShares splits a transaction's fee (native coin base units) equally
// over its orders, the remainder going one base unit each to the first
// orders, so the shares add up to the fee exactly; each is written in the
// coin's units.
func GasShares(fee *big.Int, os []cashier.PayoutOrder, decimals int) map[string]string {
	out := map[string]string{}
	if fee == nil || len(os) == 0 {
		return out
	}
	q, m := new(big.Int).QuoRem(fee, big.NewInt(int64(len(os))), new(big.Int))
	for i, o := range os {
		s := new(big.Int).Set(q)
		if int64(i) < m.Int64() {
			s.Add(s, big.NewInt(1))
		}
		out[o.ID] = cashier.FormatAmount(s, decimals)
	}
	return out
}

// gasOK reports whether the executor can pay gas on c; when not, the
// orders wait and the operator is told (at most once a minute).
func (x *Executor) gasOK(ctx context.Context, net *Network, c cashier.Chain) (bool, error) {
	if net.MinGas == nil || net.MinGas.Sign() == 0 {
		return true, nil
	}
	bal, err := net.Client.NativeBalance(ctx, net.Executor)
	if err != nil {
		return false, err
	}
	if bal.Cmp(net.MinGas) >= 0 {
		return true, nil
	}
	if x.lowGasLogged == nil {
		x.lowGasLogged = map[cashier.Chain]time.Time{}
	}
	if now := x.Clock.Now(); now.Sub(x.lowGasLogged[c]) >= time.Minute {
		x.lowGasLogged[c] = now
		x.Logger.Warn("executor gas balance low: payouts wait", "chain", c, "executor", net.Executor,
			"balance", cashier.FormatAmount(bal, net.CoinDecimals), "minimum", cashier.FormatAmount(net.MinGas, net.CoinDecimals))
	}
	return false, nil
}

// Probes of the real tokens' own switches (USDT and USDC both have them;
// a token without them answers with an error, read as "no").
var (
	selPaused        = crypto.Keccak256([]byte("paused()"))[:4]
	selIsBlacklisted = crypto.Keccak256([]byte("isBlacklisted(address)"))[:4] // USDC
	selIsBlackListed = crypto.Keccak256([]byte("isBlackListed(address)"))[:4] // USDT
)

// tokenPaused reports whether e's token is paused, telling the operator
// (at most once a minute per token) that its payouts wait.
func (x *Executor) tokenPaused(ctx context.Context, e *cashier.PayoutExec) bool {
	token := x.tokenAddress(e)
	if token == "" {
		return false
	}
	v, err := x.Networks[e.Chain].Client.ViewUint(ctx, token, selPaused)
	if err != nil || v.Sign() == 0 {
		return false
	}
	if x.Alerts != nil {
		x.Alerts.Set(cashier.TokenAlert{Chain: e.Chain, Symbol: e.Symbol, Token: token, Kind: cashier.TokenPaused, Since: x.Clock.Now()})
	}
	if x.pausedLogged == nil {
		x.pausedLogged = map[string]time.Time{}
	}
	if now := x.Clock.Now(); now.Sub(x.pausedLogged[token]) >= time.Minute {
		x.pausedLogged[token] = now
		x.Logger.Error("token contract paused: its payouts wait until it is unpaused", "chain", e.Chain, "symbol", e.Symbol, "token", token, "exec", e.ID)
	}
	return true
}

// blacklisted reports whether addr is on e's token's blacklist.
func (x *Executor) blacklisted(ctx context.Context, e *cashier.PayoutExec, addr common.Address) bool {
	token := x.tokenAddress(e)
	if token == "" || addr == (common.Address{}) {
		return false
	}
	arg := common.LeftPadBytes(addr.Bytes(), 32)
	for _, sel := range [][]byte{selIsBlacklisted, selIsBlackListed} {
		v, err := x.Networks[e.Chain].Client.ViewUint(ctx, token, append(slices.Clone(sel), arg...))
		if err == nil && v.Sign() != 0 {
			return true
		}
	}
	return false
}

func (x *Executor) tokenAddress(e *cashier.PayoutExec) string {
	if x.Registry == nil {
		return ""
	}
	t, ok := x.Registry.Token(e.Chain, e.Symbol)
	if !ok {
		return ""
	}
	return t.ContractAddress
}

func describe(r payoutcontract.Revert) string {
	keys := make([]string, 0, len(r.Args))
	for k := range r.Args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, r.Args[k]))
	}
	return fmt.Sprintf("%s(%s)", r.Name, strings.Join(parts, ", "))
}
