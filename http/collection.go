package http

import (
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/publicurl"
	"github.com/stablecashier/cashier/qr"
)

func (s *server) newCollectionDetail(r *http.Request, o *cashier.CollectionOrder) api.Collection {
	return api.Collection{
		OrderNo: o.OrderNo, OrderID: o.ID, CashierID: o.CashierID, CustNo: o.CustNo,
		Amount: cashier.FormatAmount(o.Amount, o.Decimals), PaidAmount: cashier.FormatAmount(o.PaidAmount, o.Decimals),
		Symbol: o.Symbol, ChainID: string(o.Chain), Status: string(o.Status), TxID: o.TxID,
		DepositAddress: o.DepositAddress, PayURL: s.payURL(r, o),
		ExpireTime: cashier.Millis(o.ExpireAt), CreateTime: cashier.Millis(o.CreatedAt), UpdateTime: cashier.Millis(o.UpdatedAt),
		CreatedBy: createdBy(o), Origin: o.Origin, NetworkChoice: networkChoice(o),
	}
}

// networkChoice is the detail's networkChoice of o.
func networkChoice(o *cashier.CollectionOrder) string {
	switch {
	case o.Choose == "":
		return ""
	case o.Unchosen():
		return "open"
	}
	return "chosen"
}

// createdBy is "browser" for an order of the widget SDK, else "api".
func createdBy(o *cashier.CollectionOrder) string {
	if o.BrowserCreated() {
		return "browser"
	}
	return "api"
}

// payURL is the hosted payment page of o: this server's /pay/ page under
// PublicBaseURL or, failing that, the host the request came to.
func (s *server) payURL(r *http.Request, o *cashier.CollectionOrder) string {
	return publicurl.Pay(s.cfg.PublicBaseURL, r, o.ID)
}

// qrCode renders the order's payment request as a PNG data URI.
func (s *server) qrCode(o *cashier.CollectionOrder) (string, error) {
	return s.qrCodeFor(o, o.Amount)
}

// paymentText is the payment request for amount base units of the order's
// token to its deposit address (qr.PaymentText).
func (s *server) paymentText(o *cashier.CollectionOrder, amount *big.Int) (string, error) {
	n, ok := s.reg.Network(o.Chain)
	if !ok {
		return "", cashier.Errorf(cashier.EInternal, "network %s of order %s is not configured", o.Chain, o.ID)
	}
	t, ok := s.reg.Token(o.Chain, o.Symbol)
	if !ok {
		return "", cashier.Errorf(cashier.EInternal, "token %s on %s of order %s is not configured", o.Symbol, o.Chain, o.ID)
	}
	return qr.PaymentText(n, t, o.DepositAddress, amount)
}

// qrCodeFor renders the payment request for amount (what is still due) as
// a PNG data URI.
func (s *server) qrCodeFor(o *cashier.CollectionOrder, amount *big.Int) (string, error) {
	text, err := s.paymentText(o, amount)
	if err != nil {
		return "", err
	}
	return qr.DataURI(text)
}

// walletURL is the page's "Open in wallet" link for amount: on EVM
// networks the EIP-681 request itself (wallets on phones register the
// ethereum: scheme); on TRON, where no payment URI is shared by wallets,
// TronLink's deep link that opens this page inside TronLink, whose browser
// injects tronWeb for the page's connect-wallet payment.
func (s *server) walletURL(r *http.Request, o *cashier.CollectionOrder, amount *big.Int) string {
	if o.Chain.IsEVM() {
		text, err := s.paymentText(o, amount)
		if err != nil {
			return ""
		}
		return text
	}
	param, _ := json.Marshal(map[string]string{"url": s.payURL(r, o), "action": "open", "protocol": "tronlink", "version": "1.0"})
	return "tronlinkoutside://pull.activity?param=" + url.QueryEscape(string(param))
}

// backURL is where the page's final states lead the customer: the order's
// redirectUrl when it is a web address, else the cashier's site: the page
// a browser-created order came from, or the cashier's first allowed origin.
func (s *server) backURL(r *http.Request, o *cashier.CollectionOrder) string {
	if u, err := url.Parse(o.RedirectURL); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		return o.RedirectURL
	}
	if o.Origin != "" {
		return o.Origin + "/"
	}
	if c, err := s.store.Cashier(r.Context(), o.CashierID); err == nil && len(c.AllowedOrigins) > 0 {
		return c.AllowedOrigins[0] + "/"
	}
	return ""
}

// decodeCollection reads a create collection request; signRequired makes
// the body field sign mandatory (policy "require").
func decodeCollection(p map[string]any, policy UnknownFieldPolicy, signRequired bool) (orders.CollectionRequest, error) {
	f := newFields(p, "", policy, collectionFields...)
	req := orders.CollectionRequest{
		CashierID:   f.str("cashierId", true),
		OrderNo:     f.str("orderNo", true),
		Amount:      f.amount("amount"),
		Symbol:      f.str("symbol", true),
		ChainID:     f.str("chainId", false),
		RedirectURL: f.str("redirectUrl", false),
		CustNo:      f.str("custNo", false),
	}
	f.str("sign", signRequired)
	return req, f.err
}

func (s *server) handleCreateCollection(w http.ResponseWriter, r *http.Request, c *call) error {
	req, err := decodeCollection(c.params, s.cfg.UnknownFields, s.cfg.SignField == SignFieldRequire)
	if err != nil {
		return err
	}
	var code string
	req.Prepare = func(o *cashier.CollectionOrder) (err error) {
		code, err = s.qrCode(o)
		return err
	}
	o, err := s.svc.CreateCollection(r.Context(), c.merchant, req)
	if err != nil {
		return err
	}
	s.ok(w, r, api.CollectionCreated{OrderNo: o.OrderNo, PayURL: s.payURL(r, o), QRCode: code, ExpireTime: cashier.Millis(o.ExpireAt),
		Address: o.DepositAddress})
	return nil
}

func (s *server) handleCollectionDetail(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, detailFields...)
	orderNo := f.str("orderNo", true)
	if f.err != nil {
		return f.err
	}
	o, err := s.svc.Collection(r.Context(), c.merchant, orderNo)
	if err != nil {
		return err
	}
	d, err := s.collectionDetail(r, o)
	if err != nil {
		return err
	}
	s.ok(w, r, d)
	return nil
}

// collectionDetail is o's whole detail: its fields, payments and refunds.
func (s *server) collectionDetail(r *http.Request, o *cashier.CollectionOrder) (api.Collection, error) {
	d := s.newCollectionDetail(r, o)
	if err := s.addPayments(r, &d, o); err != nil {
		return d, err
	}
	return d, s.addRefunds(r, &d, o)
}

// decodeList reads the collection list query.
func decodeList(p map[string]any, policy UnknownFieldPolicy, maxPageSize int) (orders.ListRequest, error) {
	f := newFields(p, "", policy, listFields...)
	var req orders.ListRequest
	if ms, ok := f.queryMillis("startTime"); ok && ms > 0 {
		req.Start = time.UnixMilli(ms)
	}
	if ms, ok := f.queryMillis("endTime"); ok && ms > 0 {
		req.End = time.UnixMilli(ms)
	}
	req.Status = f.str("status", false)
	if n, ok := f.queryInt("page"); ok {
		if n < 1 {
			f.fail(cashier.EInvalid, "page must be at least 1")
		}
		req.Page = int(min(n, 1<<30))
	}
	if n, ok := f.queryInt("pageSize"); ok {
		if n < 1 || (maxPageSize > 0 && n > int64(maxPageSize)) {
			f.fail(cashier.EInvalid, "pageSize must be between 1 and %d", maxPageSize)
		}
		req.PageSize = int(min(n, 1<<30))
	}
	return req, f.err
}

func (s *server) handleCollectionList(w http.ResponseWriter, r *http.Request, c *call) error {
	req, err := decodeList(c.params, s.cfg.UnknownFields, s.svc.Config.MaxPageSize)
	if err != nil {
		return err
	}
	list, total, filter, err := s.svc.Collections(r.Context(), c.merchant, req)
	if err != nil {
		return err
	}
	out := api.CollectionList{List: make([]api.Collection, len(list)), Total: total, Page: filter.Page, PageSize: filter.PageSize}
	for i := range list {
		out.List[i] = s.newCollectionDetail(r, &list[i])
		if err := s.addPayments(r, &out.List[i], &list[i]); err != nil {
			return err
		}
		if err := s.addRefunds(r, &out.List[i], &list[i]); err != nil {
			return err
		}
	}
	s.ok(w, r, out)
	return nil
}
