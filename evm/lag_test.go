package evm

import (
	"errors"
	"math/big"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	cashier "github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/faultproxy"
)

func lagProxy(t *testing.T, target string, rate float64, lag uint64) (*faultproxy.Proxy, string) {
	t.Helper()
	px, err := faultproxy.New(faultproxy.Config{Target: target, Protocol: faultproxy.EVM, Lag: lag,
		Rates: map[faultproxy.Fault]float64{faultproxy.Lag: rate}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	t.Cleanup(srv.Close)
	return px, srv.URL
}

// A node behind a log range answers eth_getLogs for it with [] and no
// error. A scan must never take that for "no payments": with every answer
// lagging it fails, with half of them it finds the payment, once.
func TestLaggingNodeNeverAnEmptyRange(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(5_000_000)
	to := common.HexToAddress("0x7777777777777777777777777777777777777777")
	r, err := e.chain.Transact(ctx(t), payer, &e.usdc, nil, e.abi.PackTransfer(to, big.NewInt(4321)), 0)
	if err != nil {
		t.Fatal(err)
	}
	paid := r.BlockNumber.Uint64()
	for range 5 {
		e.chain.Commit()
	}
	// Five blocks on top of the payment, the lagging node six behind.
	px, url := lagProxy(t, e.chain.URL, 1, 6)
	c := e.client(nil, "", func(cfg *Config) { cfg.URLs = []string{url}; cfg.Attempts = 3 })
	got, err := c.TokenTransfers(ctx(t), []string{e.usdc.Hex()}, paid, paid)
	if !errors.Is(err, ErrBehind) {
		t.Fatalf("every answer lagging: %+v, %v; want ErrBehind", got, err)
	}
	if px.Counts()["lag"] == 0 {
		t.Fatal("no lag injected")
	}
	px.SetRates(map[faultproxy.Fault]float64{faultproxy.Lag: 0.5})
	c = e.client(nil, "", func(cfg *Config) { cfg.URLs = []string{url}; cfg.Attempts = 40 })
	for range 8 {
		got, err := c.TokenTransfers(ctx(t), []string{e.usdc.Hex()}, paid-1, paid+2)
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for _, tr := range got {
			if tr.To == to.Hex() && tr.Amount.Int64() == 4321 && tr.BlockNumber == paid && !tr.BlockTime.IsZero() {
				hits++
			}
		}
		if hits != 1 {
			t.Fatalf("half the answers lagging: the payment appears %d times in %+v", hits, got)
		}
		apps, err := c.TransferLogs(ctx(t), e.usdc.Hex(), []string{to.Hex()}, paid, paid)
		if err != nil || len(apps) != 1 {
			t.Fatalf("TransferLogs: %+v, %v", apps, err)
		}
	}
}

// A lagging node answers the account's nonce as of its head. Sends from
// clients that restart between them (Recover reads the nonce afresh)
// neither reuse nor skip a nonce: every transfer is mined, once, in order.
func TestLaggingNodeNonce(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(100)
	to := common.HexToAddress("0x8888888888888888888888888888888888888888")
	_, url := lagProxy(t, e.chain.URL, 0.7, 5)
	for range 5 {
		e.chain.Commit() // heads deep enough to lag behind
	}
	dir := t.TempDir()
	transfer := cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1)), GasLimit: 100_000}
	var sends []string
	for i := range 6 {
		c := e.client(payer, dir, func(cfg *Config) { cfg.URLs = []string{url}; cfg.Attempts = 40 })
		h, err := c.SendCall(ctx(t), transfer)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := devchain.WaitMined(ctx(t), e.chain.Client, common.HexToHash(h)); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		sends = append(sends, h)
		e.chain.Commit()
		c.Close()
		c.cfg.Journal.(*FileJournal).Close()
	}
	for i, h := range sends {
		tx, _, err := e.chain.Client.TransactionByHash(ctx(t), common.HexToHash(h))
		if err != nil || tx.Nonce() != uint64(i) {
			t.Fatalf("send %d: nonce %v (%v), want %d", i, tx.Nonce(), err, i)
		}
	}
	time.Sleep(10 * time.Millisecond)
	bal, err := e.chain.Client.PendingNonceAt(ctx(t), addrOf(payer))
	if err != nil || bal != 6 {
		t.Fatalf("account nonce %d (%v), want 6", bal, err)
	}
	c := e.client(nil, "", nil)
	got, _ := c.TokenBalance(ctx(t), e.usdc.Hex(), to.Hex())
	if got.Int64() != 6 {
		t.Fatalf("recipient holds %v, want 6", got)
	}
}
