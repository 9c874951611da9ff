package app

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/tron"
)

func TestDepositAddress(t *testing.T) {
	factory, impl := "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
	got, err := DepositAddress(cashier.ChainETH, 0xff, factory, impl, "co_1")
	if err != nil {
		t.Fatal(err)
	}
	want := payoutcontract.DepositAddress(0xff, common.HexToAddress(factory), common.HexToAddress(impl), payoutcontract.DepositSalt("co_1"))
	if got != want.Hex() {
		t.Fatalf("ETH deposit address %s, want %s", got, want.Hex())
	}
	other, _ := DepositAddress(cashier.ChainETH, 0xff, factory, impl, "co_2")
	if other == got {
		t.Fatal("two orders share a deposit address")
	}
	// TRON: base58 in and out, the TVM's prefix.
	tf := tron.AddressFromEVM(common.HexToAddress(factory)).String()
	ti := tron.AddressFromEVM(common.HexToAddress(impl)).String()
	tgot, err := DepositAddress(cashier.ChainTRON, 0x41, tf, ti, "co_1")
	if err != nil {
		t.Fatal(err)
	}
	twant := payoutcontract.DepositAddress(0x41, common.HexToAddress(factory), common.HexToAddress(impl), payoutcontract.DepositSalt("co_1"))
	if tgot != tron.AddressFromEVM(twant).String() {
		t.Fatalf("TRON deposit address %s", tgot)
	}
	if _, err := DepositAddress(cashier.ChainETH, 0x00, factory, impl, "co_1"); err == nil {
		t.Fatal("a zero CREATE2 prefix was accepted")
	}
	if _, err := DepositAddress(cashier.ChainTRON, 0x41, factory, impl, "co_1"); err == nil {
		t.Fatal("hex addresses accepted as TRON addresses")
	}
}

func TestDepositsNeedAFactory(t *testing.T) {
	cfg := testConfig(t)
	st, err := OpenStore(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	m, _ := NewMerchant("Shop", cashier.SystemClock{})
	// Stored directly: registration's on-chain proof is tested in ownership_test.go.
	k := &cashier.Contract{ID: "k_1", MerchantID: m.ID, Chain: cashier.ChainETH, Address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		Status: cashier.ContractActive, CreatedAt: time.Now()}
	if err := st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, m); err != nil {
			return err
		}
		return tx.CreateContract(ctx, k)
	}); err != nil {
		t.Fatal(err)
	}
	d := Deposits{Store: st, Registry: mustRegistry(t)}
	if _, err := d.DepositAddress(ctx, m, cashier.ChainETH, "co_1"); cashier.ErrorCode(err) != cashier.EUnsupported {
		t.Fatalf("no factory: %v", err)
	}
	if _, err := (Funds{}).ContractBalance(ctx, cashier.ChainETH, "0x1", "0x2"); cashier.ErrorCode(err) != cashier.EUnsupported {
		t.Fatalf("no chain client: %v", err)
	}
}

// The gas policy setting: fee+gas on EVM networks with a fixed price or a
// feed; anything else is refused with a clear error.
func TestParseGasPolicy(t *testing.T) {
	got, err := ParseGasPolicy("ETH=fee+gas, ARB=fee+gas, TRON=fee", "ETH=3150.25,ARB=feed:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	if err != nil {
		t.Fatal(err)
	}
	if p := got[cashier.ChainETH]; p.fixed == nil || p.fixed.Num.Int64() != 12601 || p.fixed.Den.Int64() != 4 {
		t.Fatalf("ETH price %+v", p)
	}
	if got[cashier.ChainARB].feed != "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" {
		t.Fatalf("ARB feed %+v", got[cashier.ChainARB])
	}
	if _, ok := got[cashier.ChainTRON]; ok || len(got) != 2 {
		t.Fatalf("policies %+v", got)
	}
	if got, err := ParseGasPolicy("", ""); err != nil || len(got) != 0 {
		t.Fatalf("default: %v %v", got, err)
	}
	for _, bad := range [][2]string{
		{"TRON=fee+gas", "TRON=0.1"},    // EVM only
		{"ETH=fee+gas", ""},             // no price
		{"ETH=fee", "ETH=3000"},         // a price nobody uses
		{"ETH=gas", ""},                 // no such policy
		{"ETH=fee+gas", "ETH=feed:0x1"}, // not an address
		{"ETH=fee+gas", "ETH=-3"},
		{"ETH=fee,ETH=fee+gas", "ETH=1"},
		{"BTC=fee", ""},
	} {
		if _, err := ParseGasPolicy(bad[0], bad[1]); err == nil {
			t.Errorf("policy %q price %q accepted", bad[0], bad[1])
		}
	}
}
