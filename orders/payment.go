package orders

import (
	"context"
	"math/big"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// Received is a token transfer to a collection order's deposit address,
// matched to that order by the chain watcher.
type Received struct {
	Transfer cashier.Transfer
	OrderID  string
}

// ApplyConfirmed settles blocks [from, to] of chain c, which are now deep
// enough: every transfer in got is recorded as confirmed (once, keyed on
// network, transaction hash and log index) and applied to its order by the
// outcome table; payments seen in that range that the chain no longer has
// are dropped; the cursor moves to cur. All of it is one transaction with
// its webhook events, so a crash leaves either the range applied or not.
func (s *Service) ApplyConfirmed(ctx context.Context, c cashier.Chain, from, to uint64, got []Received, cur cashier.ChainCursor) error {
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		now := s.Clock.Now()
		a := applier{s: s, tx: tx, now: now}
		present := map[string]bool{}
		for _, r := range got {
			present[paymentKey(r.Transfer.TxHash, r.Transfer.LogIndex)] = true
			if err := a.confirm(ctx, r); err != nil {
				return err
			}
		}
		if err := a.dropMissing(ctx, c, from, to, present); err != nil {
			return err
		}
		cur.Chain, cur.UpdatedAt = c, now
		return tx.SetCursor(ctx, cur)
	})
}

// ApplySeen records the transfers of the unconfirmed blocks [from, head]
// as seen (a PENDING webhook tells the merchant a payment is on its way),
// drops seen payments of that range the chain no longer has (a reorg), and
// stores the head for confirmation counts. Nothing here credits an order.
func (s *Service) ApplySeen(ctx context.Context, c cashier.Chain, from, head uint64, got []Received) error {
	return s.Store.Update(ctx, func(tx cashier.Tx) error {
		now := s.Clock.Now()
		a := applier{s: s, tx: tx, now: now}
		present := map[string]bool{}
		for _, r := range got {
			present[paymentKey(r.Transfer.TxHash, r.Transfer.LogIndex)] = true
			if err := a.see(ctx, r); err != nil {
				return err
			}
		}
		if from <= head {
			if err := a.dropMissing(ctx, c, from, ^uint64(0), present); err != nil {
				return err
			}
		}
		cur, err := tx.Cursor(ctx, c)
		if err != nil {
			return err
		}
		cur.Head, cur.UpdatedAt = head, now
		return tx.SetCursor(ctx, cur)
	})
}

func paymentKey(txHash string, logIndex uint) string {
	return strings.ToLower(txHash) + "/" + big.NewInt(int64(logIndex)).String()
}

// applier carries one transaction's state.
type applier struct {
	s        *Service
	tx       cashier.Tx
	now      time.Time
	cashiers map[string]*cashier.Cashier
	reorged  map[string]*cashier.Payment // missing payments by transfer, read once
}

func (a *applier) newPayment(ctx context.Context, r Received, o *cashier.CollectionOrder) cashier.Payment {
	t := r.Transfer
	p := cashier.Payment{
		Chain: t.Chain, TxHash: t.TxHash, LogIndex: t.LogIndex, OrderID: o.ID, MerchantID: o.MerchantID,
		Token: t.Token, From: t.From, To: t.To, Amount: new(big.Int).Set(t.Amount),
		BlockNumber: t.BlockNumber, BlockHash: t.BlockHash, BlockTime: t.BlockTime,
		Status: cashier.PaymentSeen, SeenAt: a.now, UpdatedAt: a.now,
	}
	if tok, ok := a.s.Registry.TokenByAddress(t.Chain, t.Token); ok {
		p.Symbol, p.Decimals = tok.Symbol, tok.Decimals
	} else if n, ok := a.s.Registry.Network(t.Chain); ok && t.Native() {
		p.Symbol, p.Decimals = n.Symbol, n.Decimals
	}
	return p
}

// load returns the recorded payment of r, or nil.
func (a *applier) load(ctx context.Context, r Received) (*cashier.Payment, error) {
	p, err := a.tx.Payment(ctx, r.Transfer.Chain, r.Transfer.TxHash, r.Transfer.LogIndex)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		return nil, nil
	}
	return p, err
}

// loadOrReappeared returns the recorded payment of r, or the missing
// payment (a deep reorg removed its block) of the same transaction and
// order, token, recipient and amount, which r is: mined again in another
// block, where its log index differs. That payment takes r's log index,
// so it is never recorded and credited a second time.
func (a *applier) loadOrReappeared(ctx context.Context, r Received) (*cashier.Payment, error) {
	p, err := a.load(ctx, r)
	if p != nil || err != nil {
		return p, err
	}
	if a.reorged == nil {
		ps, err := a.tx.ReorgedPayments(ctx, r.Transfer.Chain)
		if err != nil {
			return nil, err
		}
		a.reorged = map[string]*cashier.Payment{}
		for i := range ps {
			a.reorged[strings.ToLower(ps[i].TxHash)+"/"+ps[i].OrderID+"/"+strings.ToLower(ps[i].Token)+"/"+ps[i].Amount.String()] = &ps[i]
		}
	}
	t := r.Transfer
	if t.Amount == nil {
		return nil, nil
	}
	key := strings.ToLower(t.TxHash) + "/" + r.OrderID + "/" + strings.ToLower(t.Token) + "/" + t.Amount.String()
	m := a.reorged[key]
	if m == nil || !strings.EqualFold(m.To, t.To) {
		return nil, nil
	}
	delete(a.reorged, key)
	if m.LogIndex != t.LogIndex {
		if err := a.tx.RekeyPayment(ctx, m.Chain, m.TxHash, m.LogIndex, t.LogIndex); err != nil {
			return nil, err
		}
		m.LogIndex = t.LogIndex
	}
	return m, nil
}

// moveTo updates p's block to where the transfer now is (a dropped
// transaction mined again lands in another block).
func moveTo(p *cashier.Payment, t cashier.Transfer) {
	p.BlockNumber, p.BlockHash, p.BlockTime = t.BlockNumber, t.BlockHash, t.BlockTime
}

func (a *applier) see(ctx context.Context, r Received) error {
	p, err := a.loadOrReappeared(ctx, r)
	if err != nil {
		return err
	}
	if p != nil && p.Status == cashier.PaymentConfirmed && !p.ReorgedAt.IsZero() {
		// A credited transfer a deep reorg removed is mined again: it
		// stays missing until it is confirmed again, but its block is
		// known, so it is not flagged while it waits for its depth.
		if strings.EqualFold(p.BlockHash, r.Transfer.BlockHash) {
			return nil
		}
		moveTo(p, r.Transfer)
		p.UpdatedAt = a.now
		return a.tx.UpdatePayment(ctx, p)
	}
	o, err := a.tx.Collection(ctx, r.OrderID)
	if err != nil {
		return err
	}
	switch {
	case p == nil:
		np := a.newPayment(ctx, r, o)
		if err := a.tx.CreatePayment(ctx, &np); err != nil {
			return err
		}
		p = &np
	case p.Status == cashier.PaymentConfirmed:
		return nil
	case p.Status == cashier.PaymentSeen && strings.EqualFold(p.BlockHash, r.Transfer.BlockHash):
		return nil
	default: // re-mined after a drop, or moved to another block
		moveTo(p, r.Transfer)
		p.Status, p.UpdatedAt = cashier.PaymentSeen, a.now
		if err := a.tx.UpdatePayment(ctx, p); err != nil {
			return err
		}
	}
	if o.Status == cashier.CollectionPending && a.switchBack(o, p) {
		if err := a.tx.UpdateCollection(ctx, o); err != nil {
			return err
		}
	}
	// Tell the merchant a payment is on its way, once per seen transfer, only
	// while the order still waits for it and the token is the order's.
	if o.Status != cashier.CollectionPending || !a.orderToken(o, p.Chain, p.Token) {
		return nil
	}
	o.TxID, o.FromAddress, o.PayTime, o.UpdatedAt = p.TxHash, p.From, p.BlockTime, a.now
	if err := a.tx.UpdateCollection(ctx, o); err != nil {
		return err
	}
	return a.event(ctx, o)
}

func (a *applier) confirm(ctx context.Context, r Received) error {
	p, err := a.loadOrReappeared(ctx, r)
	if err != nil {
		return err
	}
	if p != nil && p.Status == cashier.PaymentConfirmed {
		// Applied before: never credited twice. A payment a deep reorg
		// made missing is found again (in the same or another block).
		if p.ReorgedAt.IsZero() && strings.EqualFold(p.BlockHash, r.Transfer.BlockHash) {
			return nil
		}
		moveTo(p, r.Transfer)
		p.ReorgedAt, p.UpdatedAt = time.Time{}, a.now
		return a.tx.UpdatePayment(ctx, p)
	}
	o, err := a.tx.Collection(ctx, r.OrderID)
	if err != nil {
		return err
	}
	created := p == nil
	if created {
		np := a.newPayment(ctx, r, o)
		p = &np
	} else {
		moveTo(p, r.Transfer)
	}
	a.switchBack(o, p) // written with the outcome below
	fit := a.fit(o, p)
	out, ok := cashier.PaymentOutcome(o.Status, fit)
	if !ok {
		return cashier.Errorf(cashier.EInternal, "no outcome for a %s payment to a %s order", fit, o.Status)
	}
	p.Status, p.Effect, p.ConfirmedAt, p.UpdatedAt = cashier.PaymentConfirmed, out.Effect, a.now, a.now
	if created {
		err = a.tx.CreatePayment(ctx, p)
	} else {
		err = a.tx.UpdatePayment(ctx, p)
	}
	if err != nil || out.Effect == cashier.EffectWrongToken || out.Effect == cashier.EffectNative {
		// Another token or the native coin is recorded and shown with the
		// order, never counted.
		return err
	}
	if out.Next != o.Status && !o.Status.CanTransition(out.Next) {
		return cashier.Errorf(cashier.EInternal, "outcome %s → %s is not a transition", o.Status, out.Next)
	}
	o.PaidAmount = new(big.Int).Add(paidOf(o), p.Amount)
	o.UpdatedAt = a.now
	view := *o
	view.TxID, view.FromAddress, view.PayTime = p.TxHash, p.From, p.BlockTime
	if out.Effect != cashier.EffectExtra {
		// The order names the transfer that completed it, or the latest one
		// counted; an extra payment keeps the completing one.
		o.TxID, o.FromAddress, o.PayTime = p.TxHash, p.From, p.BlockTime
	}
	o.Status, view.Status = out.Next, out.Next
	if err := a.tx.UpdateCollection(ctx, o); err != nil {
		return err
	}
	view.Version = o.Version
	return a.event(ctx, &view)
}

// fit classifies a confirmed payment against its order, counting it in.
func (a *applier) fit(o *cashier.CollectionOrder, p *cashier.Payment) cashier.PaymentFit {
	if p.Native() {
		return cashier.FitNative
	}
	if !a.orderToken(o, p.Chain, p.Token) {
		return cashier.FitWrongToken
	}
	paid := new(big.Int).Add(paidOf(o), p.Amount)
	if paid.Cmp(o.Amount) < 0 {
		return cashier.FitShort
	}
	if o.Status == cashier.CollectionExpired && !p.BlockTime.IsZero() && p.BlockTime.After(o.ExpireAt.Add(a.s.Config.LateWindow)) {
		return cashier.FitFullLate
	}
	return cashier.FitFull
}

func (a *applier) orderToken(o *cashier.CollectionOrder, c cashier.Chain, token string) bool {
	if token == "" || c != o.Chain {
		return false // the native coin, or a payment on another network
	}
	t, ok := a.s.Registry.Token(o.Chain, o.Symbol)
	return ok && strings.EqualFold(t.ContractAddress, token)
}

// switchBack makes o's network and token those of p when the customer
// chose them on the page, switched to another network or token before
// any payment was seen, and p is the first payment: sent to an address
// the order showed earlier (the watcher matched it) in a token the order
// offered. The order is then paid, once, where the customer paid; later
// payments elsewhere are recorded as another token, as for any order. It
// reports whether o changed (the caller writes it).
func (a *applier) switchBack(o *cashier.CollectionOrder, p *cashier.Payment) bool {
	if o.Choose == "" || p.Native() || paidOf(o).Sign() != 0 || a.orderToken(o, p.Chain, p.Token) {
		return false
	}
	if p.Chain != o.Chain && !o.MayChoose(cashier.ChooseChain) {
		return false
	}
	tok, ok := a.s.Registry.TokenByAddress(p.Chain, p.Token)
	if !ok || (tok.Symbol != o.Symbol && !o.MayChoose(cashier.ChooseToken)) {
		return false
	}
	amount, err := tok.ParseOrderAmount(cashier.FormatAmount(o.Amount, o.Decimals))
	if err != nil {
		return false // outside that token's bounds: never one of the choices
	}
	o.Chain, o.Symbol, o.Decimals, o.Amount, o.DepositAddress, o.UpdatedAt = p.Chain, tok.Symbol, tok.Decimals, amount, p.To, a.now
	return true
}

func paidOf(o *cashier.CollectionOrder) *big.Int {
	if o.PaidAmount == nil {
		return new(big.Int)
	}
	return o.PaidAmount
}

// dropMissing marks the seen payments of c in blocks [from, to] that are
// not in present as dropped: their block left the canonical chain. An
// order that was showing such a payment goes back to its last counted one.
func (a *applier) dropMissing(ctx context.Context, c cashier.Chain, from, to uint64, present map[string]bool) error {
	seen, err := a.tx.SeenPayments(ctx, c)
	if err != nil {
		return err
	}
	for i := range seen {
		p := &seen[i]
		if p.BlockNumber < from || p.BlockNumber > to || present[paymentKey(p.TxHash, p.LogIndex)] {
			continue
		}
		p.Status, p.UpdatedAt = cashier.PaymentDropped, a.now
		if err := a.tx.UpdatePayment(ctx, p); err != nil {
			return err
		}
		o, err := a.tx.Collection(ctx, p.OrderID)
		if err != nil {
			return err
		}
		if o.Status != cashier.CollectionPending || !strings.EqualFold(o.TxID, p.TxHash) {
			continue
		}
		o.TxID, o.FromAddress, o.PayTime = "", "", time.Time{}
		if last, err := a.lastCounted(ctx, o.ID); err != nil {
			return err
		} else if last != nil {
			o.TxID, o.FromAddress, o.PayTime = last.TxHash, last.From, last.BlockTime
		}
		o.UpdatedAt = a.now
		if err := a.tx.UpdateCollection(ctx, o); err != nil {
			return err
		}
		if err := a.event(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// lastCounted is the order's newest confirmed payment that counted.
func (a *applier) lastCounted(ctx context.Context, orderID string) (*cashier.Payment, error) {
	ps, err := a.tx.PaymentsByOrder(ctx, orderID)
	if err != nil {
		return nil, err
	}
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].Status == cashier.PaymentConfirmed && ps[i].Effect != cashier.EffectWrongToken && ps[i].Effect != cashier.EffectNative {
			return &ps[i], nil
		}
	}
	return nil, nil
}

func (a *applier) event(ctx context.Context, o *cashier.CollectionOrder) error {
	if a.cashiers == nil {
		a.cashiers = map[string]*cashier.Cashier{}
	}
	c, ok := a.cashiers[o.CashierID]
	if !ok {
		var err error
		if c, err = a.tx.Cashier(ctx, o.CashierID); err != nil {
			return err
		}
		a.cashiers[o.CashierID] = c
	}
	return a.s.addCollectionEvent(ctx, a.tx, o, c, a.now)
}

// ExpireDue moves up to n PENDING orders whose expiry has passed to EXPIRED,
// each with its webhook, and returns how many it moved. An order expires
// only once its network has been scanned and confirmed past its expiry
// (ExpiryBound): a payment mined in time, while the service was down or
// before its confirmations, is credited first and never counted late.
func (s *Service) ExpireDue(ctx context.Context, n int) (int, error) {
	now := s.Clock.Now()
	moved := 0
	for _, net := range s.Registry.Networks {
		if moved >= n {
			break
		}
		cur, err := s.Store.Cursor(ctx, net.Chain)
		if err != nil {
			return moved, err
		}
		bound, ok := ExpiryBound(cur, now)
		if !ok {
			continue
		}
		due, err := s.Store.ExpiringCollections(ctx, net.Chain, bound, n-moved)
		if err != nil {
			return moved, err
		}
		if len(due) == 0 {
			continue
		}
		k := 0
		err = s.Store.Update(ctx, func(tx cashier.Tx) error {
			k = 0
			// Read again with the orders: the watcher commits a range's
			// payments together with its cursor.
			cur, err := tx.Cursor(ctx, net.Chain)
			if err != nil {
				return err
			}
			bound, ok := ExpiryBound(cur, now)
			a := applier{s: s, tx: tx, now: now}
			for _, d := range due {
				o, err := tx.Collection(ctx, d.ID)
				if err != nil {
					return err
				}
				if !ok || o.Status != cashier.CollectionPending || o.ExpireAt.After(bound) {
					continue // paid or cancelled meanwhile
				}
				o.Status, o.UpdatedAt = cashier.CollectionExpired, now
				if err := tx.UpdateCollection(ctx, o); err != nil {
					return err
				}
				if err := a.event(ctx, o); err != nil {
					return err
				}
				k++
			}
			return nil
		})
		if err != nil {
			return moved, err
		}
		moved += k
	}
	return moved, nil
}

// ExpiryBound is the latest expiry an order on cur's network may have to
// expire at now: now, and no later than the time of the last block the
// watcher scanned and confirmed, so every payment mined before the expiry
// has been credited already. ok is false while that time is not known: a
// network no watcher has followed yet (no cursor; its first round scans
// from before the oldest order, so a payment made meanwhile is credited
// then), a cursor stored before block times were, or one at the genesis
// block.
func ExpiryBound(cur cashier.ChainCursor, now time.Time) (bound time.Time, ok bool) {
	if cur.UpdatedAt.IsZero() || cur.ConfirmedTime.IsZero() {
		return time.Time{}, false
	}
	if cur.ConfirmedTime.Before(now) {
		return cur.ConfirmedTime, true
	}
	return now, true
}

// CancelCollection cancels the PENDING order id, for its customer (on the
// payment page) or the merchant's operator, with its webhook. It is refused
// once a payment to the order has been seen on chain, even unconfirmed:
// the customer's money is already on its way.
func (s *Service) CancelCollection(ctx context.Context, id string) (*cashier.CollectionOrder, error) {
	var out *cashier.CollectionOrder
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		o, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		if !o.Status.CanTransition(cashier.CollectionCancelled) {
			return cashier.Errorf(cashier.EInvalidStatus, "collection order %s is %s and cannot be cancelled", o.OrderNo, o.Status)
		}
		ps, err := tx.PaymentsByOrder(ctx, o.ID)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if p.Status != cashier.PaymentDropped {
				return cashier.Errorf(cashier.EInvalidStatus, "collection order %s cannot be cancelled: a payment (%s) has been received", o.OrderNo, p.TxHash)
			}
		}
		now := s.Clock.Now()
		o.Status, o.UpdatedAt = cashier.CollectionCancelled, now
		if err := tx.UpdateCollection(ctx, o); err != nil {
			return err
		}
		a := applier{s: s, tx: tx, now: now}
		out = o
		return a.event(ctx, o)
	})
	return out, err
}

// CancelCollectionByOrderNo cancels the merchant's order orderNo (the
// operator's command).
func (s *Service) CancelCollectionByOrderNo(ctx context.Context, merchantID, orderNo string) (*cashier.CollectionOrder, error) {
	if merchantID == "" || orderNo == "" {
		return nil, cashier.Errorf(cashier.EMissing, "merchant and order number are required")
	}
	if _, err := s.Store.Merchant(ctx, merchantID); err != nil {
		return nil, err
	}
	o, err := s.Store.CollectionByOrderNo(ctx, merchantID, orderNo)
	if err != nil {
		return nil, err
	}
	return s.CancelCollection(ctx, o.ID)
}

// CollectionPayments returns the order's received transfers and the
// network's cursor they are counted against (its Head 0 when not yet
// known).
func (s *Service) CollectionPayments(ctx context.Context, o *cashier.CollectionOrder) ([]cashier.Payment, cashier.ChainCursor, error) {
	ps, err := s.Store.PaymentsByOrder(ctx, o.ID)
	if err != nil {
		return nil, cashier.ChainCursor{}, err
	}
	cur, err := s.Store.Cursor(ctx, o.Chain)
	if err != nil {
		return nil, cashier.ChainCursor{}, err
	}
	return ps, cur, nil
}
