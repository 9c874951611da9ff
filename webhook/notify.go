package webhook

import (
	"context"

	"github.com/stablecashier/cashier"
)

// NotifyOnCommit wraps st so that an Update that wrote outbox events wakes
// d once it has committed: the events go out at once instead of at the next
// poll. Give the wrapped store to the services that write events.
func NotifyOnCommit(st cashier.Store, d *Dispatcher) cashier.Store {
	return notifyingStore{Store: st, d: d}
}

type notifyingStore struct {
	cashier.Store
	d *Dispatcher
}

func (s notifyingStore) Update(ctx context.Context, fn func(cashier.Tx) error) error {
	wrote := false
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		return fn(eventTx{Tx: tx, wrote: &wrote})
	})
	if err == nil && wrote {
		s.d.Notify()
	}
	return err
}

// eventTx notes whether the transaction added an event.
type eventTx struct {
	cashier.Tx
	wrote *bool
}

func (t eventTx) AddEvent(ctx context.Context, e *cashier.Event) error {
	if err := t.Tx.AddEvent(ctx, e); err != nil {
		return err
	}
	*t.wrote = true
	return nil
}
