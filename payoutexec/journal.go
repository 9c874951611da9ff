package payoutexec

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

// journaled is a sending client that keeps no journal of its own and signs
// and broadcasts apart (tron.Client): the executor journals each signed
// transaction with its execution before broadcasting it.
type journaled interface {
	SignCall(ctx context.Context, call cashier.Call) (*tron.SignedTx, error)
	Broadcast(ctx context.Context, raw []byte) (string, error)
}

// notSent wraps an error met before anything was broadcast.
type notSent struct{ error }

func (e notSent) Unwrap() error { return e.error }

// sendJournaled signs call, stores e as sending with the signed
// transaction (checking it still carries orderIDs), then broadcasts it. An
// error before the store is notSent.
func (x *Executor) sendJournaled(ctx context.Context, j journaled, e *cashier.PayoutExec, orderIDs []string, call cashier.Call) (string, error) {
	s, err := j.SignCall(ctx, call)
	if err != nil {
		return "", notSent{err}
	}
	e.State = cashier.ExecSending
	if err := x.Orders.SaveExecSigned(ctx, e, orderIDs, &cashier.SignedSend{TxID: s.ID, Raw: s.Raw, Expiration: s.Expiration}); err != nil {
		return "", notSent{err}
	}
	return j.Broadcast(ctx, s.Raw)
}

// pendingSend returns the newest journaled transaction of e that may still
// land: one that is in a block already, or whose expiration the chain has
// not passed. nil means none can land any more (or none was signed), so a
// new one may be signed. When it is in a block, inBlock is true.
func (x *Executor) pendingSend(ctx context.Context, net *Network, e *cashier.PayoutExec) (s *cashier.SignedSend, inBlock bool, err error) {
	sends, err := x.Store.SignedSends(ctx, e.ID)
	if err != nil || len(sends) == 0 {
		return nil, false, err
	}
	last := &sends[len(sends)-1]
	// The head is read before the lookup: a transaction absent from every
	// block after the head passed its expiration can never be included.
	head, err := net.Client.Head(ctx)
	if err != nil {
		return nil, false, err
	}
	r, err := net.Client.Receipt(ctx, last.TxID)
	if err != nil {
		return nil, false, err
	}
	if r != nil {
		return last, true, nil
	}
	if head.Time.After(last.Expiration) {
		return nil, false, nil
	}
	return last, false, nil
}

// resolveJournaled settles a sending execution on a journaled network
// (after findPaid found no payment): the journaled transaction is recorded
// once it is in a block, broadcast again (the same bytes) while it may
// still land, and only once it provably expired is a new one signed.
func (x *Executor) resolveJournaled(ctx context.Context, net *Network, j journaled, e *cashier.PayoutExec) (done bool, err error) {
	s, inBlock, err := x.pendingSend(ctx, net, e)
	if err != nil || s == nil {
		return false, err
	}
	if !inBlock {
		if _, err := j.Broadcast(ctx, s.Raw); err != nil {
			if errors.Is(err, tron.ErrExpired) {
				return false, nil // expired between the head read and now: sign anew
			}
			e.LastError = err.Error()
			return true, x.Orders.SaveExec(ctx, e)
		}
	}
	if !slices.ContainsFunc(e.TxHashes, func(h string) bool { return strings.EqualFold(h, s.TxID) }) {
		e.TxHashes = append(e.TxHashes, s.TxID)
	}
	e.State = cashier.ExecSent
	x.Logger.Info("payout batch journaled transaction sent again", "exec", e.ID, "chain", e.Chain, "tx", s.TxID, "inBlock", inBlock)
	return true, x.Orders.SaveExec(ctx, e)
}
