package dashboard

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// bodyMerchant reads the merchant named in the body or form (a merchant
// user's own).
func (s *Server) bodyMerchant(r *http.Request, a *actor) (string, error) {
	var in struct {
		MerchantID string `json:"merchantId"`
	}
	if err := decode(r, &in); err != nil {
		return "", err
	}
	return s.merchantOf(r.Context(), a, in.MerchantID)
}

// merchantRows reads the records of the merchant named in the query (a
// merchant user's own). find is a method expression, so s.Store is read
// per request as before.
func merchantRows[T any](s *Server, r *http.Request, a *actor,
	find func(cashier.AccountStore, context.Context, string) ([]T, error)) ([]T, error) {
	mid, err := s.merchantOf(r.Context(), a, r.URL.Query().Get("merchantId"))
	if err != nil {
		return nil, err
	}
	return find(s.Store, r.Context(), mid)
}

// orderList answers a search of orders (collections, payouts) with one
// page of rows, the total and the page asked for. find is a method
// expression, as for merchantRows.
func orderList[T any](s *Server, find func(cashier.AccountStore, context.Context, cashier.OrderSearch) ([]T, int, error),
	one func(*T) map[string]any) apiHandler {
	return func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		f, err := s.search(r, a)
		if err != nil {
			return nil, err
		}
		rows, total, err := find(s.Store, r.Context(), f)
		if err != nil {
			return nil, err
		}
		return map[string]any{"list": rowsJSON(rows, one), "total": total, "page": f.Page, "pageSize": f.PageSize}, nil
	}
}

func (s *Server) visibleMerchants(r *http.Request, a *actor) ([]cashier.Merchant, error) {
	if a.operator() {
		return s.Store.Merchants(r.Context())
	}
	m, err := s.Store.Merchant(r.Context(), a.user.MerchantID)
	if err != nil {
		return nil, err
	}
	return []cashier.Merchant{*m}, nil
}

func (s *Server) audit(r *http.Request, a *actor) ([]cashier.AuditEntry, error) {
	if !a.can(OpAuditRead) {
		return nil, errForbidden
	}
	f := cashier.AuditFilter{MerchantID: a.user.MerchantID, Limit: 200}
	if a.operator() {
		f.MerchantID = r.URL.Query().Get("merchantId")
	}
	return s.Store.Audit(r.Context(), f)
}

// search reads the list filters of the query. Merchant users always see
// only their merchant; operators see all unless they name one.
func (s *Server) search(r *http.Request, a *actor) (cashier.OrderSearch, error) {
	q := r.URL.Query()
	f := cashier.OrderSearch{MerchantID: a.user.MerchantID, Status: strings.ToUpper(strings.TrimSpace(q.Get("status"))),
		Symbol: strings.ToUpper(strings.TrimSpace(q.Get("symbol"))), OrderNo: strings.TrimSpace(q.Get("orderNo")),
		Address: strings.TrimSpace(q.Get("address")), TxID: strings.TrimSpace(q.Get("txId")), Page: 1, PageSize: 50}
	if a.operator() {
		f.MerchantID = q.Get("merchantId")
	}
	if c := strings.TrimSpace(q.Get("chainId")); c != "" {
		ch, err := cashier.ParseChain(c)
		if err != nil {
			return f, err
		}
		f.Chain = ch
	}
	for _, t := range []struct {
		name string
		dst  *time.Time
		end  bool
	}{{"from", &f.Start, false}, {"to", &f.End, true}} {
		v := strings.TrimSpace(q.Get(t.name))
		if v == "" {
			continue
		}
		// A date (from the page's date input) or Unix milliseconds.
		if d, err := time.Parse("2006-01-02", v); err == nil {
			if t.end {
				d = d.Add(24*time.Hour - time.Millisecond)
			}
			*t.dst = d
		} else if ms, err := strconv.ParseInt(v, 10, 64); err == nil && ms >= 0 {
			*t.dst = time.UnixMilli(ms).UTC()
		} else {
			return f, cashier.Errorf(cashier.EInvalid, "%s must be a date YYYY-MM-DD or Unix milliseconds", t.name)
		}
	}
	for _, p := range []struct {
		name string
		dst  *int
		max  int
	}{{"page", &f.Page, 1 << 20}, {"pageSize", &f.PageSize, 200}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > p.max {
				return f, cashier.Errorf(cashier.EInvalid, "%s must be 1 to %d", p.name, p.max)
			}
			*p.dst = n
		}
	}
	return f, nil
}
