package http

import (
	"crypto/rand"
	"encoding/hex"
	"math/big"
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
	"defaultChainId", "defaultCurrency", "orderToken", "resumeToken"}

// A browser can never choose, reach or cancel an order number of the
// merchant's on its own: the publishable key is public. An orderNo from
// the page needs the merchant's orderToken, the widget URL signing
// (sign.SignWidget, HMAC-SHA256 under the secret key) of a query naming at
// least apiKey, orderNo and amount, made by the merchant's server; the
// token's values bind the order (custNo, cashierId, chainId, symbol too
// when it names them). Without one the service numbers the order. An
// existing order is handed out again only with the resumeToken its
// creation returned, which only the browser that created it holds.

// resumeToken is the capability of the browser that created o: an HMAC of
// the order's id under a key derived from the merchant's secret key, so
// it needs no storage and no one else can compute it.
func resumeToken(m *cashier.Merchant, o *cashier.CollectionOrder) string {
	return sign.HMAC(sign.HMAC(m.SecretKey, "cashier browser order resume"), o.ID)
}

// applyOrderToken verifies the merchant's orderToken and binds req to its
// values: each value the token names must equal the request's (an absent
// request value takes the token's).
func (s *server) applyOrderToken(m *cashier.Merchant, apiKey, token string, req *orders.CollectionRequest) *sdkError {
	vals, err := sign.VerifyWidgetQuery(m.SecretKey, token, s.cfg.Encodings...)
	if err != nil {
		return &sdkError{http.StatusUnauthorized, sdkSignature, "orderToken is not signed with the merchant's secret key"}
	}
	if vals.Get("apiKey") != apiKey {
		return &sdkError{http.StatusUnauthorized, sdkSignature, "orderToken was issued for another apiKey"}
	}
	if vals.Get("orderNo") == "" || vals.Get("amount") == "" {
		return &sdkError{http.StatusBadRequest, sdkParam, "orderToken must name orderNo and amount"}
	}
	mismatch := func(field string) *sdkError {
		return &sdkError{http.StatusBadRequest, sdkParam, field + " differs from the orderToken's"}
	}
	for _, b := range []struct {
		field string
		dst   *string
	}{{"orderNo", &req.OrderNo}, {"custNo", &req.CustNo}, {"cashierId", &req.CashierID}} {
		if v := vals.Get(b.field); v != "" {
			if *b.dst != "" && *b.dst != v {
				return mismatch(b.field)
			}
			*b.dst = v
		}
	}
	want, err1 := new(big.Rat).SetString(vals.Get("amount"))
	got, err2 := new(big.Rat).SetString(req.Amount)
	if req.Amount == "" {
		req.Amount, got, err2 = vals.Get("amount"), want, err1
	}
	if !err1 || !err2 || want.Cmp(got) != 0 {
		return mismatch("amount")
	}
	if v := vals.Get("chainId"); v != "" {
		a, errA := cashier.ParseChain(v)
		b, errB := cashier.ParseChain(req.ChainID)
		if errA != nil || errB != nil || a != b || req.ChooseChain {
			return mismatch("chainId")
		}
	}
	for _, k := range []string{"symbol", "currency"} {
		if v := vals.Get(k); v != "" && (!strings.EqualFold(v, req.Symbol) || req.ChooseToken) {
			return mismatch(k)
		}
	}
	return nil
}

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
	orderToken, resume := f.str("orderToken", false), f.str("resumeToken", false)
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
	signed := orderToken != ""
	if signed {
		if e := s.applyOrderToken(m, key, orderToken, &req); e != nil {
			s.sdkFail(w, r, *e)
			return nil
		}
	}
	var o *cashier.CollectionOrder
	if resume != "" {
		// The browser that created the order asks for it again (a reload):
		// its resumeToken is the proof; nobody else gets the page.
		if req.OrderNo == "" {
			s.sdkFail(w, r, sdkError{http.StatusBadRequest, sdkParam, "resumeToken goes with the orderNo it was issued for"})
			return nil
		}
		prev, err := s.store.CollectionByOrderNo(r.Context(), m.ID, req.OrderNo)
		switch {
		case err == nil && sign.Equal(resume, resumeToken(m, prev)):
			if !sameSDKOrder(prev, req) {
				s.sdkFail(w, r, sdkError{http.StatusConflict, sdkParam, "order " + req.OrderNo + " exists already with other details"})
				return nil
			}
			o = prev
		case err == nil || (cashier.ErrorCode(err) == cashier.ENotFound && !signed):
			s.sdkFail(w, r, sdkError{http.StatusForbidden, sdkSignature, "order " + req.OrderNo + " was not created in this browser"})
			return nil
		case cashier.ErrorCode(err) != cashier.ENotFound:
			s.sdkFail(w, r, sdkErrorOf(err))
			return nil
		}
	} else if req.OrderNo != "" && !signed {
		s.sdkFail(w, r, sdkError{http.StatusForbidden, sdkSignature, "an orderNo chosen by the page needs the merchant's orderToken " +
			"(signed by the merchant's server); without one, leave orderNo out and the service numbers the order"})
		return nil
	}
	if o == nil {
		if req.OrderNo == "" {
			var b [8]byte
			rand.Read(b[:])
			req.OrderNo = "W" + strings.ToUpper(hex.EncodeToString(b[:]))
		}
		var err error
		o, err = s.svc.CreateCollection(r.Context(), m, req)
		if cashier.ErrorCode(err) == cashier.EDuplicate {
			// The number is taken (by the merchant's API, or by a browser
			// that holds its resumeToken): never handed out to this one.
			s.sdkFail(w, r, sdkError{http.StatusConflict, sdkParam, "order " + req.OrderNo + " exists already; it opens only in the browser that created it"})
			return nil
		}
		if err != nil {
			s.sdkFail(w, r, sdkErrorOf(err))
			return nil
		}
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
		"status": string(o.Status), "txId": o.TxID, "expireTime": cashier.Millis(o.ExpireAt), "resumeToken": resumeToken(m, o),
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
