package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
)

var _ orders.EventWriter = (*Writer)(nil)

const testWebhookKey = "whk_test_8d1f0c2b7a"

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// env is a real SQLite store in a temporary directory with one merchant.
type env struct {
	t      testing.TB
	path   string
	key    []byte
	db     *sqlite.DB
	clock  *cashier.ManualClock
	writer *Writer
	m      *cashier.Merchant
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{
		t:      t,
		path:   sqlitetest.Path(t),
		key:    bytes.Repeat([]byte{7}, sqlite.MasterKeySize),
		clock:  cashier.NewManualClock(t0),
		writer: NewWriter(nil),
	}
	e.open()
	e.m = e.addMerchant("m_alpha", testWebhookKey)
	return e
}

func (e *env) open() {
	e.t.Helper()
	sealer, err := sqlite.NewAESSealer(e.key)
	if err != nil {
		e.t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), e.path, sqlite.Options{Sealer: sealer})
	if err != nil {
		e.t.Fatal(err)
	}
	e.db = db
	e.t.Cleanup(func() { db.Close() })
}

// reopen closes and reopens the database file, as a restarted process would.
func (e *env) reopen() {
	e.t.Helper()
	if err := e.db.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.open()
}

func (e *env) addMerchant(id, webhookKey string) *cashier.Merchant {
	e.t.Helper()
	m := &cashier.Merchant{
		ID: id, Name: id, APIKey: "pk_" + id, SecretKey: "sk_" + id, WebhookKey: webhookKey,
		Status: cashier.MerchantActive, CreatedAt: t0,
	}
	e.update(func(tx cashier.Tx) error { return tx.CreateMerchant(context.Background(), m) })
	return m
}

func (e *env) update(fn func(cashier.Tx) error) {
	e.t.Helper()
	if err := e.db.Update(context.Background(), fn); err != nil {
		e.t.Fatal(err)
	}
}

// collection returns a collection order of merchant m in status st.
func collection(m *cashier.Merchant, id string, st cashier.CollectionStatus, at time.Time) *cashier.CollectionOrder {
	o := &cashier.CollectionOrder{
		ID: id, MerchantID: m.ID, CashierID: "c_1", OrderNo: "NO-" + id, CustNo: "C86002201",
		Chain: cashier.ChainETH, Symbol: "USDT", Decimals: 6,
		Amount: big.NewInt(100_000_000), PaidAmount: new(big.Int),
		DepositAddress: "0x00000000000000000000000000000000000000d1",
		Status:         st, CreatedAt: t0, UpdatedAt: at,
	}
	if st == cashier.CollectionSuccess {
		o.PaidAmount = big.NewInt(100_000_000)
		o.TxID = "0xabc123"
		o.FromAddress = "0x00000000000000000000000000000000000000f1"
		o.PayTime = at // the block time of txId
	}
	return o
}

// addEvent writes the payment event of a collection order to the outbox.
func (e *env) addEvent(m *cashier.Merchant, orderID string, st cashier.CollectionStatus, url string) *cashier.Event {
	e.t.Helper()
	now := e.clock.Now()
	ev, err := e.writer.CollectionEvent(collection(m, orderID, st, now), &cashier.Cashier{ID: "c_1", MerchantID: m.ID, WebhookURL: url}, now)
	if err != nil {
		e.t.Fatal(err)
	}
	e.update(func(tx cashier.Tx) error { return tx.AddEvent(context.Background(), ev) })
	return ev
}

// addEvents writes the SUCCESS events of n orders co_0 … co_{n-1} of the
// env's merchant, to url, and returns their ids.
func (e *env) addEvents(n int, url string) []string {
	e.t.Helper()
	ids := make([]string, n)
	for i := range n {
		ids[i] = e.addEvent(e.m, fmt.Sprintf("co_%d", i), cashier.CollectionSuccess, url).ID
	}
	return ids
}

func (e *env) dispatcher(cfg Config) *Dispatcher {
	e.t.Helper()
	d, err := NewDispatcher(cfg, e.db, e.db, e.clock, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *env) event(id string) *cashier.Event {
	e.t.Helper()
	ev, err := e.db.Event(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return ev
}

func (e *env) attempts(id string) []cashier.DeliveryAttempt {
	e.t.Helper()
	log, err := e.db.Attempts(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return log
}

func (e *env) deliverDue(d *Dispatcher) int {
	e.t.Helper()
	n, err := d.DeliverDue(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// received is one request a receiver saw.
type received struct {
	Header http.Header
	Body   []byte
	Method string
	At     time.Time
}

// receiver is a webhook endpoint that records requests and answers with
// whatever respond decides (200 when nil).
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []received
	respond func(n int, r *http.Request, w http.ResponseWriter) // n: 0-based request number
}

func newReceiver(t testing.TB, respond func(int, *http.Request, http.ResponseWriter)) *receiver {
	rc := &receiver{respond: respond}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	n := len(rc.got)
	rc.got = append(rc.got, received{Header: r.Header.Clone(), Body: body, Method: r.Method, At: time.Now()})
	rc.mu.Unlock()
	if rc.respond != nil {
		rc.respond(n, r, w)
	}
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// waitFor polls cond for up to 5 s of real time.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	waitUntil(t, what, 5*time.Second, cond)
}

// waitUntil polls cond for up to d of real time.
func waitUntil(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// sandbox is the test configuration: loopback receivers allowed.
var sandbox = Config{Sandbox: true, Owner: "test-1"}
