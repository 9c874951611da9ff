package http

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// The fields and query parameters each endpoint defines. Besides the
// interface's fields they include what real clients send: custNo on
// collection create, chainId on payout create, and the body field sign.
var (
	payoutFields       = []string{"contractId", "orderNo", "recipient", "amount", "symbol", "payoutType", "fromAddress", "remark", "chainId", "custNo", "sign"}
	batchFields        = []string{"contractId", "payoutType", "fromAddress", "orders", "sign"}
	batchOrderFields   = []string{"orderNo", "recipient", "amount", "symbol", "remark"}
	collectionFields   = []string{"cashierId", "orderNo", "amount", "symbol", "chainId", "redirectUrl", "custNo", "sign"}
	detailFields       = []string{"orderNo"}
	listFields         = []string{"startTime", "endTime", "status", "page", "pageSize"}
	cashierInfoFields  = []string{"cashierId"}
	refundFields       = []string{"orderNo", "refundNo", "amount", "address", "symbol", "reason", "sign"}
	refundDetailFields = []string{"refundNo"}
	payoutListFields   = []string{"startTime", "endTime", "status", "page", "pageSize", "contractId"}
	cancelFields       = []string{"orderNo", "sign"}
	balanceFields      = []string{"contractId", "chainId", "symbol"}
	ledgerFields       = []string{"contractId", "chainId", "symbol", "kind", "startTime", "endTime", "page", "pageSize"}
)

// fields decodes parsed parameters (a JSON object or a query) into typed
// values, strictly: a value of the wrong JSON type is refused (000102)
// naming the field, an absent required field is refused (000103), and
// fields the endpoint does not define are refused (000105) unless the
// policy ignores them. The first problem found is reported.
type fields struct {
	p      map[string]any
	prefix string // "orders[2]." inside a batch, for messages
	err    error
	// digits accepts a JSON string of decimal digits for an integer field.
	digits bool
}

// newFields starts decoding p, whose defined fields are known.
func newFields(p map[string]any, prefix string, policy UnknownFieldPolicy, known ...string) *fields {
	f := &fields{p: p, prefix: prefix}
	if policy == UnknownIgnore {
		return f
	}
	var unknown []string
	for k := range p {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		sorted := append([]string(nil), known...)
		sort.Strings(sorted)
		f.err = cashier.Errorf(cashier.EInvalid, "unknown field %s%q; accepted fields are %s", prefix, unknown[0], strings.Join(sorted, ", "))
	}
	return f
}

func (f *fields) fail(code cashier.Code, format string, args ...any) {
	if f.err == nil {
		f.err = cashier.Errorf(code, format, args...)
	}
}

// str returns the string field name; null counts as absent.
func (f *fields) str(name string, required bool) string {
	v, ok := f.p[name]
	if !ok || v == nil {
		if required {
			f.fail(cashier.EMissing, "%s%s is required", f.prefix, name)
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		f.fail(cashier.EInvalidType, "%s%s must be a JSON string, not %s", f.prefix, name, jsonType(v))
		return ""
	}
	return s
}

// amount is str with a hint for the common mistake of sending a number:
// a float would lose money, so amounts travel as decimal strings.
func (f *fields) amount(name string) string {
	if v, ok := f.p[name].(json.Number); ok {
		f.fail(cashier.EInvalidType, "%s%s must be a JSON string such as \"%s\", not the number %s", f.prefix, name, v, v)
		return ""
	}
	return f.str(name, true)
}

// integer returns the optional integer field name (0 when absent).
func (f *fields) integer(name string) int {
	v, ok := f.p[name]
	if !ok || v == nil {
		return 0
	}
	n, isNum := v.(json.Number)
	if t, isText := v.(string); isText && f.digits && t != "" && strings.Trim(t, "0123456789") == "" {
		n, isNum = json.Number(t), true
	}
	if !isNum {
		f.fail(cashier.EInvalidType, "%s%s must be a JSON integer, not %s", f.prefix, name, jsonType(v))
		return 0
	}
	i, err := strconv.ParseInt(n.String(), 10, 32)
	if err != nil {
		f.fail(cashier.EInvalidType, "%s%s must be an integer, not %s", f.prefix, name, n)
		return 0
	}
	return int(i)
}

// objects returns the required array-of-objects field name.
func (f *fields) objects(name string) []map[string]any {
	v, ok := f.p[name]
	if !ok || v == nil {
		f.fail(cashier.EMissing, "%s%s is required", f.prefix, name)
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		f.fail(cashier.EInvalidType, "%s%s must be a JSON array, not %s", f.prefix, name, jsonType(v))
		return nil
	}
	out := make([]map[string]any, len(arr))
	for i, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			f.fail(cashier.EInvalidType, "%s%s[%d] must be a JSON object, not %s", f.prefix, name, i, jsonType(e))
			return nil
		}
		out[i] = m
	}
	return out
}

func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case json.Number:
		return "the number " + v.String()
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// queryParams turns a raw query into Params, refusing malformed text and
// repeated parameters (their signed form would be ambiguous).
func queryParams(raw string) (sign.Params, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, cashier.Errorf(cashier.EInvalid, "query string is malformed: %v", err)
	}
	p, err := sign.FromQuery(q)
	if err != nil {
		return nil, cashier.Errorf(cashier.EInvalid, "%v", err)
	}
	return p, nil
}

// queryInt reads an optional integer query parameter.
func (f *fields) queryInt(name string) (int64, bool) {
	s := f.str(name, false)
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f.fail(cashier.EInvalidType, "%s must be an integer, not %q", name, s)
		return 0, false
	}
	return n, true
}

// queryMillis reads an optional Unix-milliseconds query parameter.
func (f *fields) queryMillis(name string) (int64, bool) {
	n, ok := f.queryInt(name)
	if !ok {
		return 0, false
	}
	if n < 0 {
		f.fail(cashier.EInvalid, "%s must not be negative", name)
		return 0, false
	}
	if n > 0 && n < sign.MinPlausibleMillis {
		f.fail(cashier.EInvalid, "%s %d looks like Unix seconds; send Unix milliseconds", name, n)
		return 0, false
	}
	return n, true
}
