package http

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sign"
)

// The pages are server-rendered and readable without script; the payment
// page's script (cashierpage/cashier.js) keeps it live. Nothing is inline,
// so the Content-Security-Policy allows no inline script or style.
var pages = template.Must(template.New("").Funcs(template.FuncMap{"t": pageText}).Parse(`
{{define "head"}}<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title><link rel="stylesheet" href="/assets/cashier.css"></head><body{{if .Theme}} class="theme-{{.Theme}}"{{end}}>{{end}}

{{define "pay"}}{{template "head" .Head}}{{$l := .L}}
<main id="cashier" class="card" data-status-url="{{.StatusURL}}" data-cancel-url="{{.CancelURL}}" data-choose-url="{{.ChooseURL}}" data-network="{{.Network}}" data-status="{{.St.Status}}" data-state="{{.St.State}}" data-note="{{.St.Note}}" data-lang="{{$l}}" data-chain="{{.Chain}}" data-evm-chain-id="{{.EVMChainID}}" data-token="{{.TokenContract}}" data-decimals="{{.Decimals}}" data-address="{{.Address}}" data-rpc-url="{{.RPCURL}}"{{if .ParentOrigin}} data-parent-origin="{{.ParentOrigin}}"{{end}}>
<header class="top"><span class="merchant">{{.Merchant}}</span><button type="button" id="lang" class="lang" hidden>{{t $l "lang.switch" nil}}</button></header>
<section class="amount"><div class="label" id="amount-label" data-i18n="{{.AmountLabel}}">{{t $l .AmountLabel nil}}</div>
<div class="sum"><span id="amount">{{.Shown}}</span> <span id="symbol"{{if .TokenOpen}} hidden{{end}}>{{.St.Symbol}}</span></div>
<div id="amount-of" class="of"{{if ne .AmountLabel "pay.due"}} hidden{{end}}>{{t $l "amount.of" .Vars}}</div>
<div class="net"{{if .St.Choosing}} hidden{{end}}><span data-i18n="network">{{t $l "network" nil}}</span>: <strong>{{.Network}}</strong></div></section>
<section id="state" class="state state-{{.St.State}}{{if .St.Note}} note-{{.St.Note}}{{end}}" aria-live="polite">
<div id="state-title" class="state-title">{{.TitleText}}</div><div id="state-detail">{{.Detail}}</div>
<progress id="progress" class="progress" max="{{.St.Required}}" value="{{.St.Confirmations}}"{{if not .Progress}} hidden{{end}}></progress>
<div id="countdown" class="countdown"{{if ne .St.State "waiting"}}{{if ne .St.State "underpaid"}}{{if ne .St.State "choose"}} hidden{{end}}{{end}}{{end}} data-expire="{{.St.ExpireTime}}" data-server-time="{{.St.ServerTime}}">{{.Expires}}</div>
</section>
{{if .Options}}<section id="choose" class="choose"{{if not .St.Choosing}} hidden{{end}}><ul id="choose-list">{{range .Options}}
<li><button type="button" class="choice{{if .Current}} current{{end}}" data-chain="{{.Chain}}" data-symbol="{{.Symbol}}" data-network="{{.NetworkName}}" data-fee="{{.Fee}}" data-fee-symbol="{{.FeeSymbol}}" data-min="{{.MinAmount}}">
<strong class="choice-name">{{t $l "choose.option" .Vars}}</strong><span class="choice-fee">{{t $l "choose.fee" .Vars}}</span></button></li>{{end}}
</ul></section>{{end}}
<section id="pay-box" class="pay-box"{{if not .St.Payable}} hidden{{end}}>
<img id="qr" class="qr" src="{{.QR}}" alt="{{t $l "qr.alt" nil}}" data-i18n-alt="qr.alt"{{if not .QR}} hidden{{end}}><div class="hint" data-i18n="qr">{{t $l "qr" nil}}</div>
<div id="wallet" class="wallet" hidden><button type="button" id="connect" class="primary" data-i18n="wallet.connect">{{t $l "wallet.connect" nil}}</button>
<div id="wallet-status" class="hash" hidden></div><button type="button" id="scan-instead" data-i18n="wallet.scan" hidden>{{t $l "wallet.scan" nil}}</button></div>
<button type="button" id="use-wallet" class="link" data-i18n="wallet.use" hidden>{{t $l "wallet.use" nil}}</button>
<a id="open-wallet" class="open-wallet" href="{{.WalletURL}}" data-i18n="open.wallet"{{if not .WalletURL}} hidden{{end}}>{{t $l "open.wallet" nil}}</a>
<div class="label" data-i18n="address">{{t $l "address" nil}}</div>
<div class="address-row"><code id="address" class="address">{{.Address}}</code><button type="button" id="copy" class="copy" data-i18n="copy" hidden>{{t $l "copy" nil}}</button></div>
<div class="label" data-i18n="token">{{t $l "token" nil}}</div><div class="token">{{.St.Symbol}}{{if .TokenContract}} <code class="contract">{{.TokenContract}}</code>{{end}}</div>
</section>
<section id="payments" class="payments"{{if not .St.Payments}} hidden{{end}}><div class="label" data-i18n="payments">{{t $l "payments" nil}}</div>
<ul id="payment-list">{{range .St.Payments}}<li><code>{{.TxID}}</code> {{.Amount}} {{.Symbol}} {{.Status}}</li>{{end}}</ul></section>
<div id="message" class="message" hidden></div>
<div class="actions">
<button type="button" id="change" class="change" data-i18n="choose.change"{{if not .St.CanChange}} hidden{{end}}>{{t $l "choose.change" nil}}</button>
<button type="button" id="cancel" class="cancel" data-i18n="cancel" hidden>{{t $l "cancel" nil}}</button>
<a id="back" class="back" href="{{.St.BackURL}}" rel="noreferrer"{{if .ParentOrigin}} target="_top"{{end}} data-i18n="back"{{if not .Back}} hidden{{end}}>{{t $l "back" nil}}</a>
</div>
<p class="order"><span data-i18n="order">{{t $l "order" nil}}</span> <span id="order-no">{{.OrderNo}}</span></p>
</main>
<script type="application/json" id="i18n">{{.Texts}}</script>
<script src="/assets/wallet.js"></script>
<script src="/assets/cashier.js"></script>
</body></html>{{end}}

{{define "widget"}}{{template "head" .Head}}
<main class="card"><h1>Cashier</h1>
<dl><dt>Merchant</dt><dd>{{.Merchant}}</dd><dt>Customer</dt><dd>{{.CustNo}}</dd>
{{if .OrderNo}}<dt>Order</dt><dd>{{.OrderNo}}</dd>{{end}}</dl>
{{if .PayURL}}<p><a href="{{.PayURL}}">Continue to payment</a></p>{{else}}<p>No open order to pay.</p>{{end}}
</main></body></html>{{end}}

{{define "refund"}}{{template "head" .Head}}
<main id="refund" class="card" data-chain="{{.Chain}}" data-status="{{.Status}}">
<header class="top"><span class="merchant">{{.Merchant}}</span></header>
<section class="amount"><div class="label">Refund</div>
<div class="sum"><span id="amount">{{.Amount}}</span> <span id="symbol">{{.Symbol}}</span></div>
<div class="net">Network: <strong>{{.Network}}</strong></div></section>
{{if .Open}}<form id="refund-form" method="post" action="/refund/{{.ID}}">
<label class="label" for="refund-address">Your {{.Network}} address to receive the refund</label>
<input id="refund-address" name="address" class="address" autocomplete="off" spellcheck="false" required>
<p class="hint">Enter an address you control. An exchange deposit address may not credit a refund.</p>
{{if .EVM}}<button type="button" id="refund-connect" hidden>Use my wallet's address</button>{{end}}
<button type="submit" id="refund-submit" class="primary">Send the refund here</button>
</form>{{else}}<section id="state" class="state"><div id="refund-status" class="state-title" data-status="{{.Status}}">{{.StatusText}}</div>
<div class="label">To</div><code id="refund-to" class="address">{{.Address}}</code>
{{if .TxID}}<div class="label">Transaction</div><code id="refund-tx" class="hash">{{.TxID}}</code>{{end}}</section>{{end}}
{{if .Problem}}<div id="message" class="message" role="alert">{{.Problem}}</div>{{end}}
<p class="order">Order <span id="order-no">{{.OrderNo}}</span></p>
</main>
{{if .EVM}}<script src="/assets/refund.js"></script>{{end}}
</body></html>{{end}}

{{define "error"}}{{template "head" .Head}}
<main class="card"><h1>{{.Title}}</h1><p>{{.Message}}</p></main></body></html>{{end}}
`))

// pageText is the text key in language lang ("en" or "zh") with its
// {placeholders} filled; the script does the same in the browser.
func pageText(lang, key string, vars map[string]string) string {
	t, ok := pageTexts[lang][key]
	if !ok {
		if t, ok = pageTexts["en"][key]; !ok {
			return key
		}
	}
	for k, v := range vars {
		t = strings.ReplaceAll(t, "{"+k+"}", v)
	}
	return t
}

// pageHead is what every page's head needs.
type pageHead struct{ Lang, Title, Theme string }

// pageLang is the page language a request asks for: ?lang= (en-US, zh-CN,
// or just en, zh), else the browser's Accept-Language, else English.
func pageLang(r *http.Request) string {
	prefs := []string{r.URL.Query().Get("lang")}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		prefs = append(prefs, strings.TrimSpace(strings.Split(part, ";")[0]))
	}
	for _, p := range prefs {
		switch l := strings.ToLower(p); {
		case strings.HasPrefix(l, "zh"):
			return "zh"
		case strings.HasPrefix(l, "en"):
			return "en"
		}
	}
	return "en"
}

// htmlLang is the lang attribute of a page language.
func htmlLang(l string) string {
	if l == "zh" {
		return "zh-CN"
	}
	return "en"
}

// pageTheme is ?theme=dark or light; "" lets the page follow the device.
func pageTheme(r *http.Request) string {
	switch t := r.URL.Query().Get("theme"); t {
	case "dark", "light":
		return t
	}
	return ""
}

func (s *server) render(w http.ResponseWriter, status int, name string, data any) {
	s.renderFramed(w, status, name, data, "")
}

// renderFramed renders a page that frameOrigin, when set, may embed.
func (s *server) renderFramed(w http.ResponseWriter, status int, name string, data any, frameOrigin string) {
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
	if frameOrigin != "" {
		allowFraming(h, frameOrigin)
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *server) renderError(w http.ResponseWriter, status int, msg string) {
	s.render(w, status, "error", struct {
		Head           pageHead
		Title, Message string
	}{pageHead{Lang: "en", Title: "Error"}, http.StatusText(status), msg})
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
	lang := pageLang(r)
	data := struct {
		Head                                                     pageHead
		St                                                       *pageStatus
		L, Network, Address, Expires, OrderNo, TokenContract     string
		Merchant, TitleText, Detail, StatusURL, CancelURL, Chain string
		ChooseURL                                                string
		Options                                                  []pageOption
		AmountLabel, Shown, RPCURL                               string
		QR, WalletURL                                            template.URL
		ParentOrigin                                             string
		Back, Progress                                           bool
		TokenOpen                                                bool // choosing, the token too: no symbol yet
		EVMChainID                                               int64
		Decimals                                                 int
		Vars                                                     map[string]string
		Texts                                                    map[string]map[string]string
	}{
		Head: pageHead{Lang: htmlLang(lang), Title: pageText(lang, "title", nil), Theme: pageTheme(r)},
		St:   st, L: lang, Address: o.DepositAddress, Expires: o.ExpireAt.UTC().Format(time.RFC1123), OrderNo: o.OrderNo,
		Network: string(o.Chain), Chain: string(o.Chain), Decimals: o.Decimals,
		StatusURL: "/pay/" + o.ID + "/status", CancelURL: "/pay/" + o.ID + "/cancel", ChooseURL: "/pay/" + o.ID + "/choose",
		Back:         st.BackURL != "" && pageFinal(st.State),
		Progress:     !st.Payable && (st.State == pageSeen || st.State == pageConfirming),
		ParentOrigin: s.frameOrigin(r, o),
		TokenOpen:    st.Choosing && o.MayChoose(cashier.ChooseToken),
	}
	data.AmountLabel, data.Shown = "pay", st.Amount
	if st.Payable {
		data.Shown = st.Due
	}
	if st.Payable && st.Due != st.Amount {
		data.AmountLabel = "pay.due"
	}
	if st.State == pagePaid {
		data.AmountLabel = "pay.paid" // no longer an amount to pay
	}
	if m, err := s.store.Merchant(r.Context(), o.MerchantID); err == nil {
		data.Merchant = m.Name
	}
	if n, ok := s.reg.Network(o.Chain); ok {
		data.Network = n.NetworkName
		data.EVMChainID = n.EVMChainID
		data.RPCURL = n.RPCURL
	}
	if t, ok := s.reg.Token(o.Chain, o.Symbol); ok {
		data.TokenContract = t.ContractAddress
	}
	data.Vars = map[string]string{"amount": st.Amount, "symbol": st.Symbol, "network": data.Network, "paid": st.PaidAmount,
		"remaining": st.Remaining, "due": st.Due, "n": strconv.FormatUint(st.Confirmations, 10), "N": strconv.FormatUint(st.Required, 10)}
	if st.Choosing || st.CanChange {
		if m, err := s.store.Merchant(r.Context(), o.MerchantID); err == nil {
			for _, opt := range s.svc.NetworkOptions(r.Context(), m, o) {
				data.Options = append(data.Options, pageOption{NetworkOption: opt, Current: !st.Choosing && opt.Chain == o.Chain && opt.Symbol == o.Symbol,
					Vars: map[string]string{"symbol": opt.Symbol, "network": opt.NetworkName, "fee": opt.Fee, "feeSymbol": opt.FeeSymbol, "min": opt.MinAmount}})
			}
		}
	}
	data.TitleText = pageText(lang, st.TitleKey, data.Vars)
	data.Detail = pageText(lang, st.DetailKey, data.Vars)
	// A JSON data block, never run: html/template writes it as JSON with
	// <, > and & escaped.
	data.Texts = pageTexts
	data.QR = template.URL(st.QR)               // generated here: a data:image/png URI
	data.WalletURL = template.URL(st.WalletURL) // generated here: ethereum: or tronlinkoutside: link
	s.renderFramed(w, http.StatusOK, "pay", data, data.ParentOrigin)
	return nil
}

// pageOption is one network and token the customer may choose.
type pageOption struct {
	orders.NetworkOption
	Current bool // the order's present choice
	Vars    map[string]string
}

// handlePayChoose is the page's choice of network and token (JSON
// {"chainId","symbol"}), for an order that leaves it to the customer;
// refused once a payment is seen.
func (s *server) handlePayChoose(w http.ResponseWriter, r *http.Request, _ *call) error {
	id := r.PathValue("orderId")
	body, err := s.readBody(w, r)
	if err != nil {
		s.writePageJSON(w, r, nil, err)
		return nil
	}
	var req struct{ ChainID, Symbol string }
	if err := json.Unmarshal(body, &req); err != nil || req.ChainID == "" || req.Symbol == "" {
		s.writePageJSON(w, r, nil, cashier.Errorf(cashier.EInvalid, "the choice must be JSON with chainId and symbol"))
		return nil
	}
	if _, err := s.svc.ChooseNetwork(r.Context(), id, req.ChainID, req.Symbol); err != nil {
		if cashier.ErrorCode(err) == cashier.ENotFound {
			err = cashier.Errorf(cashier.ENotFound, "payment %s does not exist", id)
		}
		s.writePageJSON(w, r, nil, err)
		return nil
	}
	_, st, err := s.orderPageStatus(r, id)
	s.writePageJSON(w, r, st, err)
	return nil
}

// pageFinal reports whether the page's state is one the customer leaves
// from: nothing more is asked of them.
func pageFinal(state string) bool {
	return state == pagePaid || state == pageExpired || state == pageLate || state == pageCancelled
}

// widgetAtRoot serves a signed widget URL at the root path as at /widget:
// the provider's URL-signing page builds it on the host's root
// (https://host?apiKey=…&custNo=…&signature=…). Only a GET whose query
// carries apiKey or signature is taken; anything else at "/" is answered
// as before.
func widgetAtRoot(r *http.Request) *http.Request {
	if r.URL.Path != "/" || (r.Method != http.MethodGet && r.Method != http.MethodHead) || r.URL.RawQuery == "" {
		return r
	}
	q, _ := url.ParseQuery(r.URL.RawQuery)
	if !q.Has("apiKey") && !q.Has(sign.WidgetSignatureParam) {
		return r
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = "/widget", ""
	return r2
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
	if code := cashier.ErrorCode(err); code == cashier.ENotFound || code == cashier.EUnauthorized || (err == nil && (m.Status != cashier.MerchantActive || !m.KeyValid(s.clock.Now()))) {
		return cashier.Errorf(cashier.EUnauthorized, "this cashier link is not valid")
	} else if err != nil {
		return err
	}
	if _, err := sign.VerifyWidgetQuery(m.SecretKey, r.URL.RawQuery, s.cfg.Encodings...); err != nil {
		return cashier.Errorf(cashier.EBadSignature, "this cashier link is not signed correctly")
	}
	info(r).merchant = m.ID
	data := struct {
		Head                              pageHead
		Merchant, CustNo, OrderNo, PayURL string
	}{Head: pageHead{Lang: "en", Title: "Cashier"}, Merchant: m.Name, CustNo: custNo}
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
