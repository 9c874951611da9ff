package evm

import (
	"math/big"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	cashier "github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/faultproxy"
)

// Through a provider that rate-limits (429 + Retry-After, -32005), answers
// 502/503 with HTML, stalls past the call timeout, cuts connections and
// lags, every read still answers right, and no request comes back before
// the pause a rate limit asked for has passed. A send whose answer is lost
// is still a send: SendCall returns its hash and it is mined once.
func TestProviderFaults(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(1000)
	for range 6 {
		e.chain.Commit()
	}
	px, err := faultproxy.New(faultproxy.Config{Target: e.chain.URL, Protocol: faultproxy.EVM, Seed: 11,
		RetryAfter: 300 * time.Millisecond, Delay: 500 * time.Millisecond, Lag: 3,
		Rates: map[faultproxy.Fault]float64{faultproxy.RateLimit: 0.1, faultproxy.Upstream: 0.1, faultproxy.Delay: 0.05,
			faultproxy.Cut: 0.1, faultproxy.Lag: 0.2}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	tune := func(cfg *Config) {
		cfg.URLs, cfg.Attempts, cfg.CallTimeout = []string{srv.URL}, 30, 200*time.Millisecond
	}
	c := e.client(payer, t.TempDir(), tune)
	head, err := e.chain.Client.BlockNumber(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		b, err := c.BlockByNumber(ctx(t), head-uint64(i%5))
		if err != nil || b.Number != head-uint64(i%5) {
			t.Fatalf("read %d: %+v %v", i, b, err)
		}
		bal, err := c.TokenBalance(ctx(t), e.usdc.Hex(), addrOf(payer).Hex())
		if err != nil || bal.Int64() != 1000 {
			t.Fatalf("balance read %d: %v %v", i, bal, err)
		}
	}
	n := px.Counts()
	for _, f := range []faultproxy.Fault{faultproxy.RateLimit, faultproxy.Upstream, faultproxy.Delay, faultproxy.Cut, faultproxy.Lag} {
		if n[string(f)] == 0 {
			t.Errorf("fault %s never injected: %v", f, n)
		}
	}
	if n["early"] != 0 {
		t.Errorf("%d requests came back before the pause a rate limit asked for: %v", n["early"], n)
	}

	// Every answer to a send is lost; the transaction is still sent, once.
	px.SetRates(map[faultproxy.Fault]float64{faultproxy.LostSend: 1})
	to := common.HexToAddress("0x9999999999999999999999999999999999999999")
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(7)), GasLimit: 100_000})
	if err != nil {
		t.Fatalf("send with its answer lost: %v (a lost answer is not a failure: the node has it)", err)
	}
	px.SetRates(nil)
	st, err := c.Wait(ctx(t), h, 5*time.Millisecond)
	if err != nil || st.State != SendConfirmed {
		t.Fatalf("send: %+v %v", st, err)
	}
	if px.Counts()["lostsend"] == 0 {
		t.Fatal("no send answer was lost")
	}
	bal, _ := c.TokenBalance(ctx(t), e.usdc.Hex(), to.Hex())
	if bal.Int64() != 7 {
		t.Fatalf("recipient holds %v, want 7", bal)
	}
}
