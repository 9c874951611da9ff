package orders

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// CollectionRequest is a validated-for-type create request; the service
// checks its meaning.
type CollectionRequest struct {
	CashierID   string
	OrderNo     string
	CustNo      string
	Amount      string
	Symbol      string
	ChainID     string // TRON, ETH, ARB, BSC, POLYGON, BASE (or 1, 42161, 56, 137, 8453); empty: TRON
	RedirectURL string
	// Origin is the merchant page's origin of an order the widget SDK
	// creates from the browser (checked by the caller against the
	// cashier's allowed origins); "" for the signed API.
	Origin string
	// ChooseChain and ChooseToken leave the network (ChainID: the
	// preselected one) and the token (Symbol: preselected) to the
	// customer, who chooses on the payment page before any deposit
	// address is given out (ChooseNetwork). Only browser-created orders
	// use them: an API order's chainId defaults to TRON, as documented.
	ChooseChain, ChooseToken bool
	// Prepare, when set, is called with the order once it is built, before
	// it is stored; its error fails the create with nothing stored. The
	// API renders the order's QR code there: that work then overlaps the
	// commit of the orders ahead, instead of adding to the answers of a
	// committed group, which all wake at once.
	Prepare func(*cashier.CollectionOrder) error
}

// CreateCollection creates a PENDING collection order with its own deposit
// address, and the PENDING event, in one transaction.
func (s *Service) CreateCollection(ctx context.Context, m *cashier.Merchant, req CollectionRequest) (*cashier.CollectionOrder, error) {
	if err := s.checkOrderNo(req.OrderNo); err != nil {
		return nil, err
	}
	if req.CashierID == "" {
		return nil, cashier.Errorf(cashier.EMissing, "cashierId is required")
	}
	if err := s.checkText("custNo", req.CustNo); err != nil {
		return nil, err
	}
	if req.RedirectURL != "" {
		if err := checkRedirect(req.RedirectURL, s.Config.MaxTextLen); err != nil {
			return nil, err
		}
	}
	chainName := req.ChainID
	if chainName == "" {
		chainName = string(cashier.ChainTRON)
	}
	chain, err := cashier.ParseChain(chainName)
	if err != nil {
		return nil, err
	}
	if req.Symbol == "" {
		return nil, cashier.Errorf(cashier.EMissing, "symbol is required")
	}
	token, err := s.lookupToken(chain, req.Symbol)
	if err != nil {
		return nil, err
	}
	if req.Amount == "" {
		return nil, cashier.Errorf(cashier.EMissing, "amount is required")
	}
	amount, err := token.ParseOrderAmount(req.Amount)
	if err != nil {
		return nil, err
	}
	c, err := s.merchantCashier(ctx, s.Store, m, req.CashierID)
	if err != nil {
		return nil, err
	}
	if c.Status != cashier.CashierActive {
		return nil, cashier.Errorf(cashier.ECashierClosed, "cashier %s is %s", c.ID, c.Status)
	}
	if s.Deposits == nil {
		return nil, cashier.Errorf(cashier.EUnsupported, "collections are not configured on %s", chain)
	}
	now := s.Clock.Now()
	o := &cashier.CollectionOrder{
		ID:          NewID("co_"),
		MerchantID:  m.ID,
		CashierID:   c.ID,
		OrderNo:     req.OrderNo,
		CustNo:      req.CustNo,
		Chain:       chain,
		Symbol:      token.Symbol,
		Decimals:    token.Decimals,
		Amount:      amount,
		RedirectURL: req.RedirectURL,
		Origin:      req.Origin,
		Status:      cashier.CollectionPending,
		ExpireAt:    now.Add(s.Config.CollectionTTL),
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	o.PaidAmount = newZero()
	switch {
	case req.ChooseChain && req.ChooseToken:
		o.Choose = cashier.ChooseChain + "," + cashier.ChooseToken
	case req.ChooseChain:
		o.Choose = cashier.ChooseChain
	case req.ChooseToken:
		o.Choose = cashier.ChooseToken
	}
	if o.Choose != "" {
		// No address before the customer's choice; there must be one to make.
		if len(s.NetworkOptions(ctx, m, o)) == 0 {
			return nil, cashier.Errorf(cashier.EUnsupported, "no network of this cashier takes %s %s", req.Amount, token.Symbol)
		}
	} else if o.DepositAddress, err = s.Deposits.DepositAddress(ctx, m, chain, o.ID); err != nil {
		return nil, err
	}
	if req.Prepare != nil {
		if err := req.Prepare(o); err != nil {
			return nil, err
		}
	}
	// Safe beside other instances' writes: one insert under the unique
	// order number, one event; nothing read and decided on.
	err = s.Store.Update(cashier.ConcurrentWrite(ctx), func(tx cashier.Tx) error {
		if err := tx.CreateCollection(ctx, o); err != nil {
			return err
		}
		return s.addCollectionEvent(ctx, tx, o, c, now)
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// Collection returns the merchant's collection order with orderNo.
func (s *Service) Collection(ctx context.Context, m *cashier.Merchant, orderNo string) (*cashier.CollectionOrder, error) {
	if orderNo == "" {
		return nil, cashier.Errorf(cashier.EMissing, "orderNo is required")
	}
	return s.Store.CollectionByOrderNo(ctx, m.ID, orderNo)
}

// ListRequest is the collection list query.
type ListRequest struct {
	Start, End time.Time // zero: unbounded
	Status     string
	Page       int // 0: default 1
	PageSize   int // 0: default
}

// paging checks a list request's page, size and time range, and fills in
// the defaults.
func (s *Service) paging(req ListRequest) (page, size int, err error) {
	page, size = req.Page, req.PageSize
	if page == 0 {
		page = 1
	}
	if size == 0 {
		size = s.Config.DefaultPageSize
	}
	switch {
	case page < 1:
		return page, size, cashier.Errorf(cashier.EInvalid, "page must be at least 1")
	case size < 1 || size > s.Config.MaxPageSize:
		return page, size, cashier.Errorf(cashier.EInvalid, "pageSize must be between 1 and %d", s.Config.MaxPageSize)
	case !req.Start.IsZero() && !req.End.IsZero() && req.End.Before(req.Start):
		return page, size, cashier.Errorf(cashier.EInvalid, "endTime is before startTime")
	}
	return page, size, nil
}

// Collections lists the merchant's collection orders, newest first.
func (s *Service) Collections(ctx context.Context, m *cashier.Merchant, req ListRequest) ([]cashier.CollectionOrder, int, cashier.CollectionFilter, error) {
	f := cashier.CollectionFilter{MerchantID: m.ID, Start: req.Start, End: req.End}
	var err error
	if f.Page, f.PageSize, err = s.paging(req); err != nil {
		return nil, 0, f, err
	}
	if req.Status != "" {
		st := cashier.CollectionStatus(strings.ToUpper(req.Status))
		if !st.Valid() {
			return nil, 0, f, cashier.Errorf(cashier.EInvalid, "status %q is not one of PENDING, SUCCESS, EXPIRED, CANCELLED", req.Status)
		}
		f.Status = st
	}
	list, total, err := s.Store.Collections(ctx, f)
	return list, total, f, err
}

// TransitionCollection moves an order to next, applying mutate, and writes
// the event, in one transaction; a transition the state machine forbids
// changes nothing.
func (s *Service) TransitionCollection(ctx context.Context, id string, next cashier.CollectionStatus, mutate func(*cashier.CollectionOrder)) (*cashier.CollectionOrder, error) {
	var out *cashier.CollectionOrder
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		o, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		if !o.Status.CanTransition(next) {
			return cashier.Errorf(cashier.EInvalidStatus, "collection order %s cannot go from %s to %s", o.OrderNo, o.Status, next)
		}
		now := s.Clock.Now()
		o.Status, o.UpdatedAt = next, now
		if mutate != nil {
			mutate(o)
		}
		if err := tx.UpdateCollection(ctx, o); err != nil {
			return err
		}
		c, err := tx.Cashier(ctx, o.CashierID)
		if err != nil {
			return err
		}
		out = o
		return s.addCollectionEvent(ctx, tx, o, c, now)
	})
	return out, err
}

func (s *Service) addCollectionEvent(ctx context.Context, tx cashier.Tx, o *cashier.CollectionOrder, c *cashier.Cashier, now time.Time) error {
	if s.Events == nil {
		return nil
	}
	e, err := s.Events.CollectionEvent(o, c, now)
	if err != nil || e == nil {
		return err
	}
	return tx.AddEvent(ctx, e)
}

// merchantCashier loads a cashier and hides other merchants' cashiers.
func (s *Service) merchantCashier(ctx context.Context, r cashier.Reader, m *cashier.Merchant, id string) (*cashier.Cashier, error) {
	c, err := r.Cashier(ctx, id)
	if missing(err) {
		return nil, cashierNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if c.MerchantID != m.ID {
		return nil, cashierNotFound(id)
	}
	return c, nil
}

func checkRedirect(u string, max int) error {
	if len(u) > max {
		return cashier.Errorf(cashier.EInvalid, "redirectUrl is longer than %d characters", max)
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		return cashier.Errorf(cashier.EInvalid, "redirectUrl must be an absolute http(s) URL")
	}
	return nil
}
