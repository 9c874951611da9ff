package cashier

import (
	"context"
	"math/big"
	"strings"
	"time"
)

// Refund gives a collection order's money back to the customer, whole or
// in part. It is paid through the merchant's payout contract by a payout
// order of its own (PayoutID), so the payout's review policy, fee, funding
// rule and exactly-once execution apply to it unchanged; the refund's
// status follows that payout's in the same transactions.
type Refund struct {
	ID         string // "rf_…": also the capability in the refund link
	MerchantID string
	RefundNo   string // the merchant's idempotency key, unique per merchant
	OrderID    string // the collection order refunded
	OrderNo    string
	Chain      Chain
	Symbol     string
	Decimals   int
	Amount     *big.Int // base units the customer receives
	Address    string   // recipient; "" while a refund link waits for the customer
	ByLink     bool     // created without an address: the customer enters it
	PayoutID   string   // the payout order paying it; "" before the address is known
	Status     RefundStatus
	Fee        *big.Int // the payout's fee, charged to the merchant
	TxID       string
	Block      uint64
	FailReason string
	Reason     string    // the merchant's note, echoed
	SentAt     time.Time // block time of the paying transaction; zero before SUCCESS
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Version    int64
}

// RefundPayoutPrefix starts the order number of a refund's payout order:
// "refund/" and the refundNo. Merchant order numbers cannot hold '/', so
// these never collide with the merchant's own payouts.
const RefundPayoutPrefix = "refund/"

// IsRefundPayout reports whether a payout order pays a refund.
func IsRefundPayout(o *PayoutOrder) bool { return strings.HasPrefix(o.OrderNo, RefundPayoutPrefix) }

// RefundFilter selects refunds for listings (the ledger, exports). Empty
// fields match anything; times are inclusive bounds, zero is unbounded.
type RefundFilter struct {
	MerchantID string
	OrderID    string
	Chain      Chain
	Status     RefundStatus
	TxID       string // the paying transaction's id
	// SentFrom and SentTo bound SentAt (and so select SUCCESS refunds only
	// when either is set).
	SentFrom, SentTo time.Time
	Limit            int // 0: no limit
}

// RefundReader reads refunds.
type RefundReader interface {
	Refund(ctx context.Context, id string) (*Refund, error)
	RefundByNo(ctx context.Context, merchantID, refundNo string) (*Refund, error)
	RefundByPayout(ctx context.Context, payoutID string) (*Refund, error)
	// Refunds lists refunds oldest first (by creation).
	Refunds(ctx context.Context, f RefundFilter) ([]Refund, error)
	// SentRefunds lists the merchant's refunds paid on chain (SUCCESS) with
	// their transaction, amount, fee, token, network and block time, oldest
	// sent first: the refund movements of the merchant's ledger.
	SentRefunds(ctx context.Context, merchantID string, from, to time.Time) ([]Refund, error)
}

// RefundWriter writes refunds.
type RefundWriter interface {
	// CreateRefund fails with EDuplicate when the merchant has a refund with
	// r.RefundNo already.
	CreateRefund(ctx context.Context, r *Refund) error
	// UpdateRefund writes r if its stored Version still equals r.Version,
	// then increments r.Version; otherwise EInvalidStatus.
	UpdateRefund(ctx context.Context, r *Refund) error
}
