package dashboard

import (
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/stablecashier/cashier"
)

func (s *Server) handleSignInPage(w http.ResponseWriter, r *http.Request) {
	if a, _ := s.authenticate(r); a != nil {
		http.Redirect(w, r, Prefix, http.StatusSeeOther)
		return
	}
	s.signInForm(w, r, http.StatusOK, "")
}

// signInForm renders the form with a fresh pre-session token, set as a
// cookie and in the form: a cross-site page cannot read either, so it
// cannot sign a victim in to the attacker's account (login CSRF).
func (s *Server) signInForm(w http.ResponseWriter, r *http.Request, status int, msg string) {
	tok := randomToken()
	s.setCookie(w, preCookie, tok, 3600)
	p := s.newPage(r, nil, "signin.title")
	p.CSRF, p.Error = tok, msg
	s.render(w, status, "signin", p)
}

func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.signInForm(w, r, http.StatusBadRequest, translate(lang(r), "signin.bad"))
		return
	}
	pre, err := r.Cookie(preCookie)
	form := r.PostFormValue("csrf")
	if err != nil || form == "" || subtle.ConstantTimeCompare([]byte(pre.Value), []byte(form)) != 1 {
		s.signInForm(w, r, http.StatusForbidden, translate(lang(r), "signin.expired"))
		return
	}
	ip := s.clientIP(r)
	tok, _, err := s.signIn(r.Context(), r.PostFormValue("email"), r.PostFormValue("password"), r.PostFormValue("code"), ip)
	switch {
	case errors.Is(err, errLimited):
		w.Header().Set("Retry-After", "60")
		s.signInForm(w, r, http.StatusTooManyRequests, translate(lang(r), "signin.limited"))
		return
	case errors.Is(err, errBusy):
		// A check takes well under a second; by then a slot is likely free.
		w.Header().Set("Retry-After", "1")
		s.signInForm(w, r, http.StatusServiceUnavailable, translate(lang(r), "signin.busy"))
		return
	case errors.Is(err, errSignIn):
		s.signInForm(w, r, http.StatusUnauthorized, translate(lang(r), "signin.failed"))
		return
	case err != nil:
		s.Logger.Error("dashboard sign-in", "err", err)
		s.signInForm(w, r, http.StatusInternalServerError, "internal error")
		return
	}
	s.setCookie(w, preCookie, "", -1)
	s.setCookie(w, sessionCookie, tok, int(s.cfg.SessionTTL.Seconds()))
	http.Redirect(w, r, Prefix, http.StatusSeeOther)
}

func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	a, err := s.authenticate(r)
	if err == nil && a != nil && checkCSRF(r, a) {
		ctx := r.Context()
		_ = s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
			if err := tx.DeleteSession(ctx, a.session.TokenHash); err != nil {
				return err
			}
			return tx.AddAudit(ctx, &cashier.AuditEntry{At: s.Clock.Now(), UserID: a.user.ID, Email: a.user.Email,
				MerchantID: a.user.MerchantID, Action: "session.signout", Target: a.user.ID, Detail: "signed out", IP: a.ip})
		})
	}
	s.setCookie(w, sessionCookie, "", -1)
	http.Redirect(w, r, Prefix+"signin", http.StatusSeeOther)
}

func decodeBase32(s string) ([]byte, error) {
	s = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	return base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.TrimRight(s, "="))
}

func itoa(n int) string { return strconv.Itoa(n) }

// payments lists the transfers the chain watcher recorded for a
// collection order, in chain order, with explorer links.
func (s *Server) payments(r *http.Request, o *cashier.CollectionOrder) ([]map[string]any, error) {
	ps, err := s.Store.PaymentsByOrder(r.Context(), o.ID)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, p := range ps {
		out = append(out, map[string]any{"txId": p.TxHash, "logIndex": p.LogIndex, "from": p.From, "symbol": p.Symbol,
			"amount": amountText(p.Amount, p.Decimals), "block": p.BlockNumber, "blockTime": ms(p.BlockTime),
			"status": p.Status, "effect": p.Effect, "url": s.explorer(p.Chain, "tx", p.TxHash)})
	}
	return out, nil
}

// refunds lists an order's refunds for its page.
func (s *Server) refunds(r *http.Request, o *cashier.CollectionOrder) ([]map[string]any, error) {
	fs, err := s.Store.Refunds(r.Context(), cashier.RefundFilter{OrderID: o.ID})
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, f := range fs {
		row := map[string]any{"refundNo": f.RefundNo, "amount": amountText(f.Amount, f.Decimals), "symbol": f.Symbol,
			"address": f.Address, "status": f.Status, "txId": f.TxID, "url": s.explorer(f.Chain, "tx", f.TxID),
			"createTime": ms(f.CreatedAt), "sentTime": ms(f.SentAt), "reason": f.Reason}
		if f.ByLink && f.Status == cashier.RefundAwaitingAddress {
			row["refundUrl"] = s.refundURL(r, &f) // the link to give the customer
		}
		out = append(out, row)
	}
	return out, nil
}
