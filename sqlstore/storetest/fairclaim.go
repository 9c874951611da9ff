package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// TestClaimEventsFair: claims go in turns across merchants, and within a
// merchant across its receiving hosts (host and port of the URL,
// case-insensitive); at most PerMerchant per merchant and PerHost per
// host of a merchant; the merchants and hosts named are skipped; every
// rule of ClaimEvents holds (order of one order's events, leases).
func testClaimEventsFair(t *testing.T) {
	db := openTest(t)
	var all []*cashier.Event
	add := func(id, order, merchant, url string) {
		e := event(id, order, "PENDING")
		e.MerchantID, e.URL = merchant, url
		all = append(all, e)
	}
	// Merchant m1: six events at host A, older than everything else.
	for i := 0; i < 6; i++ {
		add(fmt.Sprintf("a%d", i), fmt.Sprintf("oa%d", i), "m1", "https://A.example:8443/hook?x=1")
	}
	// Merchant m2: hosts B (b1 is b0's order's next event: it waits for
	// b0) and C, then three at host D, older than m3's only event.
	add("b0", "ob0", "m2", "https://b.example/other")
	all = append(all, event("b1", "ob0", "SUCCESS"))
	all[len(all)-1].MerchantID, all[len(all)-1].URL = "m2", "https://b.example/other"
	add("c0", "oc0", "m2", "http://c.example")
	for i := 0; i < 3; i++ {
		add(fmt.Sprintf("d%d", i), fmt.Sprintf("od%d", i), "m2", "https://d.example/x")
	}
	add("e0", "oe0", "m3", "https://a.example:8443/elsewhere") // m3 shares m1's host
	addEvents(t, db, all...)

	claim := func(f cashier.FairClaim) string {
		t.Helper()
		evs, err := db.ClaimEventsFair(ctx, "w1", t0, time.Minute, f)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range evs {
			ids = append(ids, e.ID)
		}
		return strings.Join(ids, ",")
	}
	// Each merchant's first in turn (its oldest), then each one's second
	// (m2's second is the oldest at its next host, not its host B's
	// second, which in any case waits for b0), and so on. The result is
	// in seq order.
	if got := claim(cashier.FairClaim{N: 5, PerMerchant: 10, PerHost: 10}); got != "a0,a1,b0,c0,e0" {
		t.Fatalf("first claim %q", got)
	}
	// At most PerHost at one merchant's host: one of m1's at A, one of
	// m2's at D (its only host with due events left).
	if got := claim(cashier.FairClaim{N: 10, PerMerchant: 2, PerHost: 1}); got != "a2,d0" {
		t.Fatalf("second claim %q", got)
	}
	// Skipped merchant, skipped host (also m3's events there).
	if got := claim(cashier.FairClaim{N: 10, PerMerchant: 10, PerHost: 10, SkipMerchants: []string{"m2"}, SkipHosts: []string{"a.example:8443"}}); got != "" {
		t.Fatalf("skipped merchant or host claimed: %q", got)
	}
	if got := claim(cashier.FairClaim{N: 10, PerMerchant: 10, PerHost: 10, SkipMerchants: []string{"m1"}}); got != "d1,d2" {
		t.Fatalf("claim without m1 %q", got)
	}
	// At most PerMerchant of one merchant.
	if got := claim(cashier.FairClaim{N: 10, PerMerchant: 2, PerHost: 10}); got != "a3,a4" {
		t.Fatalf("last claim %q", got)
	}
	for _, f := range []cashier.FairClaim{{N: 1, PerMerchant: 1}, {N: 1, PerHost: 1}} {
		if _, err := db.ClaimEventsFair(ctx, "w1", t0, time.Minute, f); err == nil {
			t.Fatalf("%+v accepted", f)
		}
	}

	// A claim reads a bounded window of the oldest due events: a merchant
	// whose old events fill it gets its share, and the next claim, which
	// skips that merchant as the dispatcher does, sees past it.
	db = openTest(t)
	var big []*cashier.Event
	for i := 0; i < 600; i++ {
		e := event(fmt.Sprintf("w%03d", i), fmt.Sprintf("ow%03d", i), "PENDING")
		e.MerchantID = "m1"
		big = append(big, e)
	}
	late := event("late", "olate", "PENDING")
	late.MerchantID, late.URL = "m2", "https://m2.example/hook"
	addEvents(t, db, append(big, late)...)
	first := claim(cashier.FairClaim{N: 100, PerMerchant: 32, PerHost: 32})
	if n := strings.Count(first, ",") + 1; n != 32 || strings.Contains(first, "late") {
		t.Fatalf("claim over a full window: %d events %q", n, first)
	}
	if got := claim(cashier.FairClaim{N: 100, PerMerchant: 32, PerHost: 32, SkipMerchants: []string{"m1"}}); got != "late" {
		t.Fatalf("claim past the skipped merchant %q", got)
	}
}
