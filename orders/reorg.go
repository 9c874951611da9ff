package orders

import (
	"context"
	"strings"

	"github.com/stablecashier/cashier"
)

// Deep reorgs: a block the watcher credited payments from was replaced
// after it had its confirmations. The credit is never taken back; the
// payments that are not on the new chain are marked missing, and once the
// watcher has scanned past their block again without finding them, their
// orders are flagged for the operator (a webhook carries chainAlert).

// MarkReorged records, in one transaction, that the confirmed payments
// missing lost their block in a deep reorg, and moves the cursor back to
// cur so the watcher scans the replaced blocks again (a payment found
// there again is unmarked by ApplyConfirmed or ApplySeen).
func (s *Service) MarkReorged(ctx context.Context, c cashier.Chain, missing []cashier.Payment, cur cashier.ChainCursor) error {
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		now := s.Clock.Now()
		for i := range missing {
			p, err := tx.Payment(ctx, c, missing[i].TxHash, missing[i].LogIndex)
			if err != nil {
				return err
			}
			if p.Status != cashier.PaymentConfirmed || !p.ReorgedAt.IsZero() || !strings.EqualFold(p.BlockHash, missing[i].BlockHash) {
				continue
			}
			p.ReorgedAt, p.UpdatedAt = now, now
			if err := tx.UpdatePayment(ctx, p); err != nil {
				return err
			}
		}
		old, err := tx.Cursor(ctx, c)
		if err != nil {
			return err
		}
		cur.Chain, cur.UpdatedAt, cur.Head = c, now, max(cur.Head, old.Head)
		return tx.SetCursor(ctx, cur)
	})
}

// Flagged is an order FlagReorged flagged, with the payment it misses.
type Flagged struct {
	Order   cashier.CollectionOrder
	Payment cashier.Payment
}

// FlagReorged flags the orders of c's missing payments whose block the
// watcher has confirmed again (its cursor is at or past their block) without finding
// them: the order keeps its status and paid amount, gets ReorgedAt, and
// its webhook is sent again with chainAlert "REORGED". A payment that did
// not count (another token, the native coin) flags nothing. It returns
// the orders flagged now; an order is flagged once.
func (s *Service) FlagReorged(ctx context.Context, c cashier.Chain) ([]Flagged, error) {
	ps, err := s.Store.ReorgedPayments(ctx, c)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	cur, err := s.Store.Cursor(ctx, c)
	if err != nil {
		return nil, err
	}
	confirmed := cur.Confirmed
	var out []Flagged
	err = s.Store.Update(ctx, func(tx cashier.Tx) error {
		out = out[:0]
		now := s.Clock.Now()
		a := applier{s: s, tx: tx, now: now}
		for _, p := range ps {
			if p.BlockNumber > confirmed || p.Effect == cashier.EffectWrongToken || p.Effect == cashier.EffectNative {
				continue
			}
			o, err := tx.Collection(ctx, p.OrderID)
			if err != nil {
				return err
			}
			if !o.ReorgedAt.IsZero() {
				continue
			}
			o.ReorgedAt, o.UpdatedAt = now, now
			if err := tx.UpdateCollection(ctx, o); err != nil {
				return err
			}
			if err := a.event(ctx, o); err != nil {
				return err
			}
			out = append(out, Flagged{Order: *o, Payment: p})
		}
		return nil
	})
	return out, err
}
