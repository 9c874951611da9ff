package ratelimit

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

var t0 = time.Date(2026, 11, 23, 8, 0, 10, 0, time.UTC)

func TestAllowCountsUntilLimitThenResetsAtMinute(t *testing.T) {
	clock := cashier.NewManualClock(t0)
	l := New(clock, 0)
	check := Check{Rule: "endpoint", Bucket: "k1", Limit: 3}
	for i := 0; i < 3; i++ {
		r := l.Allow(check)
		if !r.Allowed || r.Remaining != 2-i || r.Limit != 3 {
			t.Fatalf("request %d: %+v", i, r)
		}
		if want := time.Date(2026, 11, 23, 8, 1, 0, 0, time.UTC); !r.Reset.Equal(want) {
			t.Fatalf("reset %v, want %v", r.Reset, want)
		}
	}
	r := l.Allow(check)
	if r.Allowed || r.Remaining != 0 || r.Rule != "endpoint" {
		t.Fatalf("4th request allowed: %+v", r)
	}
	if got := r.RetryAfter(clock.Now()); got != 50*time.Second {
		t.Fatalf("retry after %v, want 50s", got)
	}
	clock.Advance(49*time.Second + 999*time.Millisecond)
	if l.Allow(check).Allowed {
		t.Fatal("allowed before the minute boundary")
	}
	clock.Advance(time.Millisecond)
	if r := l.Allow(check); !r.Allowed || r.Remaining != 2 {
		t.Fatalf("after reset: %+v", r)
	}
}

func TestRefusedRequestConsumesNothing(t *testing.T) {
	l := New(cashier.NewManualClock(t0), 0)
	tight := Check{Rule: "endpoint", Bucket: "k", Limit: 1}
	wide := Check{Rule: "key", Bucket: "k", Limit: 10}
	if r := l.Allow(tight, wide); !r.Allowed || r.Rule != "endpoint" || r.Remaining != 0 {
		t.Fatalf("first: %+v", r)
	}
	for i := 0; i < 5; i++ {
		if r := l.Allow(tight, wide); r.Allowed || r.Rule != "endpoint" {
			t.Fatalf("refused request %d: %+v", i, r)
		}
	}
	// Only the one allowed request was counted against the wide rule.
	if r := l.Allow(wide); !r.Allowed || r.Remaining != 8 {
		t.Fatalf("wide rule after refusals: %+v", r)
	}
}

func TestMostConstrainingCheckIsReported(t *testing.T) {
	l := New(cashier.NewManualClock(t0), 0)
	r := l.Allow(Check{Rule: "key", Bucket: "a", Limit: 1000}, Check{Rule: "ip", Bucket: "1.2.3.4", Limit: 2000}, Check{Rule: "endpoint", Bucket: "a", Limit: 100})
	if r.Rule != "endpoint" || r.Limit != 100 || r.Remaining != 99 {
		t.Fatalf("%+v", r)
	}
	if r := l.Allow(Check{Rule: "off", Bucket: "x", Limit: 0}); !r.Allowed || r.Limit != 0 {
		t.Fatalf("disabled check: %+v", r)
	}
}

func TestMemoryIsBounded(t *testing.T) {
	clock := cashier.NewManualClock(t0)
	l := New(clock, 10)
	for i := 0; i < 1000; i++ {
		l.Allow(Check{Rule: "ip", Bucket: fmt.Sprint(i), Limit: 5000})
	}
	if n := l.Len(); n > 11 {
		t.Fatalf("%d counters held, want at most 11", n)
	}
	// Keys beyond the bound share the overflow counter: 990 requests on it.
	if r := l.Allow(Check{Rule: "ip", Bucket: "new", Limit: 5000}); r.Remaining != 5000-991 {
		t.Fatalf("overflow remaining %d", r.Remaining)
	}
	clock.Advance(time.Minute)
	l.Allow(Check{Rule: "ip", Bucket: "x", Limit: 1})
	if n := l.Len(); n != 1 {
		t.Fatalf("%d counters after the window turned, want 1", n)
	}
}

// Buckets come from request headers; a huge one must not be held as is,
// and long buckets that differ must still count apart.
func TestLongBucketsAreBounded(t *testing.T) {
	l := New(cashier.NewManualClock(t0), 0)
	a := strings.Repeat("k", 1<<20)
	b := a[:len(a)-1] + "x"
	if r := l.Allow(Check{Rule: "key", Bucket: a, Limit: 1}); !r.Allowed {
		t.Fatalf("first: %+v", r)
	}
	if r := l.Allow(Check{Rule: "key", Bucket: b, Limit: 1}); !r.Allowed {
		t.Fatal("a different long bucket shared a counter")
	}
	if r := l.Allow(Check{Rule: "key", Bucket: a, Limit: 1}); r.Allowed {
		t.Fatal("a long bucket was not counted")
	}
	for k := range l.counts {
		if len(k.bucket) > 128 {
			t.Fatalf("counter keeps a %d-byte bucket", len(k.bucket))
		}
	}
}

// TestAuthenticatedBucketsHaveTheirOwnTable: anonymous buckets filling the
// table and exhausting the overflow counter leave authenticated buckets
// untouched; the refusal names itself as an overflow.
func TestAuthenticatedBucketsHaveTheirOwnTable(t *testing.T) {
	l := New(cashier.NewManualClock(t0), 10)
	var last Result
	for i := 0; i < 100; i++ {
		last = l.Allow(Check{Rule: "ip", Bucket: fmt.Sprint(i), Limit: 20})
	}
	if last.Allowed || !last.Overflow {
		t.Fatalf("flood past the table: %+v", last)
	}
	if r := l.Allow(Check{Rule: "ip", Bucket: "0", Limit: 20}); !r.Allowed || r.Overflow {
		t.Fatalf("a bucket with its own counter: %+v", r)
	}
	for i := 0; i < 50; i++ {
		if r := l.Allow(Check{Rule: "key", Bucket: "m_1", Limit: 1000, Authenticated: true}); !r.Allowed || r.Remaining != 999-i {
			t.Fatalf("authenticated call %d: %+v", i, r)
		}
	}
}

// With the limit shared among instances, each allows its share and
// reports what is left of the whole limit; the share follows the number
// of live instances as it changes.
func TestSharedAmongInstances(t *testing.T) {
	clock := cashier.NewManualClock(t0)
	l := New(clock, 0)
	instances := 3
	l.Share = func() int { return instances }
	check := Check{Rule: "key", Bucket: "m1", Limit: 10} // ceil(10/3) = 4 here
	var remaining []int
	for i := 0; i < 4; i++ {
		r := l.Allow(check)
		if !r.Allowed || r.Limit != 10 {
			t.Fatalf("request %d of the share refused: %+v", i, r)
		}
		remaining = append(remaining, r.Remaining)
	}
	if fmt.Sprint(remaining) != "[9 6 3 0]" {
		t.Fatalf("remaining %v, want [9 6 3 0]", remaining)
	}
	if r := l.Allow(check); r.Allowed {
		t.Fatalf("5th request allowed with a share of 4: %+v", r)
	}
	// One instance died: the two left each take half.
	instances = 2
	if r := l.Allow(check); !r.Allowed || r.Remaining != 0 {
		t.Fatalf("after the share grew to 5: %+v", r)
	}
	if l.Allow(check).Allowed {
		t.Fatal("allowed beyond a share of 5")
	}
	// A bad count never disables or inflates the limit.
	instances = 0
	clock.Advance(time.Minute)
	for i := 0; i < 10; i++ {
		if !l.Allow(check).Allowed {
			t.Fatalf("request %d refused with one instance", i)
		}
	}
	if l.Allow(check).Allowed {
		t.Fatal("11th request allowed with one instance")
	}
}

func TestIPBucket(t *testing.T) {
	for _, c := range []struct {
		addr   string
		prefix int
		want   string
	}{
		{"203.0.113.7", 64, "203.0.113.7"},               // IPv4: the address
		{"::ffff:203.0.113.7", 64, "::ffff:203.0.113.7"}, // mapped IPv4 is not an IPv6 network
		{"2001:db8:1:2::1", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", 64, "2001:db8:1:3::/64"},
		{"2001:db8:1:2::1", 48, "2001:db8:1::/48"},
		{"2001:db8:1:2::1", 128, "2001:db8:1:2::1/128"},
	} {
		if got := IPBucket(netip.MustParseAddr(c.addr), c.prefix); got != c.want {
			t.Errorf("IPBucket(%s, %d) = %s, want %s", c.addr, c.prefix, got, c.want)
		}
	}
}
