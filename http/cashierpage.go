package http

import (
	"embed"
	"encoding/json"
	"math/big"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// The hosted cashier page's script, style and texts are plain files in
// cashierpage/, embedded in the binary: nothing is fetched from elsewhere at
// run time, and the page's Content-Security-Policy allows only these.
//
//go:embed cashierpage
var cashierAssets embed.FS

// pageTexts are the page's texts per language (cashierpage/i18n.json), the
// one source for the server's first rendering and the script.
var pageTexts = func() map[string]map[string]string {
	b, err := cashierAssets.ReadFile("cashierpage/i18n.json")
	if err != nil {
		panic(err)
	}
	var t map[string]map[string]string
	if err := json.Unmarshal(b, &t); err != nil {
		panic("cashierpage/i18n.json: " + err.Error())
	}
	return t
}()

// pageCSP is the page's Content-Security-Policy: nothing inline, nothing
// from elsewhere; the QR code is a data: image.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

// setPageHeaders sets what every customer page and its assets send: the
// strict policy, and no Referer, so the capability URL of the page never
// leaves with a link or the redirect to the merchant.
func setPageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "SAMEORIGIN")
}

// allowFraming lets the one merchant origin (checked against the
// cashier's allowed origins) embed the page, as the widget SDK does.
func allowFraming(h http.Header, origin string) {
	h.Set("Content-Security-Policy", strings.Replace(pageCSP, "frame-ancestors 'self'", "frame-ancestors "+origin, 1))
	h.Del("X-Frame-Options") // it cannot name another origin; frame-ancestors does
}

// handleAsset serves the page's embedded script, style and texts.
func (s *server) handleAsset(w http.ResponseWriter, r *http.Request, _ *call) error {
	name := r.PathValue("name")
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".json": "application/json"}
	ct, ok := types[path.Ext(name)]
	b, err := cashierAssets.ReadFile("cashierpage/" + name)
	if !ok || err != nil || path.Base(name) != name {
		http.NotFound(w, r)
		return nil
	}
	setPageHeaders(w.Header())
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(b)
	return nil
}

// The states the page shows, derived from the order and its payments.
const (
	pageWaiting    = "waiting"    // nothing received yet
	pageSeen       = "seen"       // a payment is in a block the service has not counted yet
	pageConfirming = "confirming" // a payment is in a block, n of N confirmations
	pageUnderpaid  = "underpaid"  // confirmed payments short of the amount; the rest can follow
	pagePaid       = "paid"       // SUCCESS
	pageExpired    = "expired"    // time ran out with nothing (more) received
	pageLate       = "late"       // a payment arrived after the time ran out
	pageCancelled  = "cancelled"  // CANCELLED
	pageChoose     = "choose"     // the customer has yet to choose the network and token
)

// pageStatus is the JSON of the page's status endpoint: what the page
// shows, nothing more (no merchant data, no keys).
type pageStatus struct {
	State         string        `json:"state"`
	Status        string        `json:"status"`
	Amount        string        `json:"amount"`
	PaidAmount    string        `json:"paidAmount"`
	Remaining     string        `json:"remaining"`
	Symbol        string        `json:"symbol"`
	ExpireTime    int64         `json:"expireTime"`
	ServerTime    int64         `json:"serverTime"` // so the countdown does not depend on the customer's clock
	Confirmations uint64        `json:"confirmations"`
	Required      uint64        `json:"required"`
	CanCancel     bool          `json:"canCancel"`
	Late          bool          `json:"late"` // paid, partly or fully, after expiry
	RedirectURL   string        `json:"redirectUrl,omitempty"`
	Payments      []pagePayment `json:"payments"`

	// Paying once: Due is the amount still to send, counting payments on
	// their way; the QR code, the wallet link and the amount shown ask for
	// it, and Payable is false once nothing is due (the page then shows
	// the confirmation progress instead of the payment box).
	TxID      string `json:"txId,omitempty"` // the transfer that completed the order (or the latest counted)
	Due       string `json:"due"`
	Payable   bool   `json:"payable"`
	QR        string `json:"qr,omitempty"`        // PNG data URI of the payment request for Due
	WalletURL string `json:"walletUrl,omitempty"` // "Open in wallet" link for Due
	Note      string `json:"note,omitempty"`      // cashier.CollectionOrder.PaymentNote
	TitleKey  string `json:"titleKey"`            // the texts (cashierpage/i18n.json) of the state
	DetailKey string `json:"detailKey"`
	BackURL   string `json:"backUrl,omitempty"` // where final states link back to the merchant

	// Choosing: the order waits for the customer's choice of network and
	// token (no deposit address yet); CanChange: chosen, and still
	// changeable (nothing seen).
	Choosing  bool `json:"choosing,omitempty"`
	CanChange bool `json:"canChange,omitempty"`
}

type pagePayment struct {
	TxID          string `json:"txId"`
	Amount        string `json:"amount"`
	Symbol        string `json:"symbol"`
	Status        string `json:"status"`
	Effect        string `json:"effect,omitempty"`
	Confirmations uint64 `json:"confirmations"`
}

// orderPageStatus loads the order id's status as the page shows it.
func (s *server) orderPageStatus(r *http.Request, id string) (*cashier.CollectionOrder, *pageStatus, error) {
	o, err := s.store.Collection(r.Context(), id)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		return nil, nil, cashier.Errorf(cashier.ENotFound, "payment %s does not exist", id)
	}
	if err != nil {
		return nil, nil, err
	}
	ps, cur, err := s.svc.CollectionPayments(r.Context(), o)
	if err != nil {
		return nil, nil, err
	}
	n, _ := s.reg.Network(o.Chain)
	st := pageStatusOf(o, ps, cur.Head, requiredConfirmations(n, cur), s.clock.Now())
	st.BackURL = s.backURL(r, o)
	if st.Payable {
		due, _ := cashier.ParseAmount(st.Due, o.Decimals)
		if st.QR, err = s.qrCodeFor(o, due); err != nil {
			return nil, nil, err
		}
		st.WalletURL = s.walletURL(r, o, due)
	}
	return o, st, nil
}

// requiredConfirmations is how many confirmations the page's progress
// bar counts to. With a confirmation count, that count. At the finalized
// block, a payment counts once the finalized block (the cursor's
// Confirmed) reaches it, so the bar counts to the chain's present
// distance between head and finalized block, plus one: a payment in the
// head block now is final when as many blocks are on top of it.
func requiredConfirmations(n cashier.Network, cur cashier.ChainCursor) uint64 {
	if n.Finalized && cur.Head > 0 && cur.Head >= cur.Confirmed {
		return cur.Head - cur.Confirmed + 1
	}
	return uint64(max(n.Confirmations, 1))
}

// pageStatusOf derives the page's state. Order of precedence: a final
// status, then a payment on its way, then what was received.
func pageStatusOf(o *cashier.CollectionOrder, ps []cashier.Payment, head, required uint64, now time.Time) *pageStatus {
	paid := new(big.Int)
	if o.PaidAmount != nil {
		paid.Set(o.PaidAmount)
	}
	remaining := new(big.Int).Sub(o.Amount, paid)
	if remaining.Sign() < 0 {
		remaining.SetInt64(0)
	}
	st := &pageStatus{
		Status: string(o.Status), Amount: cashier.FormatAmount(o.Amount, o.Decimals),
		PaidAmount: cashier.FormatAmount(paid, o.Decimals), Remaining: cashier.FormatAmount(remaining, o.Decimals),
		Symbol: o.Symbol, ExpireTime: cashier.Millis(o.ExpireAt), ServerTime: cashier.Millis(now),
		Required: required, RedirectURL: o.RedirectURL, Payments: []pagePayment{},
	}
	onItsWay, late := false, false
	var conf uint64
	coming := new(big.Int) // seen, not yet counted
	for _, p := range ps {
		var c uint64
		if p.Status != cashier.PaymentDropped {
			c = cashier.Confirmations(head, p.BlockNumber)
		}
		st.Payments = append(st.Payments, pagePayment{TxID: p.TxHash, Amount: cashier.FormatAmount(p.Amount, p.Decimals),
			Symbol: p.Symbol, Status: string(p.Status), Effect: string(p.Effect), Confirmations: c})
		if p.Effect == cashier.EffectLate {
			late = true
		}
		if p.Status == cashier.PaymentSeen && p.Symbol == o.Symbol {
			if !onItsWay || c < conf {
				conf = c // the payment furthest from counting
			}
			onItsWay = true
			coming.Add(coming, p.Amount)
		}
	}
	expired := o.Status == cashier.CollectionExpired || (o.Status == cashier.CollectionPending && !now.Before(o.ExpireAt))
	switch {
	case o.Status == cashier.CollectionCancelled:
		st.State = pageCancelled
	case o.Status == cashier.CollectionSuccess:
		st.State = pagePaid
	case expired && o.Status == cashier.CollectionPending:
		// The expiry worker has not run yet; the page says what it will.
		st.Status, st.State = string(cashier.CollectionExpired), pageExpired
		if onItsWay {
			st.State, late = pageLate, true
		}
	case expired && (late || onItsWay):
		st.State, late = pageLate, true
	case expired:
		st.State = pageExpired
	case o.Unchosen() && len(ps) == 0:
		st.State, st.Choosing = pageChoose, true
	case onItsWay && conf == 0:
		st.State = pageSeen
	case onItsWay:
		st.State = pageConfirming
	case paid.Sign() > 0:
		st.State = pageUnderpaid
	default:
		st.State = pageWaiting
	}
	if onItsWay {
		st.Confirmations = min(conf, required)
	}
	st.Late = late
	due := new(big.Int).Sub(remaining, coming)
	if due.Sign() < 0 {
		due.SetInt64(0)
	}
	st.Due = cashier.FormatAmount(due, o.Decimals)
	st.Payable = due.Sign() > 0 && (st.State == pageWaiting || st.State == pageUnderpaid || st.State == pageSeen || st.State == pageConfirming)
	st.Note = o.PaymentNote()
	st.TxID = o.TxID
	st.TitleKey, st.DetailKey = pageTextKeys(st)
	// The customer may cancel only while nothing is on its way (the
	// orders service refuses it then too).
	st.CanCancel = o.Status == cashier.CollectionPending && !expired && len(activePayments(ps)) == 0
	st.CanChange = o.Choose != "" && !o.Unchosen() && st.State == pageWaiting && len(ps) == 0
	return st
}

// pageTextKeys names the title and detail texts of a status, in one place
// for the server's rendering and the script. Each way the money received
// differs from the order has its own words.
func pageTextKeys(st *pageStatus) (string, string) {
	title, detail := "state."+st.State, "detail."+st.State
	switch {
	case st.State == pagePaid && st.Note == cashier.NoteOverpaid:
		title, detail = "state.paid.overpaid", "detail.paid.overpaid"
	case st.State == pagePaid && st.Late:
		title, detail = "state.paid.late", "detail.paid.late"
	case st.State == pageCancelled && st.Note == cashier.NoteAfterCancel:
		title, detail = "state.cancelled.paid", "detail.cancelled.paid"
	case st.State == pageExpired && st.Note == cashier.NoteUnderpaid:
		title, detail = "state.expired.partial", "detail.expired.partial"
	case (st.State == pageSeen || st.State == pageConfirming) && !st.Payable:
		detail = "detail." + st.State + ".full"
	case st.State == pageSeen || st.State == pageConfirming:
		detail = "detail." + st.State + ".partial"
	}
	return title, detail
}

func activePayments(ps []cashier.Payment) []cashier.Payment {
	var out []cashier.Payment
	for _, p := range ps {
		if p.Status != cashier.PaymentDropped {
			out = append(out, p)
		}
	}
	return out
}

// writePageJSON answers the page's script; errors too are JSON here, so the
// script can show them.
func (s *server) writePageJSON(w http.ResponseWriter, r *http.Request, v any, err error) {
	setPageHeaders(w.Header())
	if err != nil {
		info(r).err = err
		we, code := lookup(err)
		msg := cashier.ErrorMessage(err)
		if code == cashier.EInternal {
			msg = "system error"
		}
		status := we.status
		if code == cashier.EInvalidStatus {
			status = http.StatusConflict
		}
		s.writeJSON(w, status, map[string]string{"code": string(code), "message": msg})
		return
	}
	s.writeJSON(w, http.StatusOK, v)
}

// handlePayStatus is the page's live status, addressed by the same
// capability (the random order id) as the page.
func (s *server) handlePayStatus(w http.ResponseWriter, r *http.Request, _ *call) error {
	_, st, err := s.orderPageStatus(r, r.PathValue("orderId"))
	s.writePageJSON(w, r, st, err)
	return nil
}

// handlePayCancel is the page's cancel button: the customer cancels an
// order nothing has been paid to yet.
func (s *server) handlePayCancel(w http.ResponseWriter, r *http.Request, _ *call) error {
	id := r.PathValue("orderId")
	if _, err := s.store.Collection(r.Context(), id); err != nil {
		if cashier.ErrorCode(err) == cashier.ENotFound {
			err = cashier.Errorf(cashier.ENotFound, "payment %s does not exist", id)
		}
		s.writePageJSON(w, r, nil, err)
		return nil
	}
	if _, err := s.svc.CancelCollection(r.Context(), id); err != nil {
		s.writePageJSON(w, r, nil, err)
		return nil
	}
	_, st, err := s.orderPageStatus(r, id)
	s.writePageJSON(w, r, st, err)
	return nil
}
