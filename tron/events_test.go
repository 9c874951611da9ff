package tron_test

import (
	"math/big"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

// TokenEvents finds what TokenTransfers and TokenApprovals find over the
// same blocks, an approval to a spender not asked about left out, reading
// each block once where the two read it twice.
func TestTokenEventsReadTransfersAndApprovalsTogether(t *testing.T) {
	c := newChain(t, "", nil)
	c.setup(500_000_000)
	cl := c.client(nil)
	to := c.recipient()
	spender := tron.KeyAddress(mustKey(t, "5bed0000000000000000000000000000000000000000000000000000000b0b01"))
	other := tron.KeyAddress(mustKey(t, "07e40000000000000000000000000000000000000000000000000000000b0b02"))
	from := c.produce() + 1
	for _, data := range [][]byte{
		usdt.PackTransfer(to.EVM(), big.NewInt(1_250_000)),
		usdt.PackApprove(spender.EVM(), big.NewInt(777_000)),
		usdt.PackApprove(other.EVM(), big.NewInt(1)),
	} {
		if _, err := cl.SendCall(ctx, cashier.Call{To: c.token.String(), Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	last := c.produce()
	tokens, spenders := []string{c.token.String()}, []string{spender.String()}

	requests := func() int64 { return cl.Nodes()[0].Requests }
	before := requests()
	wantTransfers, err := cl.TokenTransfers(ctx, tokens, from, last)
	if err != nil {
		t.Fatal(err)
	}
	wantApprovals, err := cl.TokenApprovals(ctx, tokens, spenders, from, last)
	if err != nil {
		t.Fatal(err)
	}
	apart := requests() - before

	before = requests()
	transfers, approvals, err := cl.TokenEvents(ctx, tokens, spenders, from, last)
	if err != nil {
		t.Fatal(err)
	}
	together := requests() - before

	if len(transfers) != 1 || len(wantTransfers) != 1 || transfers[0].To != to.String() || transfers[0].Amount.Int64() != 1_250_000 ||
		transfers[0].TxHash != wantTransfers[0].TxHash || transfers[0].BlockHash != wantTransfers[0].BlockHash {
		t.Fatalf("transfers %+v, TokenTransfers %+v", transfers, wantTransfers)
	}
	if len(approvals) != 1 || len(wantApprovals) != 1 || approvals[0].Spender != spender.String() || approvals[0].Value.Int64() != 777_000 ||
		approvals[0].TxHash != wantApprovals[0].TxHash || approvals[0].BlockTime != wantApprovals[0].BlockTime {
		t.Fatalf("approvals %+v, TokenApprovals %+v", approvals, wantApprovals)
	}
	if together*2 != apart {
		t.Fatalf("TokenEvents made %d node requests, TokenTransfers and TokenApprovals %d together", together, apart)
	}
}
