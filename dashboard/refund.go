package dashboard

import (
	"context"
	"math/big"
	"net/http"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/publicurl"
)

// Refunder creates refunds by the payout service's own operation, the one
// the API's refund create calls: the refundable amount, the address, the
// funding rules and the review policy apply to a refund from the
// dashboard exactly as to one from the API.
type Refunder interface {
	CreateRefund(ctx context.Context, m *cashier.Merchant, req orders.RefundRequest) (*cashier.Refund, bool, error)
}

// RefundRequest is a refund of a collection order from the dashboard.
// Without an address the refund is a link the customer enters it on.
type RefundRequest struct {
	RefundNo string `json:"refundNo"`
	Amount   string `json:"amount"`
	Address  string `json:"address,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// CreateRefund refunds part or all of what collection order id received.
// The refundNo is the idempotency key as in the API: the form carries one
// made when the page was shown, so sending it twice refunds once.
func (s *Server) CreateRefund(ctx context.Context, a *actor, id string, req RefundRequest) (*cashier.Refund, bool, error) {
	o, err := s.Store.Collection(ctx, id)
	if err != nil || !a.mayReadMerchant(o.MerchantID) {
		return nil, false, errNotFound
	}
	if !a.can(OpRefundCreate) {
		return nil, false, errForbidden
	}
	if s.Refunder == nil {
		return nil, false, cashier.Errorf(cashier.EUnsupported, "refunds are not available on this server")
	}
	m, err := s.Store.Merchant(ctx, o.MerchantID)
	if err != nil {
		return nil, false, err
	}
	f, created, err := s.Refunder.CreateRefund(ctx, m, orders.RefundRequest{OrderNo: o.OrderNo, RefundNo: strings.TrimSpace(req.RefundNo),
		Amount: strings.TrimSpace(req.Amount), Address: strings.TrimSpace(req.Address), Reason: strings.TrimSpace(req.Reason)})
	if err != nil {
		return nil, false, err
	}
	if created {
		to := "refund link"
		if !f.ByLink {
			to = f.Address
		}
		detail := f.RefundNo + " " + cashier.FormatAmount(f.Amount, f.Decimals) + " " + f.Symbol + " of " + o.OrderNo + " to " + to
		if err := s.change(ctx, a, OpRefundCreate, o.MerchantID, f.ID, detail, nil); err != nil {
			return nil, false, err
		}
	}
	return f, created, nil
}

// refundURL is the refund link's page, under the public base URL as the
// API gives it (or this request's scheme and host).
func (s *Server) refundURL(r *http.Request, f *cashier.Refund) string {
	return publicurl.Refund(s.cfg.PublicBaseURL, r, f.ID)
}

func (s *Server) refundJSON(r *http.Request, f *cashier.Refund) map[string]any {
	out := map[string]any{"refundId": f.ID, "refundNo": f.RefundNo, "orderNo": f.OrderNo, "chainId": f.Chain, "symbol": f.Symbol,
		"amount": amountText(f.Amount, f.Decimals), "fee": amountText(f.Fee, f.Decimals), "address": f.Address, "status": f.Status,
		"reason": f.Reason, "txId": f.TxID, "createTime": ms(f.CreatedAt)}
	if f.ByLink {
		out["refundUrl"] = s.refundURL(r, f)
	}
	if f.PayoutID != "" {
		out["payoutOrderNo"] = cashier.RefundPayoutPrefix + f.RefundNo
		out["payoutId"] = f.PayoutID
	}
	return out
}

// refundForm is what the collection page's refund form starts with: a
// fresh refundNo and what the order can still refund in its token.
func (s *Server) refundForm(r *http.Request, a *actor, o *cashier.CollectionOrder) (map[string]any, error) {
	if !a.can(OpRefundCreate) || s.Refunder == nil {
		return nil, nil
	}
	paid, refunded, err := orders.Refundable(r.Context(), s.Store, o, o.Symbol)
	if err != nil {
		return nil, err
	}
	left := new(big.Int).Sub(paid, refunded)
	if left.Sign() <= 0 {
		return nil, nil // nothing received, or all of it refunded
	}
	return map[string]any{"RefundNo": orders.NewID("RF-"), "Left": cashier.FormatAmount(left, o.Decimals), "Symbol": o.Symbol,
		"ReasonMax": s.cfg.RefundReasonMax}, nil
}

// refundFlash is the notice of a refund made from the form: where it
// stands (a link to hand the customer, waiting for review, or queued).
func refundFlash(f *cashier.Refund, created, inReview bool) flash {
	key := "refund.created"
	if !created {
		key = "refund.repeat"
	}
	detail := f.RefundNo + ": " + cashier.FormatAmount(f.Amount, f.Decimals) + " " + f.Symbol + ", " + string(f.Status)
	if inReview {
		detail += ", waiting for review"
	}
	if f.ByLink {
		detail += " (refund link below)"
	}
	return flash{Key: key, Detail: detail}
}
