package payoutexec_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/contracts/tokens"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutexec"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sqlite/sqlitetest"
	"github.com/stablecashier/cashier/webhook"
)

// rig is one dev chain with a token and a payout contract, a store, the
// order service and an executor driven round by round.
type rig struct {
	t                       testing.TB
	chain                   *devchain.Chain
	owner, executor, signer *ecdsa.PrivateKey
	token, payout           common.Address
	st                      *sqlite.DB
	svc                     *orders.Service
	x                       *payoutexec.Executor
	m                       *cashier.Merchant
	k                       *cashier.Contract
	journalDir              string
	journal                 *evm.FileJournal
	dbPath                  string
	reg                     *cashier.Registry
	read                    *evm.Client   // the service's reading client
	manual                  bool          // blocks only on Commit
	real                    *tokens.Token // the real token contract, when the rig runs one
}

// mining makes blocks on a manual chain until the returned stop is called.
func (r *rig) mining() (stop func()) {
	if !r.manual {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				r.chain.Commit()
			}
		}
	}()
	return func() { close(done) }
}

// sender opens the executor's sending client on the rig's journal, as a
// (re)started service does.
func (r *rig) sender(tune func(*evm.Config)) *evm.Client {
	r.t.Helper()
	if r.journal != nil {
		r.journal.Close()
	}
	j, err := evm.OpenFileJournal(r.journalDir, devchain.ChainIDETH, crypto.PubkeyToAddress(r.executor.PublicKey).Hex())
	if err != nil {
		r.t.Fatal(err)
	}
	r.journal = j
	r.t.Cleanup(func() { j.Close() })
	cfg := evm.Config{Chain: cashier.ChainETH, ChainID: devchain.ChainIDETH, URLs: []string{r.chain.URL}, Key: r.executor, Journal: j, Confirmations: 2}
	if tune != nil {
		tune(&cfg)
	}
	send, err := evm.New(cfg)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(send.Close)
	return send
}

var (
	usdcABI   = bindings.NewTestUSDC()
	payoutABI = bindings.NewCashierPayout()
)

func newRig(t *testing.T, contractTokens int64) *rig { return newTunedRig(t, contractTokens, nil) }

// newBenchRig is a rig with a contract holding plenty.
func newBenchRig(b *testing.B) *rig { return newTunedRig(b, 100_000_000, nil) }

// newTunedRig lets tune change the executor's sending client.
func newTunedRig(t testing.TB, contractTokens int64, tune func(*evm.Config)) *rig {
	return newRigOn(t, contractTokens, tune, devchain.Options{ChainID: devchain.ChainIDETH})
}

// newManualRig is a rig whose chain makes blocks only on Commit once it is
// set up, so a test can fork it.
func newManualRig(t testing.TB) *rig {
	return newRigOn(t, 1000, nil, devchain.Options{ChainID: devchain.ChainIDETH, Period: time.Hour})
}

func newRigOn(t testing.TB, contractTokens int64, tune func(*evm.Config), opts devchain.Options) *rig {
	return newRigToken(t, contractTokens, tune, opts, nil)
}

// realToken deploys a real token contract on the rig's chain and funds the
// payout contract with it.
type realToken func(ctx context.Context, r *rig) *tokens.Token

func newRigToken(t testing.TB, contractTokens int64, tune func(*evm.Config), opts devchain.Options, real realToken) *rig {
	t.Helper()
	ctx := context.Background()
	r := &rig{t: t}
	var err error
	if r.chain, err = devchain.Start(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.chain.Close() })
	if r.manual = opts.Period > 0; r.manual {
		defer r.mining()() // blocks while setting up, then only on Commit
	}
	r.owner, _ = crypto.GenerateKey()
	r.executor, _ = crypto.GenerateKey()
	r.signer, _ = crypto.GenerateKey()
	for _, k := range []*ecdsa.PrivateKey{r.owner, r.executor} {
		if err := r.chain.Fund(ctx, crypto.PubkeyToAddress(k.PublicKey), big.NewInt(params.Ether)); err != nil {
			t.Fatal(err)
		}
	}
	addr := func(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }
	fee := common.HexToAddress("0xFee0000000000000000000000000000000000001")
	if r.payout, err = r.chain.Deploy(ctx, r.owner, append(common.FromHex(bindings.CashierPayoutMetaData.Bin),
		payoutABI.PackConstructor(addr(r.owner), addr(r.executor), addr(r.signer), fee)...)); err != nil {
		t.Fatal(err)
	}
	if real != nil {
		r.real = real(ctx, r)
		r.token = r.real.Address
		if err := r.real.Mint(ctx, r.payout, units(big.NewInt(contractTokens).String())); err != nil {
			t.Fatal(err)
		}
	} else {
		if r.token, err = r.chain.Deploy(ctx, r.owner, append(common.FromHex(bindings.TestUSDCMetaData.Bin), usdcABI.PackConstructor("Tether", "USDT")...)); err != nil {
			t.Fatal(err)
		}
		r.ownerCall(r.token, usdcABI.PackMint(r.payout, units(big.NewInt(contractTokens).String())))
	}

	reg := config.DefaultRegistry()
	for i := range reg.Tokens {
		if reg.Tokens[i].Chain == cashier.ChainETH && reg.Tokens[i].Symbol == "USDT" {
			reg.Tokens[i].ContractAddress = r.token.Hex()
		}
	}
	for i := range reg.Networks {
		if reg.Networks[i].Chain == cashier.ChainETH {
			reg.Networks[i].EVMChainID, reg.Networks[i].Confirmations = int64(devchain.ChainIDETH), 2
		}
	}
	sealer, _ := sqlite.NewAESSealer(make([]byte, 32))
	r.dbPath, r.reg = sqlitetest.Path(t), reg
	if r.st, err = sqlite.Open(ctx, r.dbPath, sqlite.Options{Sealer: sealer}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.st.Close() })
	read, err := evm.New(evm.Config{Chain: cashier.ChainETH, ChainID: devchain.ChainIDETH, URLs: []string{r.chain.URL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(read.Close)
	r.read = read
	now := time.Now()
	r.m = &cashier.Merchant{ID: "m_1", Name: "Shop", APIKey: "pk_1", SecretKey: "sk", WebhookKey: "whk", Status: cashier.MerchantActive, CreatedAt: now}
	// A registration from before ownership proofs, confirmed by the
	// operator: the service signer signs its batches.
	r.k = &cashier.Contract{ID: "k_1", MerchantID: "m_1", Chain: cashier.ChainETH, Address: r.payout.Hex(), Status: cashier.ContractActive,
		WebhookURL: "http://127.0.0.1:9/hook", CreatedAt: now, Signer: addr(r.signer).Hex()}
	if err := r.st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, r.m); err != nil {
			return err
		}
		if err := tx.CreateContract(ctx, r.k); err != nil {
			return err
		}
		return tx.SetReviewPolicy(ctx, &cashier.ReviewPolicy{MerchantID: "m_1", Mode: cashier.ReviewNever, UpdatedAt: now})
	}); err != nil {
		t.Fatal(err)
	}
	r.svc = &orders.Service{Store: r.st, Registry: reg, Clock: cashier.SystemClock{}, Addresses: address.Validator{},
		Funds: app.Funds{Clients: map[cashier.Chain]cashier.ChainClient{cashier.ChainETH: read}}, Events: webhook.NewWriter(reg), Config: orders.DefaultConfig}

	r.journalDir = t.TempDir()
	send := r.sender(tune)
	r.x = &payoutexec.Executor{Orders: r.svc, Store: r.st, Registry: reg, Clock: cashier.SystemClock{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Config: payoutexec.DefaultConfig,
		Networks: map[cashier.Chain]*payoutexec.Network{cashier.ChainETH: {Client: send, Signer: r.signer, Executor: addr(r.executor).Hex(),
			DomainChainID: big.NewInt(devchain.ChainIDETH), Confirmations: 2, CoinDecimals: 18, MinGas: big.NewInt(1)}}}
	r.x.Config.Window = 0
	return r
}

func (r *rig) ownerCall(to common.Address, data []byte) {
	r.t.Helper()
	rc, err := r.chain.Transact(context.Background(), r.owner, &to, nil, data, 0)
	if err != nil || rc.Status != 1 {
		r.t.Fatalf("owner call: %v", err)
	}
}

func (r *rig) create(recipient, amount string) *cashier.PayoutOrder {
	r.t.Helper()
	o, err := r.svc.CreatePayout(context.Background(), r.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: orders.NewID("R-"),
		Recipient: recipient, Amount: amount, Symbol: "USDT"})
	if err != nil {
		r.t.Fatal(err)
	}
	return o
}

func (r *rig) tick() {
	r.t.Helper()
	if err := r.x.Tick(context.Background()); err != nil {
		r.t.Logf("round: %v", err)
	}
}

func (r *rig) order(id string) *cashier.PayoutOrder {
	r.t.Helper()
	o, err := r.st.Payout(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return o
}

func (r *rig) balance(holder string) *big.Int {
	r.t.Helper()
	out, err := r.svc.Funds.ContractBalance(context.Background(), cashier.ChainETH, r.token.Hex(), holder)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// settle runs rounds, committing blocks, until every order is final.
func (r *rig) settle(ids ...string) {
	r.t.Helper()
	for i := 0; i < 60; i++ {
		r.tick()
		done := true
		for _, id := range ids {
			done = done && r.order(id).Status.Final()
		}
		if done {
			return
		}
		r.chain.Commit()
	}
	for _, id := range ids {
		o := r.order(id)
		r.t.Logf("%s: %s exec %s %s", o.ID, o.Status, o.ExecID, o.FailReason)
	}
	r.t.Fatal("orders not final after 60 rounds")
}

const (
	alice = "0x1111111111111111111111111111111111111111"
	bob   = "0x2222222222222222222222222222222222222222"
	carol = "0x3333333333333333333333333333333333333333"
)

// A recipient the contract refuses at execution time (the whitelist was
// switched on after creation) is refused alone; the rest of its batch is
// paid. Funds locked by the refused order are released.
func TestRevertAtExecutionIsolatesTheOrder(t *testing.T) {
	r := newRig(t, 1000)
	a, b, c := r.create(alice, "10"), r.create(bob, "20"), r.create(carol, "30")
	r.ownerCall(r.payout, payoutABI.PackAddToWhitelist([]common.Address{common.HexToAddress(alice), common.HexToAddress(carol)}))
	r.ownerCall(r.payout, payoutABI.PackSetWhitelistMode(true, false))
	r.settle(a.ID, b.ID, c.ID)
	ra, rb, rc := r.order(a.ID), r.order(b.ID), r.order(c.ID)
	if ra.Status != cashier.PayoutSuccess || rc.Status != cashier.PayoutSuccess || ra.TxID != rc.TxID || ra.TxID == "" {
		t.Fatalf("whitelisted orders: %s %s, tx %s %s", ra.Status, rc.Status, ra.TxID, rc.TxID)
	}
	if rb.Status != cashier.PayoutRefuse || !strings.Contains(rb.FailReason, "RecipientNotWhitelisted") || rb.TxID != "" {
		t.Fatalf("refused order: %s %q", rb.Status, rb.FailReason)
	}
	if r.balance(alice).Cmp(units("10")) != 0 || r.balance(bob).Sign() != 0 || r.balance(carol).Cmp(units("30")) != 0 {
		t.Fatalf("balances %s %s %s", r.balance(alice), r.balance(bob), r.balance(carol))
	}
	// The contract paid 40 plus two fees; the refused order's lock is gone.
	if got := r.balance(r.payout.Hex()); got.Cmp(units("958")) != 0 {
		t.Fatalf("contract holds %s, want 958 tokens", got)
	}
	if l, _ := r.st.PoolLocked(context.Background(), orders.PoolKeys(rb, r.k)[0], math.MaxInt64); l.Sign() != 0 {
		t.Fatalf("%s still locked", l)
	}
	if ra.GasAmount == "" || ra.GasAmount == "0.00" {
		t.Fatalf("gasAmount %q", ra.GasAmount)
	}
}

// The contract's balance went (withdrawn by its owner) after creation: the
// batch is split until what can be paid is paid and the rest is refused
// with the contract's reason.
func TestBalanceGoneSinceCreationSplitsTheBatch(t *testing.T) {
	r := newRig(t, 100)
	a, b := r.create(alice, "40"), r.create(bob, "40")
	// Leave 45: enough for one order and its fee, not for both.
	r.ownerCall(r.payout, payoutABI.PackWithdraw(r.token, crypto.PubkeyToAddress(r.owner.PublicKey), units("55")))
	r.settle(a.ID, b.ID)
	ra, rb := r.order(a.ID), r.order(b.ID)
	if ra.Status != cashier.PayoutSuccess || rb.Status != cashier.PayoutRefuse || !strings.Contains(rb.FailReason, "InsufficientContractBalance") {
		t.Fatalf("after the split: %s, %s %q", ra.Status, rb.Status, rb.FailReason)
	}
	if r.balance(alice).Cmp(units("40")) != 0 || r.balance(bob).Sign() != 0 || r.balance(r.payout.Hex()).Cmp(units("4")) != 0 {
		t.Fatalf("balances %s %s, contract %s", r.balance(alice), r.balance(bob), r.balance(r.payout.Hex()))
	}
}

// A payout transaction reorged out before its confirmations is sent again
// with the same contract nonce and pays once.
func TestReorgedPayoutIsSentAgain(t *testing.T) {
	r := newRig(t, 1000)
	ctx := context.Background()
	before := r.chain.Commit()
	o := r.create(alice, "25")
	for i := 0; i < 10 && r.order(o.ID).ExecID == ""; i++ {
		r.tick()
	}
	exec, err := r.st.Exec(ctx, r.order(o.ID).ExecID)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10 && exec.State != cashier.ExecSent; i++ {
		r.tick()
		exec, _ = r.st.Exec(ctx, exec.ID)
	}
	if exec.State != cashier.ExecSent {
		t.Fatalf("execution %s", exec.State)
	}
	// Wait for the send to be mined (one block: not yet two confirmations).
	deadline := time.Now().Add(10 * time.Second)
	for r.balance(alice).Sign() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if r.balance(alice).Sign() == 0 {
		t.Fatal("the payout was not mined")
	}
	mined, err := r.x.Networks[cashier.ChainETH].Client.Receipt(ctx, exec.TxHashes[0])
	if err != nil || mined == nil {
		t.Fatalf("receipt: %v", err)
	}
	// Reorg: a longer branch from before the payout's block. The sender
	// puts the transaction back (same signed call, same contract nonce).
	if err := r.chain.Fork(before); err != nil {
		t.Fatal(err)
	}
	// An empty block first, so the branch differs from the old one; the
	// pool may already hold the transaction again, then it goes first.
	if err := r.chain.AdjustTime(time.Second); err != nil {
		r.chain.Commit()
	}
	r.chain.Commit()
	if b, err := r.x.Networks[cashier.ChainETH].Client.BlockByNumber(ctx, mined.BlockNumber); err != nil || b.Hash == mined.BlockHash {
		t.Fatalf("no reorg of block %d: %v", mined.BlockNumber, err)
	}
	if r.order(o.ID).Status != cashier.PayoutProcessing {
		t.Fatal("the order settled on a reorged block")
	}
	r.settle(o.ID)
	done := r.order(o.ID)
	final, _ := r.st.Exec(ctx, exec.ID)
	if done.Status != cashier.PayoutSuccess || final.Nonce.Cmp(exec.Nonce) != 0 {
		t.Fatalf("after the reorg: %s, nonce %s → %s", done.Status, exec.Nonce, final.Nonce)
	}
	if got := r.balance(alice); got.Cmp(units("25")) != 0 {
		t.Fatalf("recipient holds %s, want 25 tokens once", got)
	}
	if got := r.balance(r.payout.Hex()); got.Cmp(units("974")) != 0 {
		t.Fatalf("contract holds %s, want 974", got)
	}
}

// A payout transaction priced below the base fee (the fee cap of the
// operator's setting) stays unmined; once the cap is raised and the service
// restarted, the stuck transaction is replaced with higher fees and the same
// account nonce, and the order is paid once by the replacement.
func TestStuckPayoutIsFeeBumped(t *testing.T) {
	clock := cashier.NewManualClock(time.Now())
	var low *big.Int
	r := newTunedRig(t, 1000, func(c *evm.Config) {
		c.Clock, c.ReplaceAfter = clock, time.Minute
		c.MaxFeeCap = low
	})
	ctx := context.Background()
	head, err := r.chain.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Restart the sender with a cap a quarter of the base fee.
	low = new(big.Int).Div(head.BaseFee, big.NewInt(4))
	r.x.Networks[cashier.ChainETH].Client = r.sender(func(c *evm.Config) { c.Clock, c.ReplaceAfter, c.MaxFeeCap = clock, time.Minute, low })
	o := r.create(alice, "15")
	var exec *cashier.PayoutExec
	for i := 0; i < 10; i++ {
		r.tick()
		if id := r.order(o.ID).ExecID; id != "" {
			if exec, _ = r.st.Exec(ctx, id); exec.State == cashier.ExecSent {
				break
			}
		}
	}
	if exec == nil || exec.State != cashier.ExecSent {
		t.Fatalf("not sent: %+v", exec)
	}
	r.chain.Commit()
	r.tick()
	if r.balance(alice).Sign() != 0 || r.order(o.ID).Status != cashier.PayoutProcessing {
		t.Fatal("the underpriced payout was mined")
	}
	// The operator lifts the cap and restarts; a minute later the send is replaced.
	clock.Advance(2 * time.Minute)
	r.x = &payoutexec.Executor{Orders: r.x.Orders, Store: r.x.Store, Registry: r.x.Registry, Clock: r.x.Clock, Logger: r.x.Logger,
		Config: r.x.Config, Networks: r.x.Networks}
	r.x.Networks[cashier.ChainETH].Client = r.sender(func(c *evm.Config) { c.Clock, c.ReplaceAfter = clock, time.Minute })
	r.settle(o.ID)
	done := r.order(o.ID)
	if done.Status != cashier.PayoutSuccess || strings.EqualFold(done.TxID, exec.TxHashes[0]) {
		t.Fatalf("after the bump: %s paid by %s (first send %s)", done.Status, done.TxID, exec.TxHashes[0])
	}
	if got := r.balance(alice); got.Cmp(units("15")) != 0 {
		t.Fatalf("recipient holds %s, want 15 tokens once", got)
	}
	final, _ := r.st.Exec(ctx, exec.ID)
	if final.Nonce.Cmp(exec.Nonce) != 0 || len(final.TxHashes) != 1 {
		t.Fatalf("the execution changed: nonce %s → %s, sends %v", exec.Nonce, final.Nonce, final.TxHashes)
	}
}

// An executor short of gas makes payouts wait, visibly, and never fails
// them; topped up, they are paid.
func TestLowGasPayoutsWait(t *testing.T) {
	r := newRig(t, 1000)
	var logs strings.Builder
	r.x.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	r.x.Networks[cashier.ChainETH].MinGas = new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether))
	o := r.create(alice, "5")
	for i := 0; i < 5; i++ {
		r.tick()
		r.chain.Commit()
	}
	got := r.order(o.ID)
	if got.Status != cashier.PayoutProcessing || got.ExecID == "" || r.balance(alice).Sign() != 0 {
		t.Fatalf("short of gas: %s exec %q, recipient %s", got.Status, got.ExecID, r.balance(alice))
	}
	if e, _ := r.st.Exec(context.Background(), got.ExecID); e.State != cashier.ExecCreated || len(e.TxHashes) != 0 {
		t.Fatalf("execution %s with sends %v while short of gas", e.State, e.TxHashes)
	}
	if !strings.Contains(logs.String(), "executor gas balance low") {
		t.Fatalf("no warning logged:\n%s", logs.String())
	}
	r.x.Networks[cashier.ChainETH].MinGas = big.NewInt(1)
	r.settle(o.ID)
	if r.order(o.ID).Status != cashier.PayoutSuccess || r.balance(alice).Cmp(units("5")) != 0 {
		t.Fatal("not paid once the gas was there")
	}
}

func checkLocks(t *testing.T, r *rig) {
	ctx := context.Background()
	want, _ := orders.RecomputeLocks(ctx, r.st)
	got, _ := r.st.PoolTotals(ctx)
	for k, v := range got {
		if w := want[k]; (w == nil && v.Sign() != 0) || (w != nil && w.Cmp(v) != 0) {
			t.Fatalf("pool %s: running %s, recomputed %v", k, v, w)
		}
	}
}

// The SUCCESS webhook's blockTime is the header time of the block that
// carried the payout, not the time the service settled it (confirmations
// later).
func TestPaidWebhookCarriesBlockTime(t *testing.T) {
	r := newRig(t, 1000)
	a := r.create(alice, "10")
	r.settle(a.ID)
	o := r.order(a.ID)
	if o.Status != cashier.PayoutSuccess || o.BlockNumber == 0 {
		t.Fatalf("order %s in block %d", o.Status, o.BlockNumber)
	}
	b, err := r.read.BlockByNumber(context.Background(), o.BlockNumber)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := r.st.Events(context.Background(), cashier.EventFilter{OrderID: a.ID})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range evs {
		if e.Status != string(cashier.PayoutSuccess) {
			continue
		}
		found = true
		var body struct {
			BlockTime  int64 `json:"blockTime"`
			UpdateTime int64 `json:"updateTime"`
		}
		if err := json.Unmarshal(e.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.BlockTime != b.Time.UnixMilli() {
			t.Fatalf("blockTime %d, want block %d's time %d (updateTime %d)", body.BlockTime, o.BlockNumber, b.Time.UnixMilli(), body.UpdateTime)
		}
	}
	if !found {
		t.Fatalf("no SUCCESS event among %d", len(evs))
	}
}

// A batch whose gas estimate exceeds the cap is not sent: its orders wait
// (PROCESSING, the reason on the execution), the executor spends nothing;
// with the cap raised it is paid.
func TestGasCapHoldsTheBatch(t *testing.T) {
	r := newRig(t, 1000)
	net := r.x.Networks[cashier.ChainETH]
	net.GasBase, net.GasPerRecipient = 20_000, 1_000 // far below a payout's cost
	a, b := r.create(alice, "10"), r.create(bob, "20")
	ctx := context.Background()
	before, err := r.chain.Client.BalanceAt(ctx, crypto.PubkeyToAddress(r.executor.PublicKey), nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		r.tick()
		r.chain.Commit()
	}
	after, _ := r.chain.Client.BalanceAt(ctx, crypto.PubkeyToAddress(r.executor.PublicKey), nil)
	if after.Cmp(before) != 0 {
		t.Fatalf("executor balance %s → %s under the cap", before, after)
	}
	oa := r.order(a.ID)
	if oa.Status != cashier.PayoutProcessing || r.order(b.ID).Status != cashier.PayoutProcessing || oa.ExecID == "" {
		t.Fatalf("orders %s %s, want both waiting PROCESSING", oa.Status, r.order(b.ID).Status)
	}
	e, err := r.st.Exec(ctx, oa.ExecID)
	if err != nil {
		t.Fatal(err)
	}
	if e.State != cashier.ExecCreated || !strings.Contains(e.LastError, "exceeds the cap 22000") || len(e.TxHashes) != 0 {
		t.Fatalf("execution %s %q %v", e.State, e.LastError, e.TxHashes)
	}
	net.GasBase, net.GasPerRecipient = 200_000, 60_000
	r.settle(a.ID, b.ID)
	if oa = r.order(a.ID); oa.Status != cashier.PayoutSuccess {
		t.Fatalf("after raising the cap: %s %s", oa.Status, oa.FailReason)
	}
}

// A registration from before ownership proofs that nobody proved again or
// confirmed signs nothing with the shared service signer: its orders wait
// (PROCESSING, the batch's last error saying what to do, nothing sent);
// once the operator confirms it (its signer recorded as the service
// signer) the same orders are paid.
func TestUnprovenRegistrationWaits(t *testing.T) {
	r := newRig(t, 1000)
	ctx := context.Background()
	r.k.Signer = ""
	if err := r.st.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateContract(ctx, r.k) }); err != nil {
		t.Fatal(err)
	}
	a := r.create(alice, "10")
	for range 3 {
		r.tick()
		r.chain.Commit()
	}
	o := r.order(a.ID)
	if o.Status != cashier.PayoutProcessing || o.TxID != "" || r.balance(alice).Sign() != 0 {
		t.Fatalf("order through an unproven registration: %s tx %q, recipient holds %s", o.Status, o.TxID, r.balance(alice))
	}
	e, err := r.st.Exec(ctx, o.ExecID)
	if err != nil || e.State != cashier.ExecCreated || len(e.TxHashes) != 0 ||
		!strings.Contains(e.LastError, "contract check --id k_1") || !strings.Contains(e.LastError, "contract confirm --id k_1") {
		t.Fatalf("its batch: %+v %v", e, err)
	}
	r.k.Signer = crypto.PubkeyToAddress(r.signer.PublicKey).Hex() // cashier contract confirm
	if err := r.st.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateContract(ctx, r.k) }); err != nil {
		t.Fatal(err)
	}
	r.settle(a.ID)
	if o := r.order(a.ID); o.Status != cashier.PayoutSuccess || r.balance(alice).Cmp(units("10")) != 0 {
		t.Fatalf("after the confirmation: %s, recipient holds %s", o.Status, r.balance(alice))
	}
}

// A contract registered with a merchant signer is signed with that key,
// not the network's service signer (there is none here); one whose
// recorded signer is not the merchant's key waits.
func TestMerchantSignerSigns(t *testing.T) {
	r := newRig(t, 1000)
	ctx := context.Background()
	net := r.x.Networks[cashier.ChainETH]
	net.Signer = nil
	ms := &cashier.MerchantSigner{MerchantID: r.m.ID, Chain: cashier.ChainETH, Address: crypto.PubkeyToAddress(r.signer.PublicKey).Hex(),
		PrivateKey: crypto.FromECDSA(r.signer), CreatedAt: time.Now()}
	r.k.Signer = "0x00000000000000000000000000000000000000aa" // not the merchant's key
	if err := r.st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchantSigner(ctx, ms); err != nil {
			return err
		}
		return tx.UpdateContract(ctx, r.k)
	}); err != nil {
		t.Fatal(err)
	}
	a := r.create(alice, "10")
	for range 3 {
		r.tick()
	}
	if o := r.order(a.ID); o.Status != cashier.PayoutProcessing || o.TxID != "" {
		t.Fatalf("order under a mismatched signer: %s %s", o.Status, o.TxID)
	}
	r.k.Signer = ms.Address
	if err := r.st.Update(ctx, func(tx cashier.Tx) error { return tx.UpdateContract(ctx, r.k) }); err != nil {
		t.Fatal(err)
	}
	r.settle(a.ID)
	if o := r.order(a.ID); o.Status != cashier.PayoutSuccess {
		t.Fatalf("order: %s %s", o.Status, o.FailReason)
	}
}
