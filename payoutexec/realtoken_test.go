package payoutexec_test

import (
	"context"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/tokens"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/orders"
)

// On Circle's real USDC: a paused token makes the batch wait (nothing
// refused, nothing sent that pays) and it is paid once unpaused; a
// recipient the token blacklisted is refused alone, naming the blacklist,
// while the rest of its batch is paid and its lock released.
func TestRealUSDCPauseAndBlacklistedRecipient(t *testing.T) {
	r := newRigToken(t, 1000, nil, devchain.Options{ChainID: devchain.ChainIDETH}, func(ctx context.Context, r *rig) *tokens.Token {
		proxyAdmin, _ := crypto.GenerateKey()
		if err := r.chain.Fund(ctx, crypto.PubkeyToAddress(proxyAdmin.PublicKey), big.NewInt(params.Ether)); err != nil {
			t.Fatal(err)
		}
		tok, err := tokens.DeployUSDC(ctx, r.chain, r.owner, proxyAdmin)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	})
	ctx := context.Background()
	before := r.balance(r.payout.Hex())
	r.x.Alerts = &cashier.TokenAlerts{}

	if err := r.real.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	p := r.create(alice, "5")
	for i := 0; i < 6; i++ {
		r.tick()
		r.chain.Commit()
	}
	if o := r.order(p.ID); o.Status != cashier.PayoutProcessing && o.Status != cashier.PayoutPending {
		t.Fatalf("paused token: order %s %q, want it waiting", o.Status, o.FailReason)
	}
	if r.balance(alice).Sign() != 0 {
		t.Fatal("paid while the token was paused")
	}
	if al := r.x.Alerts.List(); len(al) != 1 || al[0].Kind != cashier.TokenPaused || !strings.EqualFold(al[0].Token, r.token.Hex()) {
		t.Fatalf("alerts while paused: %+v", al)
	}
	if err := r.real.Unpause(ctx); err != nil {
		t.Fatal(err)
	}
	r.settle(p.ID)
	if o := r.order(p.ID); o.Status != cashier.PayoutSuccess || r.balance(alice).Cmp(units("5")) != 0 {
		t.Fatalf("after unpause: %s, alice holds %s", o.Status, r.balance(alice))
	}
	if al := r.x.Alerts.List(); len(al) != 0 {
		t.Fatalf("alerts after unpause: %+v", al)
	}

	a, b, c := r.create(alice, "10"), r.create(bob, "20"), r.create(carol, "30")
	if err := r.real.Blacklist(ctx, common.HexToAddress(bob)); err != nil {
		t.Fatal(err)
	}
	r.settle(a.ID, b.ID, c.ID)
	ra, rb, rc := r.order(a.ID), r.order(b.ID), r.order(c.ID)
	if ra.Status != cashier.PayoutSuccess || rc.Status != cashier.PayoutSuccess {
		t.Fatalf("the batch's other orders: %s %s", ra.Status, rc.Status)
	}
	if rb.Status != cashier.PayoutRefuse || !strings.Contains(rb.FailReason, "blacklisted") || rb.TxID != "" {
		t.Fatalf("blacklisted recipient: %s %q", rb.Status, rb.FailReason)
	}
	if r.balance(alice).Cmp(units("15")) != 0 || r.balance(bob).Sign() != 0 || r.balance(carol).Cmp(units("30")) != 0 {
		t.Fatalf("balances %s %s %s", r.balance(alice), r.balance(bob), r.balance(carol))
	}
	// Paid 45 to recipients and one fee per paid order (1 each on the rig):
	// exactly what left the contract.
	spent := new(big.Int).Sub(before, r.balance(r.payout.Hex()))
	if spent.Cmp(units("48")) != 0 {
		t.Fatalf("the contract spent %s, want 48 tokens", spent)
	}
	if l, _ := r.st.PoolLocked(ctx, orders.PoolKeys(rb, r.k)[0], math.MaxInt64); l.Sign() != 0 {
		t.Fatalf("%s still locked", l)
	}
}

// On Tether's real USDT: a payout contract the token blacklisted can pay
// nobody; its orders are refused at once with that reason (funds
// unlocked), not retried batch after batch.
func TestRealTetherBlacklistedPayoutContract(t *testing.T) {
	r := newRigToken(t, 1000, nil, devchain.Options{ChainID: devchain.ChainIDETH}, func(ctx context.Context, r *rig) *tokens.Token {
		tok, err := tokens.DeployTether(ctx, r.chain, r.owner)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	})
	ctx := context.Background()
	r.x.Alerts = &cashier.TokenAlerts{}
	a, b := r.create(alice, "10"), r.create(bob, "20")
	if err := r.real.Blacklist(ctx, r.payout); err != nil {
		t.Fatal(err)
	}
	r.settle(a.ID, b.ID)
	for _, id := range []string{a.ID, b.ID} {
		o := r.order(id)
		if o.Status != cashier.PayoutRefuse || !strings.Contains(o.FailReason, "blacklisted") || o.TxID != "" {
			t.Fatalf("order of a blacklisted contract: %s %q", o.Status, o.FailReason)
		}
		if l, _ := r.st.PoolLocked(ctx, orders.PoolKeys(o, r.k)[0], math.MaxInt64); l.Sign() != 0 {
			t.Fatalf("%s still locked", l)
		}
	}
	if al := r.x.Alerts.List(); len(al) != 1 || al[0].Kind != cashier.TokenBlacklisted || !strings.EqualFold(al[0].Account, r.payout.Hex()) {
		t.Fatalf("alerts: %+v", al)
	}
	if r.balance(r.payout.Hex()).Cmp(units("1000")) != 0 || r.balance(alice).Sign() != 0 {
		t.Fatalf("contract %s, alice %s", r.balance(r.payout.Hex()), r.balance(alice))
	}
}
