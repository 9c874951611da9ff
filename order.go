package cashier

import (
	"math/big"
	"strings"
	"time"
)

// CollectionOrder is a request for a customer to pay a merchant.
type CollectionOrder struct {
	ID             string // service order id
	MerchantID     string
	CashierID      string
	OrderNo        string // merchant's order number, unique per merchant
	CustNo         string // merchant's customer number, echoed in webhooks
	Chain          Chain
	Symbol         string
	Decimals       int
	Amount         *big.Int // base units
	PaidAmount     *big.Int // base units received so far
	DepositAddress string   // where the customer pays
	RedirectURL    string
	Status         CollectionStatus
	TxID           string // transfer that completed the order; before that, the latest seen or counted
	FromAddress    string // payer of TxID
	ExpireAt       time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
	Version        int64 // optimistic concurrency: bumped on every update

	// PayTime is the block time of TxID's transfer; zero until one is seen.
	PayTime time.Time
	Num     int64 // numeric identity (webhook "id"); set by Create, not by reads (sqlite NumericID)

	// Origin is the merchant page's origin of a browser-created order (the
	// widget SDK, with the API key alone); "" for orders of the signed API.
	Origin string

	// ReorgedAt flags the order for the operator, for good: a payment it
	// counted went missing in a reorg deeper than the confirmations. Its
	// status and paid amount are never reversed because of it; webhooks
	// carry chainAlert "REORGED" (docs/webhooks.md).
	ReorgedAt time.Time

	// Choose is what the customer may choose on the payment page: "" for
	// an order whose network and token were fixed at creation, else
	// ChooseChain, ChooseToken or both ("chain,token"). Set once, at
	// creation. Until the customer chooses, Chain and Symbol are the
	// preselected ones and DepositAddress is "".
	Choose string
}

// What a customer may choose (CollectionOrder.Choose).
const (
	ChooseChain = "chain"
	ChooseToken = "token"
)

// BrowserCreated reports whether the order was created from a browser.
func (o *CollectionOrder) BrowserCreated() bool { return o.Origin != "" }

// MayChoose reports whether the customer may choose what (ChooseChain or
// ChooseToken) for o.
func (o *CollectionOrder) MayChoose(what string) bool {
	for _, c := range strings.Split(o.Choose, ",") {
		if c == what {
			return true
		}
	}
	return false
}

// Unchosen reports whether o waits for the customer's choice of network
// and token: no deposit address is given out before it.
func (o *CollectionOrder) Unchosen() bool { return o.Choose != "" && o.DepositAddress == "" }

// PayoutType is the funding mode of a payout order.
type PayoutType int

const (
	PayoutBalance   PayoutType = 1 // tokens held by the payout contract
	PayoutAllowance PayoutType = 2 // tokens pulled from an approving wallet
)

// Valid reports whether t is a known payout type.
func (t PayoutType) Valid() bool { return t == PayoutBalance || t == PayoutAllowance }

// PayoutOrder sends tokens from a payout contract to a recipient.
type PayoutOrder struct {
	ID          string // orderId in responses
	MerchantID  string
	ContractID  string
	BatchID     string // set when created by a batch call
	OrderNo     string
	Chain       Chain
	Recipient   string
	Symbol      string
	Decimals    int
	Amount      *big.Int // base units
	Fee         *big.Int // base units, charged per order
	PayoutType  PayoutType
	FromAddress string // allowance mode: the approving wallet
	Remark      string
	CustNo      string // the merchant's customer number given at creation, echoed in webhooks
	Status      PayoutStatus
	TxID        string
	// GasAmount is the order's share of the gas: under the network's gas
	// policy fee, of the coin the transaction cost (coin units); under
	// fee+gas, of the token the contract deducted for gas (token units).
	GasAmount  string
	GasSpent   string // the order's share of the coin the transaction cost, whatever the policy
	FailReason string
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Version    int64

	NeedsReview bool   // waits for an operator's approval before execution
	ExecID      string // the batch execution carrying the order
	BlockNumber uint64 // block of the transaction that paid it
	Num         int64  // numeric identity; set by Create, not by reads (sqlite NumericID)

	// BlockTime is the time of BlockNumber's block, known when its
	// execution settles (for the SUCCESS webhook); not stored, so zero on
	// reads.
	BlockTime time.Time
}

// PaymentNote names how the money received differs from what the order
// asked, for the customer's page and the dashboard's lists: "" when it
// matches (or nothing came), else NoteUnderpaid, NoteOverpaid, NoteLate or
// NoteAfterCancel. PaidAmount counts every transfer of the order's token,
// including those after expiry, completion or cancellation.
func (o *CollectionOrder) PaymentNote() string {
	if o.PaidAmount == nil || o.PaidAmount.Sign() == 0 {
		return ""
	}
	switch {
	case o.Status == CollectionCancelled:
		return NoteAfterCancel
	case o.PaidAmount.Cmp(o.Amount) > 0:
		return NoteOverpaid
	case o.Status == CollectionSuccess && !o.PayTime.IsZero() && o.PayTime.After(o.ExpireAt):
		return NoteLate
	case o.Status == CollectionExpired && o.PaidAmount.Cmp(o.Amount) >= 0:
		return NoteLate
	case o.PaidAmount.Cmp(o.Amount) < 0:
		return NoteUnderpaid
	}
	return ""
}

// The payment notes of PaymentNote.
const (
	NoteUnderpaid   = "underpaid"
	NoteOverpaid    = "overpaid"
	NoteLate        = "late"
	NoteAfterCancel = "after_cancel"
)
