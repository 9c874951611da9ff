package dashboard

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/qr"
	"github.com/stablecashier/cashier/sign"
)

//go:embed templates/*.html static/*
var files embed.FS

var pageNames = []string{"signin", "overview", "integration", "keys", "collections", "collection", "payouts", "payout",
	"review", "audit", "account", "error", "users", "userpass", "webhooks", "holdings"}

var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{
		"join": strings.Join,
		"time": func(v any) string {
			var t time.Time
			switch x := v.(type) {
			case int64:
				if x == 0 {
					return ""
				}
				t = time.UnixMilli(x)
			case time.Time:
				t = x
			}
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
		},
		"list": func(v ...string) []string { return v },
		// reasonMax is the longest refusal reason the payout service takes:
		// the form allows no more than the server.
		"reasonMax": func() int { return orders.MaxReasonLen },
		"amount":    amountText,
		// paid is an amount received so far: nothing is 0.
		"paid": func(v *big.Int, decimals int) string {
			if v == nil {
				v = new(big.Int)
			}
			return cashier.FormatAmount(v, decimals)
		},
		"short": func(s string) string {
			if len(s) <= 18 {
				return s
			}
			return s[:10] + "…" + s[len(s)-6:]
		},
	}
	out := map[string]*template.Template{}
	for _, p := range pageNames {
		out[p] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/partials.html", "templates/"+p+".html"))
	}
	return out
}()

// page is what every template gets.
type page struct {
	Lang   string
	Title  string
	Path   string // the current path with query, for forms' next
	User   *cashier.User
	CSRF   string
	Notice string
	// NoticeFailed: the notice reports a failure (shown as one).
	NoticeFailed bool
	Error        string
	Operator     bool
	Sandbox      bool               // test mode: the banner
	MerchantID   string             // the merchant shown (operators choose)
	Merchants    []cashier.Merchant // operators' merchant selector
	Data         any
	// Form is what a form sent when its operation failed: the page is
	// shown again with the error and these values (backToForm).
	Form  url.Values
	actor *actor
}

// Picked reports whether the failed form sent value v for name (a box
// the user had ticked).
func (p *page) Picked(name, v string) bool {
	for _, x := range p.Form[name] {
		if x == v {
			return true
		}
	}
	return false
}

// T translates a message key.
func (p *page) T(key string) string { return translate(p.Lang, key) }

// Can reports whether the user may run op (to show or hide its controls;
// the operation checks again).
func (p *page) Can(op string) bool { return p.actor.can(Op(op)) }

// Q is the current merchant as a query parameter for operators' links.
func (p *page) Q() string {
	if p.Operator && p.MerchantID != "" {
		return "merchantId=" + url.QueryEscape(p.MerchantID)
	}
	return ""
}

func (s *Server) newPage(r *http.Request, a *actor, title string) *page {
	p := &page{Lang: lang(r), Title: title, Path: nextPath(r.URL.RequestURI()), actor: a, Sandbox: s.cfg.Sandbox}
	if a != nil {
		p.User, p.CSRF, p.Operator = a.user, a.session.CSRF, a.operator()
		p.MerchantID = a.user.MerchantID
		if p.Operator {
			p.MerchantID = r.URL.Query().Get("merchantId")
			p.Merchants, _ = s.Store.Merchants(r.Context())
		}
	}
	return p
}

func (s *Server) render(w http.ResponseWriter, status int, name string, p *page) {
	var buf bytes.Buffer
	if err := pages[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		s.Logger.Error("dashboard template", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) renderError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	a, _ := s.authenticate(r)
	p := s.newPage(r, a, "error")
	p.Error = msg
	s.render(w, status, "error", p)
}

// handleKeysView shows a rotation's result once (onetime.go); a second
// view, a refresh, says it was shown already and rotates nothing.
func (s *Server) handleKeysView(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
	k, err := s.takeOneTime(r.Context(), a.session.TokenHash, r.URL.Query().Get("view"))
	if err != nil {
		return "", err
	}
	if k != nil {
		v := map[string]any{"Keys": k, "H": sign.HeaderNames(s.cfg.HeaderPrefix)}
		if k.PreviousKeyUntil > 0 {
			v["Until"] = time.UnixMilli(k.PreviousKeyUntil).UTC().Format(time.RFC3339)
		}
		p.Data = v
	}
	w.Header().Set("Cache-Control", "no-store")
	return "keys", nil
}

// lang is zh when chosen (cookie, or ?lang=) or first preferred by the
// browser, else en.
func lang(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l == "en" || l == "zh" {
		return l
	}
	if c, err := r.Cookie(langCookie); err == nil && (c.Value == "en" || c.Value == "zh") {
		return c.Value
	}
	al := strings.ToLower(r.Header.Get("Accept-Language"))
	if strings.HasPrefix(al, "zh") {
		return "zh"
	}
	return "en"
}

// pageHandler serves a signed-in page.
type pageHandler func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error)

func (s *Server) page(pattern, title string, h pageHandler) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		a, err := s.authenticate(r)
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		if a == nil {
			http.Redirect(w, r, Prefix+"signin", http.StatusSeeOther)
			return
		}
		if l := r.URL.Query().Get("lang"); l == "en" || l == "zh" {
			http.SetCookie(w, &http.Cookie{Name: langCookie, Value: l, Path: Prefix, MaxAge: 365 * 24 * 3600,
				Secure: s.cfg.SecureCookie, HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		p := s.newPage(r, a, title)
		if f, ok := s.takeFlash(w, r, a); ok {
			p.Notice, p.NoticeFailed = translate(p.Lang, "notice."+f.Key), f.Failed
			if f.Detail != "" {
				p.Notice += " " + f.Detail
			}
		}
		name, err := h(w, r, a, p)
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		s.render(w, http.StatusOK, name, p)
	})
}

func (s *Server) routes() {
	static, _ := fs.Sub(files, "static")
	s.mux.Handle("GET "+Prefix+"static/", http.StripPrefix(Prefix+"static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET "+Prefix+"signin", s.handleSignInPage)
	s.mux.HandleFunc("POST "+Prefix+"signin", s.handleSignIn)
	s.mux.HandleFunc("POST "+Prefix+"signout", s.handleSignOut)
	s.apiRoutes()
	s.userRoutes()
	s.webhookRoutes()
	s.exportRoutes()

	s.page("GET "+Prefix+"{$}", "nav.overview", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		ov, err := s.overview(r, a)
		p.Data = ov
		return "overview", err
	})
	s.page("GET "+Prefix+"keys", "keys.title", s.handleKeysView)
	s.page("GET "+Prefix+"integration", "nav.integration", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		if p.MerchantID == "" {
			return "integration", nil // operators: choose a merchant first
		}
		m, err := s.Store.Merchant(r.Context(), p.MerchantID)
		if err != nil {
			return "", errNotFound
		}
		if !m.PrevKeyUntil.IsZero() && !s.Clock.Now().Before(m.PrevKeyUntil) {
			m.PrevKeyUntil, m.PrevKeyPrefix = time.Time{}, "" // its grace is over: nothing left to show or revoke
		}
		cs, err := s.Store.CashiersByMerchant(r.Context(), m.ID)
		if err != nil {
			return "", err
		}
		ks, err := s.Store.ContractsByMerchant(r.Context(), m.ID)
		if err != nil {
			return "", err
		}
		var contracts []map[string]any
		for _, k := range ks {
			contracts = append(contracts, s.contractJSON(r, &k))
		}
		var policy *cashier.ReviewPolicy
		if s.Reviewer != nil {
			if policy, err = s.Reviewer.Policy(r.Context(), m.ID); err != nil {
				return "", err
			}
		}
		// The signer each network's contract must name (created on first
		// view): registration proves the contract on chain by it.
		var signers []map[string]string
		// The networks the registry has on (one switched off is not offered).
		var chains []cashier.Chain
		for _, n := range s.Registry.Networks {
			chains = append(chains, n.Chain)
		}
		if a.can(OpContractCreate) && s.Provision != nil {
			for _, c := range chains {
				addr, err := s.Provision.Signer(r.Context(), m.ID, string(c))
				if err != nil {
					return "", err
				}
				signers = append(signers, map[string]string{"chainId": string(c), "address": addr})
			}
		}
		p.Data = map[string]any{"Merchant": m, "Cashiers": cs, "Contracts": contracts, "Chains": chains, "Policy": policy,
			"Modes": []string{"default", "always", "never", "above"}, "Signers": signers}
		return "integration", nil
	})
	s.page("GET "+Prefix+"collections", "nav.collections", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		f, err := s.search(r, a)
		if err != nil {
			return "", err
		}
		os, total, err := s.Store.SearchCollections(r.Context(), f)
		if err != nil {
			return "", err
		}
		p.Data = map[string]any{"List": os, "Total": total, "Filter": f, "Query": r.URL.Query(), "Pager": pager(r, f, total),
			"Statuses": collectionStatuses}
		return "collections", nil
	})
	s.page("GET "+Prefix+"collections/{id}", "nav.collections", s.collectionPage)
	s.page("GET "+Prefix+"payouts", "nav.payouts", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		f, err := s.search(r, a)
		if err != nil {
			return "", err
		}
		ps, total, err := s.Store.SearchPayouts(r.Context(), f)
		if err != nil {
			return "", err
		}
		p.Data = map[string]any{"List": ps, "Total": total, "Filter": f, "Query": r.URL.Query(), "Pager": pager(r, f, total),
			"Statuses": payoutStatuses}
		return "payouts", nil
	})
	s.page("GET "+Prefix+"payouts/{id}", "nav.payouts", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		o, err := s.Store.Payout(r.Context(), r.PathValue("id"))
		if err != nil || !a.mayReadMerchant(o.MerchantID) {
			return "", errNotFound
		}
		events, err := s.eventsJSON(r, o.MerchantID, o.ID)
		if err != nil {
			return "", err
		}
		p.Data = map[string]any{"O": payoutJSON(o), "Events": events, "TxURL": s.explorer(o.Chain, "tx", o.TxID),
			"AddrURL": s.explorer(o.Chain, "address", o.Recipient), "NetworkName": s.networkName(o.Chain), "GasUnit": coinSymbol(o.Chain)}
		return "payout", nil
	})
	s.page("GET "+Prefix+"holdings", "nav.holdings", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		data, err := s.holdings(r, a)
		p.Data = data
		return "holdings", err
	})
	s.page("GET "+Prefix+"review", "nav.review", s.reviewPage)
	s.page("GET "+Prefix+"audit", "nav.audit", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		es, err := s.audit(r, a)
		p.Data = es
		return "audit", err
	})
	s.page("GET "+Prefix+"account", "nav.account", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		if a.user.TOTPSecret == nil {
			secret, err := NewTOTPSecret()
			if err != nil {
				return "", err
			}
			uri := TOTPURI(secret, a.user.Email)
			img, err := qr.DataURI(uri)
			if err != nil {
				return "", err
			}
			p.Data = map[string]any{"Secret": TOTPSecretText(secret), "URI": uri, "QR": template.URL(img)}
		}
		return "account", nil
	})
	s.api("POST "+apiPrefix+"account/totp", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in struct {
			Secret string `json:"secret"` // base32; empty: turn off
			Code   string `json:"code"`
		}
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		var secret []byte
		if in.Secret != "" {
			b, err := decodeBase32(in.Secret)
			if err != nil || len(b) < 10 {
				return nil, cashier.Errorf(cashier.EInvalid, "secret must be base32 of at least 10 bytes")
			}
			secret = b
		}
		if err := s.SetTOTP(r.Context(), a, secret, in.Code); err != nil {
			return nil, err
		}
		return s.done(w, r, a, "account.saved", map[string]any{"totp": secret != nil})
	})
}

func (s *Server) collectionPage(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
	o, err := s.Store.Collection(r.Context(), r.PathValue("id"))
	if err != nil || !a.mayReadMerchant(o.MerchantID) {
		return "", errNotFound
	}
	events, err := s.eventsJSON(r, o.MerchantID, o.ID)
	if err != nil {
		return "", err
	}
	payments, err := s.payments(r, o)
	if err != nil {
		return "", err
	}
	refunds, err := s.refunds(r, o)
	if err != nil {
		return "", err
	}
	form, err := s.refundForm(r, a, o)
	if err != nil {
		return "", err
	}
	p.Data = map[string]any{"O": collectionJSON(o), "Events": events, "TxURL": s.explorer(o.Chain, "tx", o.TxID),
		"AddrURL": s.explorer(o.Chain, "address", o.DepositAddress), "Payments": payments, "NetworkName": s.networkName(o.Chain),
		"Refunds": refunds, "RefundForm": form}
	return "collection", nil
}

func (s *Server) reviewPage(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
	q, err := s.reviewQueue(r, a)
	p.Data = q
	return "review", err
}

// pager is the previous/next links of a list page.
func pager(r *http.Request, f cashier.OrderSearch, total int) map[string]string {
	out := map[string]string{}
	link := func(page int) string {
		q := r.URL.Query()
		q.Set("page", itoa(page))
		return r.URL.Path + "?" + q.Encode()
	}
	if f.Page > 1 {
		out["Prev"] = link(f.Page - 1)
	}
	if f.Page*f.PageSize < total {
		out["Next"] = link(f.Page + 1)
	}
	return out
}

// The status filters' choices, in each kind of order's life order.
var (
	collectionStatuses = []string{string(cashier.CollectionPending), string(cashier.CollectionSuccess),
		string(cashier.CollectionExpired), string(cashier.CollectionCancelled)}
	payoutStatuses = []string{string(cashier.PayoutPending), string(cashier.PayoutProcessing),
		string(cashier.PayoutSuccess), string(cashier.PayoutRefuse)}
)

// networkName is the registry's name of c (Ethereum, TRON…).
func (s *Server) networkName(c cashier.Chain) string {
	if n, ok := s.Registry.Network(c); ok && n.NetworkName != "" {
		return n.NetworkName
	}
	return string(c)
}

// coinSymbol is the network's own coin, the unit gas is paid in.
func coinSymbol(c cashier.Chain) string { return c.CoinSymbol() }
