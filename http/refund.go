package http

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/publicurl"
)

// newRefund is a refund as the API reports it.
func (s *server) newRefund(r *http.Request, f *cashier.Refund) api.Refund {
	out := api.Refund{
		RefundNo: f.RefundNo, RefundID: f.ID, OrderNo: f.OrderNo, OrderID: f.OrderID, ChainID: string(f.Chain),
		Symbol: f.Symbol, Amount: cashier.FormatAmount(f.Amount, f.Decimals), Fee: cashier.FormatAmount(f.Fee, f.Decimals),
		Address: f.Address, Status: string(f.Status), TxID: f.TxID, FailReason: f.FailReason, Reason: f.Reason,
		CreateTime: cashier.Millis(f.CreatedAt), UpdateTime: cashier.Millis(f.UpdatedAt),
	}
	if f.ByLink {
		out.RefundURL = s.refundURL(r, f)
	}
	if f.PayoutID != "" {
		out.PayoutOrderNo = cashier.RefundPayoutPrefix + f.RefundNo
	}
	if !f.SentAt.IsZero() {
		out.SentTime = cashier.Millis(f.SentAt)
	}
	return out
}

// refundURL is the refund link's page, under PublicBaseURL like payUrl.
func (s *server) refundURL(r *http.Request, f *cashier.Refund) string {
	return publicurl.Refund(s.cfg.PublicBaseURL, r, f.ID)
}

// addRefunds fills the collection detail's refunds.
func (s *server) addRefunds(r *http.Request, d *api.Collection, o *cashier.CollectionOrder) error {
	fs, err := s.store.Refunds(r.Context(), cashier.RefundFilter{OrderID: o.ID})
	if err != nil {
		return err
	}
	d.Refunds = make([]api.Refund, len(fs))
	for i := range fs {
		d.Refunds[i] = s.newRefund(r, &fs[i])
	}
	return nil
}

func decodeRefund(p map[string]any, policy UnknownFieldPolicy) (orders.RefundRequest, error) {
	f := newFields(p, "", policy, refundFields...)
	req := orders.RefundRequest{
		OrderNo:  f.str("orderNo", true),
		RefundNo: f.str("refundNo", true),
		Amount:   f.amount("amount"),
		Address:  f.str("address", false),
		Symbol:   f.str("symbol", false),
		Reason:   f.str("reason", false),
	}
	f.str("sign", false)
	return req, f.err
}

func (s *server) handleCreateRefund(w http.ResponseWriter, r *http.Request, c *call) error {
	req, err := decodeRefund(c.params, s.cfg.UnknownFields)
	if err != nil {
		return err
	}
	f, _, err := s.svc.CreateRefund(r.Context(), c.merchant, req)
	if err != nil {
		return err
	}
	s.ok(w, r, s.newRefund(r, f))
	return nil
}

func (s *server) handleRefundDetail(w http.ResponseWriter, r *http.Request, c *call) error {
	return s.refundByNo(w, r, c, s.svc.Refund)
}

// handleRefundCancel withdraws a refund link the customer has not used.
func (s *server) handleRefundCancel(w http.ResponseWriter, r *http.Request, c *call) error {
	return s.refundByNo(w, r, c, s.svc.CancelRefund)
}

// refundByNo reads the request's refundNo, applies op to the merchant's
// refund of that number and answers with the refund op returns.
func (s *server) refundByNo(w http.ResponseWriter, r *http.Request, c *call,
	op func(context.Context, *cashier.Merchant, string) (*cashier.Refund, error)) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, refundDetailFields...)
	no := f.str("refundNo", true)
	if f.err != nil {
		return f.err
	}
	x, err := op(r.Context(), c.merchant, no)
	if err != nil {
		return err
	}
	s.ok(w, r, s.newRefund(r, x))
	return nil
}

// refundPageCSP is the customer page policy with the page's own form
// allowed: the address form works without script.
var refundPageCSP = strings.Replace(pageCSP, "form-action 'none'", "form-action 'self'", 1)

// handleRefundPage is the refund link: the refund's random id is the
// capability, as the order id is for the payment page. It shows the
// amount and, while no address is known, a form for it.
func (s *server) handleRefundPage(w http.ResponseWriter, r *http.Request, _ *call) error {
	s.renderRefund(w, r, http.StatusOK, "")
	return nil
}

// handleRefundAddress takes the address form (or a JSON body's address):
// the refund's payout is stored, and the page shown again.
func (s *server) handleRefundAddress(w http.ResponseWriter, r *http.Request, _ *call) error {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	var addr string
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		p, err := readJSONAddress(r)
		if err != nil {
			s.writePageJSON(w, r, nil, err)
			return nil
		}
		addr = p
	} else if err := r.ParseForm(); err != nil {
		s.renderRefund(w, r, http.StatusBadRequest, "the form could not be read")
		return nil
	} else {
		addr = strings.TrimSpace(r.PostForm.Get("address"))
	}
	f, err := s.svc.SetRefundAddress(r.Context(), r.PathValue("refundId"), addr)
	if err != nil && cashier.ErrorMessage(err) == orders.RefundNotYetMessage {
		// The link holder sees only that; the detail (the contract's funds,
		// its whitelist) is the merchant's: here, in the refund's
		// failReason, its webhook and the dashboard.
		s.log.Warn("refund link: the customer's address was not taken; the refund waits for the merchant",
			"refund", r.PathValue("refundId"), "detail", errors.Unwrap(err))
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		if err != nil {
			s.writePageJSON(w, r, nil, err)
			return nil
		}
		out := s.newRefund(r, f)
		out.FailReason = "" // the payout's reason is the merchant's
		s.writePageJSON(w, r, out, nil)
		return nil
	}
	if err != nil {
		if cashier.ErrorCode(err) == cashier.ENotFound {
			return cashier.Errorf(cashier.ENotFound, "this refund link is not valid")
		}
		we, _ := lookup(err)
		status := we.status
		if status < 400 || cashier.ErrorCode(err) == cashier.EInternal {
			status = http.StatusBadRequest
		}
		s.renderRefund(w, r, status, cashier.ErrorMessage(err))
		return nil
	}
	http.Redirect(w, r, "/refund/"+url.PathEscape(f.ID), http.StatusSeeOther)
	return nil
}

func readJSONAddress(r *http.Request) (string, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return "", cashier.Errorf(cashier.ETooLarge, "the request body is too large")
	}
	var v struct {
		Address string `json:"address"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return "", cashier.Errorf(cashier.EInvalid, "request body must be a JSON object with address")
	}
	return strings.TrimSpace(v.Address), nil
}

// refundStatusText is what the refund page tells the customer.
var refundStatusText = map[cashier.RefundStatus]string{
	cashier.RefundAwaitingAddress: "Waiting for your address",
	cashier.RefundPending:         "Your refund is being prepared",
	cashier.RefundProcessing:      "Your refund is being sent",
	cashier.RefundSuccess:         "Your refund was sent",
	cashier.RefundFailed:          "Your refund could not be sent; the merchant will be in touch",
	cashier.RefundCancelled:       "The merchant withdrew this refund link; contact them about your refund",
}

func (s *server) renderRefund(w http.ResponseWriter, r *http.Request, status int, problem string) {
	f, err := s.store.Refund(r.Context(), r.PathValue("refundId"))
	if err != nil || !f.ByLink {
		s.renderError(w, http.StatusNotFound, "This refund link is not valid.")
		return
	}
	data := struct {
		Head                                          pageHead
		ID, Merchant, Amount, Symbol, Network, Status string
		StatusText                                    string
		Address, TxID, Problem, Chain, OrderNo        string
		Open, EVM                                     bool
	}{
		Head: pageHead{Lang: "en", Title: "Refund", Theme: pageTheme(r)},
		ID:   f.ID, Amount: cashier.FormatAmount(f.Amount, f.Decimals), Symbol: f.Symbol, Network: string(f.Chain),
		Status: string(f.Status), Address: f.Address, TxID: f.TxID, Problem: problem, Chain: string(f.Chain),
		OrderNo: f.OrderNo, Open: f.Status == cashier.RefundAwaitingAddress, EVM: f.Chain.IsEVM(),
		StatusText: refundStatusText[f.Status],
	}
	if m, err := s.store.Merchant(r.Context(), f.MerchantID); err == nil {
		data.Merchant = m.Name
	}
	if n, ok := s.reg.Network(f.Chain); ok && n.NetworkName != "" {
		data.Network = n.NetworkName
	}
	var buf strings.Builder
	if err := pages.ExecuteTemplate(&buf, "refund", data); err != nil {
		s.log.Error("render page", "page", "refund", "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	setPageHeaders(h)
	h.Set("Content-Security-Policy", refundPageCSP)
	w.WriteHeader(status)
	w.Write([]byte(buf.String()))
}
