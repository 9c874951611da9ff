package cashier

import (
	"context"
	"time"
)

// Store is the service's durable state. The sqlite package implements it
// for the embedded default; a PostgreSQL implementation provides the same
// interface for several instances sharing one database.
//
// Reads outside Update see committed data. Update runs fn in one database
// transaction: every state change and the outbox events it causes commit
// together or not at all.
type Store interface {
	Reader
	Outbox
	Update(ctx context.Context, fn func(Tx) error) error
	Close() error
}

// Reader holds the lookups, usable inside and outside a transaction. Each
// returns a domain error with ENotFound (or the entity's own not-found code)
// when nothing matches.
type Reader interface {
	Merchant(ctx context.Context, id string) (*Merchant, error)
	MerchantByAPIKey(ctx context.Context, apiKey string) (*Merchant, error)
	Cashier(ctx context.Context, id string) (*Cashier, error)
	CashiersByMerchant(ctx context.Context, merchantID string) ([]Cashier, error)
	Contract(ctx context.Context, id string) (*Contract, error)
	ContractsByMerchant(ctx context.Context, merchantID string) ([]Contract, error)

	Collection(ctx context.Context, id string) (*CollectionOrder, error)
	CollectionByOrderNo(ctx context.Context, merchantID, orderNo string) (*CollectionOrder, error)
	Collections(ctx context.Context, f CollectionFilter) ([]CollectionOrder, int, error)

	Payout(ctx context.Context, id string) (*PayoutOrder, error)
	PayoutByOrderNo(ctx context.Context, merchantID, orderNo string) (*PayoutOrder, error)
	Payouts(ctx context.Context, f PayoutFilter) ([]PayoutOrder, int, error)

	// CollectionsByAddress returns the collection orders, in any status,
	// whose deposit address on c is one of addrs: the chain watcher's
	// index lookup (addresses in the network's canonical text form).
	CollectionsByAddress(ctx context.Context, c Chain, addrs []string) ([]CollectionOrder, error)
	// ShownAddresses returns, by address, the order ids of those of addrs
	// on c that an order with the customer's choice of network showed at
	// some time (AddShownAddress): a payment to a network the customer
	// switched away from still belongs to the order.
	ShownAddresses(ctx context.Context, c Chain, addrs []string) (map[string]string, error)
	// ExpiringCollections returns up to n PENDING orders on c whose expiry
	// is at or before t, soonest first, through the expiry index.
	ExpiringCollections(ctx context.Context, c Chain, t time.Time, n int) ([]CollectionOrder, error)
	// NextCollectionExpiry is the soonest expiry of a PENDING order, zero
	// when there is none.
	NextCollectionExpiry(ctx context.Context) (time.Time, error)
	// Payment returns one received transfer (ENotFound when unknown).
	Payment(ctx context.Context, c Chain, txHash string, logIndex uint) (*Payment, error)
	// PaymentsByOrder lists an order's received transfers in chain order.
	PaymentsByOrder(ctx context.Context, orderID string) ([]Payment, error)
	// SeenPayments lists c's payments still waiting for confirmation.
	SeenPayments(ctx context.Context, c Chain) ([]Payment, error)
	// ConfirmedPaymentsFrom lists c's confirmed payments in blocks at or
	// above from, newest block first (deep reorg checks).
	ConfirmedPaymentsFrom(ctx context.Context, c Chain, from uint64) ([]Payment, error)
	// ReorgedPayments lists c's confirmed payments that a deep reorg made
	// missing (ReorgedAt set).
	ReorgedPayments(ctx context.Context, c Chain) ([]Payment, error)
	// ReorgAlerts counts c's orders flagged after a deep reorg and its
	// payments missing now (metrics, /readyz).
	ReorgAlerts(ctx context.Context, c Chain) (flaggedOrders, missingPayments int, err error)
	// Cursor returns c's watcher position; a zero cursor when none is stored.
	Cursor(ctx context.Context, c Chain) (ChainCursor, error)
	PayoutReader
	AllowanceReader
	SendJournalReader
	RefundReader
}

// Tx is a Reader and writer inside one transaction.
type Tx interface {
	Reader

	CreateMerchant(ctx context.Context, m *Merchant) error
	CreateCashier(ctx context.Context, c *Cashier) error
	CreateContract(ctx context.Context, c *Contract) error

	// CreateCollection fails with EDuplicate when the merchant already has
	// a collection order with o.OrderNo.
	CreateCollection(ctx context.Context, o *CollectionOrder) error
	// UpdateCollection writes o if its stored Version still equals o.Version,
	// then increments o.Version; otherwise EInvalidStatus (a concurrent change).
	UpdateCollection(ctx context.Context, o *CollectionOrder) error

	// CreatePayout fails with EDuplicate when the merchant already has a
	// payout order with o.OrderNo.
	CreatePayout(ctx context.Context, o *PayoutOrder) error
	UpdatePayout(ctx context.Context, o *PayoutOrder) error

	// AddEvent appends e to the outbox (assigning Seq, State pending, due at
	// e.NextAttemptAt or e.CreatedAt).
	AddEvent(ctx context.Context, e *Event) error

	// AddShownAddress records that order orderID showed deposit address
	// addr on c (ShownAddresses); recording it again changes nothing.
	AddShownAddress(ctx context.Context, c Chain, addr, orderID string) error

	// CreatePayment records a received transfer; EDuplicate when its
	// (Chain, TxHash, LogIndex) is recorded already.
	CreatePayment(ctx context.Context, p *Payment) error
	// UpdatePayment rewrites the payment with p's key.
	UpdatePayment(ctx context.Context, p *Payment) error
	// RekeyPayment gives the payment (c, txHash, from) the log index to: the
	// same transfer mined again in another block has another log index.
	RekeyPayment(ctx context.Context, c Chain, txHash string, from, to uint) error
	// SetCursor stores c's watcher position.
	SetCursor(ctx context.Context, c ChainCursor) error
	PayoutWriter
	AllowanceWriter
	SendJournalWriter
	RefundWriter
}

// CollectionFilter selects a merchant's collection orders for the list
// endpoint. Times are inclusive bounds on CreatedAt; zero means unbounded.
type CollectionFilter struct {
	MerchantID string
	Status     CollectionStatus // empty: any
	Start, End time.Time
	Page       int // 1-based
	PageSize   int
}

// PayoutFilter selects payout orders for the funding rules, workers and
// the operator. Empty fields match anything.
type PayoutFilter struct {
	MerchantID  string
	ContractID  string
	Chain       Chain
	FromAddress string // approving wallet of allowance-mode orders, canonical form
	Status      PayoutStatus
	Start, End  time.Time // inclusive bounds on CreatedAt; zero: unbounded
	Page        int
	PageSize    int
}
