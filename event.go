package cashier

import (
	"context"
	"time"
)

// EventType is the value of the Service-Event webhook header.
type EventType string

const (
	EventPayment EventType = "payment" // a collection order changed status
	EventPayout  EventType = "payout"  // a payout order changed status
	EventRefund  EventType = "refund"  // a refund changed status
)

// EventState is where an outbox event is in its delivery.
type EventState string

const (
	EventPending   EventState = "pending"   // waiting for its (next) attempt
	EventDelivered EventState = "delivered" // the receiver confirmed it
	EventFailed    EventState = "failed"    // every attempt failed; an operator may resend
)

// Event is an outbox row: written in the same transaction as the status
// change that causes it, then delivered by the webhook dispatcher. Body is
// fixed at creation so every redelivery sends the same bytes and the same ID.
type Event struct {
	ID         string // stable id receivers deduplicate on
	Seq        int64  // assigned by storage; orders events of one order
	MerchantID string
	Type       EventType
	OrderID    string // events of one order are delivered in Seq order
	OrderNo    string
	Status     string // order status the event reports
	URL        string // webhook target resolved when the event was written
	Body       []byte // exact JSON body delivered
	CreatedAt  time.Time

	State         EventState
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	DeliveredAt   time.Time
	LeaseOwner    string
	LeaseUntil    time.Time
}

// DeliveryAttempt is one row of the delivery log.
type DeliveryAttempt struct {
	EventID       string
	Attempt       int // 1-based
	At            time.Time
	HTTPStatus    int // 0 when no response arrived
	Latency       time.Duration
	Error         string    // empty on success
	NextAttemptAt time.Time // zero when no further attempt is scheduled
}

// AttemptOutcome is one delivery attempt and the state it moves its event
// to: delivered, pending with a next attempt, or failed.
type AttemptOutcome struct {
	Attempt DeliveryAttempt
	State   EventState
}

// EventFilter selects events for the operator's views.
type EventFilter struct {
	MerchantID string
	OrderID    string
	State      EventState
	Limit      int
}

// Outbox is the storage the webhook dispatcher works from. Claims are
// leases so several service instances can share the work safely.
type Outbox interface {
	// ClaimEvents leases up to n pending events that are due at now and have
	// no earlier undelivered, unfailed event of the same order, to owner
	// until now+lease. Expired leases of other owners are taken over.
	ClaimEvents(ctx context.Context, owner string, now time.Time, lease time.Duration, n int) ([]Event, error)
	// RecordAttempt appends a to the delivery log and moves the event to
	// state (delivered, pending with a next attempt, or failed), releasing
	// the lease, but only while owner still holds it; otherwise it returns
	// an EInvalidStatus error and changes nothing.
	RecordAttempt(ctx context.Context, owner string, a DeliveryAttempt, state EventState) error
	// RecordAttempts records each outcome as RecordAttempt would, all in
	// one write: the i-th error is the i-th outcome's (nil: recorded), and
	// an outcome refused changes nothing of it while the others are kept.
	RecordAttempts(ctx context.Context, owner string, outcomes []AttemptOutcome) []error
	// Event returns one event by id.
	Event(ctx context.Context, id string) (*Event, error)
	// Events lists events, newest first.
	Events(ctx context.Context, f EventFilter) ([]Event, error)
	// Attempts returns an event's delivery log, oldest first.
	Attempts(ctx context.Context, eventID string) ([]DeliveryAttempt, error)
	// Resend puts an event back to pending, due at now, keeping its ID and
	// body; previous attempts stay in the log.
	Resend(ctx context.Context, id string, now time.Time) error
}

// FairClaim bounds one fair claim of due outbox events: merchants take
// turns, and within a merchant its receiving hosts (host and port of the
// URL) take turns, so neither a merchant with many hosts nor a host with
// many events fills the claim.
type FairClaim struct {
	N             int      // events in all, at most
	PerMerchant   int      // events of one merchant, at most
	PerHost       int      // events of one merchant at one host, at most
	SkipMerchants []string // merchants that get none (busy in the caller)
	SkipHosts     []string // hosts that get none (busy in the caller)
}
