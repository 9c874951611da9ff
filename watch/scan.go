package watch

import (
	"context"
	"fmt"
	"sort"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// scan reads blocks [from, to] and keeps the transfers to deposit
// addresses of collection orders, with their block hash and time.
func (w *Watcher) scan(ctx context.Context, from, to uint64) ([]orders.Received, error) {
	all, err := w.chain.TokenTransfers(ctx, w.cfg.Tokens, from, to)
	if err != nil {
		return nil, fmt.Errorf("transfers %d-%d: %w", from, to, err)
	}
	return w.received(ctx, all, from, to)
}

// scanConfirmed is scan of a confirmed range and, when approvals are
// followed, that range's approvals to the network's payout contracts
// (nil: not read yet, recordApprovals reads them): in one log read per
// chunk where the chain offers it (EventScanner).
func (w *Watcher) scanConfirmed(ctx context.Context, from, to uint64) ([]orders.Received, []cashier.Approval, error) {
	es, ok := w.chain.(EventScanner)
	if !w.cfg.Approvals || !ok {
		got, err := w.scan(ctx, from, to)
		return got, nil, err
	}
	spenders, err := w.store.ContractAddresses(ctx, w.cfg.Chain)
	if err != nil {
		return nil, nil, err
	}
	if len(spenders) == 0 {
		got, err := w.scan(ctx, from, to)
		return got, nil, err
	}
	transfers, approvals, err := es.TokenEvents(ctx, w.cfg.Tokens, spenders, from, to)
	if err != nil {
		return nil, nil, fmt.Errorf("transfers and approvals %d-%d: %w", from, to, err)
	}
	got, err := w.received(ctx, transfers, from, to)
	if approvals == nil {
		approvals = []cashier.Approval{} // read: none
	}
	return got, approvals, err
}

// received adds the range's native transfers to the token transfers all
// and keeps those to deposit addresses of collection orders.
func (w *Watcher) received(ctx context.Context, all []cashier.Transfer, from, to uint64) ([]orders.Received, error) {
	native, err := w.nativeTransfers(ctx, from, to)
	if err != nil {
		return nil, err
	}
	all = append(all, native...)
	if len(all) == 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	var addrs []string
	for _, t := range all {
		if t.Amount == nil || t.Amount.Sign() == 0 {
			continue // zero transfers are address-poisoning spam, never a payment
		}
		if !seen[t.To] {
			seen[t.To] = true
			addrs = append(addrs, t.To)
		}
	}
	sort.Strings(addrs)
	byAddr, err := w.ordersByAddress(ctx, addrs)
	if err != nil {
		return nil, err
	}
	var got []orders.Received
	blocks := map[uint64]cashier.BlockRef{}
	for _, t := range all {
		id, ok := byAddr[t.To]
		if !ok || t.Amount == nil || t.Amount.Sign() == 0 {
			continue
		}
		if t.BlockHash == "" || t.BlockTime.IsZero() {
			b, ok := blocks[t.BlockNumber]
			if !ok {
				if b, err = w.chain.BlockByNumber(ctx, t.BlockNumber); err != nil {
					return nil, fmt.Errorf("block %d: %w", t.BlockNumber, err)
				}
				blocks[t.BlockNumber] = b
			}
			if t.BlockHash == "" {
				t.BlockHash = b.Hash
			}
			if t.BlockTime.IsZero() {
				t.BlockTime = b.Time
			}
		}
		t.Chain = w.cfg.Chain
		got = append(got, orders.Received{Transfer: t, OrderID: id})
	}
	return got, nil
}

// ordersByAddress maps those of addrs (sorted) that are deposit addresses
// on the watcher's network to their orders: each order's current address,
// then the addresses an order with the customer's choice showed before the
// customer switched network, which a payment may still reach.
func (w *Watcher) ordersByAddress(ctx context.Context, addrs []string) (map[string]string, error) {
	os, err := w.store.CollectionsByAddress(ctx, w.cfg.Chain, addrs)
	if err != nil {
		return nil, err
	}
	byAddr := make(map[string]string, len(os))
	for _, o := range os {
		byAddr[o.DepositAddress] = o.ID
	}
	var rest []string
	for _, a := range addrs {
		if _, ok := byAddr[a]; !ok {
			rest = append(rest, a)
		}
	}
	shown, err := w.store.ShownAddresses(ctx, w.cfg.Chain, rest)
	if err != nil {
		return nil, err
	}
	for a, id := range shown {
		byAddr[a] = id
	}
	return byAddr, nil
}
