package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

// env is the whole service (app.New on a SQLite file, no chain nodes)
// behind a real HTTP server, with two merchants and a user of every role.
type env struct {
	t     *testing.T
	cfg   config.Config
	svc   *app.Service
	srv   *httptest.Server
	m1    *cashier.Merchant // merchant one, with its plain keys
	m2    *cashier.Merchant
	c1    string // merchant one's cashier
	c2    string // merchant two's cashier
	o1    string // a collection order of merchant one
	o2    string // a collection order of merchant two
	users map[string]string
}

const testPassword = "correct horse battery staple"

func newEnv(t *testing.T, mutate func(*config.Config)) *env {
	t.Helper()
	return newEnvClock(t, mutate, cashier.SystemClock{})
}

// newSandboxEnv is the sandbox (dev chains, deployed contracts, funded
// wallets) with only its handler served: no executor or watcher loop runs,
// so a test drives the watchers itself and approved payouts stay put.
func newSandboxEnv(t *testing.T) (*sandbox.Sandbox, *env) {
	t.Helper()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	sb, err := sandbox.Start(context.Background(), sandbox.Options{Config: cfg, FreePorts: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	srv := httptest.NewServer(sb.Service.Handler)
	t.Cleanup(srv.Close)
	return sb, &env{t: t, srv: srv, svc: sb.Service}
}

// newEnvClock is newEnv with the service on clock.
func newEnvClock(t *testing.T, mutate func(*config.Config), clock cashier.Clock) *env {
	t.Helper()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.Mode = "sandbox"
	cfg.LogLevel = "error"
	if mutate != nil {
		mutate(&cfg)
	}
	ctx := context.Background()
	svc, err := app.New(ctx, cfg, app.Options{Chains: idleChains(), Clock: clock}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	e := &env{t: t, cfg: cfg, svc: svc, users: map[string]string{}}
	e.srv = httptest.NewServer(svc.Handler)
	t.Cleanup(e.srv.Close)

	for i, name := range []string{"One Shop", "Two Shop"} {
		m, err := app.NewMerchant(name, clock)
		if err != nil {
			t.Fatal(err)
		}
		c := &cashier.Cashier{ID: "c_" + m.ID, MerchantID: m.ID, Name: "Main", Status: cashier.CashierActive, CreatedAt: clock.Now()}
		o := &cashier.CollectionOrder{ID: "co_" + m.ID, MerchantID: m.ID, CashierID: c.ID, OrderNo: "ORD-" + name[:3],
			Chain: cashier.ChainETH, Symbol: "USDT", Decimals: 6, Amount: big.NewInt(12_500_000),
			DepositAddress: "0x000000000000000000000000000000000000d0" + string(rune('0'+i)) + "1",
			Status:         cashier.CollectionPending, TxID: "0xfeed" + strings.Repeat(string(rune('a'+i)), 60), CreatedAt: time.Now()}
		err = svc.Store.Update(ctx, func(tx cashier.Tx) error {
			if err := tx.CreateMerchant(ctx, m); err != nil {
				return err
			}
			if err := tx.CreateCashier(ctx, c); err != nil {
				return err
			}
			return tx.CreateCollection(ctx, o)
		})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			e.m1, e.c1, e.o1 = m, c.ID, o.ID
		} else {
			e.m2, e.c2, e.o2 = m, c.ID, o.ID
		}
	}
	for _, role := range []string{"owner", "developer", "reviewer", "viewer"} {
		e.addUser(role+"@one.example", e.m1.ID, role, false)
	}
	e.addUser("owner@two.example", e.m2.ID, "owner", false)
	e.addUser("ops@service.example", "", "", true)
	return e
}

func (e *env) addUser(email, merchantID, role string, operator bool) {
	e.t.Helper()
	_, err := dashboard.CreateUser(context.Background(), e.svc.Store, cashier.SystemClock{},
		dashboard.UserSpec{Email: email, MerchantID: merchantID, Role: role, Operator: operator, Password: testPassword}, "test")
	if err != nil {
		e.t.Fatal(err)
	}
}

// user is a browser session of one user.
type user struct {
	e    *env
	c    *http.Client
	csrf string
}

// signIn signs in through the form as a browser does: load the form (pre-
// session token), post it, follow to the overview.
func (e *env) signIn(email string) *user {
	e.t.Helper()
	u, res := e.trySignIn(email, testPassword, "")
	if res.StatusCode != http.StatusOK || !strings.HasSuffix(res.Request.URL.Path, "/dashboard/") {
		e.t.Fatalf("sign-in of %s: %d at %s", email, res.StatusCode, res.Request.URL)
	}
	var s struct {
		Data struct {
			CSRF string `json:"csrfToken"`
		} `json:"data"`
	}
	u.getJSON("/dashboard/api/session", &s)
	u.csrf = s.Data.CSRF
	if u.csrf == "" {
		e.t.Fatal("no CSRF token in the session")
	}
	return u
}

func (e *env) trySignIn(email, password, code string) (*user, *http.Response) {
	e.t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &user{e: e, c: &http.Client{Jar: jar}}
	res, err := u.c.Get(e.srv.URL + "/dashboard/signin")
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	tok := between(string(body), `name="csrf" value="`, `"`)
	res, err = u.c.PostForm(e.srv.URL+"/dashboard/signin", url.Values{"csrf": {tok}, "email": {email}, "password": {password}, "code": {code}})
	if err != nil {
		e.t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return u, res
}

func between(s, a, b string) string {
	_, rest, ok := strings.Cut(s, a)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, b)
	return v
}

// getPage reads a page's HTML.
func (u *user) getPage(path string) string {
	u.e.t.Helper()
	res, err := u.c.Get(u.e.srv.URL + path)
	if err != nil {
		u.e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

func (u *user) getJSON(path string, out any) int {
	u.e.t.Helper()
	res, err := u.c.Get(u.e.srv.URL + path)
	if err != nil {
		u.e.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// post sends a JSON change with the session's CSRF token (csrf "" sends
// none) and returns the status and decoded body.
func (u *user) post(path string, body any, csrf string) (int, map[string]any) {
	u.e.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", u.e.srv.URL+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	res, err := u.c.Do(req)
	if err != nil {
		u.e.t.Fatal(err)
	}
	defer res.Body.Close()
	out := map[string]any{}
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func (e *env) cashier(id string) *cashier.Cashier {
	e.t.Helper()
	c, err := e.svc.Store.Cashier(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func (e *env) audit(merchantID string) []cashier.AuditEntry {
	e.t.Helper()
	es, err := e.svc.Store.Audit(context.Background(), cashier.AuditFilter{MerchantID: merchantID})
	if err != nil {
		e.t.Fatal(err)
	}
	return es
}

func fmtAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func contains(s, sub string) bool { return sub != "" && strings.Contains(s, sub) }

// contractPair returns a payout contract record of each merchant on
// Ethereum, not yet stored.
func (e *env) contractPair() (k1, k2 *cashier.Contract) {
	k1 = &cashier.Contract{ID: "k_one", MerchantID: e.m1.ID, Chain: cashier.ChainETH, Address: "0x00000000000000000000000000000000000c0001",
		Status: cashier.ContractActive, CreatedAt: time.Now()}
	k2 = &cashier.Contract{ID: "k_two", MerchantID: e.m2.ID, Chain: cashier.ChainETH, Address: "0x00000000000000000000000000000000000c0002",
		Status: cashier.ContractActive, CreatedAt: time.Now()}
	return k1, k2
}

// idleChain is a network the service counts as watched (a chain client
// with no node records, as an in-process chain is) on which nothing can be
// read or sent: the dashboard's own tests need every network active, not
// a chain.
type idleChain struct{ c cashier.Chain }

func idleChains() map[cashier.Chain]cashier.ChainClient {
	out := map[cashier.Chain]cashier.ChainClient{}
	for _, c := range cashier.Chains {
		out[c] = idleChain{c}
	}
	return out
}

func (i idleChain) Chain() cashier.Chain { return i.c }
func (i idleChain) ValidateAddress(addr string) (string, error) {
	if i.c == cashier.ChainTRON {
		return tron.ValidateAddress(addr)
	}
	return evm.ValidateAddress(addr)
}
func (i idleChain) none() error { return cashier.Errorf(cashier.EUnsupported, "no chain in this test") }
func (i idleChain) Head(context.Context) (cashier.BlockRef, error) {
	return cashier.BlockRef{}, i.none()
}
func (i idleChain) BlockByNumber(context.Context, uint64) (cashier.BlockRef, error) {
	return cashier.BlockRef{}, i.none()
}
func (i idleChain) TokenBalance(context.Context, string, string) (*big.Int, error) {
	return nil, i.none()
}
func (i idleChain) Allowance(context.Context, string, string, string) (*big.Int, error) {
	return nil, i.none()
}
func (i idleChain) TransferLogs(context.Context, string, []string, uint64, uint64) ([]cashier.Transfer, error) {
	return nil, i.none()
}
func (i idleChain) SendCall(context.Context, cashier.Call) (string, error) { return "", i.none() }
func (i idleChain) Receipt(context.Context, string) (*cashier.Receipt, error) {
	return nil, i.none()
}
func (i idleChain) TokenTransfers(context.Context, []string, uint64, uint64) ([]cashier.Transfer, error) {
	return nil, i.none()
}
