package cashier

import (
	"math/big"
	"time"
)

// Sweep is one DepositFactory.sweep transaction: it moves one token from
// the deposit addresses of Items into the merchant's payout contract. It
// is recorded before it is sent, so a crash never forgets one.
type Sweep struct {
	ID       string
	Chain    Chain
	Factory  string // the deposit factory, in the network's text form
	Token    string // token contract
	Amount   *big.Int
	Status   SweepStatus
	TxHash   string // "" until sent
	Error    string // why the last attempt failed
	Attempts int
	Items    []SweepItem

	CreatedAt time.Time
	UpdatedAt time.Time
}

// SweepItem is one deposit address of a sweep and what it held.
type SweepItem struct {
	OrderID string
	Address string
	Amount  *big.Int
}
