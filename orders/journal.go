package orders

import (
	"context"

	"github.com/stablecashier/cashier"
)

// SaveExecSigned writes e (state sending) together with the transaction
// signed for it, before that transaction is broadcast: whatever happens
// next, the journal names the one transaction that may be on its way.
func (s *Service) SaveExecSigned(ctx context.Context, e *cashier.PayoutExec, signed *cashier.SignedSend) error {
	now := s.Clock.Now()
	e.UpdatedAt = now
	signed.ExecID, signed.CreatedAt = e.ID, now
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.UpdateExec(ctx, e); err != nil {
			return err
		}
		return tx.AddSignedSend(ctx, signed)
	})
}
