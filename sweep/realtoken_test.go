package sweep_test

import (
	"context"
	"io"
	"log/slog"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/contracts/tokens"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/sweep"
)

// On Circle's real USDC: a paused token makes the sweeps wait (an alert,
// nothing recorded or sent) and they go on once it is unpaused; a
// deposit address the token blacklisted is reported and left out while
// the batch's other addresses are swept; a payout contract the token
// blacklisted receives no sweeps, reported likewise.
func TestRealUSDCPausedAndBlacklistedSweeps(t *testing.T) {
	ctx := context.Background()
	ch, err := devchain.Start(devchain.Options{ChainID: devchain.ChainIDETH})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ch.Close() })
	sweeperKey, _ := crypto.GenerateKey()
	proxyAdmin, _ := crypto.GenerateKey()
	for _, k := range []common.Address{crypto.PubkeyToAddress(sweeperKey.PublicKey), crypto.PubkeyToAddress(proxyAdmin.PublicKey)} {
		if err := ch.Fund(ctx, k, big.NewInt(params.Ether)); err != nil {
			t.Fatal(err)
		}
	}
	usdc, err := tokens.DeployUSDC(ctx, ch, ch.Faucet, proxyAdmin)
	if err != nil {
		t.Fatal(err)
	}
	roles := payoutcontract.Roles{Owner: ch.FaucetAddress(), Executor: ch.FaucetAddress(), Signer: ch.FaucetAddress(),
		Fee: ch.FaucetAddress(), Sweeper: crypto.PubkeyToAddress(sweeperKey.PublicKey), Create2Prefix: 0xff}
	vault, err := ch.Deploy(ctx, ch.Faucet, payoutcontract.PayoutInitCode(roles))
	if err != nil {
		t.Fatal(err)
	}
	factory, err := ch.Deploy(ctx, ch.Faucet, payoutcontract.FactoryInitCode(roles, vault))
	if err != nil {
		t.Fatal(err)
	}
	fb := bindings.NewDepositFactory()
	out, err := ch.Client.CallContract(ctx, ethereum.CallMsg{To: &factory, Data: fb.PackImplementation()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	impl, err := fb.UnpackImplementation(out)
	if err != nil {
		t.Fatal(err)
	}

	cfg := config.Default()
	cfg.Data, cfg.Mode = t.TempDir(), "sandbox"
	cfg.SetNodeURLs(cashier.ChainETH, ch.URL)
	reg := config.DefaultRegistry()
	id, addr := int64(devchain.ChainIDETH), usdc.Address.Hex()
	if err := config.Apply(reg, config.Override{
		Networks: []config.NetworkOverride{{ChainID: "ETH", EVMChainID: &id}},
		Tokens:   []config.TokenOverride{{ChainID: "ETH", Symbol: "USDC", ContractAddress: &addr}},
	}); err != nil {
		t.Fatal(err)
	}
	svc, err := app.New(ctx, cfg, app.Options{Registry: reg}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	st := svc.Store
	m, err := app.NewMerchant("Shop", cashier.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, m) }))
	cs, err := app.NewCashier(ctx, st, m.ID, "Shop", "http://127.0.0.1:9/hook", true, cashier.SystemClock{})
	must(t, err)
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCashier(ctx, cs) }))
	k := &cashier.Contract{ID: "k_1", MerchantID: m.ID, Chain: cashier.ChainETH, Address: vault.Hex(), DepositFactory: factory.Hex(),
		DepositImplementation: impl.Hex(), Status: cashier.ContractActive, CreatedAt: time.Now()}
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }))

	// Three paid orders: their deposit addresses hold what the watcher
	// confirmed.
	pay := func(n int, amount string) string {
		o, err := svc.Orders.CreateCollection(ctx, m, orders.CollectionRequest{CashierID: cs.ID, OrderNo: "RU-" + string(rune('0'+n)),
			Amount: amount, Symbol: "USDC", ChainID: "ETH"})
		must(t, err)
		must(t, usdc.Mint(ctx, common.HexToAddress(o.DepositAddress), units(amount)))
		now := time.Now()
		p := &cashier.Payment{Chain: cashier.ChainETH, TxHash: common.BigToHash(big.NewInt(int64(n))).Hex(), OrderID: o.ID, MerchantID: m.ID,
			Token: usdc.Address.Hex(), Symbol: "USDC", Decimals: 6, From: ch.FaucetAddress().Hex(), To: o.DepositAddress, Amount: units(amount),
			BlockHash: common.Hash{1}.Hex(), BlockTime: now, Status: cashier.PaymentConfirmed, Effect: cashier.EffectCredited,
			SeenAt: now, ConfirmedAt: now, UpdatedAt: now}
		must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreatePayment(ctx, p) }))
		return o.DepositAddress
	}
	a, b, c := pay(1, "10"), pay(2, "20"), pay(3, "30")
	balance := func(holder string) *big.Int {
		v, err := svc.Chains[cashier.ChainETH].TokenBalance(ctx, usdc.Address.Hex(), holder)
		must(t, err)
		return v
	}

	j, err := evm.OpenFileJournal(filepath.Join(t.TempDir(), "journal"), devchain.ChainIDETH, crypto.PubkeyToAddress(sweeperKey.PublicKey).Hex())
	must(t, err)
	t.Cleanup(func() { j.Close() })
	client, err := evm.New(evm.Config{Chain: cashier.ChainETH, ChainID: devchain.ChainIDETH, URLs: []string{ch.URL}, Key: sweeperKey, Journal: j})
	must(t, err)
	t.Cleanup(client.Close)
	var logs strings.Builder
	s := &sweep.Sweeper{Chain: cashier.ChainETH, Store: st, Registry: svc.Registry, Client: client, Alerts: &svc.TokenAlerts,
		Log: slog.New(slog.NewTextHandler(&logs, nil))}
	nonce := func() uint64 {
		n, err := ch.Client.NonceAt(ctx, roles.Sweeper, nil)
		must(t, err)
		return n
	}
	round := func() {
		t.Helper()
		if _, err := s.Round(ctx); err != nil {
			t.Fatal(err)
		}
	}

	// Paused: rounds wait, nothing recorded or sent, one alert, one log.
	must(t, usdc.Pause(ctx))
	n0 := nonce()
	for i := 0; i < 3; i++ {
		round()
	}
	if sw, _ := st.Sweeps(ctx, cashier.ChainETH, false); len(sw) != 0 || nonce() != n0 {
		t.Fatalf("paused token: %d sweeps recorded, %d sent", len(sw), nonce()-n0)
	}
	al := svc.TokenAlerts.List()
	if len(al) != 1 || al[0].Kind != cashier.TokenPaused || al[0].Symbol != "USDC" || !strings.EqualFold(al[0].Token, usdc.Address.Hex()) {
		t.Fatalf("alerts while paused: %+v", al)
	}
	if n := strings.Count(logs.String(), "token contract paused"); n != 1 {
		t.Fatalf("paused logged %d times in three rounds, want once:\n%s", n, logs.String())
	}

	// Unpaused, with b blacklisted: a and c are swept, b is reported and
	// left out, round after round.
	must(t, usdc.Unpause(ctx))
	must(t, usdc.Blacklist(ctx, common.HexToAddress(b)))
	settle := func() {
		t.Helper()
		for i := 0; i < 50; i++ {
			round()
			if open, _ := st.Sweeps(ctx, cashier.ChainETH, true); len(open) == 0 {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatal("sweeps still in flight")
	}
	settle()
	settle()
	if balance(a).Sign() != 0 || balance(c).Sign() != 0 || balance(b).Cmp(units("20")) != 0 || balance(vault.Hex()).Cmp(units("40")) != 0 {
		t.Fatalf("after unpause: a %s b %s c %s vault %s", balance(a), balance(b), balance(c), balance(vault.Hex()))
	}
	sw, _ := st.Sweeps(ctx, cashier.ChainETH, false)
	if len(sw) != 1 || sw[0].Status != cashier.SweepDone || len(sw[0].Items) != 2 {
		t.Fatalf("sweeps: %+v", sw)
	}
	al = svc.TokenAlerts.List()
	if len(al) != 1 || al[0].Kind != cashier.TokenBlacklisted || !strings.EqualFold(al[0].Account, b) {
		t.Fatalf("alerts with a blacklisted deposit address: %+v", al)
	}
	if n := strings.Count(logs.String(), "deposit address blacklisted"); n != 1 || !strings.Contains(logs.String(), b) {
		t.Fatalf("blacklisted deposit logged %d times:\n%s", n, logs.String())
	}

	// Lifted: b is swept and its alert lowered.
	must(t, usdc.Unblacklist(ctx, common.HexToAddress(b)))
	settle()
	if balance(b).Sign() != 0 || balance(vault.Hex()).Cmp(units("60")) != 0 || len(svc.TokenAlerts.List()) != 0 {
		t.Fatalf("after unblacklisting: b %s vault %s alerts %+v", balance(b), balance(vault.Hex()), svc.TokenAlerts.List())
	}

	// The payout contract blacklisted: nothing is swept into it.
	d := pay(4, "5")
	must(t, usdc.Blacklist(ctx, vault))
	n1 := nonce()
	round()
	round()
	if balance(d).Cmp(units("5")) != 0 || nonce() != n1 {
		t.Fatalf("swept into a blacklisted payout contract: deposit %s, %d sent", balance(d), nonce()-n1)
	}
	al = svc.TokenAlerts.List()
	if len(al) != 1 || al[0].Kind != cashier.TokenBlacklisted || !strings.EqualFold(al[0].Account, vault.Hex()) {
		t.Fatalf("alerts with a blacklisted payout contract: %+v", al)
	}
}
