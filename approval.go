package cashier

import (
	"context"
	"math/big"
	"time"
)

// Approval is one confirmed token Approval(owner, spender, value) event
// whose spender is a registered payout contract, identified on chain by
// (Chain, TxHash, LogIndex) and recorded once. It is never delivered to
// merchants.
type Approval struct {
	Chain       Chain
	Token       string // token contract
	Owner       string // the approving wallet
	Spender     string // the payout contract
	Value       *big.Int
	TxHash      string
	LogIndex    uint
	BlockNumber uint64
	BlockHash   string
	BlockTime   time.Time
}

// Allowance is what a wallet allows a payout contract to draw of one
// token, as last seen on chain: the value of its newest confirmed Approval
// less what this service's payouts from the wallet through the contract
// took in blocks at or after that approval (tokens lower an allowance on
// transferFrom without an Approval event).
type Allowance struct {
	Chain     Chain
	Token     string
	Symbol    string
	Owner     string
	Spender   string
	Approved  *big.Int // the newest approval's value
	Spent     *big.Int // taken by payouts since that approval
	TxHash    string   // the newest approval
	LogIndex  uint
	Block     uint64
	BlockTime time.Time
	// Checked is false from a new approval until the pending allowance-mode
	// orders drawing on it have been held against it.
	Checked   bool
	UpdatedAt time.Time
}

// Left is the allowance remaining: Approved − Spent, never below zero.
func (a *Allowance) Left() *big.Int {
	l := new(big.Int).Sub(a.Approved, a.Spent)
	if l.Sign() < 0 {
		l.SetInt64(0)
	}
	return l
}

// AllowanceReader reads recorded approvals and allowances.
type AllowanceReader interface {
	// Approval returns one recorded approval (ENotFound when unknown).
	Approval(ctx context.Context, c Chain, txHash string, logIndex uint) (*Approval, error)
	// Allowances lists the allowances granted to spender on c, by symbol
	// then owner.
	Allowances(ctx context.Context, c Chain, spender string) ([]Allowance, error)
	// UncheckedAllowances lists c's allowances changed by an approval whose
	// pending orders have not been held against it yet.
	UncheckedAllowances(ctx context.Context, c Chain) ([]Allowance, error)
	// ContractAddresses lists the addresses of c's registered payout
	// contracts, enabled or not.
	ContractAddresses(ctx context.Context, c Chain) ([]string, error)
}

// AllowanceWriter records approvals and keeps allowances current.
type AllowanceWriter interface {
	// RecordApproval stores a once per (Chain, TxHash, LogIndex) and, when
	// it is newer than the allowance's last approval, makes it the
	// allowance's approval (Spent from spentAfter, Checked false). It
	// reports whether a was new.
	RecordApproval(ctx context.Context, a *Approval, symbol string, spentAfter *big.Int, now time.Time) (bool, error)
	// SpendAllowance adds n to the allowance's Spent when the payout paid
	// in block is at or after its approval's block.
	SpendAllowance(ctx context.Context, c Chain, token, owner, spender string, block uint64, n *big.Int) error
	// MarkAllowanceChecked sets Checked if the allowance's approval is still
	// (txHash, logIndex).
	MarkAllowanceChecked(ctx context.Context, c Chain, token, owner, spender, txHash string, logIndex uint) error
}
