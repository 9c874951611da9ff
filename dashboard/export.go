package dashboard

import (
	"context"
	"encoding/csv"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/ledger"
)

// RefundRow is one refund in the refunds export.
type RefundRow struct {
	Created   time.Time
	RefundNo  string
	OrderNo   string // the collection order refunded
	Status    string
	Chain     cashier.Chain
	Symbol    string
	Decimals  int
	Amount    *big.Int
	Fee       *big.Int
	Address   string
	TxID      string
	Completed time.Time
}

// RefundExporter lists a merchant's refunds created in [start, end] (zero:
// unbounded) for the refunds export; nil exports the header alone.
type RefundExporter interface {
	RefundRows(ctx context.Context, merchantID string, start, end time.Time) ([]RefundRow, error)
}

// exportKinds are the CSV exports; each is a file an accountant opens in
// a spreadsheet: times in UTC, amounts as decimal text with their token
// and network, fees and transaction ids.
var exportKinds = []string{"collections", "payouts", "refunds", "ledger"}

const csvTime = "2006-01-02 15:04:05"

func utc(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(csvTime)
}

// text guards a free-text cell against being read as a formula by a
// spreadsheet (=, +, -, @ and the control characters that start one).
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func (s *Server) exportRoutes() {
	s.mux.HandleFunc("GET "+Prefix+"export/{file}", func(w http.ResponseWriter, r *http.Request) {
		a, err := s.authenticate(r)
		if err == nil && a == nil {
			err = errSignedOut
		}
		if err == nil && !a.can(OpView) {
			err = errForbidden
		}
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		kind, ok := strings.CutSuffix(r.PathValue("file"), ".csv")
		if !ok || !contains(exportKinds, kind) {
			s.apiError(w, r, cashier.Errorf(cashier.ENotFound, "no export %q; exports are collections.csv, payouts.csv, refunds.csv and ledger.csv", r.PathValue("file")))
			return
		}
		f, err := s.search(r, a)
		if err == nil && f.MerchantID == "" {
			err = cashier.Errorf(cashier.EMissing, "merchantId is required")
		}
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		var rows [][]string
		switch kind {
		case "collections":
			rows, err = s.collectionRows(r.Context(), f)
		case "payouts":
			rows, err = s.payoutRows(r.Context(), f)
		case "refunds":
			rows, err = s.refundRows(r.Context(), f)
		case "ledger":
			rows, err = s.ledgerRows(r.Context(), f)
		}
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		name := kind
		if !f.Start.IsZero() {
			name += "-from-" + f.Start.UTC().Format("20060102")
		}
		if !f.End.IsZero() {
			name += "-to-" + f.End.UTC().Format("20060102")
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+".csv"))
		w.Header().Set("Cache-Control", "no-store")
		cw := csv.NewWriter(w)
		cw.WriteAll(rows) // an error here is the client gone
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// every pages through a dashboard search to its end.
func every[T any](ctx context.Context, f cashier.OrderSearch, list func(context.Context, cashier.OrderSearch) ([]T, int, error)) ([]T, error) {
	var out []T
	f.PageSize = 200
	for f.Page = 1; ; f.Page++ {
		got, total, err := list(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
		if f.Page*f.PageSize >= total || len(got) == 0 {
			return out, nil
		}
	}
}

func (s *Server) collectionRows(ctx context.Context, f cashier.OrderSearch) ([][]string, error) {
	list, err := every(ctx, f, s.Store.SearchCollections)
	if err != nil {
		return nil, err
	}
	rows := [][]string{{"created (UTC)", "order no", "order id", "status", "network", "chain id", "token", "amount", "paid amount",
		"deposit address", "from address", "tx id", "paid (UTC)", "customer no"}}
	for _, o := range list {
		rows = append(rows, []string{utc(o.CreatedAt), text(o.OrderNo), o.ID, string(o.Status), s.networkName(o.Chain), string(o.Chain), o.Symbol,
			cashier.FormatAmount(o.Amount, o.Decimals), cashier.FormatAmount(o.PaidAmount, o.Decimals),
			o.DepositAddress, o.FromAddress, o.TxID, utc(o.PayTime), text(o.CustNo)})
	}
	return rows, nil
}

func (s *Server) payoutRows(ctx context.Context, f cashier.OrderSearch) ([][]string, error) {
	list, err := every(ctx, f, s.Store.SearchPayouts)
	if err != nil {
		return nil, err
	}
	rows := [][]string{{"created (UTC)", "updated (UTC)", "order no", "order id", "status", "network", "chain id", "token", "mode",
		"amount", "fee", "gas used", "recipient", "from address", "tx id", "customer no", "fail reason"}}
	for _, o := range list {
		mode := "balance"
		if o.PayoutType == cashier.PayoutAllowance {
			mode = "allowance"
		}
		rows = append(rows, []string{utc(o.CreatedAt), utc(o.UpdatedAt), text(o.OrderNo), o.ID, string(o.Status), s.networkName(o.Chain),
			string(o.Chain), o.Symbol, mode, cashier.FormatAmount(o.Amount, o.Decimals), cashier.FormatAmount(o.Fee, o.Decimals),
			o.GasAmount, o.Recipient, o.FromAddress, o.TxID, text(o.CustNo), text(o.FailReason)})
	}
	return rows, nil
}

func (s *Server) refundRows(ctx context.Context, f cashier.OrderSearch) ([][]string, error) {
	rows := [][]string{{"created (UTC)", "refund no", "order no", "status", "network", "chain id", "token", "amount", "fee",
		"address", "tx id", "completed (UTC)"}}
	if s.Refunds == nil {
		return rows, nil
	}
	list, err := s.Refunds.RefundRows(ctx, f.MerchantID, f.Start, f.End)
	if err != nil {
		return nil, err
	}
	for _, x := range list {
		rows = append(rows, []string{utc(x.Created), text(x.RefundNo), text(x.OrderNo), x.Status, s.networkName(x.Chain), string(x.Chain),
			x.Symbol, cashier.FormatAmount(x.Amount, x.Decimals), cashier.FormatAmount(x.Fee, x.Decimals), x.Address, x.TxID, utc(x.Completed)})
	}
	return rows, nil
}

func (s *Server) ledgerRows(ctx context.Context, f cashier.OrderSearch) ([][]string, error) {
	if s.Ledger == nil {
		return nil, cashier.Errorf(cashier.EUnsupported, "the ledger is not available on this server")
	}
	m, err := s.Store.Merchant(ctx, f.MerchantID)
	if err != nil {
		return nil, err
	}
	entries, _, err := s.Ledger.Ledger(ctx, m, ledger.Query{Filter: ledger.Filter{Chain: f.Chain, Symbol: f.Symbol}, Start: f.Start, End: f.End})
	if err != nil {
		return nil, err
	}
	rows := [][]string{{"time (UTC)", "network", "chain id", "contract id", "contract address", "token", "kind", "amount",
		"tx id", "log index", "block", "counterparty", "reference", "gas used"}}
	for _, e := range entries {
		rows = append(rows, []string{utc(e.Time), s.networkName(e.Chain), string(e.Chain), e.ContractID, e.Contract, e.Symbol, string(e.Kind),
			cashier.FormatAmount(e.Amount, e.Decimals), e.TxID, fmt.Sprint(e.LogIndex), fmt.Sprint(e.Block), e.Counterparty, text(e.Ref), e.GasAmount})
	}
	return rows, nil
}

// holdingsPage is the balances page: every contract and token, and the
// latest ledger movements, newest first.
type holdingsPage struct {
	NoMerchant bool
	Balances   []ledger.Balance
	Entries    []ledger.Entry
}

func (s *Server) holdings(r *http.Request, a *actor) (*holdingsPage, error) {
	id := a.user.MerchantID
	if a.operator() {
		id = r.URL.Query().Get("merchantId")
	}
	if id == "" {
		return &holdingsPage{NoMerchant: true}, nil
	}
	if s.Ledger == nil {
		return nil, cashier.Errorf(cashier.EUnsupported, "balances are not available on this server")
	}
	m, err := s.Store.Merchant(r.Context(), id)
	if err != nil {
		return nil, err
	}
	out := &holdingsPage{}
	if out.Balances, err = s.Ledger.Balances(r.Context(), m, ledger.Filter{}); err != nil {
		return nil, err
	}
	entries, _, err := s.Ledger.Ledger(r.Context(), m, ledger.Query{})
	if err != nil {
		return nil, err
	}
	for i := len(entries) - 1; i >= 0 && len(out.Entries) < 200; i-- {
		out.Entries = append(out.Entries, entries[i])
	}
	return out, nil
}
