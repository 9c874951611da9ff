package orders

import (
	"context"

	"github.com/stablecashier/cashier"
)

// SaveExecSigned writes e (state sending) together with the transaction
// signed for it for orderIDs, before that transaction is broadcast:
// whatever happens next, the journal names the one transaction that may be
// on its way (see SaveSending).
func (s *Service) SaveExecSigned(ctx context.Context, e *cashier.PayoutExec, orderIDs []string, signed *cashier.SignedSend) error {
	return s.SaveSending(ctx, e, orderIDs, signed)
}
