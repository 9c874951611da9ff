// Package orders is the service's application layer for merchant orders:
// it validates requests against the registry, enforces the funding rules
// and the state machines, and writes every change together with its outbox
// event in one store transaction. It knows nothing of HTTP or of any chain's
// wire protocol; those reach it through the small interfaces below.
package orders

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"time"

	"github.com/stablecashier/cashier"
)

// Addresses validates and canonicalizes addresses per network.
type Addresses interface {
	ValidateAddress(c cashier.Chain, addr string) (string, error)
}

// Deposits derives the per-order deposit address of a collection order
// from the merchant's deposit setup on the order's network.
type Deposits interface {
	DepositAddress(ctx context.Context, m *cashier.Merchant, c cashier.Chain, orderID string) (string, error)
}

// Funds reads on-chain funding sources for the funding rules.
type Funds interface {
	// ContractBalance is the token balance held by a payout contract.
	ContractBalance(ctx context.Context, c cashier.Chain, token, contract string) (*big.Int, error)
	// WalletFunds is owner's token balance and the allowance owner granted
	// the contract; allowance mode can spend the smaller of the two.
	WalletFunds(ctx context.Context, c cashier.Chain, token, owner, contract string) (balance, allowance *big.Int, err error)
}

// EventWriter builds the outbox events a status change causes; the webhook
// package provides it.
type EventWriter interface {
	CollectionEvent(o *cashier.CollectionOrder, c *cashier.Cashier, at time.Time) (*cashier.Event, error)
	PayoutEvent(o *cashier.PayoutOrder, k *cashier.Contract, webhookURL string, at time.Time) (*cashier.Event, error)
}

// Config holds the tunable rules of order handling.
type Config struct {
	CollectionTTL   time.Duration // lifetime of a collection order (30 min)
	MaxBatch        int           // most orders in one batch payout
	MaxPageSize     int           // largest pageSize of the list endpoint
	DefaultPageSize int
	MaxOrderNoLen   int
	MaxTextLen      int // remark, custNo, redirectUrl

	// LateWindow is how long after expiry a full payment still completes
	// an order (see decisions.md).
	LateWindow      time.Duration
	SettleRetention time.Duration // how long a paid order's settle is kept (see funding.go)
}

// DefaultConfig are the documented defaults (see decisions.md).
var DefaultConfig = Config{
	CollectionTTL:   30 * time.Minute,
	MaxBatch:        100,
	MaxPageSize:     100,
	DefaultPageSize: 20,
	MaxOrderNoLen:   64,
	MaxTextLen:      256,
	LateWindow:      7 * 24 * time.Hour,
	SettleRetention: time.Hour,
}

// Service carries out merchant order operations.
type Service struct {
	Store     cashier.Store
	Registry  *cashier.Registry
	Clock     cashier.Clock
	Addresses Addresses
	Deposits  Deposits    // nil: collections need a configured deposit factory
	Funds     Funds       // nil: payouts on chains without a client are refused
	Events    EventWriter // nil: no webhook events are written
	Networks  Networks    // nil: every network of the registry takes orders
	Config    Config
}

// NewID returns a random identifier with a readable prefix, e.g. "co_…".
func NewID(prefix string) string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + hex.EncodeToString(b[:])
}
