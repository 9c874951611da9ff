package orders_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
)

// fixedFunds stands in for chain reads in these service tests: balances and
// allowances set per address. The chain-backed implementation is tested
// against real dev chains in package app.
type fixedFunds struct {
	mu      sync.Mutex
	balance map[string]*big.Int // by lower-case holder
	allow   map[string]*big.Int // by lower-case owner
}

func (f *fixedFunds) ContractBalance(_ context.Context, _ cashier.Chain, _, contract string) (*big.Int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return new(big.Int).Set(orZero(f.balance[strings.ToLower(contract)])), nil
}

func (f *fixedFunds) WalletFunds(_ context.Context, _ cashier.Chain, _, owner, _ string) (*big.Int, *big.Int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return new(big.Int).Set(orZero(f.balance[strings.ToLower(owner)])), new(big.Int).Set(orZero(f.allow[strings.ToLower(owner)])), nil
}

func orZero(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}

type depositsByID struct{}

func (depositsByID) DepositAddress(_ context.Context, _ *cashier.Merchant, c cashier.Chain, id string) (string, error) {
	return "deposit-" + string(c) + "-" + id, nil
}

type recordingEvents struct{}

func (recordingEvents) CollectionEvent(o *cashier.CollectionOrder, c *cashier.Cashier, at time.Time) (*cashier.Event, error) {
	return &cashier.Event{ID: orders.NewID("evt_"), MerchantID: o.MerchantID, Type: cashier.EventPayment, OrderID: o.ID,
		OrderNo: o.OrderNo, Status: string(o.Status), URL: c.WebhookURL, Body: []byte(`{}`), CreatedAt: at}, nil
}

func (recordingEvents) PayoutEvent(o *cashier.PayoutOrder, _ *cashier.Contract, url string, at time.Time) (*cashier.Event, error) {
	return &cashier.Event{ID: orders.NewID("evt_"), MerchantID: o.MerchantID, Type: cashier.EventPayout, OrderID: o.ID,
		OrderNo: o.OrderNo, Status: string(o.Status), URL: url, Body: []byte(`{}`), CreatedAt: at}, nil
}

const (
	contractAddr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	walletAddr   = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	recipient    = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
)

type fixture struct {
	svc   *orders.Service
	st    *sqlite.DB
	funds *fixedFunds
	clock *cashier.ManualClock
	m     *cashier.Merchant
	c     *cashier.Cashier
	k     *cashier.Contract
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	sealer, err := sqlite.NewAESSealer(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, sqlitetest.Path(t), sqlite.Options{Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := cashier.NewManualClock(time.UnixMilli(1_700_000_000_000))
	f := &fixture{st: st, clock: clock, funds: &fixedFunds{balance: map[string]*big.Int{}, allow: map[string]*big.Int{}}}
	f.m = &cashier.Merchant{ID: "m_1", Name: "Shop", APIKey: "pk_1", SecretKey: "sk", WebhookKey: "whk", Status: cashier.MerchantActive, CreatedAt: clock.Now()}
	f.c = &cashier.Cashier{ID: "c_1", MerchantID: "m_1", Name: "Main", WebhookURL: "https://shop.example/hook", Status: cashier.CashierActive, CreatedAt: clock.Now()}
	f.k = &cashier.Contract{ID: "k_1", MerchantID: "m_1", Chain: cashier.ChainETH, Address: contractAddr, Status: cashier.ContractActive, CreatedAt: clock.Now()}
	err = st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, f.m); err != nil {
			return err
		}
		if err := tx.CreateCashier(ctx, f.c); err != nil {
			return err
		}
		return tx.CreateContract(ctx, f.k)
	})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = &orders.Service{Store: st, Registry: config.DefaultRegistry(), Clock: clock, Addresses: address.Validator{},
		Deposits: depositsByID{}, Funds: f.funds, Events: recordingEvents{}, Config: orders.DefaultConfig}
	return f
}

func units(s string) *big.Int { v, _ := cashier.ParseAmount(s, 6); return v }

func wantCode(t *testing.T, err error, code cashier.Code) {
	t.Helper()
	if got := cashier.ErrorCode(err); got != code {
		t.Fatalf("error = %v (code %q), want code %q", err, got, code)
	}
}

func TestCreateCollection(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	o, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "A-1", CustNo: "C9", Amount: "100.5", Symbol: "usdt"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Chain != cashier.ChainTRON || o.Symbol != "USDT" || o.Amount.Cmp(units("100.5")) != 0 || o.Status != cashier.CollectionPending {
		t.Fatalf("order = %+v", o)
	}
	if !o.ExpireAt.Equal(f.clock.Now().Add(30*time.Minute)) || o.DepositAddress != "deposit-TRON-"+o.ID {
		t.Fatalf("expiry/deposit = %v %s", o.ExpireAt, o.DepositAddress)
	}
	got, err := f.svc.Collection(ctx, f.m, "A-1")
	if err != nil || got.ID != o.ID || got.CustNo != "C9" {
		t.Fatalf("Collection = %+v, %v", got, err)
	}
	evs, err := f.st.Events(ctx, cashier.EventFilter{OrderID: o.ID})
	if err != nil || len(evs) != 1 || evs[0].Status != "PENDING" {
		t.Fatalf("events = %+v, %v", evs, err)
	}
	_, err = f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "A-1", Amount: "1", Symbol: "USDT"})
	wantCode(t, err, cashier.EDuplicate)
}

// Prepare sees the whole order before it is stored, and its failure
// leaves nothing stored.
func TestCreateCollectionPrepare(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var seen cashier.CollectionOrder
	req := orders.CollectionRequest{CashierID: "c_1", OrderNo: "P-1", Amount: "12", Symbol: "USDT", ChainID: "ETH",
		Prepare: func(o *cashier.CollectionOrder) error {
			seen = *o
			_, err := f.svc.Collection(ctx, f.m, o.OrderNo)
			wantCode(t, err, cashier.ENotFound)
			return nil
		}}
	o, err := f.svc.CreateCollection(ctx, f.m, req)
	if err != nil {
		t.Fatal(err)
	}
	if seen.ID != o.ID || seen.DepositAddress != "deposit-ETH-"+o.ID || seen.Amount.Cmp(units("12")) != 0 {
		t.Fatalf("Prepare saw %+v, the order is %+v", seen, o)
	}
	failed := cashier.Errorf(cashier.EInternal, "cannot render")
	req.OrderNo = "P-2"
	req.Prepare = func(*cashier.CollectionOrder) error { return failed }
	if _, err := f.svc.CreateCollection(ctx, f.m, req); err != failed {
		t.Fatalf("create = %v, want Prepare's error", err)
	}
	_, err = f.svc.Collection(ctx, f.m, "P-2")
	wantCode(t, err, cashier.ENotFound)
	if evs, err := f.st.Events(ctx, cashier.EventFilter{}); err != nil || len(evs) != 1 {
		t.Fatalf("events = %d, %v; want only P-1's", len(evs), err)
	}
}

func TestCreateCollectionRejects(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other := &cashier.Merchant{ID: "m_2"}
	base := orders.CollectionRequest{CashierID: "c_1", OrderNo: "B-1", Amount: "10", Symbol: "USDT", ChainID: "ETH"}
	cases := []struct {
		name string
		m    *cashier.Merchant
		edit func(*orders.CollectionRequest)
		code cashier.Code
	}{
		{"missing orderNo", f.m, func(r *orders.CollectionRequest) { r.OrderNo = "" }, cashier.EMissing},
		{"bad orderNo", f.m, func(r *orders.CollectionRequest) { r.OrderNo = "a b" }, cashier.EInvalid},
		{"long orderNo", f.m, func(r *orders.CollectionRequest) { r.OrderNo = strings.Repeat("x", 65) }, cashier.EInvalid},
		{"missing amount", f.m, func(r *orders.CollectionRequest) { r.Amount = "" }, cashier.EMissing},
		{"too many decimals", f.m, func(r *orders.CollectionRequest) { r.Amount = "1.0000001" }, cashier.EInvalidAmount},
		{"negative", f.m, func(r *orders.CollectionRequest) { r.Amount = "-5" }, cashier.EInvalidAmount},
		{"zero", f.m, func(r *orders.CollectionRequest) { r.Amount = "0" }, cashier.EInvalidAmount},
		{"below min", f.m, func(r *orders.CollectionRequest) { r.Amount = "0.99" }, cashier.EInvalidAmount},
		{"above max", f.m, func(r *orders.CollectionRequest) { r.Amount = "1000000.01" }, cashier.EInvalidAmount},
		{"exponent", f.m, func(r *orders.CollectionRequest) { r.Amount = "1e3" }, cashier.EInvalidAmount},
		{"unknown token", f.m, func(r *orders.CollectionRequest) { r.Symbol = "DAI" }, cashier.EUnsupported},
		{"unknown chain", f.m, func(r *orders.CollectionRequest) { r.ChainID = "SOL" }, cashier.EUnsupported},
		{"unknown cashier", f.m, func(r *orders.CollectionRequest) { r.CashierID = "c_x" }, cashier.ECashierNotFound},
		{"other merchant's cashier", other, func(r *orders.CollectionRequest) {}, cashier.ECashierNotFound},
		{"bad redirect", f.m, func(r *orders.CollectionRequest) { r.RedirectURL = "javascript:alert(1)" }, cashier.EInvalid},
		{"control chars in custNo", f.m, func(r *orders.CollectionRequest) { r.CustNo = "a\nb" }, cashier.EInvalid},
		{"custNo over 256 characters", f.m, func(r *orders.CollectionRequest) { r.CustNo = strings.Repeat("客", 257) }, cashier.EInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := base
			c.edit(&r)
			_, err := f.svc.CreateCollection(ctx, c.m, r)
			wantCode(t, err, c.code)
		})
	}
	list, total, _, err := f.svc.Collections(ctx, f.m, orders.ListRequest{})
	if err != nil || total != 0 || len(list) != 0 {
		t.Fatalf("rejections created orders: %d, %v", total, err)
	}
	// The text limit counts characters, not bytes.
	r := base
	r.CustNo = strings.Repeat("客", 256)
	if _, err := f.svc.CreateCollection(ctx, f.m, r); err != nil {
		t.Fatalf("custNo of 256 characters: %v", err)
	}
	// A closed cashier refuses new orders.
	closed := *f.c
	closed.ID, closed.Status = "c_2", cashier.CashierInactive
	if err := f.st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCashier(ctx, &closed) }); err != nil {
		t.Fatal(err)
	}
	r = base
	r.OrderNo, r.CashierID = "B-2", "c_2"
	_, err = f.svc.CreateCollection(ctx, f.m, r)
	wantCode(t, err, cashier.ECashierClosed)
}

func TestCollectionsList(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for i := 0; i < 25; i++ {
		if _, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: fmt.Sprintf("L-%02d", i), Amount: "5", Symbol: "USDC", ChainID: "42161"}); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(time.Second)
	}
	list, total, flt, err := f.svc.Collections(ctx, f.m, orders.ListRequest{})
	if err != nil || total != 25 || len(list) != 20 || flt.Page != 1 || flt.PageSize != 20 {
		t.Fatalf("default page: %d %d %+v %v", total, len(list), flt, err)
	}
	if list[0].OrderNo != "L-24" {
		t.Fatalf("not newest first: %s", list[0].OrderNo)
	}
	list, _, _, _ = f.svc.Collections(ctx, f.m, orders.ListRequest{Page: 2})
	if len(list) != 5 {
		t.Fatalf("page 2 holds %d", len(list))
	}
	start := time.UnixMilli(1_700_000_000_000 + 10_000)
	list, total, _, _ = f.svc.Collections(ctx, f.m, orders.ListRequest{Start: start, End: start.Add(4 * time.Second)})
	if total != 5 || len(list) != 5 {
		t.Fatalf("time range: %d", total)
	}
	if _, err := f.svc.TransitionCollection(ctx, list[0].ID, cashier.CollectionCancelled, nil); err != nil {
		t.Fatal(err)
	}
	_, total, _, _ = f.svc.Collections(ctx, f.m, orders.ListRequest{Status: "cancelled"})
	if total != 1 {
		t.Fatalf("status filter: %d", total)
	}
	for _, bad := range []orders.ListRequest{{Page: -1}, {PageSize: 101}, {PageSize: -3}, {Status: "PAID"}, {Start: start, End: start.Add(-time.Second)}} {
		_, _, _, err := f.svc.Collections(ctx, f.m, bad)
		wantCode(t, err, cashier.EInvalid)
	}
}

func TestCollectionStateMachine(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	o, err := f.svc.CreateCollection(ctx, f.m, orders.CollectionRequest{CashierID: "c_1", OrderNo: "S-1", Amount: "5", Symbol: "USDT"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.TransitionCollection(ctx, o.ID, cashier.CollectionExpired, nil); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.TransitionCollection(ctx, o.ID, cashier.CollectionCancelled, nil)
	wantCode(t, err, cashier.EInvalidStatus)
	paid, err := f.svc.TransitionCollection(ctx, o.ID, cashier.CollectionSuccess, func(o *cashier.CollectionOrder) { o.TxID = "0xabc" })
	if err != nil || paid.TxID != "0xabc" {
		t.Fatalf("late payment: %+v %v", paid, err)
	}
	_, err = f.svc.TransitionCollection(ctx, o.ID, cashier.CollectionPending, nil)
	wantCode(t, err, cashier.EInvalidStatus)
	evs, _ := f.st.Events(ctx, cashier.EventFilter{OrderID: o.ID})
	if len(evs) != 3 {
		t.Fatalf("events: %d, want PENDING, EXPIRED, SUCCESS", len(evs))
	}
}

func TestPayoutFundingRules(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("12") // covers 10 + 1 fee once
	req := orders.PayoutRequest{ContractID: "k_1", OrderNo: "P-1", Recipient: recipient, Amount: "10", Symbol: "USDT"}
	o, err := f.svc.CreatePayout(ctx, f.m, req)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != cashier.PayoutPending || o.Fee.Cmp(units("1")) != 0 || o.PayoutType != cashier.PayoutBalance {
		t.Fatalf("payout = %+v", o)
	}
	// 12 - (10+1) locked = 1 left: a second order of 1 (+1 fee) does not fit.
	req.OrderNo, req.Amount = "P-2", "1"
	_, err = f.svc.CreatePayout(ctx, f.m, req)
	wantCode(t, err, cashier.EInsufficientContr)
	// Refusing the first order unlocks its amount.
	if _, err := f.svc.TransitionPayout(ctx, o.ID, cashier.PayoutRefuse, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreatePayout(ctx, f.m, req); err != nil {
		t.Fatalf("after unlock: %v", err)
	}

	// Allowance mode: min(allowance, balance) of the wallet, never topped up
	// by the contract balance (rule 3).
	f.funds.balance[strings.ToLower(contractAddr)] = units("1000")
	f.funds.allow[strings.ToLower(walletAddr)] = units("100")
	f.funds.balance[strings.ToLower(walletAddr)] = units("5")
	al := orders.PayoutRequest{ContractID: "k_1", OrderNo: "A-1", Recipient: recipient, Amount: "10", Symbol: "USDT", PayoutType: 2, FromAddress: walletAddr}
	_, err = f.svc.CreatePayout(ctx, f.m, al)
	wantCode(t, err, cashier.EInsufficientFunds) // the wallet's balance binds
	f.funds.balance[strings.ToLower(walletAddr)] = units("500")
	f.funds.allow[strings.ToLower(walletAddr)] = units("10.5")
	_, err = f.svc.CreatePayout(ctx, f.m, al)
	wantCode(t, err, cashier.EInsufficientAllow) // the allowance binds
	f.funds.allow[strings.ToLower(walletAddr)] = units("100")
	if _, err := f.svc.CreatePayout(ctx, f.m, al); err != nil {
		t.Fatal(err)
	}
	al.PayoutType, al.FromAddress, al.OrderNo = 2, "", "A-2"
	_, err = f.svc.CreatePayout(ctx, f.m, al)
	wantCode(t, err, cashier.EMissing)
}

func TestPayoutRejects(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("1000")
	base := orders.PayoutRequest{ContractID: "k_1", OrderNo: "R-1", Recipient: recipient, Amount: "10", Symbol: "USDT"}
	cases := []struct {
		name string
		edit func(*orders.PayoutRequest)
		code cashier.Code
	}{
		{"unknown contract", func(r *orders.PayoutRequest) { r.ContractID = "k_x" }, cashier.EContractNotFound},
		{"bad recipient", func(r *orders.PayoutRequest) { r.Recipient = "0x123" }, cashier.EInvalidAddress},
		{"TRON recipient on ETH", func(r *orders.PayoutRequest) { r.Recipient = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }, cashier.EInvalidAddress},
		{"recipient is contract", func(r *orders.PayoutRequest) { r.Recipient = contractAddr }, cashier.EInvalidAddress},
		{"payoutType 3", func(r *orders.PayoutRequest) { r.PayoutType = 3 }, cashier.EInvalid},
		{"fromAddress in balance mode", func(r *orders.PayoutRequest) { r.FromAddress = walletAddr }, cashier.EInvalid},
		{"chain mismatch", func(r *orders.PayoutRequest) { r.ChainID = "TRON" }, cashier.EInvalid},
		{"bad amount", func(r *orders.PayoutRequest) { r.Amount = "10.1234567" }, cashier.EInvalidAmount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := base
			c.edit(&r)
			_, err := f.svc.CreatePayout(ctx, f.m, r)
			wantCode(t, err, c.code)
		})
	}
	if _, total, _ := f.st.Payouts(ctx, cashier.PayoutFilter{MerchantID: "m_1", Page: 1, PageSize: 10}); total != 0 {
		t.Fatalf("rejections created %d payouts", total)
	}
	r := base
	r.ChainID = "1"
	if _, err := f.svc.CreatePayout(ctx, f.m, r); err != nil {
		t.Fatalf("chainId 1 for an ETH contract: %v", err)
	}
	_, err := f.svc.CreatePayout(ctx, f.m, r)
	wantCode(t, err, cashier.EDuplicate)
}

func TestBatchPayoutPerOrder(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("33") // three orders of 10 + 1 fee
	items := []orders.BatchItem{
		{OrderNo: "B-1", Recipient: recipient, Amount: "10", Symbol: "USDT"},
		{OrderNo: "B-2", Recipient: "nope", Amount: "10", Symbol: "USDT"},
		{OrderNo: "B-3", Recipient: recipient, Amount: "10", Symbol: "USDT"},
		{OrderNo: "B-1", Recipient: recipient, Amount: "10", Symbol: "USDT"},
		{OrderNo: "B-4", Recipient: recipient, Amount: "10", Symbol: "USDT"},
		{OrderNo: "B-5", Recipient: recipient, Amount: "10", Symbol: "USDT"}, // no funds left
	}
	res, err := f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1", Orders: items})
	if err != nil {
		t.Fatal(err)
	}
	want := []cashier.Code{"", cashier.EInvalidAddress, "", cashier.EDuplicate, "", cashier.EInsufficientContr}
	for i, w := range want {
		if got := cashier.ErrorCode(res.Orders[i].Err); got != w {
			t.Errorf("order %d: code %q, want %q (%v)", i, got, w, res.Orders[i].Err)
		}
		if (w == "") != (res.Orders[i].Order != nil) {
			t.Errorf("order %d: Order presence wrong", i)
		}
	}
	if res.SuccessCount != 3 || res.FailCount != 3 {
		t.Fatalf("counts %d/%d", res.SuccessCount, res.FailCount)
	}
	_, err = f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1", Orders: make([]orders.BatchItem, 101)})
	wantCode(t, err, cashier.ETooLarge)
	_, err = f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1"})
	wantCode(t, err, cashier.EMissing)
}

// Concurrent payouts against one contract balance never lock more than it
// holds: the lock check and the insert share one transaction.
func TestPayoutConcurrentFunding(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("55") // five orders of 10 + 1
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := f.svc.CreatePayout(ctx, f.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: fmt.Sprintf("C-%d", i), Recipient: recipient, Amount: "10", Symbol: "USDT"})
			if err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if cashier.ErrorCode(err) != cashier.EInsufficientContr {
				t.Errorf("unexpected error: %v", err)
			}
		}(i)
	}
	wg.Wait()
	if ok != 5 {
		t.Fatalf("%d payouts accepted against funds for 5", ok)
	}
}

// A batch reports per order even when only one of its orders reaches the
// funding check: that order's refusal is a result, not the call's error.
func TestBatchPayoutOneFundedCandidate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.funds.balance[strings.ToLower(contractAddr)] = units("5")
	for _, items := range [][]orders.BatchItem{
		{{OrderNo: "S-1", Recipient: recipient, Amount: "10", Symbol: "USDT"}},
		{{OrderNo: "S-2", Recipient: "nope", Amount: "10", Symbol: "USDT"}, {OrderNo: "S-3", Recipient: recipient, Amount: "10", Symbol: "USDT"}},
	} {
		res, err := f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1", Orders: items})
		if err != nil {
			t.Fatalf("batch of %d: %v", len(items), err)
		}
		if res.SuccessCount != 0 || res.FailCount != len(items) {
			t.Fatalf("counts %d/%d", res.SuccessCount, res.FailCount)
		}
		wantCode(t, res.Orders[len(items)-1].Err, cashier.EInsufficientContr)
	}
	// The same holds for an orderNo that already exists.
	f.funds.balance[strings.ToLower(contractAddr)] = units("100")
	req := orders.PayoutRequest{ContractID: "k_1", OrderNo: "S-4", Recipient: recipient, Amount: "10", Symbol: "USDT"}
	if _, err := f.svc.CreatePayout(ctx, f.m, req); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.BatchPayout(ctx, f.m, orders.BatchRequest{ContractID: "k_1", Orders: []orders.BatchItem{{OrderNo: "S-4", Recipient: recipient, Amount: "10", Symbol: "USDT"}}})
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, res.Orders[0].Err, cashier.EDuplicate)
}

// A wallet's balance is one pool for every contract it approved, other
// merchants' included: payouts pending against one contract reduce what
// another may take from the same wallet, while each allowance stays its own.
func TestAllowanceWalletSharedAcrossContracts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other := &cashier.Merchant{ID: "m_2", Name: "Other", APIKey: "pk_2", SecretKey: "sk2", WebhookKey: "whk2", Status: cashier.MerchantActive, CreatedAt: f.clock.Now()}
	k2 := &cashier.Contract{ID: "k_2", MerchantID: "m_2", Chain: cashier.ChainETH, Address: "0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa",
		Status: cashier.ContractActive, CreatedAt: f.clock.Now()}
	if err := f.st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, other); err != nil {
			return err
		}
		return tx.CreateContract(ctx, k2)
	}); err != nil {
		t.Fatal(err)
	}
	w := strings.ToLower(walletAddr)
	f.funds.balance[w] = units("30")
	f.funds.allow[w] = units("100") // to every contract, in this stand-in
	req := func(contract, no, amount string) orders.PayoutRequest {
		return orders.PayoutRequest{ContractID: contract, OrderNo: no, Recipient: recipient, Amount: amount, Symbol: "USDT", PayoutType: 2, FromAddress: walletAddr}
	}
	if _, err := f.svc.CreatePayout(ctx, f.m, req("k_1", "W-1", "20")); err != nil { // locks 21 of the wallet's 30
		t.Fatal(err)
	}
	_, err := f.svc.CreatePayout(ctx, other, req("k_2", "W-2", "10")) // needs 11, 9 left
	wantCode(t, err, cashier.EInsufficientFunds)
	if _, err := f.svc.CreatePayout(ctx, other, req("k_2", "W-3", "8")); err != nil { // needs 9: fits
		t.Fatal(err)
	}
	// The allowance is per contract: 100 to k_1, of which 21 is locked.
	f.funds.balance[w] = units("1000")
	_, err = f.svc.CreatePayout(ctx, f.m, req("k_1", "W-4", "79")) // needs 80, 79 of the allowance left
	wantCode(t, err, cashier.EInsufficientAllow)
	if _, err := f.svc.CreatePayout(ctx, f.m, req("k_1", "W-5", "78")); err != nil {
		t.Fatal(err)
	}
}
