package watch_test

import (
	"context"
	"math/big"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// A reorg deeper than the confirmations, on a real dev chain (the head is
// set back below two credited payments and a longer branch is built):
// order A's payment is replaced by a transfer elsewhere (same nonce), so it
// disappears; order B's payment is mined again in the new branch's block,
// after another transfer, at another log index. A stays SUCCESS with its paid amount, is flagged once (stored,
// and its newest webhook carries chainAlert REORGED); B is found again,
// moved, and counted once; no earlier webhook changes.
func TestDeepReorgFlagsCreditedOrderNeverReversed(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{confirmations: 2, period: time.Hour})
	w := r.svc.Watchers[0]
	oa, ob := r.order(t, "5.00"), r.order(t, "3.00")
	must(t, w.Round(ctx))

	parent := r.chain.Commit() // the fork point
	paidB := r.pay(t, ob.DepositAddress, 3_000_000)
	paidA := r.pay(t, oa.DepositAddress, 5_000_000)
	for range 3 {
		r.chain.Commit()
		must(t, w.Round(ctx))
	}
	for _, o := range []*cashier.CollectionOrder{oa, ob} {
		if got, _ := r.reload(t, o.ID); got.Status != cashier.CollectionSuccess || !got.ReorgedAt.IsZero() {
			t.Fatalf("before the reorg: order %s %s reorged %v", got.OrderNo, got.Status, got.ReorgedAt)
		}
	}
	_, before := r.reload(t, ob.ID)

	txA, _, err := r.chain.Client.TransactionByHash(ctx, paidA)
	must(t, err)
	txB, _, err := r.chain.Client.TransactionByHash(ctx, paidB)
	must(t, err)
	must(t, r.chain.Fork(parent))
	// The abandoned branch's transactions are back in the pool.
	// A mint with a higher tip goes first in B's new block: B's log index moves.
	mint, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: r.chain.ChainID, Nonce: mustNonce(t, r), GasTipCap: big.NewInt(5 * params.GWei),
		GasFeeCap: new(big.Int).Mul(txB.GasFeeCap(), big.NewInt(5)), Gas: 200_000, To: &r.usdt,
		Data: bindings.NewTestUSDC().PackMint(common.HexToAddress("0xbeef"), big.NewInt(1)),
	}), r.chain.Signer, r.chain.Faucet)
	must(t, err)
	replacement, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: r.chain.ChainID, Nonce: txA.Nonce(), GasTipCap: new(big.Int).Mul(txA.GasTipCap(), big.NewInt(3)),
		GasFeeCap: new(big.Int).Mul(txA.GasFeeCap(), big.NewInt(3)),
		Gas:       200_000, To: &r.usdt, Data: bindings.NewTestUSDC().PackTransfer(common.HexToAddress("0xdead"), big.NewInt(5_000_000)),
	}), r.chain.Signer, r.customer)
	must(t, err)
	for _, tx := range []*types.Transaction{mint, replacement} {
		must(t, r.chain.Client.SendTransaction(ctx, tx))
	}
	r.chain.Commit()
	for range 4 { // the new branch is longer than the old one
		r.chain.Commit()
	}
	for _, h := range []common.Hash{mint.Hash(), paidB, replacement.Hash()} {
		if st, err := r.waitOrCommit(h); err != nil || st != 1 {
			t.Fatalf("transaction %s: status %d, %v", h, st, err)
		}
	}
	rcB, err := r.chain.Client.TransactionReceipt(ctx, paidB)
	must(t, err)
	if rcB.Logs[0].Index == before[0].LogIndex || rcB.BlockHash.Hex() == before[0].BlockHash {
		t.Fatalf("B did not move: block %d log %d, before %+v", rcB.BlockNumber, rcB.Logs[0].Index, before[0])
	}
	for range 3 {
		must(t, w.Round(ctx))
	}

	a, psA := r.reload(t, oa.ID)
	if a.Status != cashier.CollectionSuccess || a.PaidAmount.Int64() != 5_000_000 || a.TxID != paidA.Hex() || a.ReorgedAt.IsZero() ||
		len(psA) != 1 || psA[0].Status != cashier.PaymentConfirmed || psA[0].ReorgedAt.IsZero() {
		t.Fatalf("A after the reorg: %s paid %s txId %s reorged %v, payments %+v", a.Status, a.PaidAmount, a.TxID, a.ReorgedAt, psA)
	}
	b, psB := r.reload(t, ob.ID)
	if b.Status != cashier.CollectionSuccess || b.PaidAmount.Int64() != 3_000_000 || !b.ReorgedAt.IsZero() ||
		len(psB) != 1 || !psB[0].ReorgedAt.IsZero() || psB[0].BlockHash != rcB.BlockHash.Hex() ||
		psB[0].LogIndex != rcB.Logs[0].Index || psB[0].BlockNumber != rcB.BlockNumber.Uint64() {
		t.Fatalf("B after the reorg: %s paid %s reorged %v, payments %+v (now block %d %s log %d)",
			b.Status, b.PaidAmount, b.ReorgedAt, psB, rcB.BlockNumber, rcB.BlockHash.Hex(), rcB.Logs[0].Index)
	}
	evs, err := r.svc.Store.Events(ctx, cashier.EventFilter{OrderID: oa.ID})
	must(t, err)
	alerts := 0
	for i, e := range evs { // newest first
		if contains(e.Body, `"chainAlert":"REORGED"`) {
			alerts++
			if i != 0 || !contains(e.Body, `"status":"SUCCESS"`) || !contains(e.Body, `"paidAmount":"5`) {
				t.Fatalf("alert event %d of %d: %s", i, len(evs), e.Body)
			}
		}
	}
	if alerts != 1 {
		t.Fatalf("%d alert events for A", alerts)
	}
	// Reported loudly: /readyz names it (without failing readiness) and the
	// metrics count it.
	checks, failed := r.svc.Ops.Ready(ctx)
	if c := checks["reorg ETH"]; !strings.HasPrefix(c, "ALERT: 1 orders flagged") || !strings.Contains(c, "1 credited payments missing") || failed["reorg ETH"] != "" {
		t.Fatalf("readyz reorg check %q (failed %v)", c, failed)
	}
	rec := httptest.NewRecorder()
	r.svc.Ops.Metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, m := range []string{`cashier_collections_reorged{chain="ETH"} 1`, `cashier_payments_missing{chain="ETH"} 1`} {
		if !strings.Contains(rec.Body.String(), m) {
			t.Fatalf("metrics lack %s", m)
		}
	}
	evs, err = r.svc.Store.Events(ctx, cashier.EventFilter{OrderID: ob.ID})
	must(t, err)
	for _, e := range evs {
		if contains(e.Body, "chainAlert") {
			t.Fatalf("B's events carry an alert: %s", e.Body)
		}
	}
}

func mustNonce(t *testing.T, r *rig) uint64 {
	n, err := r.chain.Client.PendingNonceAt(context.Background(), r.chain.FaucetAddress())
	must(t, err)
	return n
}
