package sandbox_test

import (
	"crypto/rand"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/orders"
)

// e18 is v × 10^18 / 100: hundredths of an 18-decimal token in base units.
func e18(hundredths int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(hundredths), new(big.Int).Exp(big.NewInt(10), big.NewInt(16), nil))
}

// On the sandbox's BSC chain, whose USDT has 18 decimals: an order of
// 10.50 USDT paid with exactly 10.5 × 10^18 base units is SUCCESS with
// paidAmount 10.50; one paid in two transfers that fall one base unit
// short and then make it up completes only with the second; a payout of
// 1.25 USDT lands exactly 1.25 × 10^18 base units at its recipient, once.
func TestBSCEighteenDecimals(t *testing.T) {
	sb, _ := start(t, t.TempDir())
	ctx := t.Context()
	api := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)
	n := sb.Info.Networks["BSC"]
	if n == nil || sb.BSC == nil {
		t.Fatal("the sandbox has no BSC chain")
	}
	c := onChain(t, sb, "BSC")
	token := bindings.NewTestUSDC()
	usdt := common.HexToAddress(n.Tokens["USDT"])
	if d := new(big.Int).SetBytes(c.call(ctx, usdt, bindings.NewTestPegToken().PackDecimals())); d.Int64() != 18 {
		t.Fatalf("sandbox BSC USDT has %s decimals", d)
	}
	customer := sb.Info.Wallets["customer"].MustKey()

	// The coin list says what the API accepts on BSC.
	coins, err := api.Coins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, co := range coins {
		for _, cn := range co.Networks {
			if co.Symbol == "USDT" && cn.ChainID == "56" {
				found = cn.Decimals == 18 && cn.ContractAddress == n.Tokens["USDT"]
			}
		}
	}
	if !found {
		t.Fatalf("coin list has no 18-decimal sandbox BSC USDT: %+v", coins)
	}

	waitSuccess := func(orderNo string) *client.Collection {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			d, err := api.CollectionDetail(ctx, orderNo)
			if err != nil {
				t.Fatal(err)
			}
			if d.Status == string(cashier.CollectionSuccess) {
				return d
			}
			if time.Now().After(deadline) {
				t.Fatalf("collection %s still %s (paid %s)", orderNo, d.Status, d.PaidAmount)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	created, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: "BSC-1050",
		Amount: "10.50", Symbol: "USDT", ChainID: "BSC"})
	if err != nil {
		t.Fatal(err)
	}
	order, err := api.CollectionDetail(ctx, created.OrderNo)
	if err != nil {
		t.Fatal(err)
	}
	deposit := common.HexToAddress(order.DepositAddress)
	want := e18(1050)
	if want.String() != "10500000000000000000" {
		t.Fatal(want)
	}
	c.send(ctx, customer, usdt, token.PackTransfer(deposit, want))
	d := waitSuccess(created.OrderNo)
	if d.PaidAmount != "10.50" || d.Amount != "10.50" || d.ChainID != "BSC" {
		t.Fatalf("paid order: amount %s paidAmount %s chain %s", d.Amount, d.PaidAmount, d.ChainID)
	}
	if got := c.balance(ctx, usdt, deposit); got.Cmp(want) != 0 {
		t.Fatalf("deposit address holds %s", got)
	}

	// Partial: one base unit short stays PENDING; the last unit completes it.
	created, err = api.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: "BSC-PART",
		Amount: "10.50", Symbol: "USDT", ChainID: "BSC"})
	if err != nil {
		t.Fatal(err)
	}
	order, _ = api.CollectionDetail(ctx, created.OrderNo)
	deposit = common.HexToAddress(order.DepositAddress)
	short := new(big.Int).Sub(want, big.NewInt(1))
	c.send(ctx, customer, usdt, token.PackTransfer(deposit, short))
	deadline := time.Now().Add(60 * time.Second)
	for {
		d, err := api.CollectionDetail(ctx, created.OrderNo)
		if err != nil {
			t.Fatal(err)
		}
		if d.PaidAmount == "10.499999999999999999" {
			if d.Status != string(cashier.CollectionPending) {
				t.Fatalf("one base unit short: %s", d.Status)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("partial payment not seen: %s paid %s", d.Status, d.PaidAmount)
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.send(ctx, customer, usdt, token.PackTransfer(deposit, big.NewInt(1)))
	if d := waitSuccess(created.OrderNo); d.PaidAmount != "10.50" {
		t.Fatalf("completed partial order paid %s", d.PaidAmount)
	}

	// The payment page's network choice: an order of 10.50 USDT created
	// on Ethereum for the customer to choose; choosing BSC gives it 10.5 ×
	// 10^18 base units and a BSC deposit address, and that payment
	// completes it.
	m, err := sb.Service.Store.Merchant(ctx, sb.Info.MerchantID)
	if err != nil {
		t.Fatal(err)
	}
	chosen, err := sb.Service.Orders.CreateCollection(ctx, m, orders.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: "BSC-CHOOSE",
		Amount: "10.50", Symbol: "USDT", ChainID: "ETH", ChooseChain: true, ChooseToken: true})
	if err != nil {
		t.Fatal(err)
	}
	offered := false
	for _, opt := range sb.Service.Orders.NetworkOptions(ctx, m, chosen) {
		if opt.Chain == cashier.ChainBSC && opt.Symbol == "USDT" {
			offered = opt.Amount == "10.50"
		}
	}
	if !offered {
		t.Fatalf("BSC USDT not offered at 10.50: %+v", sb.Service.Orders.NetworkOptions(ctx, m, chosen))
	}
	if chosen, err = sb.Service.Orders.ChooseNetwork(ctx, chosen.ID, "BSC", "USDT"); err != nil {
		t.Fatal(err)
	}
	if chosen.Chain != cashier.ChainBSC || chosen.Decimals != 18 || chosen.Amount.Cmp(want) != 0 || chosen.DepositAddress == "" {
		t.Fatalf("chosen order: %s %d decimals %s to %s", chosen.Chain, chosen.Decimals, chosen.Amount, chosen.DepositAddress)
	}
	c.send(ctx, customer, usdt, token.PackTransfer(common.HexToAddress(chosen.DepositAddress), want))
	if d := waitSuccess("BSC-CHOOSE"); d.PaidAmount != "10.50" || d.ChainID != "BSC" {
		t.Fatalf("chosen order paid %s on %s", d.PaidAmount, d.ChainID)
	}

	// Payout of 1.25 USDT from the payout contract's balance, approved.
	var rb [20]byte
	rand.Read(rb[:])
	recipient := common.BytesToAddress(rb[:])
	p, err := api.CreatePayout(ctx, client.PayoutRequest{ContractID: sb.Info.ContractIDs["BSC"], OrderNo: "BSC-PAY-125",
		Recipient: recipient.Hex(), Amount: "1.25", Symbol: "USDT", PayoutType: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Service.Orders.ApprovePayout(ctx, p.OrderID); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(90 * time.Second)
	var pd *client.Payout
	for {
		if pd, err = api.PayoutDetail(ctx, p.OrderNo); err != nil {
			t.Fatal(err)
		}
		if pd.Status == string(cashier.PayoutSuccess) {
			break
		}
		if time.Now().After(deadline) || pd.Status == string(cashier.PayoutRefuse) {
			t.Fatalf("payout %+v", pd)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if pd.Amount != "1.25" || pd.TxID == "" {
		t.Fatalf("payout detail %+v", pd)
	}
	landed := e18(125)
	if landed.String() != "1250000000000000000" {
		t.Fatal(landed)
	}
	if got := c.balance(ctx, usdt, recipient); got.Cmp(landed) != 0 {
		t.Fatalf("recipient holds %s, want %s", got, landed)
	}
	// Once: a few more executor rounds send nothing more.
	time.Sleep(3 * time.Second)
	if got := c.balance(ctx, usdt, recipient); got.Cmp(landed) != 0 {
		t.Fatalf("recipient holds %s after more rounds, want %s", got, landed)
	}
}
