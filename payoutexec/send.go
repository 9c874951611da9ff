package payoutexec

import (
	"context"
	"errors"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/tron"
)

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
		return x.signFailed(ctx, e, os, err)
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
	if err != nil {
		return x.sendFailed(ctx, e, os, err)
	}
	return x.sendSucceeded(ctx, e, hash, len(os))
}

// signFailed handles a batch that could not be signed: nothing was sent.
func (x *Executor) signFailed(ctx context.Context, e *cashier.PayoutExec, os []cashier.PayoutOrder, err error) error {
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

// sendSucceeded records the transaction that carries e's batch.
func (x *Executor) sendSucceeded(ctx context.Context, e *cashier.PayoutExec, hash string, n int) error {
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
	x.Logger.Info("payout batch sent", "exec", e.ID, "chain", e.Chain, "tx", hash, "orders", n)
	return x.Orders.SaveExec(ctx, e)
}

// sendFailed handles a send that returned an error: what may still happen
// depends on whether anything can have reached the chain.
func (x *Executor) sendFailed(ctx context.Context, e *cashier.PayoutExec, os []cashier.PayoutOrder, err error) error {
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
