package evm

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/devchain"
)

// TokenEvents finds what TokenTransfers and TokenApprovals find over the
// same range, an approval to a spender not asked about left out, with
// half their node requests.
func TestTokenEventsReadTransfersAndApprovalsTogether(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(5_000_000)
	c := e.client(payer, t.TempDir(), nil)
	spender := common.HexToAddress("0x3333333333333333333333333333333333333333")
	other := common.HexToAddress("0x4444444444444444444444444444444444444444")
	to := common.HexToAddress("0x5555555555555555555555555555555555555555")
	from, err := e.chain.Client.BlockNumber(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []cashier.Call{
		{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1_250_000))},
		{To: e.usdc.Hex(), Data: e.abi.PackApprove(spender, big.NewInt(777_000))},
		{To: e.usdc.Hex(), Data: e.abi.PackApprove(other, big.NewInt(1))},
	} {
		h, err := c.SendCall(ctx(t), call)
		if err != nil {
			t.Fatal(err)
		}
		if st, err := c.Wait(ctx(t), h, 5*time.Millisecond); err != nil || st.State != SendConfirmed {
			t.Fatalf("%+v, %v", st, err)
		}
	}
	head, err := e.chain.Client.BlockNumber(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	tokens, spenders := []string{e.usdc.Hex()}, []string{spender.Hex()}

	requests := func() int64 { return c.Nodes()[0].Requests }
	before := requests()
	wantTransfers, err := c.TokenTransfers(ctx(t), tokens, from+1, head)
	if err != nil {
		t.Fatal(err)
	}
	wantApprovals, err := c.TokenApprovals(ctx(t), tokens, spenders, from+1, head)
	if err != nil {
		t.Fatal(err)
	}
	apart := requests() - before

	before = requests()
	transfers, approvals, err := c.TokenEvents(ctx(t), tokens, spenders, from+1, head)
	if err != nil {
		t.Fatal(err)
	}
	together := requests() - before

	if len(transfers) != 1 || transfers[0].To != to.Hex() || transfers[0].Amount.Int64() != 1_250_000 || transfers[0].BlockTime.IsZero() {
		t.Fatalf("transfers %+v", transfers)
	}
	if len(wantTransfers) != 1 || transfers[0].TxHash != wantTransfers[0].TxHash || transfers[0].LogIndex != wantTransfers[0].LogIndex ||
		!transfers[0].BlockTime.Equal(wantTransfers[0].BlockTime) {
		t.Fatalf("transfers %+v, TokenTransfers %+v", transfers, wantTransfers)
	}
	if len(approvals) != 1 || len(wantApprovals) != 1 || approvals[0].Spender != spender.Hex() || approvals[0].Value.Int64() != 777_000 ||
		approvals[0].TxHash != wantApprovals[0].TxHash || approvals[0].LogIndex != wantApprovals[0].LogIndex || approvals[0].BlockHash != wantApprovals[0].BlockHash {
		t.Fatalf("approvals %+v, TokenApprovals %+v", approvals, wantApprovals)
	}
	if approvals[0].BlockTime.IsZero() {
		t.Fatal("an approval read with the transfers has no block time")
	}
	if together*2 != apart {
		t.Fatalf("TokenEvents made %d node requests, TokenTransfers and TokenApprovals %d together", together, apart)
	}
}
