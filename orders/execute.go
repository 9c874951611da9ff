package orders

import (
	"context"
	"time"

	"github.com/stablecashier/cashier"
)

// Transactions of the payout executor: every change of an execution and of
// its orders' states, locks and webhooks commits together.

// transitionIn moves o to next inside tx with its locks and event. A
// refusal is checked against o's execution in the same transaction.
func (s *Service) transitionIn(ctx context.Context, tx cashier.Tx, o *cashier.PayoutOrder, k *cashier.Contract, next cashier.PayoutStatus) error {
	if !o.Status.CanTransition(next) {
		return cashier.Errorf(cashier.EInvalidStatus, "payout order %s cannot go from %s to %s", o.OrderNo, o.Status, next)
	}
	if next == cashier.PayoutRefuse {
		if err := refusable(ctx, tx, o); err != nil {
			return err
		}
	}
	now := s.Clock.Now()
	o.Status, o.UpdatedAt = next, now
	if err := tx.UpdatePayout(ctx, o); err != nil {
		return err
	}
	if err := s.releaseLocks(ctx, tx, o, k, now); err != nil {
		return err
	}
	return s.addPayoutEvent(ctx, tx, o, k, now)
}

// StartExec stores e (state created, nonce set) and puts the orders into
// it: PENDING ones become PROCESSING with their webhook. An order that
// changed meanwhile (refused, taken by another execution) fails the whole
// call, and nothing is stored.
func (s *Service) StartExec(ctx context.Context, e *cashier.PayoutExec, orderIDs []string) error {
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		k, err := tx.Contract(ctx, e.ContractID)
		if err != nil {
			return err
		}
		if err := tx.CreateExec(ctx, e); err != nil {
			return err
		}
		for _, id := range orderIDs {
			o, err := tx.Payout(ctx, id)
			if err != nil {
				return err
			}
			if o.ExecID != "" || o.NeedsReview || o.Status.Final() {
				return cashier.Errorf(cashier.EInvalidStatus, "payout order %s changed before its batch was stored", o.ID)
			}
			o.ExecID = e.ID
			if o.Status == cashier.PayoutPending {
				if err := s.transitionIn(ctx, tx, o, k, cashier.PayoutProcessing); err != nil {
					return err
				}
				continue
			}
			if err := tx.UpdatePayout(ctx, o); err != nil {
				return err
			}
		}
		return nil
	})
}

// refusable tells whether o may be refused: only while no transaction can
// carry it. That is a PENDING order; a PROCESSING one taken out of its
// batch after a pre-flight refusal; one whose execution is created (nothing
// sent, or everything sent provably unable to pay) and not ambiguous; or
// one whose execution failed (given up unpaid). Once its execution is
// sending, sent or done, only the chain decides the order.
func refusable(ctx context.Context, tx cashier.Tx, o *cashier.PayoutOrder) error {
	switch {
	case o.Status == cashier.PayoutPending:
		return nil
	case o.Status != cashier.PayoutProcessing:
		return cashier.Errorf(cashier.EInvalidStatus, "payout order %s is %s already", o.OrderNo, o.Status)
	case o.ExecID == "":
		return nil
	}
	e, err := tx.Exec(ctx, o.ExecID)
	if err != nil {
		return err
	}
	if e.State == cashier.ExecFailed || e.State == cashier.ExecCreated && !e.Ambiguous {
		return nil
	}
	return cashier.Errorf(cashier.EInvalidStatus,
		"payout order %s cannot be refused: its batch %s is %s, so a transaction may pay it; the chain decides it now", o.OrderNo, e.ID, e.State)
}

// SaveSending writes e, going to sending, with the transaction signed for
// it when the network is journaled (signed may be nil), in one
// transaction that first checks e still carries exactly orderIDs, the
// orders its call was signed for: an order refused after they were read
// fails the write (EInvalidStatus), and nothing is sent for the stale call.
func (s *Service) SaveSending(ctx context.Context, e *cashier.PayoutExec, orderIDs []string, signed *cashier.SignedSend) error {
	now := s.Clock.Now()
	e.UpdatedAt = now
	if signed != nil {
		signed.ExecID, signed.CreatedAt = e.ID, now
	}
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		all, err := tx.ExecOrders(ctx, e.ID)
		if err != nil {
			return err
		}
		live := map[string]bool{}
		for _, o := range all {
			if o.Status == cashier.PayoutProcessing {
				live[o.ID] = true
			}
		}
		same := len(live) == len(orderIDs)
		for _, id := range orderIDs {
			same = same && live[id]
		}
		if !same {
			return cashier.Errorf(cashier.EInvalidStatus, "batch %s changed after its call was signed (an order was refused): not sent", e.ID)
		}
		if err := tx.UpdateExec(ctx, e); err != nil {
			return err
		}
		if signed == nil {
			return nil
		}
		return tx.AddSignedSend(ctx, signed)
	})
}

// SaveExec writes e alone.
func (s *Service) SaveExec(ctx context.Context, e *cashier.PayoutExec) error {
	e.UpdatedAt = s.Clock.Now()
	return s.Store.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateExec(ctx, e) })
}

// ExecOutcome is what settles an execution's orders.
type ExecOutcome struct {
	Refuse map[string]string // order id → reason: REFUSE, funds unlocked
	Detach []string          // order ids: back to the queue, still PROCESSING
	// Paid: every order still in the execution is SUCCESS with TxID, Block
	// and its GasAmount share.
	Paid      bool
	TxID      string
	Block     uint64
	BlockTime time.Time         // the block's header time
	GasShares map[string]string // order id → gasAmount
	GasSpent  map[string]string // fee+gas: order id → its share of the coin the transaction cost
}

// SettleExec writes e and applies out to its orders in one transaction.
// Only an execution nothing was sent for may refuse or detach orders: once
// anything may have been sent, its orders are fixed.
func (s *Service) SettleExec(ctx context.Context, e *cashier.PayoutExec, out ExecOutcome) error {
	e.UpdatedAt = s.Clock.Now()
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		if (len(out.Refuse) > 0 || len(out.Detach) > 0) && !out.Paid {
			cur, err := tx.Exec(ctx, e.ID)
			if err != nil {
				return err
			}
			// A pre-flight refusal moves sending back to created: no
			// transaction exists. An ambiguous execution never changes.
			if cur.Ambiguous || e.Ambiguous || cur.State != cashier.ExecCreated && cur.State != cashier.ExecSending ||
				e.State != cashier.ExecCreated && e.State != cashier.ExecFailed {
				return cashier.Errorf(cashier.EInvalidStatus, "execution %s is %s: its orders cannot change", e.ID, cur.State)
			}
		}
		if err := tx.UpdateExec(ctx, e); err != nil {
			return err
		}
		k, err := tx.Contract(ctx, e.ContractID)
		if err != nil {
			return err
		}
		orders, err := tx.ExecOrders(ctx, e.ID)
		if err != nil {
			return err
		}
		detach := map[string]bool{}
		for _, id := range out.Detach {
			detach[id] = true
		}
		for i := range orders {
			o := &orders[i]
			if o.Status != cashier.PayoutProcessing {
				continue
			}
			switch reason, refuse := out.Refuse[o.ID]; {
			case out.Paid:
				o.TxID, o.BlockNumber, o.BlockTime, o.GasAmount, o.GasSpent = out.TxID, out.Block, out.BlockTime, out.GasShares[o.ID], out.GasSpent[o.ID]
				if err := s.transitionIn(ctx, tx, o, k, cashier.PayoutSuccess); err != nil {
					return err
				}
			case refuse:
				o.FailReason = reason
				if err := s.transitionIn(ctx, tx, o, k, cashier.PayoutRefuse); err != nil {
					return err
				}
			case detach[o.ID]:
				o.ExecID, o.UpdatedAt = "", s.Clock.Now()
				if err := tx.UpdatePayout(ctx, o); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
