package storetest

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sqlstore"
)

func event(id, orderID, status string) *cashier.Event {
	return &cashier.Event{
		ID: id, MerchantID: "m1", Type: cashier.EventPayment, OrderID: orderID, OrderNo: "no-" + orderID,
		Status: status, URL: "https://shop1.example/hook",
		Body:      []byte(fmt.Sprintf(`{"orderId":%q,"status":%q}`, orderID, status)),
		CreatedAt: t0,
	}
}

func addEvents(t testing.TB, db *sqlstore.DB, es ...*cashier.Event) {
	t.Helper()
	mustUpdate(t, db, func(tx cashier.Tx) error {
		for _, e := range es {
			if err := tx.AddEvent(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
}

func claimIDs(t testing.TB, db *sqlstore.DB, owner string, now time.Time, n int) string {
	t.Helper()
	es, err := db.ClaimEvents(ctx, owner, now, 30*time.Second, n)
	if err != nil {
		t.Fatal(err)
	}
	return ids(es, func(e cashier.Event) string { return e.ID })
}

func record(t testing.TB, db *sqlstore.DB, owner, id string, at time.Time, state cashier.EventState, next time.Time, errText string) {
	t.Helper()
	a := cashier.DeliveryAttempt{EventID: id, At: at, HTTPStatus: 500, Latency: 1500 * time.Microsecond, Error: errText, NextAttemptAt: next}
	if state == cashier.EventDelivered {
		a.HTTPStatus = 200
	}
	if err := db.RecordAttempt(ctx, owner, a, state); err != nil {
		t.Fatal(err)
	}
}

func testAddEventAndRead(t *testing.T) {
	db := openTest(t)
	a, b := event("e1", "o1", "PENDING"), event("e2", "o1", "SUCCESS")
	b.NextAttemptAt = t0.Add(time.Minute)
	b.Type, b.MerchantID = cashier.EventPayout, "m2"
	addEvents(t, db, a, b)
	if a.Seq <= 0 || b.Seq <= a.Seq {
		t.Fatalf("Seq %d then %d, want increasing", a.Seq, b.Seq)
	}
	if a.State != cashier.EventPending || !a.NextAttemptAt.Equal(t0) || !b.NextAttemptAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("AddEvent set %+v / %+v", a, b)
	}

	got, err := db.Event(ctx, "e2")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *b) {
		t.Fatalf("Event\n got %+v\nwant %+v", *got, *b)
	}
	_, err = db.Event(ctx, "nope")
	wantCode(t, err, cashier.ENotFound)

	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.AddEvent(ctx, event("e1", "o9", "PENDING")) })
	wantCode(t, err, cashier.EDuplicate)
	err = db.Update(ctx, func(tx cashier.Tx) error { return tx.AddEvent(ctx, event("", "o9", "PENDING")) })
	wantCode(t, err, cashier.EInvalid)

	// An event added in a rolled-back transaction is gone with it.
	db.Update(ctx, func(tx cashier.Tx) error {
		tx.AddEvent(ctx, event("e3", "o3", "PENDING"))
		return fmt.Errorf("abort")
	})
	_, err = db.Event(ctx, "e3")
	wantCode(t, err, cashier.ENotFound)

	addEvents(t, db, event("e4", "o4", "PENDING"))
	byID := func(e cashier.Event) string { return e.ID }
	for _, tc := range []struct {
		f    cashier.EventFilter
		want string
	}{
		{cashier.EventFilter{}, "e4,e2,e1"},
		{cashier.EventFilter{MerchantID: "m1"}, "e4,e1"},
		{cashier.EventFilter{OrderID: "o1"}, "e2,e1"},
		{cashier.EventFilter{State: cashier.EventPending, Limit: 2}, "e4,e2"},
		{cashier.EventFilter{State: cashier.EventDelivered}, ""},
	} {
		list, err := db.Events(ctx, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(list, byID); got != tc.want {
			t.Errorf("Events(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// An order's later event waits until its earlier one is delivered or has
// failed, however the two are scheduled.
func testClaimKeepsOrderPerOrder(t *testing.T) {
	db := openTest(t)
	addEvents(t, db,
		event("a1", "A", "PENDING"), event("a2", "A", "SUCCESS"),
		event("b1", "B", "PENDING"),
		event("c1", "C", "PENDING"), event("c2", "C", "EXPIRED"))

	if got := claimIDs(t, db, "w1", t0, 10); got != "a1,b1,c1" {
		t.Fatalf("first claim %q, want a1,b1,c1", got)
	}
	// a1 will be retried later; a2 must still wait for it, even once due.
	record(t, db, "w1", "a1", t0, cashier.EventPending, t0.Add(time.Minute), "HTTP 500")
	record(t, db, "w1", "b1", t0, cashier.EventDelivered, time.Time{}, "")
	record(t, db, "w1", "c1", t0, cashier.EventFailed, time.Time{}, "gave up")

	if got := claimIDs(t, db, "w1", t0.Add(time.Second), 10); got != "c2" {
		t.Fatalf("second claim %q, want c2 (a1 not due, a2 waits, c1 failed)", got)
	}
	record(t, db, "w1", "c2", t0.Add(time.Second), cashier.EventDelivered, time.Time{}, "")
	if got := claimIDs(t, db, "w1", t0.Add(time.Minute), 10); got != "a1" {
		t.Fatalf("third claim %q, want a1", got)
	}
	record(t, db, "w1", "a1", t0.Add(time.Minute), cashier.EventDelivered, time.Time{}, "")
	if got := claimIDs(t, db, "w1", t0.Add(time.Minute), 10); got != "a2" {
		t.Fatalf("fourth claim %q, want a2", got)
	}
	record(t, db, "w1", "a2", t0.Add(time.Minute), cashier.EventDelivered, time.Time{}, "")

	// Nothing is due before its time, and n bounds the batch.
	addEvents(t, db, &cashier.Event{ID: "late", OrderID: "L", CreatedAt: t0, NextAttemptAt: t0.Add(time.Hour)})
	addEvents(t, db, event("d1", "D", "PENDING"), event("e1", "E", "PENDING"))
	if got := claimIDs(t, db, "w1", t0.Add(2*time.Minute), 1); got != "d1" {
		t.Fatalf("claim n=1: %q", got)
	}
	if got := claimIDs(t, db, "w1", t0.Add(2*time.Minute), 10); got != "e1" {
		t.Fatalf("claim: %q, want e1 (late is not due)", got)
	}
}

func testLeaseTakeover(t *testing.T) {
	db := openTest(t)
	addEvents(t, db, event("e1", "o1", "PENDING"))

	es, err := db.ClaimEvents(ctx, "w1", t0, 30*time.Second, 5)
	if err != nil || len(es) != 1 {
		t.Fatalf("claim: %v %v", es, err)
	}
	if es[0].LeaseOwner != "w1" || !es[0].LeaseUntil.Equal(t0.Add(30*time.Second)) || !bytes.Equal(es[0].Body, event("e1", "o1", "PENDING").Body) {
		t.Fatalf("claimed %+v", es[0])
	}
	// Leased: neither the holder nor another worker claims it again.
	if got := claimIDs(t, db, "w1", t0.Add(10*time.Second), 5); got != "" {
		t.Fatalf("re-claimed a held lease: %q", got)
	}
	if got := claimIDs(t, db, "w2", t0.Add(29*time.Second), 5); got != "" {
		t.Fatalf("w2 took a live lease: %q", got)
	}
	// Expired: w2 takes over, and w1's late result is refused.
	if got := claimIDs(t, db, "w2", t0.Add(30*time.Second), 5); got != "e1" {
		t.Fatalf("w2 did not take over the expired lease: %q", got)
	}
	err = db.RecordAttempt(ctx, "w1", cashier.DeliveryAttempt{EventID: "e1", At: t0.Add(31 * time.Second), HTTPStatus: 200}, cashier.EventDelivered)
	wantCode(t, err, cashier.EInvalidStatus)
	if as, _ := db.Attempts(ctx, "e1"); len(as) != 0 {
		t.Fatalf("refused attempt was logged: %+v", as)
	}

	record(t, db, "w2", "e1", t0.Add(32*time.Second), cashier.EventPending, t0.Add(2*time.Minute), "timeout")
	e, _ := db.Event(ctx, "e1")
	if e.State != cashier.EventPending || e.Attempts != 1 || e.LeaseOwner != "" || !e.LeaseUntil.IsZero() ||
		!e.NextAttemptAt.Equal(t0.Add(2*time.Minute)) || e.LastError != "timeout" {
		t.Fatalf("after a failed attempt: %+v", *e)
	}
	// The lease is released: recording again without a claim is refused.
	err = db.RecordAttempt(ctx, "w2", cashier.DeliveryAttempt{EventID: "e1", At: t0.Add(33 * time.Second)}, cashier.EventFailed)
	wantCode(t, err, cashier.EInvalidStatus)
	err = db.RecordAttempt(ctx, "w2", cashier.DeliveryAttempt{EventID: "nope", At: t0}, cashier.EventFailed)
	wantCode(t, err, cashier.ENotFound)
	err = db.RecordAttempt(ctx, "w2", cashier.DeliveryAttempt{EventID: "e1", At: t0}, cashier.EventPending)
	wantCode(t, err, cashier.EInvalid) // pending needs a next attempt time
}

func testDeliveryLogAndResend(t *testing.T) {
	db := openTest(t)
	e := event("e1", "o1", "SUCCESS")
	addEvents(t, db, e)

	claimIDs(t, db, "w1", t0, 1)
	record(t, db, "w1", "e1", t0.Add(time.Second), cashier.EventPending, t0.Add(time.Minute), "HTTP 503")
	claimIDs(t, db, "w1", t0.Add(time.Minute), 1)
	record(t, db, "w1", "e1", t0.Add(time.Minute), cashier.EventFailed, time.Time{}, "HTTP 410")

	got, _ := db.Event(ctx, "e1")
	if got.State != cashier.EventFailed || got.Attempts != 2 || got.LastError != "HTTP 410" {
		t.Fatalf("failed event: %+v", *got)
	}
	if ids := claimIDs(t, db, "w1", t0.Add(time.Hour), 5); ids != "" {
		t.Fatalf("claimed a failed event: %q", ids)
	}

	now := t0.Add(2 * time.Hour)
	if err := db.Resend(ctx, "e1", now); err != nil {
		t.Fatal(err)
	}
	got, _ = db.Event(ctx, "e1")
	if got.State != cashier.EventPending || got.Attempts != 0 || !got.NextAttemptAt.Equal(now) ||
		got.ID != e.ID || got.Seq != e.Seq || !bytes.Equal(got.Body, e.Body) {
		t.Fatalf("resent event: %+v", *got)
	}
	if ids := claimIDs(t, db, "w1", now, 5); ids != "e1" {
		t.Fatalf("resent event not claimable: %q", ids)
	}
	record(t, db, "w1", "e1", now.Add(time.Second), cashier.EventDelivered, time.Time{}, "")
	got, _ = db.Event(ctx, "e1")
	if got.State != cashier.EventDelivered || !got.DeliveredAt.Equal(now.Add(time.Second)) || got.LastError != "" {
		t.Fatalf("delivered event: %+v", *got)
	}

	as, err := db.Attempts(ctx, "e1")
	if err != nil {
		t.Fatal(err)
	}
	want := []cashier.DeliveryAttempt{
		{EventID: "e1", Attempt: 1, At: t0.Add(time.Second), HTTPStatus: 500, Latency: 1500 * time.Microsecond, Error: "HTTP 503", NextAttemptAt: t0.Add(time.Minute)},
		{EventID: "e1", Attempt: 2, At: t0.Add(time.Minute), HTTPStatus: 500, Latency: 1500 * time.Microsecond, Error: "HTTP 410"},
		{EventID: "e1", Attempt: 1, At: now.Add(time.Second), HTTPStatus: 200, Latency: 1500 * time.Microsecond},
	}
	if fmt.Sprint(as) != fmt.Sprint(want) {
		t.Fatalf("Attempts\n got %v\nwant %v", as, want)
	}
	if as, err := db.Attempts(ctx, "nope"); err != nil || len(as) != 0 {
		t.Fatalf("Attempts(nope) = %v, %v", as, err)
	}
	wantCode(t, db.Resend(ctx, "nope", now), cashier.ENotFound)
}

// Workers claiming at once never share an event, whether they share one
// store or run on three stores of one database (three instances).
func testConcurrentClaims(t *testing.T) {
	loc, key := newLocation(t), newKey(t)
	db := openAt(t, loc, key)
	Seed(t, db)
	stores := []*sqlstore.DB{db, openAt(t, loc, key), openAt(t, loc, key)}
	const n = 60
	var es []*cashier.Event
	for i := range n {
		es = append(es, event(fmt.Sprintf("e%02d", i), fmt.Sprintf("o%02d", i), "PENDING"))
	}
	addEvents(t, db, es...)

	var (
		mu     sync.Mutex
		seen   = map[string]string{}
		wg     sync.WaitGroup
		errsMu sync.Mutex
		errs   []error
	)
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			owner := fmt.Sprintf("w%d", w)
			for {
				got, err := stores[w%len(stores)].ClaimEvents(ctx, owner, t0, time.Minute, 4)
				if err != nil {
					errsMu.Lock()
					errs = append(errs, err)
					errsMu.Unlock()
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, e := range got {
					if prev, dup := seen[e.ID]; dup {
						errsMu.Lock()
						errs = append(errs, fmt.Errorf("%s claimed by %s and %s", e.ID, prev, owner))
						errsMu.Unlock()
					}
					seen[e.ID] = owner
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(seen) != n {
		t.Fatalf("%d events claimed, want %d", len(seen), n)
	}
}

func testClaimArguments(t *testing.T) {
	db := openTest(t)
	addEvents(t, db, event("e1", "o1", "PENDING"))
	_, err := db.ClaimEvents(ctx, "", t0, time.Minute, 1)
	wantCode(t, err, cashier.EInvalid)
	_, err = db.ClaimEvents(ctx, "w1", t0, 0, 1)
	wantCode(t, err, cashier.EInvalid)
	if es, err := db.ClaimEvents(ctx, "w1", t0, time.Minute, 0); err != nil || len(es) != 0 {
		t.Fatalf("n=0 claimed %v, %v", es, err)
	}
	// Events without an order are independent of one another.
	addEvents(t, db, &cashier.Event{ID: "x1", CreatedAt: t0}, &cashier.Event{ID: "x2", CreatedAt: t0})
	if got := claimIDs(t, db, "w1", t0, 10); got != "e1,x1,x2" {
		t.Fatalf("claim %q, want e1,x1,x2", got)
	}
}

// testRecordAttempts: outcomes recorded together are each decided as
// RecordAttempt would decide them alone; a refused one changes nothing of
// it and does not stop the others.
func testRecordAttempts(t *testing.T) {
	db := openTest(t)
	addEvents(t, db, event("e1", "o1", "PENDING"), event("e2", "o2", "PENDING"), event("e3", "o3", "PENDING"), event("e4", "o4", "PENDING"))
	if got := claimIDs(t, db, "w1", t0, 3); got != "e1,e2,e3" {
		t.Fatalf("claimed %q", got)
	}
	at := t0.Add(time.Second)
	outcome := func(id string, state cashier.EventState, status int, errText string, next time.Time) cashier.AttemptOutcome {
		return cashier.AttemptOutcome{State: state, Attempt: cashier.DeliveryAttempt{
			EventID: id, At: at, HTTPStatus: status, Latency: 2 * time.Millisecond, Error: errText, NextAttemptAt: next}}
	}
	errs := db.RecordAttempts(ctx, "w1", []cashier.AttemptOutcome{
		outcome("e1", cashier.EventDelivered, 200, "", time.Time{}),
		outcome("e4", cashier.EventDelivered, 200, "", time.Time{}),               // not claimed
		outcome("e2", cashier.EventPending, 500, "HTTP 500", at.Add(time.Minute)), // retried
		outcome("nope", cashier.EventFailed, 0, "gone", time.Time{}),              // unknown
		outcome("e3", cashier.EventPending, 500, "HTTP 500", time.Time{}),         // pending without a next time
		outcome("e1", cashier.EventFailed, 500, "again", time.Time{}),             // e1's lease went with its first outcome
	})
	wantErrs := []cashier.Code{"", cashier.EInvalidStatus, "", cashier.ENotFound, cashier.EInvalid, cashier.EInvalidStatus}
	for i, want := range wantErrs {
		if got := cashier.ErrorCode(errs[i]); (want == "") != (errs[i] == nil) || errs[i] != nil && got != want {
			t.Errorf("outcome %d: %v, want code %q", i, errs[i], want)
		}
	}
	e1, _ := db.Event(ctx, "e1")
	if e1.State != cashier.EventDelivered || e1.Attempts != 1 || !e1.DeliveredAt.Equal(at) || e1.LeaseOwner != "" {
		t.Fatalf("e1 after delivery: %+v", *e1)
	}
	e2, _ := db.Event(ctx, "e2")
	if e2.State != cashier.EventPending || e2.Attempts != 1 || !e2.NextAttemptAt.Equal(at.Add(time.Minute)) || e2.LastError != "HTTP 500" || e2.LeaseOwner != "" {
		t.Fatalf("e2 after a failed attempt: %+v", *e2)
	}
	for _, id := range []string{"e3", "e4"} {
		e, _ := db.Event(ctx, id)
		if e.Attempts != 0 || e.State != cashier.EventPending {
			t.Fatalf("%s was changed by a refused outcome: %+v", id, *e)
		}
		if as, _ := db.Attempts(ctx, id); len(as) != 0 {
			t.Fatalf("%s: refused outcome logged: %+v", id, as)
		}
	}
	if e3, _ := db.Event(ctx, "e3"); e3.LeaseOwner != "w1" {
		t.Fatalf("e3's lease went with a refused outcome: %+v", *e3)
	}
	as, _ := db.Attempts(ctx, "e1")
	if len(as) != 1 || as[0].Attempt != 1 || as[0].HTTPStatus != 200 || as[0].Latency != 2*time.Millisecond {
		t.Fatalf("e1's log: %+v", as)
	}
	as, _ = db.Attempts(ctx, "e2")
	if len(as) != 1 || as[0].Error != "HTTP 500" || !as[0].NextAttemptAt.Equal(at.Add(time.Minute)) {
		t.Fatalf("e2's log: %+v", as)
	}
}
