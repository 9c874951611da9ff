package cashier

import (
	"errors"
	"fmt"
)

// Code names a kind of failure in the domain. The http package maps each code
// to the wire codes and HTTP statuses of the two endpoint families; the domain
// itself knows nothing of wire formats.
type Code string

const (
	EInternal           Code = "internal"            // a bug or an outside system failed
	EInvalid            Code = "invalid"             // a request is malformed in a way no other code names
	EInvalidType        Code = "invalid_type"        // a field has the wrong JSON type
	EMissing            Code = "missing"             // a required field or parameter is absent
	EInvalidAmount      Code = "invalid_amount"      // an amount is not a valid decimal or outside bounds
	EInvalidAddress     Code = "invalid_address"     // an address is not valid for its network
	EUnsupported        Code = "unsupported"         // a token or network is not supported
	EDuplicate          Code = "duplicate"           // the same merchant order number exists already
	EAPIKeyRequired     Code = "api_key_required"    // no API key header
	EUnauthorized       Code = "unauthorized"        // unknown or disabled API key
	EBadSignature       Code = "bad_signature"       // the signature does not verify
	EStaleRequest       Code = "stale_request"       // request time outside the validity window
	ENotFound           Code = "not_found"           // an order does not exist (for this merchant)
	ECashierNotFound    Code = "cashier_not_found"   // the cashier does not exist (for this merchant)
	ECashierClosed      Code = "cashier_closed"      // the cashier is inactive
	EContractNotFound   Code = "contract_not_found"  // the payout contract does not exist (for this merchant)
	EInvalidStatus      Code = "invalid_status"      // a state transition the state machine forbids
	EInsufficientFunds  Code = "insufficient_funds"  // allowance mode: wallet balance too low
	EInsufficientAllow  Code = "insufficient_allow"  // allowance mode: allowance too low
	EInsufficientContr  Code = "insufficient_contr"  // balance mode: contract balance minus locked too low
	ENotWhitelisted     Code = "not_whitelisted"     // recipient not in the contract's whitelist
	ERateLimited        Code = "rate_limited"        // a rate limit is exhausted
	ETooLarge           Code = "too_large"           // a body or batch exceeds its limit
	ENetworkMaintenance Code = "network_maintenance" // the network is in maintenance
	EOverloaded         Code = "overloaded"          // more work is waiting than the service admits; retry shortly
	EUnavailable        Code = "unavailable"         // the database cannot be reached; nothing was done, retry shortly
)

// Error is a domain error: a code for machines and a message for people.
type Error struct {
	Code    Code
	Message string
	Err     error // the cause, when an outside system's error was classified
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Unwrap returns the cause, so errors.Is and errors.As see through.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, EInternal for errors that are not
// domain errors, and "" for nil.
func ErrorCode(err error) Code {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the human message of err; internal details of foreign
// errors are not exposed.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	}
	return "internal error"
}
