package payoutexec_test

import (
	"context"
	"crypto/ecdsa"
	"database/sql"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	_ "modernc.org/sqlite"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/watch"
)

// approvals is a wallet that approves the rig's payout contract, and the
// chain watcher that records its approvals.
type approvals struct {
	r      *rig
	wallet *ecdsa.PrivateKey
	addr   common.Address
	w      *watch.Watcher
}

func newApprovals(r *rig, confirmations uint64) *approvals {
	r.t.Helper()
	ctx := context.Background()
	a := &approvals{r: r}
	a.wallet, _ = crypto.GenerateKey()
	a.addr = crypto.PubkeyToAddress(a.wallet.PublicKey)
	defer r.mining()()
	if err := r.chain.Fund(ctx, a.addr, big.NewInt(params.Ether)); err != nil {
		r.t.Fatal(err)
	}
	r.ownerCall(r.token, usdcABI.PackMint(a.addr, units("1000")))
	a.w = a.watcher(confirmations)
	return a
}

// watcher is the service's chain watcher of the rig's network, as a
// (re)started service builds it.
func (a *approvals) watcher(confirmations uint64) *watch.Watcher {
	return watch.New(watch.Config{Chain: cashier.ChainETH, Tokens: []string{a.r.token.Hex()}, Confirmations: confirmations,
		Approvals: true}, a.r.read, a.r.svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// approve has the wallet approve the payout contract for amount (mined).
func (a *approvals) approve(amount string) common.Hash {
	a.r.t.Helper()
	rc, err := a.r.chain.Transact(context.Background(), a.wallet, &a.r.token, nil, usdcABI.PackApprove(a.r.payout, units(amount)), 0)
	if err != nil {
		a.r.t.Fatal(err)
	}
	return rc.TxHash
}

// confirm makes blocks past the confirmation depth and runs watcher rounds.
func (a *approvals) confirm(blocks int) {
	a.r.t.Helper()
	for range blocks {
		a.r.chain.Commit()
	}
	if err := a.w.Round(context.Background()); err != nil {
		a.r.t.Fatal(err)
	}
}

func (a *approvals) create(amount string) *cashier.PayoutOrder {
	a.r.t.Helper()
	o, err := a.r.svc.CreatePayout(context.Background(), a.r.m, orders.PayoutRequest{ContractID: "k_1", OrderNo: orders.NewID("A-"),
		Recipient: alice, Amount: amount, Symbol: "USDT", PayoutType: 2, FromAddress: a.addr.Hex()})
	if err != nil {
		a.r.t.Fatal(err)
	}
	return o
}

// allowance is the recorded allowance of the wallet to the contract.
func (a *approvals) allowance() *cashier.Allowance {
	a.r.t.Helper()
	list, err := a.r.st.Allowances(context.Background(), cashier.ChainETH, a.r.payout.Hex())
	if err != nil {
		a.r.t.Fatal(err)
	}
	for i := range list {
		if list[i].Owner == a.addr.Hex() {
			return &list[i]
		}
	}
	return nil
}

// recorded counts the approval rows in the database file.
func recorded(t *testing.T, r *rig) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+r.dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM token_approvals`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func statuses(r *rig, ids []string) []cashier.PayoutStatus {
	var out []cashier.PayoutStatus
	for _, id := range ids {
		out = append(out, r.order(id).Status)
	}
	return out
}

// A wallet that lowers its approval makes the pending allowance-mode
// orders it no longer covers REFUSE once the approval is confirmed (newest
// first, with the reason and webhook); the older ones that fit stay and are
// paid, and what they took is counted against the allowance shown, which
// then equals the chain's. A revoke refuses the rest. Each approval is
// recorded once, however often its range is scanned, also by a watcher
// started afresh.
func TestRevokedApprovalRefusesPendingOrders(t *testing.T) {
	r := newRig(t, 0)
	ctx := context.Background()
	a := newApprovals(r, 2)
	a.confirm(1) // the watcher starts at the confirmed tip
	first := a.approve("100")
	a.confirm(1)
	if got := a.allowance(); got == nil || got.Approved.Cmp(units("100")) != 0 || got.Spent.Sign() != 0 || got.TxHash != first.Hex() || !got.Checked {
		t.Fatalf("allowance after approving 100: %+v", got)
	}
	// Held for review, so nothing is sent while the approval changes.
	if _, err := r.svc.SetReviewPolicy(ctx, "m_1", cashier.ReviewAlways, ""); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, amt := range []string{"10", "20", "30"} {
		ids = append(ids, a.create(amt).ID)
	}
	a.confirm(1)
	lowered := a.approve("35") // covers 10+1 and 20+1, not 30+1 as well
	if err := a.w.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if got := statuses(r, ids); got[2] != cashier.PayoutPending {
		t.Fatalf("refused before the approval was confirmed: %v", got)
	}
	a.confirm(1)
	want := []cashier.PayoutStatus{cashier.PayoutPending, cashier.PayoutPending, cashier.PayoutRefuse}
	if got := statuses(r, ids); !equal(got, want) {
		t.Fatalf("after lowering to 35: %v, want %v", got, want)
	}
	if o := r.order(ids[2]); !strings.Contains(o.FailReason, "now allows contract") || !strings.Contains(o.FailReason, "35.00 USDT") ||
		!strings.Contains(o.FailReason, lowered.Hex()) {
		t.Fatalf("reason %q", o.FailReason)
	}
	evs, _ := r.st.Events(ctx, cashier.EventFilter{OrderID: ids[2]})
	if len(evs) == 0 || evs[0].Status != "REFUSE" || !strings.Contains(string(evs[0].Body), "now allows contract") {
		t.Fatalf("no REFUSE event: %+v", evs)
	}

	// The first order is paid; the allowance shown counts what it took.
	if _, err := r.svc.ApprovePayout(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	r.settle(ids[0])
	if o := r.order(ids[0]); o.Status != cashier.PayoutSuccess {
		t.Fatalf("first order %s: %s", o.Status, o.FailReason)
	}
	onChain, err := r.read.Allowance(ctx, r.token.Hex(), a.addr.Hex(), r.payout.Hex())
	if err != nil {
		t.Fatal(err)
	}
	if got := a.allowance(); got.Spent.Cmp(units("11")) != 0 || got.Left().Cmp(onChain) != 0 || onChain.Cmp(units("24")) != 0 {
		t.Fatalf("allowance shown %+v (left %s), on chain %s", got, got.Left(), onChain)
	}

	revoke := a.approve("0")
	a.confirm(1)
	want = []cashier.PayoutStatus{cashier.PayoutSuccess, cashier.PayoutRefuse, cashier.PayoutRefuse}
	if got := statuses(r, ids); !equal(got, want) {
		t.Fatalf("after revoking: %v, want %v", got, want)
	}
	if got := r.balance(alice); got.Cmp(units("10")) != 0 {
		t.Fatalf("alice got %s", got)
	}
	checkLocks(t, r)
	if n := recorded(t, r); n != 3 {
		t.Fatalf("%d approvals recorded, want 3", n)
	}

	// The whole range scanned again, by a watcher started afresh after its
	// cursor was lost: nothing is recorded twice, nothing changes.
	cur, err := r.st.Cursor(ctx, cashier.ChainETH)
	if err != nil {
		t.Fatal(err)
	}
	cur.Confirmed, cur.ConfirmedHash = 1, ""
	if err := r.st.Update(ctx, func(tx cashier.Tx) error { return tx.SetCursor(ctx, cur) }); err != nil {
		t.Fatal(err)
	}
	a.w = a.watcher(2)
	a.confirm(1)
	if n := recorded(t, r); n != 3 {
		t.Fatalf("%d approvals recorded after the rescan, want 3", n)
	}
	if got := a.allowance(); got.TxHash != revoke.Hex() || got.Approved.Sign() != 0 || got.Spent.Sign() != 0 {
		t.Fatalf("allowance after the rescan %+v", got)
	}
	if p, err := r.st.Approval(ctx, cashier.ChainETH, lowered.Hex(), 0); err != nil || p.Value.Cmp(units("35")) != 0 || p.Owner != a.addr.Hex() {
		t.Fatalf("approval %+v, %v", p, err)
	}
	want = []cashier.PayoutStatus{cashier.PayoutSuccess, cashier.PayoutRefuse, cashier.PayoutRefuse}
	if got := statuses(r, ids); !equal(got, want) {
		t.Fatalf("after the rescan: %v", got)
	}

	// A restart: the database opened afresh, a new service and watcher,
	// the range scanned once more.
	r.st.Close()
	sealer, _ := sqlite.NewAESSealer(make([]byte, 32))
	st, err := sqlite.Open(ctx, r.dbPath, sqlite.Options{Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := *r.svc
	svc.Store, r.st, r.svc = st, st, &svc
	must(t, st.Update(ctx, func(tx cashier.Tx) error { return tx.SetCursor(ctx, cur) }))
	a.w = a.watcher(2)
	a.confirm(1)
	if n := recorded(t, r); n != 3 {
		t.Fatalf("%d approvals recorded after the restart, want 3", n)
	}
	if got := a.allowance(); got.TxHash != revoke.Hex() || got.Approved.Sign() != 0 || !got.Checked {
		t.Fatalf("allowance after the restart %+v", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A revoke mined in a block that a reorg removes before it has its
// confirmations is never recorded and refuses nothing, even once the chain
// has moved far past it.
func TestReorgedOutRevokeIsNotActedOn(t *testing.T) {
	r := newManualRig(t)
	ctx := context.Background()
	a := newApprovals(r, 3)
	send := func(tx *types.Transaction) {
		t.Helper()
		if err := r.chain.Client.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		r.chain.Commit()
	}
	approve := func(amount string, nonce uint64) *types.Transaction {
		t.Helper()
		tx, err := r.chain.SignTx(ctx, a.wallet, &r.token, nil, usdcABI.PackApprove(r.payout, units(amount)), 100_000)
		if err != nil {
			t.Fatal(err)
		}
		if tx.Nonce() != nonce {
			t.Fatalf("nonce %d, want %d", tx.Nonce(), nonce)
		}
		return tx
	}
	a.confirm(1)
	send(approve("100", 0))
	a.confirm(3)
	if _, err := r.svc.SetReviewPolicy(ctx, "m_1", cashier.ReviewAlways, ""); err != nil {
		t.Fatal(err)
	}
	o := a.create("50")

	parent := r.chain.Commit() // the fork point
	revoke := approve("0", 1)
	send(revoke)
	a.confirm(1) // seen at depth 2 of 3: not yet
	if a.allowance().Approved.Cmp(units("100")) != 0 {
		t.Fatalf("unconfirmed revoke recorded: %+v", a.allowance())
	}
	// The wallet's transaction is replaced on a competing branch (same
	// nonce, approving 200), which becomes the longer chain.
	if err := r.chain.Fork(parent); err != nil {
		t.Fatal(err)
	}
	replacement, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: r.chain.ChainID, Nonce: 1, GasTipCap: new(big.Int).Mul(revoke.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(revoke.GasFeeCap(), big.NewInt(3)), Gas: 100_000, To: &r.token,
		Data: usdcABI.PackApprove(r.payout, units("200")),
	}), r.chain.Signer, a.wallet)
	if err != nil {
		t.Fatal(err)
	}
	send(replacement)
	for range 6 {
		a.confirm(1)
	}
	if _, err := r.st.Approval(ctx, cashier.ChainETH, revoke.Hash().Hex(), 0); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("reorged-out revoke: %v", err)
	}
	if got := a.allowance(); got.TxHash != replacement.Hash().Hex() || got.Approved.Cmp(units("200")) != 0 {
		t.Fatalf("allowance %+v", got)
	}
	if got := r.order(o.ID); got.Status != cashier.PayoutPending {
		t.Fatalf("order %s: %s", got.Status, got.FailReason)
	}
	if n := recorded(t, r); n != 2 {
		t.Fatalf("%d approvals recorded, want 2", n)
	}
}
