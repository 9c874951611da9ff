package cashier

import (
	"context"
	"time"
)

// SignedSend is a transaction signed for a payout execution on a network
// whose client keeps no journal of its own (TRON), recorded before it is
// broadcast: after a lost answer or a crash the same bytes are broadcast
// again or looked up by TxID until the transaction is confirmed or has
// provably expired, and only then may a new one be signed.
type SignedSend struct {
	ExecID     string
	TxID       string
	Raw        []byte    // exactly what is broadcast
	Expiration time.Time // no block later than this can include it
	CreatedAt  time.Time
}

// SendJournalReader reads the signed sends of executions.
type SendJournalReader interface {
	// SignedSends lists an execution's signed sends, oldest first.
	SignedSends(ctx context.Context, execID string) ([]SignedSend, error)
}

// SendJournalWriter records signed sends.
type SendJournalWriter interface {
	// AddSignedSend records s; recording the same (ExecID, TxID) again
	// changes nothing.
	AddSignedSend(ctx context.Context, s *SignedSend) error
}
