package orders

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// RefundRequest is a create refund request.
type RefundRequest struct {
	OrderNo  string
	RefundNo string
	Amount   string
	Address  string // "": the customer enters it on the refund link
	Symbol   string // "": the order's token; another token refunds a wrong-token payment
	Reason   string
}

// RefundEvents is what an EventWriter provides to send refund webhooks;
// without it refunds change state without events.
type RefundEvents interface {
	RefundEvent(f *cashier.Refund, c *cashier.Cashier, at time.Time) (*cashier.Event, error)
}

// CreateRefund refunds part or all of what a collection order received.
// The refundNo is the merchant's idempotency key: the same request again
// returns the refund it made (created false), a different request with the
// same refundNo is refused with EDuplicate. With an address the refund's
// payout is stored at once, under the payout rules (funding, review, fee);
// without one the refund waits on its link for the customer's address.
func (s *Service) CreateRefund(ctx context.Context, m *cashier.Merchant, req RefundRequest) (*cashier.Refund, bool, error) {
	if err := s.checkRefundNo(req.RefundNo); err != nil {
		return nil, false, err
	}
	if req.OrderNo == "" {
		return nil, false, cashier.Errorf(cashier.EMissing, "orderNo is required")
	}
	if req.Amount == "" {
		return nil, false, cashier.Errorf(cashier.EMissing, "amount is required")
	}
	if err := s.checkText("reason", req.Reason); err != nil {
		return nil, false, err
	}
	o, err := s.Store.CollectionByOrderNo(ctx, m.ID, req.OrderNo)
	if err != nil {
		return nil, false, err
	}
	symbol := req.Symbol
	if symbol == "" {
		symbol = o.Symbol
	}
	token, err := s.lookupToken(o.Chain, symbol)
	if err != nil {
		return nil, false, err
	}
	amount, err := cashier.ParseAmount(req.Amount, token.Decimals)
	if err != nil {
		return nil, false, err
	}
	if amount.Sign() <= 0 {
		return nil, false, cashier.Errorf(cashier.EInvalidAmount, "amount must be greater than zero")
	}
	var addr string
	if req.Address != "" {
		if addr, err = s.Addresses.ValidateAddress(o.Chain, req.Address); err != nil {
			return nil, false, err
		}
	}
	if prev, err := s.Store.RefundByNo(ctx, m.ID, req.RefundNo); err == nil {
		return prev, false, sameRefund(prev, o, token.Symbol, amount, addr)
	} else if !missing(err) {
		return nil, false, err
	}
	k, err := s.refundContract(ctx, m, o.Chain)
	if err != nil {
		return nil, false, err
	}
	now := s.Clock.Now()
	f := &cashier.Refund{
		ID: NewID("rf_"), MerchantID: m.ID, RefundNo: req.RefundNo, OrderID: o.ID, OrderNo: o.OrderNo,
		Chain: o.Chain, Symbol: token.Symbol, Decimals: token.Decimals, Amount: amount, ByLink: addr == "",
		Status: cashier.RefundAwaitingAddress, Fee: new(big.Int), Reason: req.Reason, CreatedAt: now, UpdatedAt: now,
	}
	first := func(tx cashier.Tx) error {
		if err := s.checkRefundable(ctx, tx, f); err != nil {
			return err
		}
		return tx.CreateRefund(ctx, f)
	}
	if addr == "" {
		err = s.Store.Update(ctx, func(tx cashier.Tx) error {
			if err := first(tx); err != nil {
				return err
			}
			return s.addRefundEvent(ctx, tx, f, now)
		})
	} else {
		err = s.payRefund(ctx, k, f, addr, token, first)
	}
	if cashier.ErrorCode(err) == cashier.EDuplicate {
		// A concurrent request with the same refundNo won: answer as a repeat.
		if prev, rerr := s.Store.RefundByNo(ctx, m.ID, req.RefundNo); rerr == nil {
			return prev, false, sameRefund(prev, o, token.Symbol, amount, addr)
		}
	}
	if err != nil {
		return nil, false, err
	}
	return f, true, nil
}

// sameRefund refuses a refundNo reused for a different refund.
func sameRefund(prev *cashier.Refund, o *cashier.CollectionOrder, symbol string, amount *big.Int, addr string) error {
	var diff []string
	if prev.OrderID != o.ID {
		diff = append(diff, "orderNo "+prev.OrderNo)
	}
	if prev.Symbol != symbol {
		diff = append(diff, "symbol "+prev.Symbol)
	}
	if prev.Amount.Cmp(amount) != 0 {
		diff = append(diff, "amount "+cashier.FormatAmount(prev.Amount, prev.Decimals))
	}
	switch {
	case prev.ByLink && addr != "":
		diff = append(diff, "no address (a refund link)")
	case !prev.ByLink && !strings.EqualFold(prev.Address, addr):
		diff = append(diff, "address "+prev.Address)
	}
	if len(diff) == 0 {
		return nil
	}
	return cashier.Errorf(cashier.EDuplicate, "refundNo %s was used already for another refund (%s); use a new refundNo for a new refund",
		prev.RefundNo, strings.Join(diff, ", "))
}

func (s *Service) checkRefundNo(no string) error {
	if no == "" {
		return cashier.Errorf(cashier.EMissing, "refundNo is required")
	}
	if err := s.checkOrderNo(no); err != nil {
		return cashier.Errorf(cashier.EInvalid, "refundNo %q may hold only ASCII letters, digits and - _ . : and at most %d characters", no, s.Config.MaxOrderNoLen)
	}
	return nil
}

// refundContract is the merchant's active payout contract on c: the one
// the order's deposits are swept into, and the one that pays the refund.
func (s *Service) refundContract(ctx context.Context, m *cashier.Merchant, c cashier.Chain) (*cashier.Contract, error) {
	ks, err := s.Store.ContractsByMerchant(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	for i := range ks {
		if ks[i].Chain == c && ks[i].Status == cashier.ContractActive {
			return &ks[i], nil
		}
	}
	return nil, cashier.Errorf(cashier.EInvalidStatus, "no active payout contract on %s to pay the refund from", c)
}

// Refundable is what an order can still refund in symbol: the confirmed
// transfers of that token it received (on time, late, in excess, after
// cancellation, or as the wrong token) less the refunds not failed.
func Refundable(ctx context.Context, r cashier.Reader, o *cashier.CollectionOrder, symbol string) (paid, refunded *big.Int, err error) {
	paid, refunded = new(big.Int), new(big.Int)
	ps, err := r.PaymentsByOrder(ctx, o.ID)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range ps {
		if p.Status == cashier.PaymentConfirmed && p.Effect != cashier.EffectNative && p.Symbol == symbol && p.Amount != nil {
			paid.Add(paid, p.Amount)
		}
	}
	fs, err := r.Refunds(ctx, cashier.RefundFilter{OrderID: o.ID})
	if err != nil {
		return nil, nil, err
	}
	for _, f := range fs {
		if f.Symbol == symbol && f.Status.Holds() {
			refunded.Add(refunded, f.Amount)
		}
	}
	return paid, refunded, nil
}

// checkRefundable refuses f when it exceeds what its order can still
// refund. It writes the order back unchanged first, which takes the order's
// version: two refunds of one order racing on separate instances cannot
// both pass (the loser's write fails, and nothing of it is stored).
func (s *Service) checkRefundable(ctx context.Context, tx cashier.Tx, f *cashier.Refund) error {
	o, err := tx.Collection(ctx, f.OrderID)
	if err != nil {
		return err
	}
	if err := tx.UpdateCollection(ctx, o); err != nil {
		return err
	}
	paid, refunded, err := Refundable(ctx, tx, o, f.Symbol)
	if err != nil {
		return err
	}
	left := new(big.Int).Sub(paid, refunded)
	if f.Amount.Cmp(left) > 0 {
		if left.Sign() < 0 {
			left.SetInt64(0)
		}
		return cashier.Errorf(cashier.EInvalidAmount, "refund of %s %s exceeds what order %s can still refund: received %s, refunded %s, refundable %s",
			cashier.FormatAmount(f.Amount, f.Decimals), f.Symbol, o.OrderNo, cashier.FormatAmount(paid, f.Decimals),
			cashier.FormatAmount(refunded, f.Decimals), cashier.FormatAmount(left, f.Decimals))
	}
	return nil
}

// payRefund stores f's payout order to addr with the payout rules, and f
// with it, in one transaction after first.
func (s *Service) payRefund(ctx context.Context, k *cashier.Contract, f *cashier.Refund, addr string, token cashier.Token, first func(cashier.Tx) error) error {
	if strings.EqualFold(addr, k.Address) {
		return cashier.Errorf(cashier.EInvalidAddress, "the refund address is the payout contract itself")
	}
	fee := new(big.Int)
	if token.WithdrawFee != nil {
		fee.Set(token.WithdrawFee)
	}
	now := s.Clock.Now()
	po := &cashier.PayoutOrder{
		ID: NewID("po_"), MerchantID: f.MerchantID, ContractID: k.ID,
		OrderNo: cashier.RefundPayoutPrefix + f.RefundNo, Chain: k.Chain, Recipient: addr, Symbol: token.Symbol, Decimals: token.Decimals,
		Amount: new(big.Int).Set(f.Amount), Fee: fee, PayoutType: cashier.PayoutBalance,
		Remark: "refund of order " + f.OrderNo, Status: cashier.PayoutPending, CreatedAt: now, UpdatedAt: now,
	}
	return s.storePayoutsWith(ctx, k, []*cashier.PayoutOrder{po}, nil, func(tx cashier.Tx) error {
		if err := first(tx); err != nil {
			return err
		}
		prev := f.Status
		f.Address, f.PayoutID, f.Fee, f.Status, f.UpdatedAt = addr, po.ID, fee, cashier.RefundPending, now
		f.FailReason = "" // an earlier address not taken is behind it
		if !prev.CanTransition(f.Status) {
			return cashier.Errorf(cashier.EInvalidStatus, "refund %s cannot go from %s to %s", f.RefundNo, prev, f.Status)
		}
		if err := tx.UpdateRefund(ctx, f); err != nil {
			return err
		}
		return s.addRefundEvent(ctx, tx, f, now)
	})
}

// refundCancelled answers an address sent to a withdrawn refund link.
func refundCancelled() error {
	return cashier.Errorf(cashier.EInvalidStatus, "the merchant withdrew this refund link")
}

// SetRefundAddress takes the customer's address from a refund link and
// stores the refund's payout; the first address taken is final. Repeating
// the same address answers the refund as it is.
func (s *Service) SetRefundAddress(ctx context.Context, refundID, address string) (*cashier.Refund, error) {
	f, err := s.Store.Refund(ctx, refundID)
	if err != nil {
		return nil, err
	}
	if address == "" {
		return nil, cashier.Errorf(cashier.EMissing, "address is required")
	}
	addr, err := s.Addresses.ValidateAddress(f.Chain, address)
	if err != nil {
		return nil, err
	}
	if f.Status == cashier.RefundCancelled {
		return nil, refundCancelled()
	}
	if f.Status != cashier.RefundAwaitingAddress {
		if strings.EqualFold(f.Address, addr) {
			return f, nil
		}
		return nil, cashier.Errorf(cashier.EInvalidStatus, "this refund is going to %s already", f.Address)
	}
	m, err := s.Store.Merchant(ctx, f.MerchantID)
	if err != nil {
		return nil, err
	}
	k, err := s.refundContract(ctx, m, f.Chain)
	if err != nil {
		return nil, s.refundNotYet(ctx, f.ID, addr, err)
	}
	token, err := s.Registry.LookupToken(f.Chain, f.Symbol)
	if err != nil {
		return nil, err
	}
	err = s.payRefund(ctx, k, f, addr, token, func(tx cashier.Tx) error {
		cur, err := tx.Refund(ctx, f.ID)
		if err != nil {
			return err
		}
		if cur.Status == cashier.RefundCancelled {
			return refundCancelled()
		}
		if cur.Status != cashier.RefundAwaitingAddress || cur.Version != f.Version {
			return cashier.Errorf(cashier.EInvalidStatus, "this refund is going to %s already", cur.Address)
		}
		return nil
	})
	if err != nil {
		if cur, rerr := s.Store.Refund(ctx, refundID); rerr == nil && cur.Status != cashier.RefundAwaitingAddress && strings.EqualFold(cur.Address, addr) {
			return cur, nil // a double submit of the same form
		}
		if merchantSide(err) {
			return nil, s.refundNotYet(ctx, f.ID, addr, err)
		}
		return nil, err
	}
	return f, nil
}

// merchantSide reports whether err refuses a refund's payout for a reason
// that is the merchant's to fix (the contract's funds or allowance, its
// whitelist, no contract or payouts on the network), not the customer's.
func merchantSide(err error) bool {
	switch cashier.ErrorCode(err) {
	case cashier.EInsufficientContr, cashier.EInsufficientFunds, cashier.EInsufficientAllow, cashier.ENotWhitelisted, cashier.EUnsupported:
		return true
	}
	return false
}

// RefundNotYetMessage is all a refund link's holder is told when the
// refund cannot be paid for a reason that is the merchant's: the
// merchant's funds and settings are none of the link holder's business.
const RefundNotYetMessage = "this refund cannot be sent yet; the merchant has been told. Please try again later"

// refundNotYet records why the customer's address was not taken for the
// merchant (the refund's failReason, with a refund webhook when it
// changed; the refund still waits for an address) and returns the error
// the link holder sees: RefundNotYetMessage, with the detail as its cause
// for the service's log.
func (s *Service) refundNotYet(ctx context.Context, refundID, addr string, cause error) error {
	detail := "the customer's address " + addr + " was not taken: " + cashier.ErrorMessage(cause)
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		f, err := tx.Refund(ctx, refundID)
		if err != nil || f.Status != cashier.RefundAwaitingAddress || f.FailReason == detail {
			return err
		}
		now := s.Clock.Now()
		f.FailReason, f.UpdatedAt = detail, now
		if err := tx.UpdateRefund(ctx, f); err != nil {
			return err
		}
		return s.addRefundEvent(ctx, tx, f, now)
	})
	out := &cashier.Error{Code: cashier.EInvalidStatus, Message: RefundNotYetMessage, Err: cause}
	if err != nil {
		out.Err = errors.Join(cause, fmt.Errorf("recording it for the merchant: %w", err))
	}
	return out
}

// CancelRefund withdraws a refund link the customer has not used: the
// refund ends CANCELLED (with its webhook), its amount can be refunded
// again, and the link's page says so. Once the customer has given an
// address the refund is a payout and follows it; that one is not
// cancelled here. Cancelling a cancelled refund returns it unchanged.
func (s *Service) CancelRefund(ctx context.Context, m *cashier.Merchant, refundNo string) (*cashier.Refund, error) {
	if refundNo == "" {
		return nil, cashier.Errorf(cashier.EMissing, "refundNo is required")
	}
	var out *cashier.Refund
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		f, err := tx.RefundByNo(ctx, m.ID, refundNo)
		if err != nil {
			return err
		}
		out = f
		if f.Status == cashier.RefundCancelled {
			return nil
		}
		if !f.Status.CanTransition(cashier.RefundCancelled) {
			return cashier.Errorf(cashier.EInvalidStatus,
				"refund %s is %s: only a refund link still waiting for the customer's address can be cancelled", f.RefundNo, f.Status)
		}
		now := s.Clock.Now()
		f.Status, f.UpdatedAt = cashier.RefundCancelled, now
		if err := tx.UpdateRefund(ctx, f); err != nil {
			return err
		}
		return s.addRefundEvent(ctx, tx, f, now)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Refund returns the merchant's refund with refundNo.
func (s *Service) Refund(ctx context.Context, m *cashier.Merchant, refundNo string) (*cashier.Refund, error) {
	if refundNo == "" {
		return nil, cashier.Errorf(cashier.EMissing, "refundNo is required")
	}
	return s.Store.RefundByNo(ctx, m.ID, refundNo)
}

// followPayout moves the refund a payout order pays to the status the
// payout's means, with its webhook, in the payout's transaction.
func (s *Service) followPayout(ctx context.Context, tx cashier.Tx, o *cashier.PayoutOrder, now time.Time) error {
	f, err := tx.RefundByPayout(ctx, o.ID)
	if missing(err) {
		return nil // created in this transaction, before its refund points at it
	}
	if err != nil {
		return err
	}
	next := cashier.RefundStatusOf(o.Status)
	if next == f.Status {
		return nil
	}
	if !f.Status.CanTransition(next) {
		return cashier.Errorf(cashier.EInvalidStatus, "refund %s cannot go from %s to %s", f.RefundNo, f.Status, next)
	}
	f.Status, f.UpdatedAt = next, now
	switch next {
	case cashier.RefundSuccess:
		f.TxID, f.Block, f.SentAt = o.TxID, o.BlockNumber, o.BlockTime
		if f.SentAt.IsZero() {
			f.SentAt = now
		}
	case cashier.RefundFailed:
		f.FailReason = o.FailReason
	}
	if err := tx.UpdateRefund(ctx, f); err != nil {
		return err
	}
	return s.addRefundEvent(ctx, tx, f, now)
}

// addRefundEvent writes f's refund webhook to the webhook URL of the cashier
// that took the order.
func (s *Service) addRefundEvent(ctx context.Context, tx cashier.Tx, f *cashier.Refund, now time.Time) error {
	w, ok := s.Events.(RefundEvents)
	if !ok {
		return nil
	}
	o, err := tx.Collection(ctx, f.OrderID)
	if err != nil {
		return err
	}
	c, err := tx.Cashier(ctx, o.CashierID)
	if err != nil {
		return err
	}
	e, err := w.RefundEvent(f, c, now)
	if err != nil || e == nil {
		return err
	}
	return tx.AddEvent(ctx, e)
}
