package payoutexec_test

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stablecashier/cashier"
)

// racingStore runs hook once, at the first store access after it is
// armed: a read outside any transaction fires it after the read returns,
// an Update fires it before its transaction begins. It stands for the
// executor committing its work between a caller's read and its write.
type racingStore struct {
	cashier.Store
	mu   sync.Mutex
	hook func()
}

func (s *racingStore) fire() {
	s.mu.Lock()
	h := s.hook
	s.hook = nil
	s.mu.Unlock()
	if h != nil {
		h()
	}
}

func (s *racingStore) Payout(ctx context.Context, id string) (*cashier.PayoutOrder, error) {
	o, err := s.Store.Payout(ctx, id)
	s.fire()
	return o, err
}

func (s *racingStore) ExecOrders(ctx context.Context, id string) ([]cashier.PayoutOrder, error) {
	os, err := s.Store.ExecOrders(ctx, id)
	s.fire()
	return os, err
}

func (s *racingStore) Update(ctx context.Context, fn func(cashier.Tx) error) error {
	s.fire()
	return s.Store.Update(ctx, fn)
}

// eventStatuses lists the statuses of an order's webhooks, oldest first.
func eventStatuses(t *testing.T, r *rig, id string) []string {
	t.Helper()
	evs, err := r.st.Events(context.Background(), cashier.EventFilter{OrderID: id})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(evs) - 1; i >= 0; i-- { // newest first
		out = append(out, evs[i].Status)
	}
	return out
}

// The executor takes an order into a batch and sends it between the moment
// a refusal looks at the order and the moment it writes: the refusal is
// refused with a clear error, the order is paid once, and its webhooks
// never say REFUSE.
func TestRefuseRacingTheSendIsRefused(t *testing.T) {
	r := newRig(t, 1000)
	ctx := context.Background()
	o := r.create(alice, "10")
	var sent *cashier.PayoutExec
	race := &racingStore{Store: r.st}
	race.hook = func() {
		r.tick() // the batch stored and sent
		p := r.order(o.ID)
		if p.ExecID == "" {
			t.Error("the executor did not take the order")
			return
		}
		sent, _ = r.st.Exec(ctx, p.ExecID)
	}
	svc := *r.svc
	svc.Store = race
	_, err := svc.RefusePayout(ctx, o.ID, "changed my mind")
	if sent == nil || sent.State != cashier.ExecSent {
		t.Fatalf("the race did not happen: execution %+v", sent)
	}
	if cashier.ErrorCode(err) != cashier.EInvalidStatus || !strings.Contains(err.Error(), sent.ID) || !strings.Contains(err.Error(), "sent") {
		t.Errorf("refusing a sent order: %v, want an invalid-status error naming batch %s", err, sent.ID)
	}
	if got := r.order(o.ID); got.Status != cashier.PayoutProcessing || got.FailReason != "" {
		t.Errorf("after the refusal: %s %q, want PROCESSING", got.Status, got.FailReason)
	}
	// The batch runs to its end on chain whatever the order says.
	for i := 0; i < 60; i++ {
		r.tick()
		if e, _ := r.st.Exec(ctx, sent.ID); e.State == cashier.ExecDone {
			break
		}
		r.chain.Commit()
	}
	if e, _ := r.st.Exec(ctx, sent.ID); e.State != cashier.ExecDone {
		t.Fatalf("batch %s not done: %s", e.ID, e.State)
	}
	if got := r.balance(alice); got.Cmp(units("10")) != 0 {
		t.Errorf("recipient holds %s, want 10 tokens once", got)
	}
	if got := r.order(o.ID); got.Status != cashier.PayoutSuccess || got.TxID == "" {
		t.Errorf("paid on chain, but the order is %s (tx %q)", got.Status, got.TxID)
	}
	sts := eventStatuses(t, r, o.ID)
	if len(sts) == 0 || sts[len(sts)-1] != string(cashier.PayoutSuccess) || slices.Contains(sts, string(cashier.PayoutRefuse)) {
		t.Errorf("webhooks %v, want them to end with SUCCESS and never say REFUSE", sts)
	}
	checkLocks(t, r)
}

// An order in a batch nothing was sent for may still be refused; if the
// refusal commits after the executor read the batch's orders but before
// it stored the send, the stale call is not sent, and the next one pays
// only the orders left.
func TestRefuseBeforeTheSendTakesTheOrderOut(t *testing.T) {
	r := newRig(t, 1000)
	ctx := context.Background()
	a, b, c := r.create(alice, "10"), r.create(bob, "20"), r.create(carol, "30")
	net := r.x.Networks[cashier.ChainETH]
	net.MinGas = new(big.Int).Lsh(big.NewInt(1), 200) // the executor waits for gas: its batch stays created
	r.tick()
	execID := r.order(a.ID).ExecID
	if e, err := r.st.Exec(ctx, execID); err != nil || e.State != cashier.ExecCreated || r.order(b.ID).ExecID != execID {
		t.Fatalf("batch %s: %+v, %v", execID, e, err)
	}
	// Created, nothing sent: the operator refuses a at once.
	if _, err := r.svc.RefusePayout(ctx, a.ID, "recipient failed KYC"); err != nil {
		t.Fatalf("refusing an order of a batch never sent: %v", err)
	}
	// b is refused while the executor signs the call that still holds it.
	race := &racingStore{Store: r.st}
	race.hook = func() {
		if _, err := r.svc.RefusePayout(ctx, b.ID, "duplicate request"); err != nil {
			t.Errorf("refusing b before the send: %v", err)
		}
	}
	r.x.Store = race
	net.MinGas = big.NewInt(1)
	r.tick()
	if race.hook != nil {
		t.Fatal("the race did not happen")
	}
	if e, _ := r.st.Exec(ctx, execID); e.State != cashier.ExecCreated || len(e.TxHashes) != 0 {
		t.Fatalf("the call signed for the refused order was stored for sending: %+v", e)
	}
	r.settle(a.ID, b.ID, c.ID)
	for _, o := range []*cashier.PayoutOrder{a, b} {
		if got := r.order(o.ID); got.Status != cashier.PayoutRefuse || got.TxID != "" {
			t.Fatalf("refused order %s: %s tx %q", o.OrderNo, got.Status, got.TxID)
		}
	}
	if got := r.order(c.ID); got.Status != cashier.PayoutSuccess {
		t.Fatalf("the order left: %s", got.Status)
	}
	if r.balance(alice).Sign() != 0 || r.balance(bob).Sign() != 0 || r.balance(carol).Cmp(units("30")) != 0 {
		t.Fatalf("balances %s %s %s", r.balance(alice), r.balance(bob), r.balance(carol))
	}
	// Once sent, refusing is refused.
	if _, err := r.svc.RefusePayout(ctx, c.ID, "too late"); cashier.ErrorCode(err) != cashier.EInvalidStatus {
		t.Fatalf("refusing a paid order: %v", err)
	}
	checkLocks(t, r)
}
