package http

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/ratelimit"
	"github.com/stablecashier/cashier/sign"
)

// Browser-created orders: the widget SDK (cashierpage/sdk.js) creates the
// order from the merchant's page with the publishable API key alone. The
// key is public, so the order is accepted only from a page whose Origin
// is one of the cashier's allowed origins (CORS answers only those), at
// most RateLimits.BrowserOrders per minute per client IP, within the
// token's amount bounds; the order is marked with its origin.
//
// The request is a CORS "simple request" (POST, Content-Type text/plain,
// the key in the body), so no preflight is needed.

// SDK error codes, as the provider's widget SDK documents them.
const (
	sdkParam     = 1001 // parameter error
	sdkCashier   = 1002 // cashier does not exist (or is closed, or the key is wrong)
	sdkSignature = 1003 // signature verification failed: here, an origin not allowed
	sdkExpired   = 1004 // order expired
	sdkNetwork   = 1005 // network error
)

// sdkOrderFields are the fields the SDK sends.
var sdkOrderFields = []string{"apiKey", "cashierId", "orderNo", "amount", "symbol", "chainId", "redirectUrl", "custNo",
	"defaultChainId", "defaultCurrency"}

type sdkError struct {
	status int
	code   int
	msg    string
}

func (s *server) sdkFail(w http.ResponseWriter, r *http.Request, e sdkError) {
	info(r).err = cashier.Errorf(cashier.EInvalid, "sdk %d: %s", e.code, e.msg)
	s.writeJSON(w, e.status, map[string]any{"success": false, "code": e.code, "message": e.msg})
}

// sdkErrorOf maps a service error onto the SDK's codes.
func sdkErrorOf(err error) sdkError {
	we, code := lookup(err)
	msg := cashier.ErrorMessage(err)
	switch code {
	case cashier.ECashierNotFound, cashier.ECashierClosed, cashier.EUnauthorized, cashier.EAPIKeyRequired:
		return sdkError{we.status, sdkCashier, msg}
	case cashier.EInternal:
		return sdkError{we.status, sdkNetwork, "system error"}
	case cashier.EOverloaded, cashier.ERateLimited, cashier.EUnavailable:
		return sdkError{we.status, sdkNetwork, msg}
	}
	return sdkError{we.status, sdkParam, msg}
}

// handleSDKOrder creates (or returns again) a browser-created order.
func (s *server) handleSDKOrder(w http.ResponseWriter, r *http.Request, _ *call) error {
	origin := r.Header.Get("Origin")
	body, err := s.readBody(w, r)
	if err != nil {
		s.sdkFail(w, r, sdkErrorOf(err))
		return nil
	}
	p, err := sign.ParseJSONObject(body)
	if err != nil {
		s.sdkFail(w, r, sdkError{http.StatusBadRequest, sdkParam, "the request must be one JSON object"})
		return nil
	}
	f := newFields(p, "", UnknownIgnore, sdkOrderFields...)
	key := f.str("apiKey", true)
	req := orders.CollectionRequest{
		CashierID: f.str("cashierId", true), OrderNo: f.str("orderNo", false), Amount: f.amount("amount"),
		Symbol: f.str("symbol", false), ChainID: f.str("chainId", false), RedirectURL: f.str("redirectUrl", false),
		CustNo: f.str("custNo", false), Origin: origin,
	}
	// Without a fixed chainId (symbol), the customer chooses the network
	// (token) on the page; defaultChainId (defaultCurrency) preselects it.
	if req.ChainID == "" {
		req.ChainID, req.ChooseChain = f.str("defaultChainId", false), true
		if req.ChainID == "" {
			req.ChainID = string(cashier.ChainTRON)
		}
	}
	if req.Symbol == "" {
		req.Symbol, req.ChooseToken = f.str("defaultCurrency", false), true
		if req.Symbol == "" {
			req.Symbol = "USDT"
		}
	}
	if f.err != nil {
		s.sdkFail(w, r, sdkErrorOf(f.err))
		return nil
	}
	m, err := s.store.MerchantByAPIKey(r.Context(), key)
	if err != nil || m.Status != cashier.MerchantActive || !m.KeyValid(s.clock.Now()) {
		s.sdkFail(w, r, sdkError{http.StatusUnauthorized, sdkCashier, "the API key is not valid"})
		return nil
	}
	info(r).merchant = m.ID
	c, err := s.store.Cashier(r.Context(), req.CashierID)
	if err != nil || c.MerchantID != m.ID {
		s.sdkFail(w, r, sdkError{http.StatusNotFound, sdkCashier, "cashier " + req.CashierID + " does not exist"})
		return nil
	}
	if !c.AllowsOrigin(origin) {
		// No CORS headers: the browser keeps even this answer from the page.
		s.sdkFail(w, r, sdkError{http.StatusForbidden, sdkSignature, "origin " + origin + " may not create orders for this cashier"})
		return nil
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	if res := s.limiter.Allow(ratelimit.Check{Rule: ruleEndpoint, Bucket: "sdk order ip:" + s.ipBucket(s.clientIP(r)),
		Limit: s.cfg.RateLimits.BrowserOrders}); !res.Allowed {
		h.Set("Retry-After", strconv.Itoa(int(res.RetryAfter(s.clock.Now())/time.Second)))
		s.sdkFail(w, r, sdkError{http.StatusTooManyRequests, sdkNetwork, "too many orders from this address; retry later"})
		return nil
	}
	if req.OrderNo == "" {
		var b [8]byte
		rand.Read(b[:])
		req.OrderNo = "W" + strings.ToUpper(hex.EncodeToString(b[:]))
	}
	o, err := s.svc.CreateCollection(r.Context(), m, req)
	if cashier.ErrorCode(err) == cashier.EDuplicate {
		// The same orderNo again (a reload of the merchant's page, two
		// clicks): the same order, never a second; a different request
		// under that number is refused.
		o, err = s.store.CollectionByOrderNo(r.Context(), m.ID, req.OrderNo)
		if err == nil && !sameSDKOrder(o, req) {
			s.sdkFail(w, r, sdkError{http.StatusConflict, sdkParam, "order " + req.OrderNo + " exists already with other details"})
			return nil
		}
	}
	if err != nil {
		s.sdkFail(w, r, sdkErrorOf(err))
		return nil
	}
	st := o.Status
	if st == cashier.CollectionExpired || (st == cashier.CollectionPending && !s.clock.Now().Before(o.ExpireAt)) {
		s.sdkFail(w, r, sdkError{http.StatusConflict, sdkExpired, "order " + o.OrderNo + " has expired"})
		return nil
	}
	payURL := s.payURL(r, o)
	q := url.Values{"embed": {"1"}, "origin": {origin}}
	s.writeJSON(w, http.StatusOK, map[string]any{"success": true, "code": 0, "data": map[string]any{
		"orderNo": o.OrderNo, "orderId": o.ID, "payUrl": payURL, "embedUrl": payURL + "?" + q.Encode(),
		"status": string(o.Status), "txId": o.TxID, "expireTime": cashier.Millis(o.ExpireAt),
	}})
	return nil
}

// sameSDKOrder reports whether an existing order is what req asks again:
// the same amount and cashier, and the same fixed network and token, or
// the same freedom to choose them (whatever the customer chose since).
func sameSDKOrder(o *cashier.CollectionOrder, req orders.CollectionRequest) bool {
	amount, err := cashier.ParseAmount(req.Amount, o.Decimals)
	ch, cerr := cashier.ParseChain(req.ChainID)
	sameChain := req.ChooseChain == o.MayChoose(cashier.ChooseChain) && (req.ChooseChain || ch == o.Chain)
	sameToken := req.ChooseToken == o.MayChoose(cashier.ChooseToken) && (req.ChooseToken || strings.EqualFold(req.Symbol, o.Symbol))
	return err == nil && cerr == nil && amount.Cmp(o.Amount) == 0 && sameChain && sameToken &&
		req.CashierID == o.CashierID && o.Origin != ""
}

// frameOrigin is the merchant origin that may embed the page of o: the
// ?origin= of an embedded page when the order's cashier allows it.
func (s *server) frameOrigin(r *http.Request, o *cashier.CollectionOrder) string {
	origin := r.URL.Query().Get("origin")
	if r.URL.Query().Get("embed") != "1" || origin == "" {
		return ""
	}
	c, err := s.store.Cashier(r.Context(), o.CashierID)
	if err != nil || !c.AllowsOrigin(origin) {
		return ""
	}
	return origin
}

// handleSDKScript serves the SDK as /libs/v2/cashier.umd.js defining
// window.Cashier and, under a brand (--header-prefix BlockATM), also as
// /libs/v2/BlockATM.umd.js defining window.BlockATM, so pages written for
// the provider's SDK work with only the script host changed.
func (s *server) handleSDKScript(w http.ResponseWriter, r *http.Request, _ *call) error {
	name, ok := strings.CutSuffix(r.PathValue("name"), ".umd.js")
	global := ""
	switch {
	case !ok:
	case name == "cashier":
		global = "Cashier"
	case s.cfg.HeaderPrefix != sign.DefaultPrefix && name == s.cfg.HeaderPrefix && validGlobal(name):
		global = name
	}
	if global == "" {
		http.NotFound(w, r)
		return nil
	}
	b, err := cashierAssets.ReadFile("cashierpage/sdk.js")
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin") // merchants' pages load it
	w.Write([]byte(strings.Replace(string(b), "__CASHIER_GLOBAL__", global, 1)))
	return nil
}

// validGlobal reports whether name is a plain JavaScript identifier.
func validGlobal(name string) bool {
	for i, c := range name {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return name != ""
}
