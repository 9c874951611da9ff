package http

import (
	"net/http"
	"strings"

	"github.com/stablecashier/cashier/api"
)

// addRoutes registers every route of the server. Authentication per route:
// authSigned needs the API key and a valid Signature-V2 over the body (POST)
// or the query (GET); authKey needs the API key only; authPublic needs
// nothing.
func (s *server) addRoutes() {
	// Payout orders.
	s.handle("POST "+api.PathCreatePayout, authSigned, s.handleCreatePayout)
	s.handle("GET "+api.PathPayoutDetail, authSigned, s.handlePayoutDetail)
	s.handle("POST "+api.PathBatchPayout, authSigned, s.handleBatchPayout)
	s.handle("GET "+api.PathPayoutList, authSigned, s.handlePayoutList)

	// Collection orders.
	s.handle("POST "+api.PathCreateCollection, authSigned, s.handleCreateCollection)
	s.handle("GET "+api.PathCollectionDetail, authSigned, s.handleCollectionDetail)
	s.handle("GET "+api.PathCollectionList, authSigned, s.handleCollectionList)
	s.handle("POST "+api.PathCollectionCancel, authSigned, s.handleCollectionCancel)

	// What the merchant holds: balances and the ledger of movements.
	s.handle("GET "+api.PathBalance, authSigned, s.handleBalance)
	s.handle("GET "+api.PathLedger, authSigned, s.handleLedger)

	// Refunds of collection orders, and the refund link's page.
	s.handle("POST "+api.PathRefund, authSigned, s.handleCreateRefund)
	s.handle("GET "+api.PathRefundDetail, authSigned, s.handleRefundDetail)
	s.handle("POST "+api.PathRefundCancel, authSigned, s.handleRefundCancel)
	s.handle("GET /refund/{refundId}", authPublic, s.handleRefundPage)
	s.handle("POST /refund/{refundId}", authPublic, s.handleRefundAddress)

	// Configuration.
	s.handle("GET "+api.PathCashierInfo, authKey, s.handleCashierInfo)
	s.handle("GET "+api.PathCoins, authPublic, s.handleCoinList)
	s.handle("GET "+api.PathNetworks, authPublic, s.handleNetworkList)

	// Pages for customers.
	s.handle("GET /pay/{orderId}", authPublic, s.handlePayPage)
	s.handle("GET /widget", authPublic, s.handleWidget)
	s.handle("GET /pay/{orderId}/status", authPublic, s.handlePayStatus)
	s.handle("POST /pay/{orderId}/cancel", authPublic, s.handlePayCancel)
	s.handle("POST /pay/{orderId}/choose", authPublic, s.handlePayChoose)
	s.handle("GET /assets/{name}", authPublic, s.handleAsset)

	// The widget SDK: its script and the orders it creates from a browser.
	s.handle("POST /sdk/v2/order", authPublic, s.handleSDKOrder)
	s.handle("GET /libs/v2/{name}", authPublic, s.handleSDKScript)
}

// authMode is what a route demands of the caller.
type authMode int

const (
	authPublic authMode = iota
	authKey
	authSigned
)

// handler serves one route after authentication; an error it returns is
// answered in the route family's form.
type handler func(w http.ResponseWriter, r *http.Request, c *call) error

type route struct {
	pattern string
	auth    authMode
	h       handler
}

func (s *server) handle(pattern string, auth authMode, h handler) {
	rt := &route{pattern: pattern, auth: auth, h: h}
	s.routes[pattern] = rt
	if _, path, _ := strings.Cut(pattern, " "); !strings.Contains(path, "{") {
		s.paths[path] = true
	}
	s.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.authenticate(w, r, rt.auth)
		if held := info(r).held; held.Limit > 0 && (err != nil || c.merchant == nil) {
			s.refuseLimited(w, r, held) // not proven: the anonymous limit stands
			return
		}
		if err == nil && c.merchant != nil && !s.applyLimits(w, r, s.callChecks(r, rt, c)) {
			return
		}
		if err == nil {
			err = rt.h(w, r, c)
		}
		if err != nil {
			s.error(w, r, err)
		}
	}))
}
