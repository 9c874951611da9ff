package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/webhook"
)

// The admin JSON API under /dashboard/api/. Every call needs a session;
// every change needs the session's CSRF token in X-CSRF-Token (the pages'
// forms post to the same URLs with the token in the form field csrf, and
// are answered with a redirect or a page instead of JSON).

const apiPrefix = Prefix + "api/"

type apiHandler func(w http.ResponseWriter, r *http.Request, a *actor) (any, error)

// isForm reports whether the request came from a page's form.
func isForm(r *http.Request) bool {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return ct == "application/x-www-form-urlencoded"
}

func (s *Server) api(pattern string, h apiHandler) {
	s.apiPatterns = append(s.apiPatterns, pattern)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && !isForm(r) {
			r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		}
		a, err := s.authenticate(r)
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		if a == nil {
			s.apiError(w, r, errSignedOut)
			return
		}
		if r.Method != http.MethodGet {
			if isForm(r) {
				r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
			}
			if !checkCSRF(r, a) {
				s.apiError(w, r, errCSRF)
				return
			}
		}
		v, err := h(w, r, a)
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		if v == nil { // the handler answered itself (a page after a form)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": v})
	})
}

var (
	errSignedOut = cashier.Errorf(cashier.EAPIKeyRequired, "sign in first")
	errCSRF      = cashier.Errorf(cashier.EBadSignature, "the form is out of date or the CSRF token is missing; reload the page")
)

// apiStatus maps domain codes onto HTTP statuses.
func apiStatus(err error) int {
	switch cashier.ErrorCode(err) {
	case cashier.EAPIKeyRequired:
		return http.StatusUnauthorized
	case cashier.EUnauthorized, cashier.EBadSignature:
		return http.StatusForbidden
	case cashier.ENotFound, cashier.ECashierNotFound, cashier.EContractNotFound:
		return http.StatusNotFound
	case cashier.EInvalid, cashier.EMissing, cashier.EInvalidType, cashier.EInvalidAddress, cashier.EUnsupported,
		cashier.EInvalidAmount, cashier.EInvalidStatus, cashier.EDuplicate, cashier.ENetworkMaintenance,
		cashier.EInsufficientContr, cashier.EInsufficientFunds, cashier.EInsufficientAllow,
		cashier.ENotWhitelisted, cashier.ETooLarge:
		return http.StatusBadRequest
	case cashier.ERateLimited:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

func (s *Server) apiError(w http.ResponseWriter, r *http.Request, err error) {
	status := apiStatus(err)
	msg := cashier.ErrorMessage(err)
	if status == http.StatusInternalServerError {
		s.Logger.Error("dashboard", "path", r.URL.Path, "err", err)
		msg = "internal error"
	}
	if isForm(r) || (r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, apiPrefix)) {
		if status == http.StatusUnauthorized {
			http.Redirect(w, r, Prefix+"signin", http.StatusSeeOther)
			return
		}
		s.renderError(w, r, status, msg)
		return
	}
	code := string(cashier.ErrorCode(err))
	if code == "" {
		code = string(cashier.EInternal)
	}
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// decode fills v (a pointer to a struct of string, *string and []string
// fields with json tags) from a JSON body or a form. Unknown JSON fields
// are refused.
func decode(r *http.Request, v any) error {
	if isForm(r) {
		if err := r.ParseForm(); err != nil {
			return cashier.Errorf(cashier.EInvalid, "bad form: %v", err)
		}
		return fromForm(r.PostForm, v)
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // no body: every field absent
		}
		return cashier.Errorf(cashier.EInvalid, "bad JSON body: %v", err)
	}
	return nil
}

func fromForm(f url.Values, v any) error {
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		vals, ok := f[name]
		if !ok || name == "" {
			continue
		}
		fv := rv.Field(i)
		switch fv.Kind() {
		case reflect.String:
			fv.SetString(vals[0])
		case reflect.Pointer:
			s := vals[0]
			fv.Set(reflect.ValueOf(&s))
		case reflect.Slice:
			fv.Set(reflect.ValueOf(append([]string(nil), vals...)))
		}
	}
	return nil
}

// ---- the API routes

func (s *Server) apiRoutes() {
	s.api("GET "+apiPrefix+"session", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		return map[string]any{"userId": a.user.ID, "email": a.user.Email, "role": a.user.Role,
			"merchantId": a.user.MerchantID, "csrfToken": a.session.CSRF, "totp": a.user.TOTPSecret != nil}, nil
	})
	s.api("GET "+apiPrefix+"merchants", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		merchants, err := s.visibleMerchants(r, a)
		if err != nil {
			return nil, err
		}
		return rowsJSON(merchants, func(m *cashier.Merchant) map[string]any {
			return map[string]any{"merchantId": m.ID, "name": m.Name, "status": m.Status, "createdAt": ms(m.CreatedAt)}
		}), nil
	})
	s.api("POST "+apiPrefix+"keys/rotate", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		mid, err := s.bodyMerchant(r, a)
		if err != nil {
			return nil, err
		}
		k, err := s.RotateKeys(r.Context(), a, mid)
		if err != nil {
			return nil, err
		}
		if isForm(r) {
			// POST/redirect/GET: the keys wait for one view under a token
			// (never in the URL themselves), so a refresh cannot rotate again.
			tok, err := s.putOneTime(r.Context(), a.session.TokenHash, k)
			if err != nil {
				return nil, err
			}
			http.Redirect(w, r, Prefix+"keys?view="+tok, http.StatusSeeOther)
			return nil, nil
		}
		return k, nil
	})
	s.api("POST "+apiPrefix+"keys/revoke-old", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		mid, err := s.bodyMerchant(r, a)
		if err != nil {
			return nil, err
		}
		if err := s.RevokeOldKey(r.Context(), a, mid); err != nil {
			return nil, err
		}
		return s.done(w, r, a, "keys.old.revoked", map[string]any{"merchantId": mid, "previousKeyUntil": 0})
	})
	s.api("POST "+apiPrefix+"keys/revoke", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		mid, err := s.bodyMerchant(r, a)
		if err != nil {
			return nil, err
		}
		if err := s.RevokeKeys(r.Context(), a, mid); err != nil {
			return nil, err
		}
		return s.done(w, r, a, "keys.revoked", map[string]any{"merchantId": mid, "status": cashier.MerchantDisabled})
	})
	s.api("GET "+apiPrefix+"cashiers", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		cs, err := merchantRows(s, r, a, cashier.AccountStore.CashiersByMerchant)
		if err != nil {
			return nil, err
		}
		return rowsJSON(cs, cashierJSON), nil
	})
	s.api("POST "+apiPrefix+"cashiers/{id}", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in CashierChange
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		c, err := s.UpdateCashier(r.Context(), a, r.PathValue("id"), in)
		if err != nil {
			return nil, err
		}
		return s.done(w, r, a, "cashier.saved", cashierJSON(c))
	})
	s.api("POST "+apiPrefix+"cashiers/{id}/test", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		if isForm(r) {
			_ = r.ParseForm()
		}
		res, err := s.TestCashier(r.Context(), a, r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		out := map[string]any{"ok": res.OK(), "url": res.URL, "httpStatus": res.HTTPStatus,
			"latencyMs": res.Latency.Milliseconds(), "error": res.Error, "response": res.Response}
		if isForm(r) {
			s.afterForm(w, r, a, testFlash(res))
			return nil, nil
		}
		return out, nil
	})
	s.api("GET "+apiPrefix+"contracts", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		ks, err := merchantRows(s, r, a, cashier.AccountStore.ContractsByMerchant)
		if err != nil {
			return nil, err
		}
		return rowsJSON(ks, func(k *cashier.Contract) map[string]any { return s.contractJSON(r, k) }), nil
	})
	s.api("POST "+apiPrefix+"contracts", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in ContractRequest
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		k, err := s.CreateContract(r.Context(), a, in)
		if err != nil {
			return nil, err
		}
		return s.done(w, r, a, "contract.saved", map[string]any{"contractId": k.ID, "chainId": k.Chain, "address": k.Address})
	})
	s.api("GET "+apiPrefix+"collections", orderList(s, cashier.AccountStore.SearchCollections, collectionJSON))
	s.api("GET "+apiPrefix+"collections/{id}", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		o, err := s.Store.Collection(r.Context(), r.PathValue("id"))
		if err != nil || !a.mayReadMerchant(o.MerchantID) {
			return nil, errNotFound
		}
		out := collectionJSON(o)
		if out["events"], err = s.eventsJSON(r, o.MerchantID, o.ID); err != nil {
			return nil, err
		}
		if out["payments"], err = s.payments(r, o); err != nil {
			return nil, err
		}
		if out["refunds"], err = s.refunds(r, o); err != nil {
			return nil, err
		}
		return out, nil
	})
	s.api("POST "+apiPrefix+"collections/{id}/refunds", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in RefundRequest
		err := decode(r, &in)
		var f *cashier.Refund
		created := false
		if err == nil {
			f, created, err = s.CreateRefund(r.Context(), a, r.PathValue("id"), in)
		}
		if err != nil && isForm(r) {
			s.backToForm(w, r, a, err, "nav.collections", s.collectionPage)
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if isForm(r) {
			inReview := false
			if f.PayoutID != "" {
				if po, err := s.Store.Payout(r.Context(), f.PayoutID); err == nil {
					inReview = po.NeedsReview && po.Status == cashier.PayoutPending
				}
			}
			s.afterForm(w, r, a, refundFlash(f, created, inReview))
			return nil, nil
		}
		out := s.refundJSON(r, f)
		out["created"] = created
		return out, nil
	})
	s.api("GET "+apiPrefix+"payouts", orderList(s, cashier.AccountStore.SearchPayouts, payoutJSON))
	s.api("GET "+apiPrefix+"payouts/{id}", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		p, err := s.Store.Payout(r.Context(), r.PathValue("id"))
		if err != nil || !a.mayReadMerchant(p.MerchantID) {
			return nil, errNotFound
		}
		out := payoutJSON(p)
		if out["events"], err = s.eventsJSON(r, p.MerchantID, p.ID); err != nil {
			return nil, err
		}
		return out, nil
	})
	s.api("POST "+apiPrefix+"events/{id}/resend", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		if isForm(r) {
			_ = r.ParseForm()
		}
		if err := s.ResendEvent(r.Context(), a, r.PathValue("id")); err != nil {
			return nil, err
		}
		return s.done(w, r, a, "event.resent", map[string]any{"eventId": r.PathValue("id"), "state": cashier.EventPending})
	})
	s.api("GET "+apiPrefix+"review", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		return s.reviewQueue(r, a)
	})
	s.api("POST "+apiPrefix+"review", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in struct {
			MerchantID string   `json:"merchantId"`
			Action     string   `json:"action"`
			IDs        []string `json:"ids"`
			Reason     string   `json:"reason"`
		}
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		var err error = cashier.Errorf(cashier.EInvalid, "action must be approve or refuse")
		if in.Action == "approve" || in.Action == "refuse" {
			err = s.Review(r.Context(), a, in.MerchantID, in.IDs, in.Action == "approve", in.Reason)
		}
		if err != nil && isForm(r) {
			s.backToForm(w, r, a, err, "nav.review", s.reviewPage)
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return s.done(w, r, a, "review."+in.Action, map[string]any{"action": in.Action, "ids": in.IDs})
	})
	s.api("GET "+apiPrefix+"review/policy", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		mid, err := s.merchantOf(r.Context(), a, r.URL.Query().Get("merchantId"))
		if err != nil {
			return nil, err
		}
		if s.Reviewer == nil {
			return nil, cashier.Errorf(cashier.EInternal, "payout review is not available")
		}
		p, err := s.Reviewer.Policy(r.Context(), mid)
		if err != nil {
			return nil, err
		}
		return policyJSON(p), nil
	})
	s.api("POST "+apiPrefix+"review/policy", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in struct {
			MerchantID string `json:"merchantId"`
			Mode       string `json:"mode"`
			Above      string `json:"above"`
		}
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		p, err := s.SetReviewPolicy(r.Context(), a, in.MerchantID, in.Mode, in.Above)
		if err != nil {
			return nil, err
		}
		return s.done(w, r, a, "policy.saved", policyJSON(p))
	})
	s.api("GET "+apiPrefix+"audit", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		es, err := s.audit(r, a)
		if err != nil {
			return nil, err
		}
		return rowsJSON(es, func(e *cashier.AuditEntry) map[string]any {
			return map[string]any{"id": e.ID, "at": ms(e.At), "userId": e.UserID, "email": e.Email,
				"merchantId": e.MerchantID, "action": e.Action, "target": e.Target, "detail": e.Detail, "ip": e.IP}
		}), nil
	})
	s.api("GET "+apiPrefix+"networks", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		return s.networks(r)
	})
	s.api("POST "+apiPrefix+"networks/{chainId}", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in struct {
			Status string `json:"status"`
		}
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		if err := s.SetNetworkStatus(r.Context(), a, r.PathValue("chainId"), in.Status); err != nil {
			return nil, err
		}
		return s.done(w, r, a, "network.saved", map[string]any{"chainId": r.PathValue("chainId"), "status": in.Status})
	})
	s.api("GET "+apiPrefix+"overview", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		return s.overview(r, a)
	})
}

// done answers a change: JSON data, or for a form a redirect with notice.
func (s *Server) done(w http.ResponseWriter, r *http.Request, a *actor, notice string, v any) (any, error) {
	if isForm(r) {
		s.afterForm(w, r, a, flash{Key: notice})
		return nil, nil
	}
	return v, nil
}

// testFlash is the notice of a test delivery: what the receiver answered
// (status, time taken) or why the delivery failed.
func testFlash(res *webhook.TestResult) flash {
	ms := res.Latency.Milliseconds()
	if res.OK() {
		return flash{Key: "test.ok", Detail: fmt.Sprintf("HTTP %d, %d ms, %s", res.HTTPStatus, ms, res.URL)}
	}
	// The error names the HTTP status when the receiver answered.
	return flash{Key: "test.failed", Failed: true, Detail: fmt.Sprintf("%s, %d ms, %s", res.Error, ms, res.URL)}
}

// APIRoutes lists the admin API's "METHOD /path" patterns (for the
// OpenAPI check).
func (s *Server) APIRoutes() []string { return append([]string(nil), s.apiPatterns...) }
