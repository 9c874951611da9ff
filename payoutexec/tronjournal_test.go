package payoutexec_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutexec"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
	"github.com/stablecashier/cashier/tron"
	"github.com/stablecashier/cashier/tronnode"
	"github.com/stablecashier/cashier/webhook"
)

// lossyProxy stands between the executor and the TRON stand-in and spoils
// broadcasts: it can lose the answer of one the node accepted, or swallow
// them before the node sees them. It records the txID of every broadcast.
type lossyProxy struct {
	target string
	mu     sync.Mutex
	lose   int  // broadcasts whose answer is lost after the node took them
	eat    bool // broadcasts are dropped before reaching the node
	ids    []string
}

func (p *lossyProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	drop := false
	if r.URL.Path == "/wallet/broadcasttransaction" {
		var tx struct {
			TxID string `json:"txID"`
		}
		json.Unmarshal(body, &tx)
		p.mu.Lock()
		p.ids = append(p.ids, tx.TxID)
		eat := p.eat
		if !eat && p.lose > 0 {
			p.lose--
			drop = true
		}
		p.mu.Unlock()
		if eat {
			hangUp(w)
			return
		}
	}
	resp, err := http.Post(p.target+r.URL.Path, "application/json", bytes.NewReader(body))
	if err != nil {
		hangUp(w)
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if drop {
		hangUp(w) // the node has it; the client never hears so
		return
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(out)
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
		c.Close()
	}
}

func (p *lossyProxy) broadcasts() (all int, distinct []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range p.ids {
		if !slices.Contains(distinct, id) {
			distinct = append(distinct, id)
		}
	}
	return len(p.ids), distinct
}

// tronRig is the TRON stand-in (blocks on demand, a manual clock) with a
// token and a payout contract holding 1,000 of it, and the executor sending
// through a lossyProxy.
type tronRig struct {
	t       *testing.T
	clock   *cashier.ManualClock
	node    *tronnode.Node
	proxy   *lossyProxy
	token   tron.Address
	payout  tron.Address
	st      *sqlite.DB
	svc     *orders.Service
	x       *payoutexec.Executor
	read    *tron.Client
	m       *cashier.Merchant
	reg     *cashier.Registry
	ownerID tron.Address
}

func newTronRig(t *testing.T) *tronRig {
	t.Helper()
	ctx := context.Background()
	r := &tronRig{t: t, clock: cashier.NewManualClock(time.Now().UTC())}
	var err error
	if r.node, err = tronnode.Open(tronnode.Options{Clock: r.clock}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.node.Close() })
	srv := httptest.NewServer(r.node.Handler())
	t.Cleanup(srv.Close)
	r.proxy = &lossyProxy{target: srv.URL}
	psrv := httptest.NewServer(r.proxy)
	t.Cleanup(psrv.Close)

	key := func() *ecdsa.PrivateKey { k, _ := crypto.GenerateKey(); return k }
	owner, executor, signer := key(), key(), key()
	r.ownerID = tron.KeyAddress(owner)
	if err := r.node.Fund(tron.KeyAddress(executor), 10_000_000_000); err != nil {
		t.Fatal(err)
	}
	if r.token, err = r.node.Deploy(r.ownerID, append(common.FromHex(bindings.TestTronUSDTMetaData.Bin),
		bindings.NewTestTronUSDT().PackConstructor("Tether USD", "USDT")...), "USDT"); err != nil {
		t.Fatal(err)
	}
	fee := common.HexToAddress("0xFee0000000000000000000000000000000000001")
	if r.payout, err = r.node.Deploy(r.ownerID, append(common.FromHex(bindings.CashierPayoutMetaData.Bin),
		payoutABI.PackConstructor(r.ownerID.EVM(), tron.KeyAddress(executor).EVM(), tron.KeyAddress(signer).EVM(), fee)...), "CashierPayout"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.node.Exec(r.ownerID, r.token, usdcABI.PackMint(r.payout.EVM(), units("1000"))); err != nil {
		t.Fatal(err)
	}
	r.produce()

	r.reg = config.DefaultRegistry()
	conf, addr := 1, r.token.String()
	if err := config.Apply(r.reg, config.Override{
		Networks: []config.NetworkOverride{{ChainID: "TRON", Confirmations: &conf}},
		Tokens:   []config.TokenOverride{{ChainID: "TRON", Symbol: "USDT", ContractAddress: &addr}},
	}); err != nil {
		t.Fatal(err)
	}
	sealer, _ := sqlite.NewAESSealer(make([]byte, 32))
	if r.st, err = sqlite.Open(ctx, sqlitetest.Path(t), sqlite.Options{Sealer: sealer}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.st.Close() })
	if r.read, err = tron.New(tron.Config{URLs: []string{srv.URL}, Clock: r.clock}); err != nil {
		t.Fatal(err)
	}
	now := r.clock.Now()
	r.m = &cashier.Merchant{ID: "m_1", Name: "Shop", APIKey: "pk_1", SecretKey: "sk", WebhookKey: "whk", Status: cashier.MerchantActive, CreatedAt: now}
	// A registration from before ownership proofs, confirmed by the
	// operator: the service signer signs its batches.
	k := &cashier.Contract{ID: "k_1", MerchantID: "m_1", Chain: cashier.ChainTRON, Address: r.payout.String(), Status: cashier.ContractActive,
		WebhookURL: "http://127.0.0.1:9/hook", CreatedAt: now, Signer: tron.KeyAddress(signer).String()}
	if err := r.st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, r.m); err != nil {
			return err
		}
		if err := tx.CreateContract(ctx, k); err != nil {
			return err
		}
		return tx.SetReviewPolicy(ctx, &cashier.ReviewPolicy{MerchantID: "m_1", Mode: cashier.ReviewNever, UpdatedAt: now})
	}); err != nil {
		t.Fatal(err)
	}
	r.svc = &orders.Service{Store: r.st, Registry: r.reg, Clock: r.clock, Addresses: address.Validator{},
		Funds: app.Funds{Clients: map[cashier.Chain]cashier.ChainClient{cashier.ChainTRON: r.read}}, Events: webhook.NewWriter(r.reg), Config: orders.DefaultConfig}
	// One try per request: a lost answer reaches the executor.
	send, err := tron.New(tron.Config{URLs: []string{psrv.URL}, Key: executor, Clock: r.clock, Attempts: 1, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r.x = &payoutexec.Executor{Orders: r.svc, Store: r.st, Registry: r.reg, Clock: r.clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Config: payoutexec.DefaultConfig,
		Networks: map[cashier.Chain]*payoutexec.Network{cashier.ChainTRON: {Client: send, Signer: signer, Executor: tron.KeyAddress(executor).String(),
			DomainChainID: big.NewInt(0x2b6653dc), Confirmations: 1, CoinDecimals: 6, MinGas: big.NewInt(1),
			EnergyPerRecipient: 60_000, EnergyBase: 200_000}}}
	r.x.Config.Window = 0
	return r
}

func (r *tronRig) produce() {
	r.t.Helper()
	r.clock.Advance(3 * time.Second)
	if _, err := r.node.ProduceBlock(); err != nil {
		r.t.Fatal(err)
	}
}

func (r *tronRig) tick() {
	r.t.Helper()
	if err := r.x.Tick(context.Background()); err != nil {
		r.t.Logf("round: %v", err)
	}
}

func (r *tronRig) balance(holder tron.Address) *big.Int {
	r.t.Helper()
	b, err := r.read.TokenBalance(context.Background(), r.token.String(), holder.String())
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

func (r *tronRig) create(to tron.Address, amount string) *cashier.PayoutOrder {
	r.t.Helper()
	o, err := r.svc.CreatePayout(context.Background(), r.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: orders.NewID("T-"),
		Recipient: to.String(), Amount: amount, Symbol: "USDT"})
	if err != nil {
		r.t.Fatal(err)
	}
	return o
}

func (r *tronRig) order(id string) *cashier.PayoutOrder {
	r.t.Helper()
	o, err := r.st.Payout(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return o
}

// journal is what the executor journaled for the order's execution.
func (r *tronRig) journal(o *cashier.PayoutOrder) []cashier.SignedSend {
	r.t.Helper()
	s, err := r.st.SignedSends(context.Background(), r.order(o.ID).ExecID)
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

func newRecipient() tron.Address {
	k, _ := crypto.GenerateKey()
	return tron.KeyAddress(k)
}

// The node accepts a payout batch but its answer is lost: the executor
// broadcasts the same journaled transaction again (the node answers that
// it has it) instead of signing another, and the batch completes paid
// once.
func TestTRONLostBroadcastAnswerSendsTheSameTransaction(t *testing.T) {
	r := newTronRig(t)
	to := newRecipient()
	o := r.create(to, "25")
	r.proxy.mu.Lock()
	r.proxy.lose = 1
	r.proxy.mu.Unlock()
	r.tick() // batched and sent; the answer is lost
	r.tick() // resolved from the journal: the same bytes again
	all, ids := r.proxy.broadcasts()
	if all < 2 || len(ids) != 1 {
		t.Fatalf("%d broadcasts of %d transactions %v, want the same one again", all, len(ids), ids)
	}
	j := r.journal(o)
	if len(j) != 1 || j[0].TxID != ids[0] || j[0].Expiration.IsZero() {
		t.Fatalf("journal %+v, broadcast %v", j, ids)
	}
	for i := 0; i < 5 && !r.order(o.ID).Status.Final(); i++ {
		r.produce()
		r.tick()
	}
	got := r.order(o.ID)
	if got.Status != cashier.PayoutSuccess || got.TxID != ids[0] {
		t.Fatalf("order %s tx %s (%s), want SUCCESS by %s", got.Status, got.TxID, got.FailReason, ids[0])
	}
	if b := r.balance(to); b.Cmp(units("25")) != 0 {
		t.Fatalf("recipient has %s", b)
	}
	if b := r.balance(r.payout); b.Cmp(units("974")) != 0 { // 1000 − 25 − 1 fee
		t.Fatalf("contract has %s", b)
	}
	if _, ids = r.proxy.broadcasts(); len(ids) != 1 {
		t.Fatalf("%d transactions broadcast", len(ids))
	}
}

// Broadcasts that never reach the node are repeated with the same bytes
// while the transaction could still land; only once the chain is past its
// expiration is a new one signed, which pays the batch once.
func TestTRONUnsentTransactionIsResignedOnlyAfterExpiry(t *testing.T) {
	r := newTronRig(t)
	ctx := context.Background()
	to := newRecipient()
	o := r.create(to, "40")
	r.proxy.mu.Lock()
	r.proxy.eat = true
	r.proxy.mu.Unlock()
	for range 4 {
		r.tick()
		r.produce()
	}
	all, ids := r.proxy.broadcasts()
	if all < 4 || len(ids) != 1 {
		t.Fatalf("%d broadcasts of %d transactions before expiry, want one transaction", all, len(ids))
	}
	j := r.journal(o)
	if len(j) != 1 || r.order(o.ID).Status != cashier.PayoutProcessing {
		t.Fatalf("journal %+v, order %s", j, r.order(o.ID).Status)
	}
	// The chain passes the journaled transaction's expiration.
	r.clock.Advance(j[0].Expiration.Sub(r.clock.Now()) + time.Minute)
	r.produce()
	if h, _ := r.read.Head(ctx); !h.Time.After(j[0].Expiration) {
		t.Fatalf("head %s not past %s", h.Time, j[0].Expiration)
	}
	r.proxy.mu.Lock()
	r.proxy.eat = false
	r.proxy.mu.Unlock()
	for i := 0; i < 6 && !r.order(o.ID).Status.Final(); i++ {
		r.tick()
		r.produce()
	}
	got := r.order(o.ID)
	_, ids = r.proxy.broadcasts()
	j = r.journal(o)
	if got.Status != cashier.PayoutSuccess || len(ids) != 2 || len(j) != 2 || got.TxID != j[1].TxID || j[1].TxID == j[0].TxID {
		t.Fatalf("order %s tx %s (%s); broadcast %v; journal %d", got.Status, got.TxID, got.FailReason, ids, len(j))
	}
	if b := r.balance(to); b.Cmp(units("40")) != 0 {
		t.Fatalf("recipient has %s", b)
	}
	if b := r.balance(r.payout); b.Cmp(units("959")) != 0 {
		t.Fatalf("contract has %s", b)
	}
}

// A restart between journaling a transaction and the node receiving it
// (the broadcast never arrived): the new executor finds the journaled
// transaction and broadcasts those same bytes, which pay the batch once.
func TestTRONJournaledTransactionSurvivesRestart(t *testing.T) {
	r := newTronRig(t)
	to := newRecipient()
	o := r.create(to, "12")
	r.proxy.mu.Lock()
	r.proxy.eat = true
	r.proxy.mu.Unlock()
	r.tick() // journaled, broadcast lost on the way
	_, ids := r.proxy.broadcasts()
	if len(ids) != 1 {
		t.Fatalf("broadcast %v", ids)
	}
	r.proxy.mu.Lock()
	r.proxy.eat = false
	r.proxy.mu.Unlock()

	// The service restarts: a new executor over the same database.
	old := r.x
	r.x = &payoutexec.Executor{Orders: old.Orders, Store: old.Store, Registry: old.Registry, Clock: old.Clock, Logger: old.Logger,
		Config: old.Config, Networks: old.Networks}
	for i := 0; i < 5 && !r.order(o.ID).Status.Final(); i++ {
		r.tick()
		r.produce()
	}
	got := r.order(o.ID)
	_, after := r.proxy.broadcasts()
	if got.Status != cashier.PayoutSuccess || got.TxID != ids[0] || len(after) != 1 || len(r.journal(o)) != 1 {
		t.Fatalf("order %s tx %s (%s), broadcast %v, want SUCCESS by %s alone", got.Status, got.TxID, got.FailReason, after, ids[0])
	}
	if b := r.balance(to); b.Cmp(units("12")) != 0 {
		t.Fatalf("recipient has %s", b)
	}
}
