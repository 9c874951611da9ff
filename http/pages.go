package http

import (
	"bytes"
	"html/template"
	"net/http"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// The pages are deliberately plain: server-rendered, no script, readable on
// a phone. A full cashier front end can replace them without API changes.
var pages = template.Must(template.New("").Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
dt{color:#666;font-size:.85rem;margin-top:.8rem}dd{margin:0;word-break:break-all;font-size:1.05rem}
img{display:block;margin:1rem auto;width:16rem;height:16rem}.status{font-weight:bold}</style></head><body>{{end}}

{{define "pay"}}{{template "head" "Payment"}}
<h1>Pay {{.Amount}} {{.Symbol}}</h1>
<p>Send exactly <strong>{{.Amount}} {{.Symbol}}</strong> on <strong>{{.Network}}</strong> to the address below.</p>
{{if .QR}}<img src="{{.QR}}" alt="QR code of the payment">{{end}}
<dl>
<dt>Deposit address</dt><dd>{{.Address}}</dd>
<dt>Token</dt><dd>{{.Symbol}}{{if .TokenContract}} ({{.TokenContract}}){{end}}</dd>
<dt>Network</dt><dd>{{.Network}}</dd>
<dt>Status</dt><dd class="status">{{.Status}}</dd>
<dt>Expires</dt><dd>{{.Expires}}</dd>
<dt>Order</dt><dd>{{.OrderNo}}</dd>
</dl>
{{if .Redirect}}<p><a href="{{.Redirect}}">Return to the merchant</a></p>{{end}}
</body></html>{{end}}

{{define "widget"}}{{template "head" "Cashier"}}
<h1>Cashier</h1>
<dl><dt>Merchant</dt><dd>{{.Merchant}}</dd><dt>Customer</dt><dd>{{.CustNo}}</dd>
{{if .OrderNo}}<dt>Order</dt><dd>{{.OrderNo}}</dd>{{end}}</dl>
{{if .PayURL}}<p><a href="{{.PayURL}}">Continue to payment</a></p>{{else}}<p>No open order to pay.</p>{{end}}
</body></html>{{end}}

{{define "error"}}{{template "head" "Error"}}
<h1>{{.Title}}</h1><p>{{.Message}}</p></body></html>{{end}}
`))

func (s *server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Error("render page", "page", name, "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; img-src data:; style-src 'unsafe-inline'")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *server) renderError(w http.ResponseWriter, status int, msg string) {
	s.render(w, status, "error", struct{ Title, Message string }{http.StatusText(status), msg})
}

// handlePayPage is the hosted payment page behind payUrl. Order ids are
// random, so the URL itself is the capability to view the order.
func (s *server) handlePayPage(w http.ResponseWriter, r *http.Request, _ *call) error {
	id := r.PathValue("orderId")
	o, err := s.store.Collection(r.Context(), id)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		return cashier.Errorf(cashier.ENotFound, "payment %s does not exist", id)
	}
	if err != nil {
		return err
	}
	status := string(o.Status)
	if o.Status == cashier.CollectionPending && !s.clock.Now().Before(o.ExpireAt) {
		status = string(cashier.CollectionExpired) // the expiry worker has not run yet
	}
	data := struct {
		Amount, Symbol, Network, Address, Status, Expires, OrderNo, TokenContract string
		QR                                                                        template.URL
		Redirect                                                                  string
	}{
		Amount: cashier.FormatAmount(o.Amount, o.Decimals), Symbol: o.Symbol, Address: o.DepositAddress,
		Status: status, Expires: o.ExpireAt.UTC().Format(time.RFC1123), OrderNo: o.OrderNo, Redirect: o.RedirectURL,
		Network: string(o.Chain),
	}
	if n, ok := s.reg.Network(o.Chain); ok {
		data.Network = n.NetworkName
	}
	if t, ok := s.reg.Token(o.Chain, o.Symbol); ok {
		data.TokenContract = t.ContractAddress
	}
	if status == string(cashier.CollectionPending) {
		code, err := s.qrCode(o)
		if err != nil {
			return err
		}
		data.QR = template.URL(code) // generated here: a data:image/png URI
	}
	s.render(w, http.StatusOK, "pay", data)
	return nil
}

// handleWidget is the signed widget entry: the query must be signed with
// the merchant's secret key (sign.VerifyWidgetQuery) and name apiKey and
// custNo; an orderNo of the merchant's leads on to that order's page.
func (s *server) handleWidget(w http.ResponseWriter, r *http.Request, c *call) error {
	apiKey, _ := c.params["apiKey"].(string)
	custNo, _ := c.params["custNo"].(string)
	if apiKey == "" || custNo == "" {
		return cashier.Errorf(cashier.EMissing, "the widget URL needs apiKey and custNo")
	}
	m, err := s.store.MerchantByAPIKey(r.Context(), apiKey)
	if code := cashier.ErrorCode(err); code == cashier.ENotFound || code == cashier.EUnauthorized || (err == nil && m.Status != cashier.MerchantActive) {
		return cashier.Errorf(cashier.EUnauthorized, "this cashier link is not valid")
	} else if err != nil {
		return err
	}
	if _, err := sign.VerifyWidgetQuery(m.SecretKey, r.URL.RawQuery); err != nil {
		return cashier.Errorf(cashier.EBadSignature, "this cashier link is not signed correctly")
	}
	info(r).merchant = m.ID
	data := struct{ Merchant, CustNo, OrderNo, PayURL string }{Merchant: m.Name, CustNo: custNo}
	if orderNo, _ := c.params["orderNo"].(string); orderNo != "" {
		data.OrderNo = orderNo
		o, err := s.store.CollectionByOrderNo(r.Context(), m.ID, orderNo)
		switch cashier.ErrorCode(err) {
		case "":
			data.PayURL = s.payURL(r, o)
		case cashier.ENotFound:
		default:
			return err
		}
	}
	s.render(w, http.StatusOK, "widget", data)
	return nil
}
