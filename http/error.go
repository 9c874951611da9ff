package http

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/shed"
)

// family is a group of endpoints sharing one envelope and one family of
// wire error codes. The two code families overlap in number and differ in
// meaning (000401 is "contract does not exist" for orders, ERROR_000401 is
// "unauthorized" for configuration), so every response picks its family
// from the endpoint, never from the error.
type family int

const (
	familyOrder  family = iota // /order/api/v2/...: code "200" on success, six-digit codes
	familyConfig               // /admin/api/v2/pub/...: code "0", ERROR_xxxxxx codes
	familyPage                 // HTML pages: /pay/..., /widget
)

func familyOf(path string) family {
	switch {
	case strings.HasPrefix(path, "/admin/"):
		return familyConfig
	case strings.HasPrefix(path, "/pay/"), path == "/widget":
		return familyPage
	}
	return familyOrder
}

// wireError is how one domain code appears on the wire.
type wireError struct {
	order  string // code on order endpoints
	config string // code on configuration endpoints
	status int    // HTTP status (unless Config.ErrorStatus is always200)
}

// errorTable maps every domain error code to its wire codes and HTTP
// status. It is the one place this mapping lives; docs/api.md prints it.
// Codes marked "extension" are not in the provider's tables.
var errorTable = map[cashier.Code]wireError{
	cashier.EInternal:           {"000101", "ERROR_000500", http.StatusInternalServerError},
	cashier.EInvalidType:        {"000102", "ERROR_000400", http.StatusBadRequest}, // config: extension
	cashier.EMissing:            {"000103", "ERROR_000400", http.StatusBadRequest},
	cashier.EInvalid:            {"000105", "ERROR_000400", http.StatusBadRequest},
	cashier.EInvalidAmount:      {"000105", "ERROR_000400", http.StatusBadRequest},
	cashier.EInvalidAddress:     {"000105", "ERROR_000400", http.StatusBadRequest},
	cashier.EUnsupported:        {"000105", "ERROR_000400", http.StatusBadRequest},
	cashier.ENetworkMaintenance: {"000105", "ERROR_000400", http.StatusServiceUnavailable},
	cashier.ETooLarge:           {"000105", "ERROR_000400", http.StatusRequestEntityTooLarge},
	cashier.EDuplicate:          {"000201", "ERROR_000400", http.StatusConflict},
	cashier.EAPIKeyRequired:     {"000112", "ERROR_000401", http.StatusUnauthorized},
	cashier.EUnauthorized:       {"000112", "ERROR_000401", http.StatusUnauthorized},
	cashier.EBadSignature:       {"000306", "ERROR_000401", http.StatusUnauthorized},
	cashier.EStaleRequest:       {"000306", "ERROR_000401", http.StatusUnauthorized},
	cashier.ENotFound:           {"000202", "ERROR_000404", http.StatusNotFound}, // config: extension
	cashier.ECashierNotFound:    {"000202", "ERROR_000101", http.StatusNotFound},
	cashier.ECashierClosed:      {"000204", "ERROR_000102", http.StatusConflict},
	cashier.EContractNotFound:   {"000401", "ERROR_000404", http.StatusNotFound},
	cashier.EInvalidStatus:      {"000204", "ERROR_000400", http.StatusConflict},
	cashier.EInsufficientFunds:  {"000307", "ERROR_000400", http.StatusUnprocessableEntity},
	cashier.EInsufficientAllow:  {"000308", "ERROR_000400", http.StatusUnprocessableEntity},
	cashier.EInsufficientContr:  {"000403", "ERROR_000400", http.StatusUnprocessableEntity},
	cashier.ENotWhitelisted:     {"000405", "ERROR_000400", http.StatusUnprocessableEntity},
	cashier.ERateLimited:        {"000429", "ERROR_000429", http.StatusTooManyRequests}, // extension in both
	// extension in both; answered with Retry-After
	cashier.EOverloaded: {"000503", "ERROR_000503", http.StatusServiceUnavailable},
	// extension in both: the database is unreachable (a restart, a
	// failover); nothing was written, so the same request may be retried.
	cashier.EUnavailable: {"000503", "ERROR_000503", http.StatusServiceUnavailable},
}

// successCode is the envelope code of a successful response.
func (f family) successCode() string {
	if f == familyConfig {
		return "0"
	}
	return "200"
}

// lookup returns the wire form of err's code; codes missing from the table
// are treated as internal errors.
func lookup(err error) (wireError, cashier.Code) {
	code := cashier.ErrorCode(err)
	w, ok := errorTable[code]
	if !ok {
		return errorTable[cashier.EInternal], cashier.EInternal
	}
	return w, code
}

// ok writes a success envelope around data.
func (s *server) ok(w http.ResponseWriter, r *http.Request, data any) {
	ri := info(r)
	s.writeJSON(w, http.StatusOK, api.Envelope{Code: ri.family.successCode(), Success: true, Msg: "success", Message: "success", Trace: ri.trace, Data: data})
}

// error writes err with the status of the error table.
func (s *server) error(w http.ResponseWriter, r *http.Request, err error) {
	we, _ := lookup(err)
	s.errorStatus(w, r, err, we.status)
}

// errorStatus writes err in the endpoint family's form with status.
func (s *server) errorStatus(w http.ResponseWriter, r *http.Request, err error, status int) {
	ri := info(r)
	ri.err = err
	we, code := lookup(err)
	msg := cashier.ErrorMessage(err)
	if code == cashier.EInternal {
		msg = "system error" // details go to the log, never to the client
	}
	if code == cashier.EOverloaded && ri.writeID != 0 && w.Header().Get("Retry-After") == "" {
		// A write admitted at the door, then refused by the store's
		// writer: it keeps a place like one refused at the door.
		w.Header().Set("Retry-After", strconv.Itoa(int(shed.RoundUp(s.admit.BookRefused(time.Now(), ri.writeID))/time.Second)))
	}
	if (code == cashier.EOverloaded || code == cashier.EUnavailable) && w.Header().Get("Retry-After") == "" {
		// Overload passes within moments: the queue drains at thousands
		// of writes per second. (Admission sets its own, package shed.)
		w.Header().Set("Retry-After", "1")
	}
	if s.cfg.ErrorStatus == StatusAlways200 {
		status = http.StatusOK
	}
	switch ri.family {
	case familyPage:
		s.renderError(w, status, msg)
		return
	case familyConfig:
		s.writeJSON(w, status, api.Envelope{Code: we.config, Msg: msg, Message: msg, Trace: ri.trace})
	default:
		s.writeJSON(w, status, api.Envelope{Code: we.order, Msg: msg, Message: msg, Trace: ri.trace})
	}
}

func (s *server) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the status is sent; a failed write is the client's loss
}
