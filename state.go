package cashier

// Order state machines as explicit tables: a transition not listed here is
// refused with EInvalidStatus wherever it is attempted.

// CollectionStatus is the status of a collection order.
type CollectionStatus string

const (
	CollectionPending   CollectionStatus = "PENDING"
	CollectionSuccess   CollectionStatus = "SUCCESS"
	CollectionExpired   CollectionStatus = "EXPIRED"
	CollectionCancelled CollectionStatus = "CANCELLED"
)

// CollectionStatuses lists every collection status, for validating filters.
var CollectionStatuses = []CollectionStatus{CollectionPending, CollectionSuccess, CollectionExpired, CollectionCancelled}

var collectionTransitions = map[CollectionStatus][]CollectionStatus{
	CollectionPending: {CollectionSuccess, CollectionExpired, CollectionCancelled},
	// A payment that lands after expiry is still the customer's money: the
	// order is completed rather than the payment lost (see decisions.md).
	CollectionExpired: {CollectionSuccess},
}

// CanTransition reports whether a collection order may go from s to next.
func (s CollectionStatus) CanTransition(next CollectionStatus) bool {
	for _, n := range collectionTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// Valid reports whether s is a known collection status.
func (s CollectionStatus) Valid() bool {
	for _, v := range CollectionStatuses {
		if v == s {
			return true
		}
	}
	return false
}

// PayoutStatus is the status of a payout order. SUCCESS and REFUSE are the
// interface's terminal states; PENDING and PROCESSING are the steps before.
type PayoutStatus string

const (
	PayoutPending    PayoutStatus = "PENDING"    // accepted, awaiting review or execution
	PayoutProcessing PayoutStatus = "PROCESSING" // amount locked, taken into a batch
	PayoutSuccess    PayoutStatus = "SUCCESS"    // transaction confirmed
	PayoutRefuse     PayoutStatus = "REFUSE"     // refused before any transaction could carry it, or its batch failed
)

// PayoutStatuses lists every payout status.
var PayoutStatuses = []PayoutStatus{PayoutPending, PayoutProcessing, PayoutSuccess, PayoutRefuse}

var payoutTransitions = map[PayoutStatus][]PayoutStatus{
	PayoutPending: {PayoutProcessing, PayoutRefuse},
	// PROCESSING → REFUSE is further guarded by the order's execution:
	// only while no transaction can carry the order (orders.refusable).
	PayoutProcessing: {PayoutSuccess, PayoutRefuse},
}

// CanTransition reports whether a payout order may go from s to next.
func (s PayoutStatus) CanTransition(next PayoutStatus) bool {
	for _, n := range payoutTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// Final reports whether no transition leaves s.
func (s PayoutStatus) Final() bool { return len(payoutTransitions[s]) == 0 }

// PaymentStatus is where a received transfer is in confirmation.
type PaymentStatus string

const (
	PaymentSeen      PaymentStatus = "SEEN"      // in a block, not yet deep enough
	PaymentConfirmed PaymentStatus = "CONFIRMED" // deep enough: may credit its order
	PaymentDropped   PaymentStatus = "DROPPED"   // its block left the canonical chain before confirmation
)

var paymentTransitions = map[PaymentStatus][]PaymentStatus{
	PaymentSeen: {PaymentConfirmed, PaymentDropped},
	// A dropped transaction is often mined again on the new branch.
	PaymentDropped: {PaymentSeen, PaymentConfirmed},
}

// CanTransition reports whether a payment may go from s to next.
func (s PaymentStatus) CanTransition(next PaymentStatus) bool {
	for _, n := range paymentTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// PaymentFit is how a confirmed payment relates to its order.
type PaymentFit string

const (
	FitWrongToken PaymentFit = "wrong_token" // another token than the order's
	FitShort      PaymentFit = "short"       // order's token; paid so far is still under the amount
	FitFull       PaymentFit = "full"        // order's token; paid so far reaches the amount (or more)
	FitFullLate   PaymentFit = "full_late"   // full, but after the late-payment window closed
	FitNative     PaymentFit = "native"      // the network's coin, not a token
)

// Outcome is what a confirmed payment does: its recorded effect and the
// order's next status (the same status when it does not change).
type Outcome struct {
	Effect PaymentEffect
	Next   CollectionStatus
}

// collectionOutcomes decides every confirmed payment (see decisions.md,
// "Order outcomes"). A pair not listed cannot occur.
var collectionOutcomes = map[CollectionStatus]map[PaymentFit]Outcome{
	CollectionPending: {
		FitWrongToken: {EffectWrongToken, CollectionPending},
		FitNative:     {EffectNative, CollectionPending},
		FitShort:      {EffectCredited, CollectionPending},
		FitFull:       {EffectCredited, CollectionSuccess},
		FitFullLate:   {EffectCredited, CollectionSuccess}, // not yet expired: never late
	},
	CollectionExpired: {
		FitWrongToken: {EffectWrongToken, CollectionExpired},
		FitNative:     {EffectNative, CollectionExpired},
		FitShort:      {EffectLate, CollectionExpired},
		FitFull:       {EffectLate, CollectionSuccess},
		FitFullLate:   {EffectLate, CollectionExpired},
	},
	CollectionSuccess: {
		FitWrongToken: {EffectWrongToken, CollectionSuccess},
		FitNative:     {EffectNative, CollectionSuccess},
		FitShort:      {EffectExtra, CollectionSuccess},
		FitFull:       {EffectExtra, CollectionSuccess},
		FitFullLate:   {EffectExtra, CollectionSuccess},
	},
	CollectionCancelled: {
		FitWrongToken: {EffectWrongToken, CollectionCancelled},
		FitNative:     {EffectNative, CollectionCancelled},
		FitShort:      {EffectAfterCancel, CollectionCancelled},
		FitFull:       {EffectAfterCancel, CollectionCancelled},
		FitFullLate:   {EffectAfterCancel, CollectionCancelled},
	},
}

// PaymentOutcome returns what a confirmed payment of fit does to an order
// in status s.
func PaymentOutcome(s CollectionStatus, fit PaymentFit) (Outcome, bool) {
	o, ok := collectionOutcomes[s][fit]
	return o, ok
}

// SweepStatus is where a sweep is.
type SweepStatus string

const (
	SweepPrepared SweepStatus = "PREPARED" // recorded, maybe sent (a crash may lose the hash)
	SweepSent     SweepStatus = "SENT"     // sent with TxHash, waiting for its receipt
	SweepDone     SweepStatus = "DONE"     // mined and succeeded
	SweepFailed   SweepStatus = "FAILED"   // refused or reverted (gas); its addresses are swept again later
)

var sweepTransitions = map[SweepStatus][]SweepStatus{
	SweepPrepared: {SweepSent, SweepDone, SweepFailed},
	SweepSent:     {SweepDone, SweepFailed},
}

// CanTransition reports whether a sweep may go from s to next.
func (s SweepStatus) CanTransition(next SweepStatus) bool {
	for _, n := range sweepTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// RefundStatus is where a refund is. After the address is known it
// follows its payout order: PENDING, PROCESSING, then SUCCESS or FAILED.
type RefundStatus string

const (
	RefundAwaitingAddress RefundStatus = "AWAITING_ADDRESS" // a refund link waits for the customer's address
	RefundPending         RefundStatus = "PENDING"          // its payout awaits review or execution
	RefundProcessing      RefundStatus = "PROCESSING"       // its payout is in a batch
	RefundSuccess         RefundStatus = "SUCCESS"          // paid on chain
	RefundFailed          RefundStatus = "FAILED"           // its payout was refused: nothing sent, the amount is refundable again
	RefundCancelled       RefundStatus = "CANCELLED"        // a refund link the merchant withdrew before the customer gave an address
)

// RefundStatuses lists every refund status.
var RefundStatuses = []RefundStatus{RefundAwaitingAddress, RefundPending, RefundProcessing, RefundSuccess, RefundFailed, RefundCancelled}

var refundTransitions = map[RefundStatus][]RefundStatus{
	RefundAwaitingAddress: {RefundPending, RefundCancelled},
	RefundPending:         {RefundProcessing, RefundFailed},
	RefundProcessing:      {RefundSuccess, RefundFailed},
}

// CanTransition reports whether a refund may go from s to next.
func (s RefundStatus) CanTransition(next RefundStatus) bool {
	for _, n := range refundTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// Final reports whether no transition leaves s.
func (s RefundStatus) Final() bool { return len(refundTransitions[s]) == 0 }

// Holds reports whether a refund in s counts against what the order can
// still refund: every status but FAILED and CANCELLED.
func (s RefundStatus) Holds() bool { return s != RefundFailed && s != RefundCancelled }

// refundOfPayout is the refund status a payout status means.
var refundOfPayout = map[PayoutStatus]RefundStatus{
	PayoutPending:    RefundPending,
	PayoutProcessing: RefundProcessing,
	PayoutSuccess:    RefundSuccess,
	PayoutRefuse:     RefundFailed,
}

// RefundStatusOf returns the refund status that follows payout status p.
func RefundStatusOf(p PayoutStatus) RefundStatus { return refundOfPayout[p] }
