package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestClaimEventsFair: claims go round-robin across receiving hosts (host
// and port of the URL, case-insensitive), at most perHost per host, skip
// the hosts named, and keep every rule of ClaimEvents (order of one
// order's events, leases).
func testClaimEventsFair(t *testing.T) {
	db := openTest(t)
	var es []string
	for i := 0; i < 6; i++ {
		e := event(fmt.Sprintf("a%d", i), fmt.Sprintf("oa%d", i), "PENDING")
		e.URL = "https://A.example:8443/hook?x=1"
		addEvents(t, db, e)
		es = append(es, e.ID)
	}
	b := event("b0", "ob0", "PENDING")
	b.URL = "https://b.example/other"
	b2 := event("b1", "ob0", "SUCCESS") // same order: waits for b0
	b2.URL = b.URL
	c := event("c0", "oc0", "PENDING")
	c.URL = "http://c.example"
	addEvents(t, db, b, b2, c)

	claim := func(n, perHost int, skip ...string) string {
		t.Helper()
		evs, err := db.ClaimEventsFair(ctx, "w1", t0, time.Minute, n, perHost, skip)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range evs {
			ids = append(ids, e.ID)
		}
		return strings.Join(ids, ",")
	}
	// Round robin: the oldest of each host first, although six events of
	// host A are older than those of B and C.
	if got := claim(3, 2); got != "a0,b0,c0" {
		t.Fatalf("first claim %q", got)
	}
	// b1 waits for b0; A gets at most perHost.
	if got := claim(10, 2); got != "a1,a2" {
		t.Fatalf("second claim %q", got)
	}
	// A skipped: nothing else is due.
	if got := claim(10, 2, "a.example:8443"); got != "" {
		t.Fatalf("skipped host claimed: %q", got)
	}
	if got := claim(10, 5); got != "a3,a4,a5" {
		t.Fatalf("last claim %q", got)
	}
	if _, err := db.ClaimEventsFair(ctx, "w1", t0, time.Minute, 1, 0, nil); err == nil {
		t.Fatal("perHost 0 accepted")
	}
}
