package dashboard_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// TestHoldingsOnEveryNetwork collects, sweeps, pays out and refunds on the
// three sandbox networks through the running service, then checks what the
// merchant is told it holds: per contract and token, available = on-chain
// balance − locked payouts, and the ledger's sum = the on-chain balance;
// the ledger names the sweep, the payout, the refund and their fees with
// their transaction ids; the payout list and the collection cancel answer; and
// the dashboard's CSV exports parse, with totals matching the ledger.
func TestHoldingsOnEveryNetwork(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.LogLevel = "error"
	cfg.SweepInterval, cfg.SweepMin = 200*time.Millisecond, "1"
	cfg.WatchInterval = 100 * time.Millisecond
	cfg.PayoutWindow = 200 * time.Millisecond
	cfg.RateEndpoint, cfg.RateKey = 100_000, 100_000
	ctx, cancel := context.WithCancel(context.Background())
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, TRONBlockInterval: 200 * time.Millisecond})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { sb.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; sb.Close() })
	info, st := sb.Info, sb.Service.Store
	api := client.New(info.BaseURL, info.APIKey, info.SecretKey)

	// Payouts above 50 wait for review: they stay PENDING, locked.
	if err := st.Update(ctx, func(tx cashier.Tx) error {
		return tx.SetReviewPolicy(ctx, &cashier.ReviewPolicy{MerchantID: info.MerchantID, Mode: cashier.ReviewAbove, Above: "50", UpdatedAt: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(-time.Minute)
	// BSC: the same flows with 18-decimal tokens.
	chains := []string{"ETH", "ARB", "TRON", "BSC"}
	recipient := map[string]string{"ETH": info.Wallets["allowance"].EVMAddress, "ARB": info.Wallets["allowance"].EVMAddress,
		"TRON": info.Wallets["allowance"].TRONAddress, "BSC": info.Wallets["allowance"].EVMAddress}
	for _, c := range chains {
		if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: "HC-" + c, Amount: "20", Symbol: "USDT", ChainID: c}); err != nil {
			t.Fatal(err)
		}
		if _, err := sandbox.Pay(ctx, info, st, sandbox.PayRequest{OrderNo: "HC-" + c}); err != nil {
			t.Fatalf("%s pay: %v", c, err)
		}
		for _, p := range []struct{ no, amount string }{{"HP-" + c, "5"}, {"HL-" + c, "60"}} {
			if _, err := api.CreatePayout(ctx, client.PayoutRequest{ContractID: info.ContractIDs[c], OrderNo: p.no, Recipient: recipient[c],
				Amount: p.amount, Symbol: "USDT", CustNo: "CUST-" + c}); err != nil {
				t.Fatalf("%s payout %s: %v", c, p.no, err)
			}
		}
	}

	// payorder/cancel: a PENDING order is cancelled; a paid one is refused
	// with the reason and stays as it was.
	if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: "HX-1", Amount: "3", Symbol: "USDC", ChainID: "ARB"}); err != nil {
		t.Fatal(err)
	}
	if o, err := api.CancelCollection(ctx, "HX-1"); err != nil || o.Status != "CANCELLED" {
		t.Fatalf("cancel: %+v %v", o, err)
	}

	// Wait until every network's collection is swept in, its small payout
	// paid, and 3.00 of the collection refunded (asked once it is paid).
	refunded := map[string]bool{}
	deadline := time.Now().Add(90 * time.Second)
	for {
		ready := true
		for _, c := range chains {
			p, err := api.PayoutDetail(ctx, "HP-"+c)
			if err != nil {
				t.Fatal(err)
			}
			l, err := api.Ledger(ctx, client.LedgerRequest{HoldingsFilter: client.HoldingsFilter{ChainID: c, Symbol: "USDT"}, Kind: "sweep"})
			if err != nil {
				t.Fatal(err)
			}
			if o, err := api.CollectionDetail(ctx, "HC-"+c); err == nil && o.Status == "SUCCESS" && !refunded[c] {
				if _, err := api.CreateRefund(ctx, client.RefundRequest{OrderNo: "HC-" + c, RefundNo: "HR-" + c, Amount: "3", Address: recipient[c]}); err != nil {
					t.Fatalf("%s refund: %v", c, err)
				}
				refunded[c] = true
			}
			rf, err := api.RefundDetail(ctx, "HR-"+c)
			ready = ready && p.Status == "SUCCESS" && len(l.List) == 1 && err == nil && rf.Status == "SUCCESS"
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("collections not swept or payouts not paid in time")
		}
		time.Sleep(300 * time.Millisecond)
	}
	if o, err := api.CancelCollection(ctx, "HC-ETH"); err == nil || !strings.Contains(err.Error(), "SUCCESS") {
		t.Fatalf("cancel of a paid order: %+v %v", o, err)
	}

	bals, err := api.Balance(ctx, client.HoldingsFilter{})
	if err != nil {
		t.Fatal(err)
	}
	lg, err := api.Ledger(ctx, client.LedgerRequest{PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	documented(t, "Balances", bals)
	documented(t, "Ledger", lg)
	sums := map[string]string{}
	for _, s := range lg.Totals {
		sums[s.ChainID+"/"+s.Symbol] = s.Sum
	}
	if len(bals.List) != 8 || len(lg.Totals) != 8 {
		t.Fatalf("%d balances and %d ledger totals, want 8 of each (4 networks × 2 tokens)", len(bals.List), len(lg.Totals))
	}
	for _, b := range bals.List {
		onChain, locked, avail := units(t, b.OnChain), units(t, b.Locked), units(t, b.Available)
		if want := new(big.Int).Sub(onChain, locked); avail.Cmp(want) != 0 {
			t.Errorf("%s %s: available %s, on chain %s − locked %s", b.ChainID, b.Symbol, b.Available, b.OnChain, b.Locked)
		}
		if sums[b.ChainID+"/"+b.Symbol] != b.OnChain {
			t.Errorf("%s %s: ledger sums to %s, on-chain balance %s", b.ChainID, b.Symbol, sums[b.ChainID+"/"+b.Symbol], b.OnChain)
		}
		if b.Symbol == "USDT" {
			held, err := api.PayoutDetail(ctx, "HL-"+b.ChainID)
			if err != nil {
				t.Fatal(err)
			}
			want := new(big.Int).Add(units(t, held.Amount), units(t, held.Fee))
			if held.Status != "PENDING" || locked.Cmp(want) != 0 {
				t.Errorf("%s: locked %s, want the held payout's amount and fee %s (%s)", b.ChainID, b.Locked, want, held.Status)
			}
		}
	}
	// Per network: the funding deposit, the sweep of the collection, the
	// payout and its fee, each with its transaction.
	for _, c := range chains {
		kinds := map[string][]client.LedgerEntry{}
		for _, e := range lg.List {
			if e.ChainID == c && e.Symbol == "USDT" {
				if e.TxID == "" {
					t.Errorf("%s: entry without a transaction: %+v", c, e)
				}
				kinds[e.Kind] = append(kinds[e.Kind], e)
			}
		}
		paid, _ := api.PayoutDetail(ctx, "HP-"+c)
		rf, _ := api.RefundDetail(ctx, "HR-"+c)
		// The refund's payout may ride in the same batch as HP's: the fee
		// entries sum to both fees, in those transactions.
		fees, feeSum := map[string]bool{}, new(big.Int)
		for _, e := range kinds["fee"] {
			fees[e.TxID] = true
			feeSum.Add(feeSum, units(t, e.Amount))
		}
		wantFees := new(big.Int).Neg(new(big.Int).Add(units(t, paid.Fee), units(t, rf.Fee)))
		if len(kinds["deposit"]) == 0 || len(kinds["sweep"]) != 1 || kinds["sweep"][0].Amount != "20.00" ||
			len(kinds["payout"]) != 1 || kinds["payout"][0].Amount != "-5.00" || kinds["payout"][0].Ref != "HP-"+c ||
			kinds["payout"][0].TxID != paid.TxID || feeSum.Cmp(wantFees) != 0 || !fees[paid.TxID] ||
			len(kinds["refund"]) != 1 || kinds["refund"][0].Amount != "-3.00" || kinds["refund"][0].Ref != "HR-"+c ||
			kinds["refund"][0].TxID != rf.TxID || !fees[rf.TxID] {
			t.Errorf("%s ledger: %+v (refund %+v)", c, kinds, rf)
		}
		if paid.CustNo != "CUST-"+c {
			t.Errorf("%s: payout custNo %q", c, paid.CustNo)
		}
	}
	// The payout list: filters and paging like the collection list.
	pl, err := api.ListPayouts(ctx, client.ListRequest{Status: "PENDING", PageSize: 2, StartTime: start.UnixMilli()}, "")
	if err != nil || pl.Total != 4 || len(pl.List) != 2 || pl.PageSize != 2 {
		t.Fatalf("pending payouts: %+v %v", pl, err)
	}
	pl, err = api.ListPayouts(ctx, client.ListRequest{Status: "SUCCESS"}, info.ContractIDs["TRON"])
	// HP-TRON and the payout order paying the refund (docs/api.md, "Refunds").
	nos := map[string]bool{}
	for _, p := range pl.List {
		nos[p.OrderNo] = true
	}
	if err != nil || pl.Total != 2 || !nos["HP-TRON"] || !nos["refund/HR-TRON"] {
		t.Fatalf("TRON's paid payouts: %+v %v", pl, err)
	}

	// The dashboard's exports, read as a spreadsheet would.
	e := &env{t: t, svc: sb.Service, srv: httptest.NewServer(sb.Service.Handler)}
	t.Cleanup(e.srv.Close)
	e.addUser("accounts@example.com", info.MerchantID, "viewer", false)
	u := e.signIn("accounts@example.com")
	// The balances page shows each balance and the ledger's movements.
	res, err := u.c.Get(e.srv.URL + "/dashboard/holdings")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`id="balance-list"`, `id="ledger-list"`, "HP-TRON", "sweep", "-5.00", `formaction="/dashboard/export/ledger.csv"`} {
		if res.StatusCode != http.StatusOK || !strings.Contains(string(page), want) {
			t.Errorf("balances page (%d) lacks %q", res.StatusCode, want)
		}
	}
	day := time.Now().UTC().Format("2006-01-02")
	ledgerCSV := readCSV(t, u, "ledger.csv?from="+day+"&to="+day)
	csvSums := map[string]*big.Int{}
	byKind := map[string]*big.Int{}
	for _, r := range ledgerCSV[1:] {
		key := r[2] + "/" + r[5]
		add(csvSums, key, units(t, r[7]))
		add(byKind, r[2]+"/"+r[5]+"/"+r[6], units(t, r[7]))
		if _, err := time.Parse("2006-01-02 15:04:05", r[0]); err != nil || r[8] == "" {
			t.Errorf("ledger row %q", r)
		}
	}
	for key, sum := range sums {
		if csvSums[key] == nil || csvSums[key].Cmp(units(t, sum)) != 0 {
			t.Errorf("%s: ledger.csv sums to %v, the ledger to %s", key, csvSums[key], sum)
		}
	}
	paidOut, fees, collected := map[string]*big.Int{}, map[string]*big.Int{}, map[string]*big.Int{}
	for _, r := range readCSV(t, u, "payouts.csv?from="+day)[1:] {
		if r[4] == "SUCCESS" && r[8] == "balance" {
			add(paidOut, r[6]+"/"+r[7], units(t, r[9]))
			add(fees, r[6]+"/"+r[7], units(t, r[10]))
		}
	}
	for _, r := range readCSV(t, u, "collections.csv")[1:] {
		add(collected, r[5]+"/"+r[6], units(t, r[8]))
	}
	refundCSV := readCSV(t, u, "refunds.csv")
	if len(refundCSV) != 1+len(chains) || refundCSV[0][1] != "refund no" {
		t.Errorf("refunds.csv: %q", refundCSV)
	}
	refundedCSV := map[string]*big.Int{}
	for _, r := range refundCSV[1:] {
		if r[3] == "SUCCESS" && r[10] != "" {
			add(refundedCSV, r[5]+"/"+r[6], units(t, r[7]))
		}
	}
	for _, c := range chains {
		key := c + "/USDT"
		// A refund is paid by a payout order of its own: payouts.csv holds
		// it, the ledger names its transfer a refund.
		outflow := new(big.Int).Add(byKind[key+"/payout"], byKind[key+"/refund"])
		if neg(outflow).Cmp(paidOut[key]) != 0 || neg(byKind[key+"/fee"]).Cmp(fees[key]) != 0 ||
			byKind[key+"/sweep"].Cmp(collected[key]) != 0 || neg(byKind[key+"/refund"]).Cmp(refundedCSV[key]) != 0 {
			t.Errorf("%s: ledger payouts %v refunds %v fees %v sweeps %v; payouts.csv %v fees %v; refunds.csv %v; collections.csv paid %v",
				c, byKind[key+"/payout"], byKind[key+"/refund"], byKind[key+"/fee"], byKind[key+"/sweep"], paidOut[key], fees[key], refundedCSV[key], collected[key])
		}
	}
}

// documented checks that the JSON of v (as the server wrote it: the SDK's
// types are the server's) has exactly the fields openapi.yaml's schema
// name requires, at the top and in its lists' first entries.
func documented(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	schema := doc["components"].(map[string]any)["schemas"].(map[string]any)[name].(map[string]any)
	raw, _ := json.Marshal(v)
	var got map[string]any
	json.Unmarshal(raw, &got)
	var check func(where string, schema map[string]any, got map[string]any)
	check = func(where string, schema map[string]any, got map[string]any) {
		var want, have []string
		for _, k := range schema["required"].([]any) {
			want = append(want, k.(string))
		}
		for k, v := range got {
			have = append(have, k)
			items, _ := schema["properties"].(map[string]any)[k].(map[string]any)["items"].(map[string]any)
			if list, ok := v.([]any); ok && items != nil && len(list) > 0 {
				check(where+"."+k, items, list[0].(map[string]any))
			}
		}
		sort.Strings(want)
		sort.Strings(have)
		if strings.Join(want, ",") != strings.Join(have, ",") {
			t.Errorf("%s: openapi.yaml requires %v, the server sends %v", where, want, have)
		}
	}
	check(name, schema, got)
}

func readCSV(t *testing.T, u *user, file string) [][]string {
	t.Helper()
	res, err := u.c.Get(u.e.srv.URL + "/dashboard/export/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("%s: %d %s", file, res.StatusCode, res.Header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(res.Body).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", file, err)
	}
	return rows
}

// units reads a decimal amount at 6 decimals (both sandbox tokens).
func units(t *testing.T, s string) *big.Int {
	t.Helper()
	neg := strings.HasPrefix(s, "-")
	v, err := cashier.ParseAmount(strings.TrimPrefix(s, "-"), 18) // exact for 6- and 18-decimal tokens alike
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	if neg {
		v.Neg(v)
	}
	return v
}

func add(m map[string]*big.Int, k string, v *big.Int) {
	if m[k] == nil {
		m[k] = new(big.Int)
	}
	m[k].Add(m[k], v)
}

func neg(v *big.Int) *big.Int {
	if v == nil {
		return nil
	}
	return new(big.Int).Neg(v)
}
