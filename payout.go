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

// MerchantSigner is a merchant's own payout signer key on one network,
// sealed at rest. The merchant's contracts name its address as signer(),
// which is what proves a contract belongs to the merchant.
type MerchantSigner struct {
	MerchantID string
	Chain      Chain
	Address    string // in the network's text form
	PrivateKey []byte // 32 bytes; empty when the key is held outside the service (Clef)
	CreatedAt  time.Time
}

// External reports whether the signer's key is held outside the service
// (an account of the operator's Clef): the service has its address only.
func (k MerchantSigner) External() bool { return len(k.PrivateKey) == 0 }

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
	// MerchantSigner returns the merchant's signer on c, ENotFound when it
	// has none yet.
	MerchantSigner(ctx context.Context, merchantID string, c Chain) (*MerchantSigner, error)
	// SignerOwner returns the merchant whose signer on c has address,
	// ENotFound when none.
	SignerOwner(ctx context.Context, c Chain, address string) (string, error)
	// ContractByAddress returns the registration of an on-chain contract.
	ContractByAddress(ctx context.Context, c Chain, address string) (*Contract, error)
	ExecReader
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
	// CreateMerchantSigner stores a merchant's signer; EDuplicate when the
	// merchant has one on the network already (it is never replaced) or the
	// address is another merchant's.
	CreateMerchantSigner(ctx context.Context, k *MerchantSigner) error
	// UpdateContract writes the webhook URL, status and signer of a registration.
	UpdateContract(ctx context.Context, c *Contract) error
	ExecWriter
}

// ExecState is where a payout batch execution stands.
type ExecState string

const (
	// ExecCreated: stored with its contract nonce; nothing was sent for it,
	// so its orders may still change (a refused order is taken out).
	ExecCreated ExecState = "created"
	// ExecSending: a send is under way or its outcome is unknown (a crash,
	// a transport error). Its orders never change again; it is resolved by
	// the chain: the contract nonce used, or the signature expired unused.
	ExecSending ExecState = "sending"
	ExecSent    ExecState = "sent"   // a transaction is known (TxHashes)
	ExecDone    ExecState = "done"   // confirmed paid; its orders SUCCESS
	ExecFailed  ExecState = "failed" // given up unpaid; its orders REFUSE
)

var execTransitions = map[ExecState][]ExecState{
	ExecCreated: {ExecSending, ExecFailed},
	ExecSending: {ExecSent, ExecCreated, ExecFailed}, // failed: refused in pre-flight
	ExecSent:    {ExecDone, ExecCreated, ExecSending, ExecSent},
}

// CanTransition reports whether an execution may go from s to next.
func (s ExecState) CanTransition(next ExecState) bool {
	for _, n := range execTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// PayoutExec is one payout contract call carrying a batch of orders of one
// (contract, token, mode, from). Its Nonce is the contract nonce, stored
// before anything is sent and never changed: the contract accepts a nonce
// once, so however often the batch is sent it pays at most once.
type PayoutExec struct {
	ID         string
	Chain      Chain
	ContractID string
	Contract   string // contract address
	Symbol     string
	Mode       PayoutType
	From       string // allowance mode
	Nonce      *big.Int
	Timestamp  int64 // signed timestamp, Unix seconds; 0 until first signed
	State      ExecState
	TxHashes   []string // every transaction sent for it, oldest first
	Ambiguous  bool     // a send may exist that TxHashes does not name
	StartBlock uint64   // head when created: its transaction is at or above
	Attempts   int
	LastError  string
	TxID       string // the paying transaction
	Block      uint64
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// ExecReader and ExecWriter store payout executions.
type ExecReader interface {
	Exec(ctx context.Context, id string) (*PayoutExec, error)
	// OpenExecs lists executions not done or failed, oldest first.
	OpenExecs(ctx context.Context) ([]PayoutExec, error)
	// ExecOrders lists the orders an execution carries, in batch order.
	ExecOrders(ctx context.Context, execID string) ([]PayoutOrder, error)
	// ExecutablePayouts lists up to n orders ready for a batch: PENDING and
	// not held for review, or PROCESSING without an execution; oldest first.
	ExecutablePayouts(ctx context.Context, n int) ([]PayoutOrder, error)
}

type ExecWriter interface {
	CreateExec(ctx context.Context, e *PayoutExec) error
	UpdateExec(ctx context.Context, e *PayoutExec) error
}
