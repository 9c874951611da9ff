package http

import (
	"net/http"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/ledger"
)

// handlePayoutList lists the merchant's payout orders, newest first, with
// the collection list's filters and paging (and contractId).
func (s *server) handlePayoutList(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, payoutListFields...)
	contractID := f.str("contractId", false)
	delete(c.params, "contractId") // read; the rest are the collection list's
	req, err := decodeList(c.params, UnknownIgnore, s.svc.Config.MaxPageSize)
	if f.err != nil {
		return f.err
	}
	if err != nil {
		return err
	}
	list, total, filter, err := s.svc.Payouts(r.Context(), c.merchant, contractID, req)
	if err != nil {
		return err
	}
	out := api.PayoutList{List: make([]api.Payout, len(list)), Total: total, Page: filter.Page, PageSize: filter.PageSize}
	contracts := map[string]*cashier.Contract{}
	for i := range list {
		o := &list[i]
		k, ok := contracts[o.ContractID]
		if !ok {
			k, _ = s.store.Contract(r.Context(), o.ContractID)
			contracts[o.ContractID] = k
		}
		out.List[i] = newPayoutDetail(o, k)
	}
	s.ok(w, r, out)
	return nil
}

// handleCollectionCancel cancels a PENDING collection order ("payorder",
// the interface's name for a collection order) by the rules of cashier
// collection cancel: refused once a payment to it has been seen.
func (s *server) handleCollectionCancel(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, cancelFields...)
	orderNo := f.str("orderNo", true)
	f.str("sign", false)
	if f.err != nil {
		return f.err
	}
	o, err := s.svc.Collection(r.Context(), c.merchant, orderNo)
	if err != nil {
		return err
	}
	if o, err = s.svc.CancelCollection(r.Context(), o.ID); err != nil {
		return err
	}
	d, err := s.collectionDetail(r, o)
	if err != nil {
		return err
	}
	s.ok(w, r, d)
	return nil
}

// ledgerFilter reads contractId, chainId (TRON, ETH, ARB, or 1, 42161) and
// symbol.
func ledgerFilter(f *fields) ledger.Filter {
	lf := ledger.Filter{ContractID: f.str("contractId", false), Symbol: strings.ToUpper(f.str("symbol", false))}
	if id := f.str("chainId", false); id != "" {
		ch, err := cashier.ParseChain(id)
		if err != nil && f.err == nil {
			f.err = err
		}
		lf.Chain = ch
	}
	return lf
}

func (s *server) needLedger() (*ledger.Service, error) {
	if s.cfg.Ledger == nil {
		return nil, cashier.Errorf(cashier.EUnsupported, "balances are not available on this server")
	}
	return s.cfg.Ledger, nil
}

func (s *server) handleBalance(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, balanceFields...)
	lf := ledgerFilter(f)
	if f.err != nil {
		return f.err
	}
	lg, err := s.needLedger()
	if err != nil {
		return err
	}
	bs, err := lg.Balances(r.Context(), c.merchant, lf)
	if err != nil {
		return err
	}
	out := api.Balances{List: make([]api.Balance, len(bs))}
	for i, b := range bs {
		ab := api.Balance{ContractID: b.ContractID, Contract: b.Contract, ChainID: string(b.Chain), Symbol: b.Symbol,
			OnChain: cashier.FormatAmount(b.OnChain, b.Decimals), Locked: cashier.FormatAmount(b.Locked, b.Decimals),
			Available: cashier.FormatAmount(b.Available, b.Decimals), Block: int64(b.Block), Allowances: []api.AllowanceBalance{}}
		for _, a := range b.Allowances {
			ab.Allowances = append(ab.Allowances, api.AllowanceBalance{FromAddress: a.Owner,
				Allowance: cashier.FormatAmount(a.Allowance, b.Decimals), Balance: cashier.FormatAmount(a.Balance, b.Decimals),
				Locked: cashier.FormatAmount(a.Locked, b.Decimals), Available: cashier.FormatAmount(a.Available, b.Decimals)})
		}
		out.List[i] = ab
	}
	s.ok(w, r, out)
	return nil
}

func (s *server) handleLedger(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, ledgerFields...)
	q := ledger.Query{Filter: ledgerFilter(f), Kind: ledger.Kind(strings.ToLower(f.str("kind", false)))}
	for _, k := range []string{"contractId", "chainId", "symbol", "kind"} {
		delete(c.params, k)
	}
	if f.err != nil {
		return f.err
	}
	page, err := decodeList(c.params, UnknownIgnore, s.svc.Config.MaxPageSize)
	if err != nil {
		return err
	}
	q.Start, q.End = page.Start, page.End
	if page.Page == 0 {
		page.Page = 1
	}
	if page.PageSize == 0 {
		page.PageSize = s.svc.Config.DefaultPageSize
	}
	lg, err := s.needLedger()
	if err != nil {
		return err
	}
	entries, sums, err := lg.Ledger(r.Context(), c.merchant, q)
	if err != nil {
		return err
	}
	out := api.Ledger{List: []api.LedgerEntry{}, Totals: make([]api.LedgerTotal, len(sums)), Total: len(entries), Page: page.Page, PageSize: page.PageSize}
	for i, b := range sums {
		out.Totals[i] = api.LedgerTotal{ContractID: b.ContractID, ChainID: string(b.Chain), Symbol: b.Symbol, Sum: cashier.FormatAmount(b.OnChain, b.Decimals)}
	}
	from := min((page.Page-1)*page.PageSize, len(entries))
	for _, e := range entries[from:min(from+page.PageSize, len(entries))] {
		out.List = append(out.List, LedgerEntry(e))
	}
	s.ok(w, r, out)
	return nil
}

// LedgerEntry is e in the API's form.
func LedgerEntry(e ledger.Entry) api.LedgerEntry {
	return api.LedgerEntry{ContractID: e.ContractID, ChainID: string(e.Chain), Symbol: e.Symbol, Kind: string(e.Kind),
		Amount: cashier.FormatAmount(e.Amount, e.Decimals), TxID: e.TxID, LogIndex: int64(e.LogIndex), BlockNumber: int64(e.Block),
		Time: e.Time.UnixMilli(), Counterparty: e.Counterparty, Ref: e.Ref, GasAmount: e.GasAmount}
}
