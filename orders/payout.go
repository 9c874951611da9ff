package orders

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// PayoutRequest is a create payout request.
type PayoutRequest struct {
	ContractID  string
	OrderNo     string
	Recipient   string
	Amount      string
	Symbol      string
	PayoutType  int    // 0: default 1 (balance)
	FromAddress string // required for allowance mode
	Remark      string
	ChainID     string // optional; must agree with the contract's chain
	CustNo      string // optional: the merchant's customer number, echoed in the webhooks
}

// BatchRequest is a batch payout request. FromAddress applies to every
// order of an allowance-mode batch.
type BatchRequest struct {
	ContractID  string
	PayoutType  int
	FromAddress string
	Orders      []BatchItem
}

// BatchItem is one order of a batch.
type BatchItem struct {
	OrderNo   string
	Recipient string
	Amount    string
	Symbol    string
	Remark    string
}

// BatchResult reports each order of a batch on its own: a batch is not
// all-or-nothing (see decisions.md).
type BatchResult struct {
	SuccessCount int
	FailCount    int
	Orders       []BatchItemResult
}

// BatchItemResult is the outcome of one batch order.
type BatchItemResult struct {
	OrderNo string
	Order   *cashier.PayoutOrder // nil when refused
	Err     error                // nil when accepted
}

// CreatePayout validates a payout, checks the funding rule of its mode and
// stores it PENDING with its event, in one transaction.
func (s *Service) CreatePayout(ctx context.Context, m *cashier.Merchant, req PayoutRequest) (*cashier.PayoutOrder, error) {
	k, mode, from, err := s.payoutContract(ctx, m, req.ContractID, req.PayoutType, req.FromAddress, req.ChainID)
	if err != nil {
		return nil, err
	}
	o, err := s.newPayout(m, k, mode, from, BatchItem{OrderNo: req.OrderNo, Recipient: req.Recipient, Amount: req.Amount, Symbol: req.Symbol, Remark: req.Remark}, "")
	if err != nil {
		return nil, err
	}
	if err := s.checkText("custNo", req.CustNo); err != nil {
		return nil, err
	}
	o.CustNo = req.CustNo
	if err := s.storePayouts(ctx, k, []*cashier.PayoutOrder{o}, nil); err != nil {
		return nil, err
	}
	return o, nil
}

// BatchPayout creates each order of the batch independently.
func (s *Service) BatchPayout(ctx context.Context, m *cashier.Merchant, req BatchRequest) (*BatchResult, error) {
	if len(req.Orders) == 0 {
		return nil, cashier.Errorf(cashier.EMissing, "orders must hold at least one order")
	}
	if len(req.Orders) > s.Config.MaxBatch {
		return nil, cashier.Errorf(cashier.ETooLarge, "a batch holds at most %d orders", s.Config.MaxBatch)
	}
	k, mode, from, err := s.payoutContract(ctx, m, req.ContractID, req.PayoutType, req.FromAddress, "")
	if err != nil {
		return nil, err
	}
	res := &BatchResult{Orders: make([]BatchItemResult, len(req.Orders))}
	batchID := NewID("pb_")
	var valid []*cashier.PayoutOrder
	var index []int
	seen := map[string]bool{}
	for i, it := range req.Orders {
		res.Orders[i].OrderNo = it.OrderNo
		if seen[it.OrderNo] && it.OrderNo != "" {
			res.Orders[i].Err = cashier.Errorf(cashier.EDuplicate, "orderNo %s appears more than once in the batch", it.OrderNo)
			continue
		}
		seen[it.OrderNo] = true
		o, err := s.newPayout(m, k, mode, from, it, batchID)
		if err != nil {
			res.Orders[i].Err = err
			continue
		}
		valid = append(valid, o)
		index = append(index, i)
	}
	if len(valid) > 0 {
		err := s.storePayouts(ctx, k, valid, func(j int, err error) { res.Orders[index[j]].Err = err })
		if err != nil {
			return nil, err
		}
		for j, o := range valid {
			if res.Orders[index[j]].Err == nil {
				res.Orders[index[j]].Order = o
			}
		}
	}
	for _, r := range res.Orders {
		if r.Err == nil {
			res.SuccessCount++
		} else {
			res.FailCount++
		}
	}
	return res, nil
}

// Payout returns the merchant's payout order with orderNo.
func (s *Service) Payout(ctx context.Context, m *cashier.Merchant, orderNo string) (*cashier.PayoutOrder, error) {
	if orderNo == "" {
		return nil, cashier.Errorf(cashier.EMissing, "orderNo is required")
	}
	return s.Store.PayoutByOrderNo(ctx, m.ID, orderNo)
}

func (s *Service) payoutContract(ctx context.Context, m *cashier.Merchant, contractID string, payoutType int, fromAddress, chainID string) (*cashier.Contract, cashier.PayoutType, string, error) {
	if contractID == "" {
		return nil, 0, "", cashier.Errorf(cashier.EMissing, "contractId is required")
	}
	mode := cashier.PayoutType(payoutType)
	if payoutType == 0 {
		mode = cashier.PayoutBalance
	}
	if !mode.Valid() {
		return nil, 0, "", cashier.Errorf(cashier.EInvalid, "payoutType must be 1 (balance) or 2 (allowance)")
	}
	k, err := s.Store.Contract(ctx, contractID)
	if missing(err) {
		return nil, 0, "", contractNotFound(contractID)
	}
	if err != nil {
		return nil, 0, "", err
	}
	if k.MerchantID != m.ID {
		return nil, 0, "", contractNotFound(contractID)
	}
	if k.Status != cashier.ContractActive {
		return nil, 0, "", cashier.Errorf(cashier.EInvalidStatus, "contract %s is %s", k.ID, k.Status)
	}
	if chainID != "" {
		c, err := cashier.ParseChain(chainID)
		if err != nil {
			return nil, 0, "", err
		}
		if c != k.Chain {
			return nil, 0, "", cashier.Errorf(cashier.EInvalid, "chainId %s does not match contract %s on %s", chainID, k.ID, k.Chain)
		}
	}
	var from string
	switch {
	case mode == cashier.PayoutAllowance && fromAddress == "":
		return nil, 0, "", cashier.Errorf(cashier.EMissing, "fromAddress is required when payoutType is 2")
	case mode == cashier.PayoutBalance && fromAddress != "":
		return nil, 0, "", cashier.Errorf(cashier.EInvalid, "fromAddress is only used when payoutType is 2")
	case mode == cashier.PayoutAllowance:
		if from, err = s.Addresses.ValidateAddress(k.Chain, fromAddress); err != nil {
			return nil, 0, "", err
		}
		// The contract refuses to draw from itself (InvalidFrom).
		if strings.EqualFold(from, k.Address) {
			return nil, 0, "", cashier.Errorf(cashier.EInvalidAddress, "fromAddress is the payout contract itself")
		}
	}
	return k, mode, from, nil
}

func (s *Service) newPayout(m *cashier.Merchant, k *cashier.Contract, mode cashier.PayoutType, from string, it BatchItem, batchID string) (*cashier.PayoutOrder, error) {
	if err := s.checkOrderNo(it.OrderNo); err != nil {
		return nil, err
	}
	if err := s.checkText("remark", it.Remark); err != nil {
		return nil, err
	}
	if it.Recipient == "" {
		return nil, cashier.Errorf(cashier.EMissing, "recipient is required")
	}
	if it.Symbol == "" {
		return nil, cashier.Errorf(cashier.EMissing, "symbol is required")
	}
	if it.Amount == "" {
		return nil, cashier.Errorf(cashier.EMissing, "amount is required")
	}
	token, err := s.lookupToken(k.Chain, it.Symbol)
	if err != nil {
		return nil, err
	}
	amount, err := token.ParseOrderAmount(it.Amount)
	if err != nil {
		return nil, err
	}
	to, err := s.Addresses.ValidateAddress(k.Chain, it.Recipient)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(to, k.Address) {
		return nil, cashier.Errorf(cashier.EInvalidAddress, "recipient is the payout contract itself")
	}
	// The contract refuses a transfer back to its source (InvalidRecipient).
	if mode == cashier.PayoutAllowance && strings.EqualFold(to, from) {
		return nil, cashier.Errorf(cashier.EInvalidAddress, "recipient is the paying wallet fromAddress itself")
	}
	fee := new(big.Int)
	if token.WithdrawFee != nil {
		fee.Set(token.WithdrawFee)
	}
	now := s.Clock.Now()
	return &cashier.PayoutOrder{
		ID: NewID("po_"), MerchantID: m.ID, ContractID: k.ID, BatchID: batchID,
		OrderNo: it.OrderNo, Chain: k.Chain, Recipient: to, Symbol: token.Symbol, Decimals: token.Decimals,
		Amount: amount, Fee: fee, PayoutType: mode, FromAddress: from, Remark: it.Remark,
		Status: cashier.PayoutPending, CreatedAt: now, UpdatedAt: now,
	}, nil
}

func insufficient(o *cashier.PayoutOrder, free *big.Int, code cashier.Code) error {
	if free.Sign() < 0 {
		free = new(big.Int)
	}
	have := cashier.FormatAmount(free, o.Decimals)
	need := cashier.FormatAmount(new(big.Int).Add(o.Amount, o.Fee), o.Decimals)
	switch code {
	case cashier.EInsufficientFunds:
		return cashier.Errorf(code, "order %s needs %s %s (amount plus fee) but wallet %s has only %s available", o.OrderNo, need, o.Symbol, o.FromAddress, have)
	case cashier.EInsufficientAllow:
		return cashier.Errorf(code, "order %s needs %s %s (amount plus fee) but wallet %s allows the contract only %s more", o.OrderNo, need, o.Symbol, o.FromAddress, have)
	}
	return cashier.Errorf(code, "order %s needs %s %s (amount plus fee) but the contract has only %s available", o.OrderNo, need, o.Symbol, have)
}

// TransitionPayout moves a payout to next in one transaction with its
// event: the status is read, checked (a refusal against the order's
// execution too) and written in that transaction.
func (s *Service) TransitionPayout(ctx context.Context, id string, next cashier.PayoutStatus, mutate func(*cashier.PayoutOrder)) (*cashier.PayoutOrder, error) {
	var out *cashier.PayoutOrder
	err := s.Store.Update(ctx, func(tx cashier.Tx) error {
		o, err := tx.Payout(ctx, id)
		if err != nil {
			return err
		}
		k, err := tx.Contract(ctx, o.ContractID)
		if err != nil {
			return err
		}
		if mutate != nil {
			mutate(o)
		}
		if err := s.transitionIn(ctx, tx, o, k, next); err != nil {
			return err
		}
		out = o
		return nil
	})
	return out, err
}

func (s *Service) addPayoutEvent(ctx context.Context, tx cashier.Tx, o *cashier.PayoutOrder, k *cashier.Contract, now time.Time) error {
	if cashier.IsRefundPayout(o) {
		// A refund's payout reports through the refund and its webhooks.
		return s.followPayout(ctx, tx, o, now)
	}
	if s.Events == nil {
		return nil
	}
	url := k.WebhookURL
	if url == "" {
		cs, err := tx.CashiersByMerchant(ctx, o.MerchantID)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if c.WebhookURL != "" {
				url = c.WebhookURL
				break
			}
		}
	}
	e, err := s.Events.PayoutEvent(o, k, url, now)
	if err != nil || e == nil {
		return err
	}
	return tx.AddEvent(ctx, e)
}

// Payouts lists the merchant's payout orders, newest first, with the
// collection list's paging and filters (contractID: "" any).
func (s *Service) Payouts(ctx context.Context, m *cashier.Merchant, contractID string, req ListRequest) ([]cashier.PayoutOrder, int, cashier.PayoutFilter, error) {
	f := cashier.PayoutFilter{MerchantID: m.ID, ContractID: contractID, Start: req.Start, End: req.End}
	var err error
	if f.Page, f.PageSize, err = s.paging(req); err != nil {
		return nil, 0, f, err
	}
	if req.Status != "" {
		st := cashier.PayoutStatus(strings.ToUpper(req.Status))
		if !slices.Contains(cashier.PayoutStatuses, st) {
			return nil, 0, f, cashier.Errorf(cashier.EInvalid, "status %q is not one of PENDING, PROCESSING, SUCCESS, REFUSE", req.Status)
		}
		f.Status = st
	}
	if contractID != "" {
		k, err := s.Store.Contract(ctx, contractID)
		if err != nil || k.MerchantID != m.ID {
			return nil, 0, f, cashier.Errorf(cashier.ENotFound, "contract %s not found", contractID)
		}
	}
	list, total, err := s.Store.Payouts(ctx, f)
	return list, total, f, err
}
