// Package storetest is the conformance suite of the store: the same tests
// run against every dialect (sqlite and postgres call Run from their own
// tests), so the shared SQL is proven on each database it runs on.
package storetest

import (
	"context"
	"testing"

	"github.com/stablecashier/cashier/sqlstore"
)

// Backend is one database the suite runs on.
type Backend struct {
	// NewDatabase returns the location of a new, empty database (a file
	// path, a URL) that Open accepts; the test's cleanup removes it.
	NewDatabase func(t testing.TB) string
	// Open opens (migrating) the database at loc. Opening one location
	// twice gives two stores on one database, like two processes.
	Open func(ctx context.Context, loc string, opts sqlstore.Options) (*sqlstore.DB, error)
	// RawBytes returns what a copy of the database's files would hold
	// (everything written so far reaching them first).
	RawBytes func(t testing.TB, loc string) []byte
}

// backend is the one a test binary runs the suite on (set by Run).
var backend Backend

// Run runs the suite on b, each test as a subtest.
func Run(t *testing.T, b Backend) {
	backend = b
	for _, c := range tests {
		t.Run(c.name, c.fn)
	}
}

var tests = []struct {
	name string
	fn   func(t *testing.T)
}{
	{"MerchantSecrets", testMerchantSecrets},
	{"PreviousAPIKey", testPreviousAPIKey},
	{"SecretsNotInDatabaseFiles", testSecretsNotInDatabaseFiles},
	{"CashiersAndContracts", testCashiersAndContracts},
	{"CollectionRoundTrip", testCollectionRoundTrip},
	{"CreateCollectionDuplicateRace", testCreateCollectionDuplicateRace},
	{"CreatePayoutDuplicateRace", testCreatePayoutDuplicateRace},
	{"UpdateCollectionOptimistic", testUpdateCollectionOptimistic},
	{"UpdatePayoutOptimistic", testUpdatePayoutOptimistic},
	{"PayoutRoundTrip", testPayoutRoundTrip},
	{"CollectionsFilter", testCollectionsFilter},
	{"PayoutsFilter", testPayoutsFilter},
	{"UpdateRollsBack", testUpdateRollsBack},
	{"UpdateCancelledContext", testUpdateCancelledContext},
	{"ConcurrentWriters", testConcurrentWriters},
	{"CheckAndWriteAcrossHandles", testCheckAndWriteAcrossHandles},
	{"SealedSecretsAreBoundToTheirRow", testSealedSecretsAreBoundToTheirRow},
	{"AddEventAndRead", testAddEventAndRead},
	{"ClaimKeepsOrderPerOrder", testClaimKeepsOrderPerOrder},
	{"LeaseTakeover", testLeaseTakeover},
	{"DeliveryLogAndResend", testDeliveryLogAndResend},
	{"RecordAttempts", testRecordAttempts},
	{"ConcurrentClaims", testConcurrentClaims},
	{"ClaimArguments", testClaimArguments},
	{"PaymentsAndWatcherLookups", testPaymentsAndWatcherLookups},
	{"ReorgMarks", testReorgMarks},
	{"NumericIDs", testNumericIDs},
	{"CacheInvalidatedByOwnWrites", testCacheInvalidatedByOwnWrites},
	{"CacheTTLBoundsOtherProcessesWrites", testCacheTTLBoundsOtherProcessesWrites},
	{"CacheOff", testCacheOff},
	{"ClaimEventsFair", testClaimEventsFair},
	{"AuditLog", testAuditLog},
	{"TOTPStep", testTOTPStep},
	{"OneTimeViews", testOneTimeViews},
	{"OpsStats", testOpsStats},
	{"TxJournal", testTxJournal},
	{"ApprovalsAndAllowances", testApprovalsAndAllowances},
	{"SignedSends", testSignedSends},
	{"LeaseLifecycle", testLeaseLifecycle},
	{"LeaseBadInput", testLeaseBadInput},
	{"PruneLeases", testPruneLeases},
	{"LeaseRaceAcrossHandles", testLeaseRaceAcrossHandles},
	{"Refunds", testRefunds},
}
