package http

import (
	"fmt"
	"net/http"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/orders"
)

func newPayoutDetail(o *cashier.PayoutOrder, k *cashier.Contract) api.Payout {
	return api.Payout{
		OrderNo: o.OrderNo, OrderID: o.ID, ContractID: o.ContractID, ChainID: string(o.Chain),
		Recipient: o.Recipient, Amount: cashier.FormatAmount(o.Amount, o.Decimals), Symbol: o.Symbol,
		PayoutType: int(o.PayoutType), FromAddress: cashier.PayoutSource(o, k), Remark: o.Remark, TxID: o.TxID,
		Status: string(o.Status), Fee: cashier.FormatAmount(o.Fee, o.Decimals), GasAmount: o.GasAmount,
		CreateTime: cashier.Millis(o.CreatedAt), UpdateTime: cashier.Millis(o.UpdatedAt), CustNo: o.CustNo,
	}
}

// payoutType reads the optional payoutType field: absent means balance
// mode; a value sent must be 1 or 2 (0 is not taken for "default").
func payoutType(f *fields) int {
	v, present := f.p["payoutType"]
	present = present && v != nil // null means absent
	t := f.integer("payoutType")
	if f.err == nil && present && t != 1 && t != 2 {
		f.fail(cashier.EInvalid, "%spayoutType must be 1 (balance) or 2 (allowance)", f.prefix)
	}
	return t
}

// decodePayout reads a create payout request.
func decodePayout(p map[string]any, policy UnknownFieldPolicy, digits bool) (orders.PayoutRequest, error) {
	f := newFields(p, "", policy, payoutFields...)
	f.digits = digits
	req := orders.PayoutRequest{
		ContractID:  f.str("contractId", true),
		OrderNo:     f.str("orderNo", true),
		Recipient:   f.str("recipient", true),
		Amount:      f.amount("amount"),
		Symbol:      f.str("symbol", true),
		PayoutType:  payoutType(f),
		FromAddress: f.str("fromAddress", false),
		Remark:      f.str("remark", false),
		ChainID:     f.str("chainId", false),
		CustNo:      f.str("custNo", false),
	}
	f.str("sign", false)
	return req, f.err
}

func (s *server) handleCreatePayout(w http.ResponseWriter, r *http.Request, c *call) error {
	req, err := decodePayout(c.params, s.cfg.UnknownFields, !s.cfg.RejectIntegerStrings)
	if err != nil {
		return err
	}
	o, err := s.svc.CreatePayout(r.Context(), c.merchant, req)
	if err != nil {
		return err
	}
	s.ok(w, r, api.PayoutCreated{OrderNo: o.OrderNo, OrderID: o.ID, Status: string(o.Status), CreateTime: cashier.Millis(o.CreatedAt)})
	return nil
}

func (s *server) handlePayoutDetail(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, detailFields...)
	orderNo := f.str("orderNo", true)
	if f.err != nil {
		return f.err
	}
	o, err := s.svc.Payout(r.Context(), c.merchant, orderNo)
	if err != nil {
		return err
	}
	// fromAddress comes from the contract as in the order's webhook; a
	// contract that cannot be read leaves the order's own field.
	k, _ := s.store.Contract(r.Context(), o.ContractID)
	s.ok(w, r, newPayoutDetail(o, k))
	return nil
}

// decodeBatch reads a batch payout request. A problem with the shape of
// the request (a missing field, a wrong JSON type, an unknown field, in any
// entry) refuses the whole batch, since it is a client bug; a problem with
// one order's meaning (amount, address, funds, duplicate orderNo) fails
// that order alone, in the service. One fromAddress serves an
// allowance-mode batch.
func decodeBatch(p map[string]any, policy UnknownFieldPolicy, maxOrders int, digits bool) (orders.BatchRequest, error) {
	f := newFields(p, "", policy, batchFields...)
	f.digits = digits
	req := orders.BatchRequest{
		ContractID:  f.str("contractId", true),
		PayoutType:  payoutType(f),
		FromAddress: f.str("fromAddress", false),
	}
	items := f.objects("orders")
	f.str("sign", false)
	if f.err != nil {
		return req, f.err
	}
	if maxOrders > 0 && len(items) > maxOrders {
		return req, cashier.Errorf(cashier.ETooLarge, "a batch holds at most %d orders, not %d", maxOrders, len(items))
	}
	for i, it := range items {
		g := newFields(it, fmt.Sprintf("orders[%d].", i), policy, batchOrderFields...)
		item := orders.BatchItem{
			OrderNo:   g.str("orderNo", true),
			Recipient: g.str("recipient", true),
			Amount:    g.amount("amount"),
			Symbol:    g.str("symbol", true),
			Remark:    g.str("remark", false),
		}
		if g.err != nil {
			return req, g.err
		}
		req.Orders = append(req.Orders, item)
	}
	return req, nil
}

func (s *server) handleBatchPayout(w http.ResponseWriter, r *http.Request, c *call) error {
	req, err := decodeBatch(c.params, s.cfg.UnknownFields, s.svc.Config.MaxBatch, !s.cfg.RejectIntegerStrings)
	if err != nil {
		return err
	}
	res, err := s.svc.BatchPayout(r.Context(), c.merchant, req)
	if err != nil {
		return err
	}
	out := api.BatchResult{SuccessCount: res.SuccessCount, FailCount: res.FailCount, Orders: make([]api.BatchOrderResult, len(res.Orders))}
	for i, it := range res.Orders {
		if it.Err != nil {
			we, _ := lookup(it.Err)
			out.Orders[i] = api.BatchOrderResult{OrderNo: it.OrderNo, Code: we.order, Msg: cashier.ErrorMessage(it.Err)}
			continue
		}
		out.Orders[i] = api.BatchOrderResult{OrderNo: it.OrderNo, OrderID: it.Order.ID, Status: string(it.Order.Status), Success: true, Code: "200", Msg: "success"}
	}
	s.ok(w, r, out)
	return nil
}
