package cashier

import (
	"context"
	"math/big"
	"time"
)

// Settle keeps the lock of a paid order on a funding pool until balance
// reads reflect the payment: a read made at a block below Block still shows
// the funds the payment took, so a creation counts Amount as locked.
type Settle struct {
	OrderID string
	Pool    string
	Block   uint64 // block of the paying transaction
	Amount  *big.Int
	At      time.Time
}

// ReviewMode decides which of a merchant's payouts wait for an operator.
type ReviewMode string

const (
	ReviewDefault ReviewMode = "default" // balance mode reviewed, allowance mode not (the interface's rule)
	ReviewAlways  ReviewMode = "always"
	ReviewNever   ReviewMode = "never"
	ReviewAbove   ReviewMode = "above" // orders whose amount exceeds Above, in token units
)

// ReviewModes lists every review mode.
var ReviewModes = []ReviewMode{ReviewDefault, ReviewAlways, ReviewNever, ReviewAbove}

// ReviewPolicy is a merchant's review rule.
type ReviewPolicy struct {
	MerchantID string
	Mode       ReviewMode
	Above      string // decimal token amount, with ReviewAbove
	UpdatedAt  time.Time
}

// KeyRole names one of the service's own keys on a network.
type KeyRole string

const (
	KeySigner   KeyRole = "signer"   // EIP-712 payout signatures the contract checks
	KeyExecutor KeyRole = "executor" // sends payout transactions, pays their gas
	KeySweeper  KeyRole = "sweeper"  // sends deposit sweeps
)

// KeyRoles lists every role.
var KeyRoles = []KeyRole{KeySigner, KeyExecutor, KeySweeper}

// ServiceKey is a secp256k1 private key of the service, sealed at rest.
type ServiceKey struct {
	Chain      Chain
	Role       KeyRole
	Address    string // the key's address in the network's text form
	PrivateKey []byte // 32 bytes
	CreatedAt  time.Time
}

// PayoutReader holds the lookups of the payout lifecycle.
type PayoutReader interface {
	// PoolLocked is the running locked total of pool plus the settles of
	// pool paid in blocks above afterBlock.
	PoolLocked(ctx context.Context, pool string, afterBlock uint64) (*big.Int, error)
	// PoolTotals returns every pool's running locked total.
	PoolTotals(ctx context.Context) (map[string]*big.Int, error)
	// ReviewPolicy returns the merchant's policy (ReviewDefault when none is set).
	ReviewPolicy(ctx context.Context, merchantID string) (*ReviewPolicy, error)
	// ServiceKey returns the key of role on c, ENotFound when none is stored.
	ServiceKey(ctx context.Context, c Chain, role KeyRole) (*ServiceKey, error)
	// ContractByAddress returns the registration of an on-chain contract.
	ContractByAddress(ctx context.Context, c Chain, address string) (*Contract, error)
}

// PayoutWriter holds the writes of the payout lifecycle.
type PayoutWriter interface {
	// AddPoolLock adds delta (which may be negative) to pool's running
	// total; a total that would go below zero is an EInternal error.
	AddPoolLock(ctx context.Context, pool string, delta *big.Int) error
	AddSettle(ctx context.Context, s *Settle) error
	// PruneSettles deletes settles recorded before t.
	PruneSettles(ctx context.Context, before time.Time) (int, error)
	SetReviewPolicy(ctx context.Context, p *ReviewPolicy) error
	// PutServiceKey stores k, replacing the key of its role on its network.
	PutServiceKey(ctx context.Context, k *ServiceKey) error
	// UpdateContract writes the webhook URL and status of a registration.
	UpdateContract(ctx context.Context, c *Contract) error
}
