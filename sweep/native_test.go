package sweep_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/sweep"
	"github.com/stablecashier/cashier/tron"
)

// sendNative sends amount ETH from the customer wallet to orderNo's
// deposit address and waits until the watcher has confirmed it as a
// NATIVE payment; it returns the deposit address.
func (r *rig) sendNative(orderNo, amount string) string {
	r.t.Helper()
	ctx := context.Background()
	p, err := sandbox.Pay(ctx, r.sb.Info, r.sb.Service.Store, sandbox.PayRequest{OrderNo: orderNo, Symbol: "ETH", Amount: amount})
	if err != nil {
		r.t.Fatal(err)
	}
	o, err := r.sb.Service.Store.CollectionByOrderNo(ctx, r.sb.Info.MerchantID, orderNo)
	if err != nil {
		r.t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ps, err := r.sb.Service.Store.PaymentsByOrder(ctx, o.ID)
		if err != nil {
			r.t.Fatal(err)
		}
		for _, q := range ps {
			if q.TxHash == p.TxID && q.Status == cashier.PaymentConfirmed {
				if q.Effect != cashier.EffectNative || q.Symbol != "ETH" {
					r.t.Fatalf("native payment recorded as %+v", q)
				}
				return p.To
			}
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("native payment %s to %s not confirmed: %+v", p.TxID, orderNo, ps)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (r *rig) ether(a string) *big.Int {
	r.t.Helper()
	b, err := r.sb.ETH.Client.BalanceAt(context.Background(), common.HexToAddress(a), nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

func wei(s string) *big.Int {
	v, err := cashier.ParseAmount(s, 18)
	if err != nil {
		panic(err)
	}
	return v
}

// Ether sent by mistake to deposit addresses (one paid order, one unpaid)
// is left alone by the token sweeps and moved into the vault by the
// native sweep, each address once: recorded with token "", never again.
func TestSweepNative(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	vault := r.sb.Info.Networks["ETH"].PayoutContract
	paid := r.paid("NS-1", "10.00")
	r.sendNative("NS-1", "0.25")
	if _, err := r.api.CreateCollection(ctx, client.CollectionRequest{CashierID: r.sb.Info.CashierID, OrderNo: "NS-2",
		Amount: "3.00", Symbol: "USDT", ChainID: "ETH"}); err != nil {
		t.Fatal(err)
	}
	unpaid := r.sendNative("NS-2", "0.5")
	before := r.ether(vault)

	// The token sweep moves the tokens only.
	s := r.sweeper("1")
	if n, err := s.Round(ctx); err != nil || n != 1 {
		t.Fatalf("token round started %d, %v", n, err)
	}
	r.settleAll(s)
	if got := r.ether(paid); got.Cmp(wei("0.25")) != 0 {
		t.Fatalf("the token sweep moved ether: %s left", got)
	}

	// Only the address asked for, then the rest.
	started, err := s.SweepNative(ctx, unpaid)
	if err != nil || len(started) != 1 || len(started[0].Items) != 1 || started[0].Items[0].Address != unpaid {
		t.Fatalf("native sweep of %s: %+v, %v", unpaid, started, err)
	}
	r.settleAll(s)
	if got := new(big.Int).Sub(r.ether(vault), before); got.Cmp(wei("0.5")) != 0 {
		t.Fatalf("vault gained %s wei, want 0.5 ETH", got)
	}
	if got := r.ether(paid); got.Cmp(wei("0.25")) != 0 {
		t.Fatalf("the other address was swept too: %s left", got)
	}
	if started, err = s.SweepNative(ctx, ""); err != nil || len(started) != 1 || started[0].Items[0].Address != paid {
		t.Fatalf("native sweep of the rest: %+v, %v", started, err)
	}
	r.settleAll(s)
	if got := new(big.Int).Sub(r.ether(vault), before); got.Cmp(wei("0.75")) != 0 {
		t.Fatalf("vault gained %s wei, want 0.75 ETH", got)
	}
	for _, a := range []string{paid, unpaid} {
		if b := r.ether(a); b.Sign() != 0 {
			t.Fatalf("deposit address %s still holds %s wei", a, b)
		}
	}
	var native []cashier.Sweep
	for _, sw := range r.sweeps() {
		if sw.Token == "" {
			native = append(native, sw)
		}
	}
	if len(native) != 2 || native[0].Status != cashier.SweepDone || native[1].Status != cashier.SweepDone ||
		new(big.Int).Add(native[0].Amount, native[1].Amount).Cmp(wei("0.75")) != 0 {
		t.Fatalf("native sweeps: %+v", native)
	}

	// Nothing left: no transaction, no record.
	n0, count := r.nonce(), len(r.sweeps())
	if started, err = s.SweepNative(ctx, ""); err != nil || len(started) != 0 {
		t.Fatalf("third native sweep started %+v, %v", started, err)
	}
	if r.nonce() != n0 || len(r.sweeps()) != count {
		t.Fatal("an empty native sweep sent or recorded something")
	}
}

// TRX sent by mistake to a TRON deposit address (a TransferContract, as
// wallets send it) is recorded as NATIVE and swept into the vault once.
func TestSweepNativeTRON(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	if _, err := r.api.CreateCollection(ctx, client.CollectionRequest{CashierID: r.sb.Info.CashierID, OrderNo: "NT-1",
		Amount: "3.00", Symbol: "USDT", ChainID: "TRON"}); err != nil {
		t.Fatal(err)
	}
	p, err := sandbox.Pay(ctx, r.sb.Info, r.sb.Service.Store, sandbox.PayRequest{OrderNo: "NT-1", Symbol: "TRX", Amount: "15"})
	if err != nil {
		t.Fatal(err)
	}
	o, err := r.sb.Service.Store.CollectionByOrderNo(ctx, r.sb.Info.MerchantID, "NT-1")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ps, err := r.sb.Service.Store.PaymentsByOrder(ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 1 && ps[0].Status == cashier.PaymentConfirmed {
			if ps[0].Effect != cashier.EffectNative || ps[0].Symbol != "TRX" || ps[0].Decimals != 6 || ps[0].Amount.Int64() != 15_000_000 || ps[0].TxHash != p.TxID {
				t.Fatalf("TRX payment recorded as %+v", ps[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("TRX payment not confirmed: %+v", ps)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got, err := r.sb.Service.Store.Collection(ctx, o.ID); err != nil || got.Status != cashier.CollectionPending || (got.PaidAmount != nil && got.PaidAmount.Sign() != 0) {
		t.Fatalf("order after TRX: %+v, %v", got, err)
	}

	n := r.sb.Info.Networks["TRON"]
	c, err := tron.New(tron.Config{URLs: []string{n.RPCURL}, Key: r.sb.Info.Roles["sweeper"].MustKey()})
	if err != nil {
		t.Fatal(err)
	}
	s := &sweep.Sweeper{Chain: cashier.ChainTRON, Store: r.sb.Service.Store, Registry: r.sb.Service.Registry, Client: c}
	trx := func(a string) int64 {
		b, err := c.NativeBalance(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return b.Int64()
	}
	vault := n.PayoutContract
	before := trx(vault)
	started, err := s.SweepNative(ctx, "")
	if err != nil || len(started) != 1 || len(started[0].Items) != 1 || started[0].Items[0].Address != p.To {
		t.Fatalf("TRON native sweep: %+v, %v", started, err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for {
		must(t, s.Settle(ctx))
		open, err := r.sb.Service.Store.Sweeps(ctx, cashier.ChainTRON, true)
		must(t, err)
		if len(open) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("TRON sweep in flight: %+v", open)
		}
		time.Sleep(200 * time.Millisecond)
	}
	all, err := r.sb.Service.Store.Sweeps(ctx, cashier.ChainTRON, false)
	must(t, err)
	if len(all) != 1 || all[0].Status != cashier.SweepDone || all[0].Token != "" || all[0].Amount.Int64() != 15_000_000 {
		t.Fatalf("TRON sweeps: %+v", all)
	}
	if got := trx(vault) - before; got != 15_000_000 {
		t.Fatalf("the TRON vault gained %d sun", got)
	}
	if got := trx(p.To); got != 0 {
		t.Fatalf("the deposit address keeps %d sun", got)
	}
	if started, err = s.SweepNative(ctx, ""); err != nil || len(started) != 0 {
		t.Fatalf("second TRON native sweep: %+v, %v", started, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
