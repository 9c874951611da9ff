package http

import (
	"bytes"
	"html/template"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// The pages are server-rendered and readable without script; the payment
// page's script (cashierpage/cashier.js) keeps it live. Nothing is inline,
// so the Content-Security-Policy allows no inline script or style.
var pages = template.Must(template.New("").Funcs(template.FuncMap{"t": pageText}).Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.}}</title><link rel="stylesheet" href="/assets/cashier.css"></head><body>{{end}}

{{define "pay"}}{{template "head" "Payment"}}
<main id="cashier" class="card" data-status-url="{{.StatusURL}}" data-cancel-url="{{.CancelURL}}" data-network="{{.Network}}" data-status="{{.St.Status}}" data-state="{{.St.State}}">
<header class="top"><span class="merchant">{{.Merchant}}</span><button type="button" id="lang" class="lang" hidden>中文</button></header>
<section class="amount"><div class="label" data-i18n="pay">{{t "pay" nil}}</div>
<div class="sum"><span id="amount">{{.St.Amount}}</span> <span id="symbol">{{.St.Symbol}}</span></div>
<div class="net"><span data-i18n="network">{{t "network" nil}}</span>: <strong>{{.Network}}</strong></div></section>
<section id="state" class="state state-{{.St.State}}" aria-live="polite">
<div id="state-title" class="state-title">{{.Title}}</div><div id="state-detail">{{.Detail}}</div>
<div id="countdown" class="countdown"{{if ne .St.State "waiting"}}{{if ne .St.State "underpaid"}} hidden{{end}}{{end}} data-expire="{{.St.ExpireTime}}" data-server-time="{{.St.ServerTime}}">{{.Expires}}</div>
</section>
<section id="pay-box" class="pay-box"{{if not .Payable}} hidden{{end}}>
{{if .QR}}<img id="qr" class="qr" src="{{.QR}}" alt="{{t "qr.alt" nil}}" data-i18n-alt="qr.alt"><div class="hint" data-i18n="qr">{{t "qr" nil}}</div>{{end}}
<div class="label" data-i18n="address">{{t "address" nil}}</div>
<div class="address-row"><code id="address" class="address">{{.Address}}</code><button type="button" id="copy" class="copy" data-i18n="copy" hidden>{{t "copy" nil}}</button></div>
<div class="label" data-i18n="token">{{t "token" nil}}</div><div class="token">{{.St.Symbol}}{{if .TokenContract}} <code class="contract">{{.TokenContract}}</code>{{end}}</div>
</section>
<section id="payments" class="payments"{{if not .St.Payments}} hidden{{end}}><div class="label" data-i18n="payments">{{t "payments" nil}}</div>
<ul id="payment-list">{{range .St.Payments}}<li><code>{{.TxID}}</code> {{.Amount}} {{.Symbol}} {{.Status}}</li>{{end}}</ul></section>
<div id="message" class="message" hidden></div>
<div class="actions">
<button type="button" id="cancel" class="cancel" data-i18n="cancel" hidden>{{t "cancel" nil}}</button>
{{if .St.RedirectURL}}<a id="back" class="back" href="{{.St.RedirectURL}}" rel="noreferrer" data-i18n="back">{{t "back" nil}}</a>{{end}}
</div>
<p class="order"><span data-i18n="order">{{t "order" nil}}</span> <span id="order-no">{{.OrderNo}}</span></p>
</main>
<script type="application/json" id="i18n">{{.Texts}}</script>
<script src="/assets/cashier.js"></script>
</body></html>{{end}}

{{define "widget"}}{{template "head" "Cashier"}}
<main class="card"><h1>Cashier</h1>
<dl><dt>Merchant</dt><dd>{{.Merchant}}</dd><dt>Customer</dt><dd>{{.CustNo}}</dd>
{{if .OrderNo}}<dt>Order</dt><dd>{{.OrderNo}}</dd>{{end}}</dl>
{{if .PayURL}}<p><a href="{{.PayURL}}">Continue to payment</a></p>{{else}}<p>No open order to pay.</p>{{end}}
</main></body></html>{{end}}

{{define "error"}}{{template "head" "Error"}}
<main class="card"><h1>{{.Title}}</h1><p>{{.Message}}</p></main></body></html>{{end}}
`))

// pageText is the English text key with its {placeholders} filled; the
// script does the same in the customer's language.
func pageText(key string, vars map[string]string) string {
	t, ok := pageTexts["en"][key]
	if !ok {
		return key
	}
	for k, v := range vars {
		t = strings.ReplaceAll(t, "{"+k+"}", v)
	}
	return t
}

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
	setPageHeaders(h)
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *server) renderError(w http.ResponseWriter, status int, msg string) {
	s.render(w, status, "error", struct{ Title, Message string }{http.StatusText(status), msg})
}

// handlePayPage is the hosted payment page behind payUrl. Order ids are
// random, so the URL itself is the capability to view the order; the
// page's status and cancel endpoints take the same id.
func (s *server) handlePayPage(w http.ResponseWriter, r *http.Request, _ *call) error {
	id := r.PathValue("orderId")
	o, st, err := s.orderPageStatus(r, id)
	if err != nil {
		return err
	}
	data := struct {
		St                                                *pageStatus
		Network, Address, Expires, OrderNo, TokenContract string
		Merchant, Title, Detail, StatusURL, CancelURL     string
		QR                                                template.URL
		Payable                                           bool
		Texts                                             map[string]map[string]string
	}{
		St: st, Address: o.DepositAddress, Expires: o.ExpireAt.UTC().Format(time.RFC1123), OrderNo: o.OrderNo,
		Network: string(o.Chain), StatusURL: "/pay/" + o.ID + "/status", CancelURL: "/pay/" + o.ID + "/cancel",
		Payable: st.State == pageWaiting || st.State == pageUnderpaid || st.State == pageSeen || st.State == pageConfirming,
	}
	if m, err := s.store.Merchant(r.Context(), o.MerchantID); err == nil {
		data.Merchant = m.Name
	}
	if n, ok := s.reg.Network(o.Chain); ok {
		data.Network = n.NetworkName
	}
	if t, ok := s.reg.Token(o.Chain, o.Symbol); ok {
		data.TokenContract = t.ContractAddress
	}
	vars := map[string]string{"amount": st.Amount, "symbol": st.Symbol, "network": data.Network, "paid": st.PaidAmount,
		"remaining": st.Remaining, "n": strconv.FormatUint(st.Confirmations, 10), "N": strconv.FormatUint(st.Required, 10)}
	data.Title = pageText("state."+st.State, vars)
	detail := "detail." + st.State
	switch {
	case st.State == pagePaid && st.Late:
		detail = "detail.paid.late"
	case st.State == pageExpired && st.PaidAmount != cashier.FormatAmount(new(big.Int), o.Decimals):
		detail = "detail.expired.partial"
	}
	data.Detail = pageText(detail, vars)
	// A JSON data block, never run: html/template writes it as JSON with
	// <, > and & escaped.
	data.Texts = pageTexts
	if data.Payable {
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
