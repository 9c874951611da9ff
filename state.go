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
	PayoutProcessing PayoutStatus = "PROCESSING" // amount locked, transaction being sent
	PayoutSuccess    PayoutStatus = "SUCCESS"    // transaction confirmed
	PayoutRefuse     PayoutStatus = "REFUSE"     // refused by review or failed on chain
)

// PayoutStatuses lists every payout status.
var PayoutStatuses = []PayoutStatus{PayoutPending, PayoutProcessing, PayoutSuccess, PayoutRefuse}

var payoutTransitions = map[PayoutStatus][]PayoutStatus{
	PayoutPending:    {PayoutProcessing, PayoutRefuse},
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
