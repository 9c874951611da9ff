package shed

import (
	"hash/maphash"
	"net/http/httptest"
	"testing"
	"time"
)

var admitT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// measured returns an admission that has seen writes answered one every
// per while busy, long enough to estimate the time per write, and is idle
// again at the returned time.
func measured(t *testing.T, per time.Duration) (*Admission, time.Time) {
	t.Helper()
	a := &Admission{perWrite: time.Hour} // not the first estimate: the full span
	now := admitT0
	n := int(admitSpan/per) + 1
	for i := 0; i < n; i++ {
		if ok, _, _, _ := a.AdmitWrite(now, uint64(1_000_000+i), 0, false); !ok {
			t.Fatalf("write %d refused with no bound", i)
		}
	}
	for i := 0; i < n; i++ {
		now = now.Add(per)
		a.WriteDone(now)
	}
	a.perWrite = 0 // what the span measured, as a first estimate
	a.busy, a.done = 0, 0
	for i := 0; i < n; i++ {
		a.AdmitWrite(now, uint64(2_000_000+i), 0, false)
	}
	for i := 0; i < n; i++ {
		now = now.Add(per)
		a.WriteDone(now)
	}
	if a.perWrite != per || a.writes != 0 {
		t.Fatalf("after %d writes answered %v apart: per write %v, %d in progress", n, per, a.perWrite, a.writes)
	}
	return a, now
}

// The first estimate comes after 32 writes, not a whole span: a cold
// service meeting a burst must not queue without bound meanwhile.
func TestAdmissionFirstEstimateEarly(t *testing.T) {
	a := &Admission{}
	for i := 0; i < 2*MinWritesAhead; i++ {
		a.AdmitWrite(admitT0, uint64(i), time.Millisecond, false)
	}
	for i := 1; i < 2*MinWritesAhead; i++ {
		a.WriteDone(admitT0.Add(time.Duration(i) * 2 * time.Millisecond))
		if a.perWrite != 0 {
			t.Fatalf("estimate after %d writes", i)
		}
	}
	a.WriteDone(admitT0.Add(64 * time.Millisecond))
	if a.perWrite != 2*time.Millisecond {
		t.Fatalf("after 32 writes in 64 ms: %v a write, want 2ms", a.perWrite)
	}
}

// Closed-loop clients are all admitted while the wait their number causes
// stays within the bound: 128 clients at 0.4 ms a write (2,500/s) wait
// 51 ms, within 100 ms. Beyond the bound the excess is refused, and the
// writes already in progress are what decides, not a fixed count.
func TestAdmissionRefusesOnlyBeyondTheWait(t *testing.T) {
	const maxWait = 100 * time.Millisecond
	a, now := measured(t, 400*time.Microsecond)
	for i := 0; i < 128; i++ {
		if ok, _, _, _ := a.AdmitWrite(now, uint64(i), maxWait, false); !ok {
			t.Fatalf("client %d of 128 refused: wait %v", i, a.wait())
		}
	}
	// 250 writes ahead × 0.4 ms = 100 ms: admitted up to there, not beyond.
	for i := 128; i <= 250; i++ {
		if ok, _, _, _ := a.AdmitWrite(now, uint64(i), maxWait, false); !ok {
			t.Fatalf("write %d refused at a wait of %v", i, a.wait())
		}
	}
	ok, ticketed, retry, _ := a.AdmitWrite(now, 251, maxWait, false)
	if ok || ticketed || retry != time.Second {
		t.Fatalf("write beyond %v of wait: admitted %v, ticketed %v, Retry-After %v", maxWait, ok, ticketed, retry)
	}
	// One answered: room for one more.
	a.WriteDone(now.Add(time.Millisecond))
	if ok, _, _, _ := a.AdmitWrite(now.Add(time.Millisecond), 252, maxWait, false); !ok {
		t.Fatal("refused after a write was answered")
	}

	// Slow writes (40 ms each, a starved machine): the first 16 ahead are
	// admitted whatever the estimate, group commit needs them.
	b, now := measured(t, 40*time.Millisecond)
	for i := 0; i < MinWritesAhead; i++ {
		if ok, _, _, _ := b.AdmitWrite(now, uint64(i), maxWait, false); !ok {
			t.Fatalf("write %d of the first %d refused", i, MinWritesAhead)
		}
	}
	if ok, _, _, _ := b.AdmitWrite(now, 99, maxWait, false); ok {
		t.Fatal("write 17 admitted at 16 × 40 ms ahead")
	}
	// No bound: everything admitted (MaxInFlight alone bounds).
	if ok, _, _, _ := b.AdmitWrite(now, 100, 0, false); !ok {
		t.Fatal("refused with the bound off")
	}
}

// A refused write books a place: sent again before its Retry-After it is
// held for the time left while there is no room (admitted when there is), once that has passed it is admitted however
// long the wait and whatever else refuses, and only once.
func TestAdmissionBookedPlace(t *testing.T) {
	const maxWait = 10 * time.Millisecond
	a, now := measured(t, time.Millisecond)
	for i := 0; i < MinWritesAhead; i++ {
		a.AdmitWrite(now, uint64(i), maxWait, false)
	}
	const id = 42
	ok, _, retry, _ := a.AdmitWrite(now, id, maxWait, false)
	if ok || retry != time.Second {
		t.Fatalf("want a refusal with Retry-After 1s: admitted %v, %v", ok, retry)
	}
	early := now.Add(400 * time.Millisecond)
	if ok, _, _, hold := a.AdmitWrite(early, id, maxWait, false); ok || hold != 600*time.Millisecond {
		t.Fatalf("early return: admitted %v, held %v; want held for the 0.6 s left", ok, hold)
	}
	// Early, but with room (nothing ahead): admitted, the place given up.
	c, cnow := measured(t, time.Millisecond)
	c.AdmitWrite(cnow, 7, maxWait, true)
	if ok, ticketed, _, _ := c.AdmitWrite(cnow.Add(100*time.Millisecond), 7, maxWait, false); !ok || ticketed {
		t.Fatalf("early return with room: admitted %v, ticketed %v; want admitted without its place", ok, ticketed)
	}
	if len(c.tickets) != 0 {
		t.Fatal("the place was kept after its request was admitted")
	}
	back := now.Add(time.Second)
	ok, ticketed, _, _ := a.AdmitWrite(back, id, maxWait, true)
	if !ok || !ticketed {
		t.Fatalf("return after Retry-After, wait %v and another reason to refuse: admitted %v, ticketed %v", a.wait(), ok, ticketed)
	}
	if ok, _, _, _ := a.AdmitWrite(back, id, maxWait, false); ok {
		t.Fatal("a place was used twice")
	}
	// Another client's request is not admitted by this place.
	if ok, _, _, _ := a.AdmitWrite(back, 43, maxWait, false); ok {
		t.Fatal("a request without a place was admitted beyond the wait")
	}
}

// Every refusal says Retry-After 1 s, however many places are booked;
// places not taken up lapse.
func TestAdmissionPlacesLapse(t *testing.T) {
	const maxWait = 10 * time.Millisecond
	a, now := measured(t, time.Millisecond)
	for i := 0; i < MinWritesAhead; i++ {
		a.AdmitWrite(now, uint64(i), maxWait, false)
	}
	for i := 0; i < 3000; i++ {
		if _, _, retry, _ := a.AdmitWrite(now, uint64(10_000+i), maxWait, false); retry != time.Second {
			t.Fatalf("refusal %d: Retry-After %v, want 1s", i, retry)
		}
	}
	if len(a.tickets) != 3000 {
		t.Fatalf("%d places booked, want 3,000", len(a.tickets))
	}
	// Long after, a new refusal forgets the places nobody came back for.
	later := now.Add(time.Second + ticketGrace)
	if _, _, retry, _ := a.AdmitWrite(later, 30_000, maxWait, false); retry != time.Second {
		t.Fatalf("after the others lapsed: Retry-After %v", retry)
	}
	if len(a.tickets) != 1 || len(a.expiry) != 1 {
		t.Fatalf("%d places, %d bookings kept after they lapsed, want 1", len(a.tickets), len(a.expiry))
	}
	if ok, _, _, _ := a.AdmitWrite(later, 10_000, maxWait, false); ok {
		t.Fatal("a lapsed place admitted its request")
	}
}

// A write is named by its API key, path and orderNo: a retry re-signs the
// request (time, signature, sign field) and keeps its place; another
// order, key or endpoint is another request.
func TestWriteIDFollowsTheOrder(t *testing.T) {
	const pathCollection = "/order/api/v2/pay/order"
	seed := maphash.MakeSeed()
	id := func(key, path, body string) uint64 {
		r := httptest.NewRequest("POST", path, nil)
		r.Header.Set("Service-API-Key", key)
		return WriteID(seed, r, "Service-API-Key", []byte(body))
	}
	first := id("pk_1", pathCollection, `{"amount":"1","orderNo":"A-1","sign":"abc"}`)
	if id("pk_1", pathCollection, `{"orderNo" : "A-1", "amount":"1","sign":"def"}`) != first {
		t.Fatal("a re-signed retry is another request")
	}
	for _, other := range []uint64{
		id("pk_1", pathCollection, `{"amount":"1","orderNo":"A-2","sign":"abc"}`),
		id("pk_2", pathCollection, `{"amount":"1","orderNo":"A-1","sign":"abc"}`),
		id("pk_1", "/other", `{"amount":"1","orderNo":"A-1","sign":"abc"}`),
	} {
		if other == first {
			t.Fatal("another order, key or endpoint has the same name")
		}
	}
	for body, want := range map[string]string{
		`{"orderNo":"X"}`: "X", `{"orderNo" :	"Y z"}`: "Y z", `{"orderNo":5}`: "", `{"no":"X"}`: "", `{"orderNo":"open`: "",
	} {
		got, ok := orderNoOf([]byte(body))
		if string(got) != want || ok != (want != "") {
			t.Fatalf("orderNoOf(%s) = %q, %v; want %q", body, got, ok, want)
		}
	}
}
