package watch_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/contracts/tokens"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/orders"
)

// rig is one Ethereum dev chain with a test USDT, and the service's store,
// orders and watcher pointed at it, with rounds driven by the test.
type rig struct {
	t        *testing.T
	chain    *devchain.Chain
	svc      *app.Service
	merchant *cashier.Merchant
	cashier  *cashier.Cashier
	usdt     common.Address
	customer *ecdsa.PrivateKey
	n        int
	manual   bool          // blocks only on Commit
	tether   *tokens.Token // Tether's real USDT, when the rig runs it
}

type rigOptions struct {
	confirmations int
	period        time.Duration // block period; 0 mines on demand
	webhookURL    string
	data          string
	rpc           func(chainURL string) string // the node URLs the service uses; default the chain's
	finalized     bool                         // ETH payments are final at the finalized block
	tether        bool                         // Tether's real USDT instead of the test token (on-demand chains only)
}

func newRig(t testing.TB, o rigOptions) *rig {
	ctx := context.Background()
	ch, err := devchain.Start(devchain.Options{Period: o.period})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ch.Close() })
	r := &rig{chain: ch, manual: o.period > 0}
	if tt, ok := t.(*testing.T); ok {
		r.t = tt
	}
	code := append(common.FromHex(bindings.TestUSDCMetaData.Bin), bindings.NewTestUSDC().PackConstructor("Tether USD", "USDT")...)
	deploy := func() common.Address {
		if o.period == 0 {
			a, err := ch.Deploy(ctx, ch.Faucet, code)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		tx, err := ch.SignTx(ctx, ch.Faucet, nil, nil, code, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := ch.Client.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		ch.Commit()
		rc, err := ch.WaitReceipt(ctx, tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		return rc.ContractAddress
	}
	if r.customer, err = crypto.GenerateKey(); err != nil {
		t.Fatal(err)
	}
	cust := crypto.PubkeyToAddress(r.customer.PublicKey)
	r.send(t, ch.Faucet, &cust, big.NewInt(1e18), nil)
	if o.tether {
		if r.tether, err = tokens.DeployTether(ctx, ch, ch.Faucet); err != nil {
			t.Fatal(err)
		}
		r.usdt = r.tether.Address
		must(t, r.tether.Mint(ctx, cust, big.NewInt(1e15)))
	} else {
		r.usdt = deploy()
		r.send(t, ch.Faucet, &r.usdt, nil, bindings.NewTestUSDC().PackMint(cust, big.NewInt(1e15)))
	}

	if o.webhookURL == "" {
		o.webhookURL = "http://127.0.0.1:9/hook" // events stay in the outbox: nothing dispatches them
	}
	cfg := config.Default()
	cfg.Data = o.data
	if cfg.Data == "" {
		cfg.Data = t.TempDir()
	}
	cfg.Mode = "sandbox"
	cfg.SetNodeURLs(cashier.ChainETH, ch.URL)
	if o.rpc != nil {
		cfg.SetNodeURLs(cashier.ChainETH, o.rpc(ch.URL))
	}
	cfg.WatchInterval = 20 * time.Millisecond
	if o.finalized {
		cfg.SetFinality(cashier.ChainETH, config.FinalityFinalized)
	}
	reg := config.DefaultRegistry()
	conf, id, addr := o.confirmations, int64(devchain.ChainIDETH), r.usdt.Hex()
	if err := config.Apply(reg, config.Override{
		Networks: []config.NetworkOverride{{ChainID: "ETH", Confirmations: &conf, EVMChainID: &id}},
		Tokens:   []config.TokenOverride{{ChainID: "ETH", Symbol: "USDT", ContractAddress: &addr}},
	}); err != nil {
		t.Fatal(err)
	}
	if r.svc, err = app.New(ctx, cfg, app.Options{Registry: reg}, io.Discard); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.svc.Close() })
	st := r.svc.Store
	if r.merchant, err = app.NewMerchant("Rig", cashier.SystemClock{}); err != nil {
		t.Fatal(err)
	}
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, r.merchant) }))
	if r.cashier, err = app.NewCashier(ctx, st, r.merchant.ID, "Rig", o.webhookURL, true, cashier.SystemClock{}); err != nil {
		t.Fatal(err)
	}
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCashier(ctx, r.cashier) }))
	// Deposit addresses are computed off chain; the factory need not exist
	// for the watcher to see payments to them (so the registration is
	// stored directly, not proven on chain).
	k := &cashier.Contract{ID: "k_rig", MerchantID: r.merchant.ID, Chain: cashier.ChainETH,
		Address: common.HexToAddress("0x1000").Hex(), DepositFactory: common.HexToAddress("0x2000").Hex(),
		DepositImplementation: common.HexToAddress("0x3000").Hex(), Status: cashier.ContractActive, CreatedAt: time.Now()}
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }))
	return r
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// send mines a transaction from key (committing a block itself when the
// chain has a period).
func (r *rig) send(t testing.TB, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte) common.Hash {
	t.Helper()
	ctx := context.Background()
	tx, err := r.chain.SignTx(ctx, key, to, value, data, 200_000)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.chain.Client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if r.manual {
		r.chain.Commit()
	}
	rc, err := r.waitOrCommit(tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if rc != 1 {
		t.Fatalf("transaction %s failed", tx.Hash())
	}
	return tx.Hash()
}

func (r *rig) waitOrCommit(h common.Hash) (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		rc, err := r.chain.Client.TransactionReceipt(ctx, h)
		if err == nil {
			return rc.Status, nil
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// order creates a USDT collection order on ETH.
func (r *rig) order(t testing.TB, amount string) *cashier.CollectionOrder {
	t.Helper()
	r.n++
	o, err := r.svc.Orders.CreateCollection(context.Background(), r.merchant, orders.CollectionRequest{
		CashierID: r.cashier.ID, OrderNo: "R-" + big.NewInt(int64(r.n)).String() + "-" + time.Now().Format("150405.000000"),
		Amount: amount, Symbol: "USDT", ChainID: "ETH"})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func (r *rig) pay(t testing.TB, to string, units int64) common.Hash {
	t.Helper()
	return r.send(t, r.customer, &r.usdt, nil, bindings.NewTestUSDC().PackTransfer(common.HexToAddress(to), big.NewInt(units)))
}

func (r *rig) reload(t testing.TB, id string) (*cashier.CollectionOrder, []cashier.Payment) {
	t.Helper()
	ctx := context.Background()
	o, err := r.svc.Store.Collection(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := r.svc.Store.PaymentsByOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return o, ps
}

func stringsContains(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

type bigInt = big.Int

func decodeBody(r *http.Request, v any) { json.NewDecoder(r.Body).Decode(v) }
