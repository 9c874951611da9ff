package http

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sign"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
)

// Test fixtures: one merchant with a cashier and payout contracts on TRON
// and Ethereum, a second merchant to check isolation, USDT and USDC with 6
// decimals on three networks, bounds 1.00 to 1,000,000.00, fee 1.00.
const (
	apiKey     = "pk_test_0123456789abcdef"
	secretKey  = "sk_test_fedcba9876543210"
	apiKey2    = "pk_test_second_merchant"
	secretKey2 = "sk_test_second_merchant"
	cashierID  = "cs_1"
	cashierOff = "cs_closed"
	cashier2   = "cs_other"
	tronK      = "ct_tron"
	ethK       = "ct_eth"

	tronContract = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
	ethContract  = "0x00000000000000000000000000000000000c0de1"
	tronRecip    = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"
	ethRecip     = "0x1111111111111111111111111111111111111111"
	richWallet   = "0x2222222222222222222222222222222222222222"
)

var t0 = time.Date(2026, 11, 23, 8, 0, 10, 0, time.UTC)

func units(s string) *big.Int {
	v, err := cashier.ParseAmount(s, 6)
	if err != nil {
		panic(err)
	}
	return v
}

func testRegistry() *cashier.Registry {
	reg := &cashier.Registry{Networks: []cashier.Network{
		{Chain: cashier.ChainTRON, NetworkName: "TRON", ShortName: "TRX", Symbol: "TRX", Decimals: 6, ExplorerURL: "https://tronscan.org", RPCURL: "https://api.trongrid.io", Status: cashier.NetworkActive, AvgBlockTime: 3, AvgGasFee: "1-5 TRX", Confirmations: 19},
		{Chain: cashier.ChainETH, NetworkName: "Ethereum", ShortName: "ETH", Symbol: "ETH", Decimals: 18, ExplorerURL: "https://etherscan.io", RPCURL: "https://eth.llamarpc.com", Status: cashier.NetworkActive, AvgBlockTime: 12, AvgGasFee: "1-10 USD", Confirmations: 12, EVMChainID: 1},
		{Chain: cashier.ChainARB, NetworkName: "Arbitrum One", ShortName: "ARB", Symbol: "ETH", Decimals: 18, ExplorerURL: "https://arbiscan.io", RPCURL: "https://arb1.arbitrum.io/rpc", Status: cashier.NetworkActive, AvgBlockTime: 1, AvgGasFee: "0.01-0.1 USD", Confirmations: 20, EVMChainID: 42161},
	}}
	addrs := map[cashier.Chain][2]string{
		cashier.ChainTRON: {"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8"},
		cashier.ChainETH:  {"0xdAC17F958D2ee523a2206206994597C13D831ec7", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"},
		cashier.ChainARB:  {"0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"},
	}
	for _, n := range reg.Networks {
		c := n.Chain
		for i, sym := range []string{"USDT", "USDC"} {
			name := map[string]string{"USDT": "Tether USD", "USDC": "USD Coin"}[sym]
			reg.Tokens = append(reg.Tokens, cashier.Token{Symbol: sym, Name: name, Chain: c, ContractAddress: addrs[c][i], Decimals: 6,
				MinAmount: units("1"), MaxAmount: units("1000000"), WithdrawFee: units("1")})
		}
	}
	return reg
}

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// testDeposits derives a deposit address from the order id.
type testDeposits struct{}

func (testDeposits) DepositAddress(_ context.Context, _ *cashier.Merchant, c cashier.Chain, id string) (string, error) {
	h := sha256.Sum256([]byte(id))
	if c.IsEVM() {
		return "0x" + hex.EncodeToString(h[:20]), nil
	}
	b := []byte{'T'}
	for i := 0; i < 33; i++ {
		b = append(b, base58[int(h[i%32]+byte(i))%len(base58)])
	}
	return string(b), nil
}

// testFunds: every contract and wallet holds 1000.00 of each token;
// richWallet allows the contract 500.00, other wallets nothing.
type testFunds struct{}

func (testFunds) ContractBalance(ctx context.Context, c cashier.Chain, token, contract string) (*big.Int, error) {
	return units("1000"), nil
}

func (testFunds) WalletFunds(ctx context.Context, c cashier.Chain, token, owner, contract string) (*big.Int, *big.Int, error) {
	if strings.EqualFold(owner, richWallet) {
		return units("1000"), units("500"), nil
	}
	return units("1000"), new(big.Int), nil
}

type env struct {
	t     testing.TB
	clock *cashier.ManualClock
	store *sqlite.DB
	svc   *orders.Service
	srv   *httptest.Server
	cli   *client.Client
}

func newEnv(t testing.TB, configure func(*Config)) *env {
	t.Helper()
	ctx := context.Background()
	sealer, err := sqlite.NewAESSealer(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, sqlitetest.Path(t), sqlite.Options{Sealer: sealer, WriteQueue: envWriteQueue, MaxWriteWait: envWriteWait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := cashier.NewManualClock(t0)
	err = db.Update(ctx, func(tx cashier.Tx) error {
		for _, m := range []cashier.Merchant{
			{ID: "m_1", Name: "Acme Shop", APIKey: apiKey, SecretKey: secretKey, WebhookKey: "wk_1", Status: cashier.MerchantActive, CreatedAt: t0},
			{ID: "m_2", Name: "Other", APIKey: apiKey2, SecretKey: secretKey2, WebhookKey: "wk_2", Status: cashier.MerchantActive, CreatedAt: t0},
		} {
			if err := tx.CreateMerchant(ctx, &m); err != nil {
				return err
			}
		}
		for _, c := range []cashier.Cashier{
			{ID: cashierID, MerchantID: "m_1", Name: "Main", WebhookURL: "https://acme.example/hook", Status: cashier.CashierActive, CreatedAt: t0},
			{ID: cashierOff, MerchantID: "m_1", Name: "Old", Status: cashier.CashierInactive, CreatedAt: t0},
			{ID: cashier2, MerchantID: "m_2", Name: "Theirs", Status: cashier.CashierActive, CreatedAt: t0},
		} {
			if err := tx.CreateCashier(ctx, &c); err != nil {
				return err
			}
		}
		for _, k := range []cashier.Contract{
			{ID: tronK, MerchantID: "m_1", Chain: cashier.ChainTRON, Address: tronContract, Status: cashier.ContractActive, CreatedAt: t0},
			{ID: ethK, MerchantID: "m_1", Chain: cashier.ChainETH, Address: ethContract, Status: cashier.ContractActive, CreatedAt: t0},
		} {
			if err := tx.CreateContract(ctx, &k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reg := testRegistry()
	svc := &orders.Service{Store: db, Registry: reg, Clock: clock, Addresses: address.Validator{}, Deposits: testDeposits{}, Funds: testFunds{}, Config: orders.DefaultConfig}
	cfg := DefaultConfig()
	cfg.MaxWait, cfg.MaxCPUWait = -1, -1 // fixed bounds unless a test is about them
	if configure != nil {
		configure(&cfg)
	}
	h, err := NewServer(cfg, svc, db, reg, clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &env{t: t, clock: clock, store: db, svc: svc, srv: srv,
		cli: client.New(srv.URL, apiKey, secretKey, client.WithClock(clock))}
}

// counts returns how many collection and payout orders merchant m_1 has.
func (e *env) counts() (collections, payouts int) {
	e.t.Helper()
	ctx := context.Background()
	_, c, err := e.store.Collections(ctx, cashier.CollectionFilter{MerchantID: "m_1", Page: 1, PageSize: 1})
	if err != nil {
		e.t.Fatal(err)
	}
	_, p, err := e.store.Payouts(ctx, cashier.PayoutFilter{MerchantID: "m_1", Page: 1, PageSize: 1})
	if err != nil {
		e.t.Fatal(err)
	}
	return c, p
}

// response is a raw response: status, headers and the decoded JSON body
// with numbers kept as json.Number so types can be checked exactly.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r response) data() map[string]any {
	m, _ := r.body["data"].(map[string]any)
	return m
}

// request is a raw request the tests build and may break on purpose.
type request struct {
	method  string
	path    string
	query   string // raw query, signed as sent unless sig is set
	body    []byte // nil: marshal params
	params  map[string]any
	headers map[string]string // "" value deletes the header
	timeMs  string            // default: the clock's now
	sigKey  string            // default: secretKey; "-" sends no signature
	apiKey  string            // default: apiKey; "-" sends none
}

func (e *env) do(rq request) response {
	e.t.Helper()
	if rq.timeMs == "" {
		rq.timeMs = strconv.FormatInt(e.clock.Now().UnixMilli(), 10)
	}
	body := rq.body
	var params sign.Params
	var err error
	switch {
	case rq.method == http.MethodGet:
		if params, err = queryParams(rq.query); err != nil {
			params, err = sign.Params{}, nil // the query is broken on purpose
		}
	case body == nil:
		params, body, err = sign.FromValue(rq.params)
	default:
		params, err = sign.ParseJSONObject(body)
		if err != nil {
			params, err = sign.Params{}, nil // sign something; the body is broken on purpose
		}
	}
	if err != nil {
		e.t.Fatal(err)
	}
	h := sign.HeaderNames("")
	u := e.srv.URL + rq.path
	if rq.query != "" {
		u += "?" + rq.query
	}
	req, err := http.NewRequest(rq.method, u, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if rq.method == http.MethodGet {
		req.Body = nil
	}
	req.Header.Set("Content-Type", "application/json")
	if rq.apiKey != "-" {
		k := rq.apiKey
		if k == "" {
			k = apiKey
		}
		req.Header.Set(h.APIKey, k)
	}
	req.Header.Set(h.RequestTime, rq.timeMs)
	if rq.sigKey != "-" {
		k := rq.sigKey
		if k == "" {
			k = secretKey
		}
		sig, err := sign.Request(k, params, rq.timeMs, sign.Raw)
		if err != nil {
			e.t.Fatal(err)
		}
		req.Header.Set(h.SignatureV2, sig)
	}
	for k, v := range rq.headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	out := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&out.body); err != nil {
			e.t.Fatalf("response is not JSON: %v\n%s", err, raw)
		}
	}
	return out
}

// signedCollection builds a valid collection create body (with the sign
// field equal to the header signature computed by do) from overrides.
func collectionBody(over map[string]any) map[string]any {
	p := map[string]any{"cashierId": cashierID, "orderNo": "C1001", "amount": "100.50", "symbol": "USDT", "chainId": "ETH", "custNo": "cust-7"}
	for k, v := range over {
		if v == nil {
			delete(p, k)
		} else {
			p[k] = v
		}
	}
	return p
}

// withSign adds the body field sign as the SDK does: the header signature
// over the other fields at timeMs.
func withSign(p map[string]any, key, timeMs string) map[string]any {
	params, _, err := sign.FromValue(p)
	if err != nil {
		panic(err)
	}
	sig, err := sign.Request(key, params, timeMs, sign.Raw)
	if err != nil {
		panic(err)
	}
	out := map[string]any{}
	for k, v := range p {
		out[k] = v
	}
	out["sign"] = sig
	return out
}

// expectError checks an error envelope of the order or config family.
func expectError(t testing.TB, r response, status int, code, msgPart string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
	if r.body["code"] != code || r.body["success"] != false || r.body["data"] != nil {
		t.Fatalf("envelope %s, want code %s, success false, data null", r.raw, code)
	}
	msg, _ := r.body["msg"].(string)
	if msg == "" || r.body["message"] != msg {
		t.Fatalf("msg and message must both carry the message: %s", r.raw)
	}
	if !strings.Contains(msg, msgPart) {
		t.Fatalf("message %q does not mention %q", msg, msgPart)
	}
	if tr, _ := r.body["trace"].(string); tr == "" || tr != r.header.Get("X-Request-Id") {
		t.Fatalf("trace %q vs X-Request-Id %q", tr, r.header.Get("X-Request-Id"))
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// disabledStore reports every merchant disabled.
type disabledStore struct{ cashier.Store }

func (s disabledStore) MerchantByAPIKey(ctx context.Context, k string) (*cashier.Merchant, error) {
	m, err := s.Store.MerchantByAPIKey(ctx, k)
	if err == nil {
		m.Status = cashier.MerchantDisabled
	}
	return m, err
}
