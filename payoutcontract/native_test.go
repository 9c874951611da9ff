package payoutcontract_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier/payoutcontract"
)

// pay sends value wei from from to to with data, like a wallet: gas
// estimated, mined at once. It fails the test when the transfer reverts.
func (c *chain) pay(from account, to common.Address, value *big.Int, data []byte) *types.Receipt {
	c.tb.Helper()
	ctx := context.Background()
	gas, err := c.client.EstimateGas(ctx, ethereum.CallMsg{From: from.addr, To: &to, Value: value, Data: data})
	if err != nil {
		c.tb.Fatalf("pay %s to %s: %v", value, to, err)
	}
	nonce, err := c.client.PendingNonceAt(ctx, from.addr)
	if err != nil {
		c.tb.Fatal(err)
	}
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		c.tb.Fatal(err)
	}
	tip := big.NewInt(params.GWei)
	tx := types.MustSignNewTx(from.key, types.LatestSignerForChainID(c.chainID), &types.DynamicFeeTx{
		ChainID: c.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas: gas, To: &to, Value: value, Data: data,
	})
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		c.tb.Fatal(err)
	}
	c.sim.Commit()
	rcpt, err := c.client.TransactionReceipt(ctx, tx.Hash())
	if err != nil || rcpt.Status != types.ReceiptStatusSuccessful {
		c.tb.Fatalf("pay %s to %s failed: %v", value, to, err)
	}
	return rcpt
}

func (c *chain) ether(a common.Address) *big.Int {
	c.tb.Helper()
	b, err := c.client.BalanceAt(context.Background(), a, nil)
	if err != nil {
		c.tb.Fatal(err)
	}
	return b
}

// TestSweepNative sends ether to deposit addresses before and after they
// are deployed, sweeps it into the vault (sweeper only), and has the
// vault's owner (only) return it.
func TestSweepNative(t *testing.T) {
	c := newChain(t)
	factory, impl := c.deployFactory(payoutcontract.Create2PrefixEVM)
	paid := payoutcontract.DepositSalt("native/paid")
	unpaid := payoutcontract.DepositSalt("native/unpaid")
	paidAddr := payoutcontract.DepositAddress(0xff, factory, impl, paid)
	unpaidAddr := payoutcontract.DepositAddress(0xff, factory, impl, unpaid)
	salts := [][32]byte{paid, unpaid}
	wei := big.NewInt(3e15)

	c.pay(c.holder, paidAddr, wei, nil) // before the address has code
	c.expectRevert(c.stranger, factory, factoryABI.PackSweepNative(salts), "NotSweeper")
	c.expectRevert(c.owner, factory, factoryABI.PackSweepNative(salts), "NotSweeper")
	rcpt := c.mustSend(c.executor, factory, factoryABI.PackSweepNative(salts))
	checkSweptNative(t, rcpt, paid, paidAddr, c.payout, wei)
	if got := c.ether(paidAddr); got.Sign() != 0 {
		t.Fatalf("deposit address keeps %v wei", got)
	}
	if got := c.ether(c.payout); got.Cmp(wei) != 0 {
		t.Fatalf("vault holds %v wei, want %v", got, wei)
	}
	if !c.hasCode(paidAddr) || c.hasCode(unpaidAddr) {
		t.Fatal("only the paid deposit address must be deployed")
	}

	// A deployed deposit address still accepts ether, and sweeps it again.
	c.pay(c.holder, paidAddr, big.NewInt(5e14), nil)
	rcpt = c.mustSend(c.executor, factory, factoryABI.PackSweepNative(salts))
	checkSweptNative(t, rcpt, paid, paidAddr, c.payout, big.NewInt(5e14))
	total := new(big.Int).Add(wei, big.NewInt(5e14))
	if got := c.ether(c.payout); got.Cmp(total) != 0 {
		t.Fatalf("vault holds %v wei, want %v", got, total)
	}
	// Nothing left: a second sweep moves nothing and emits nothing.
	rcpt = c.mustSend(c.executor, factory, factoryABI.PackSweepNative(salts))
	if len(rcpt.Logs) != 0 {
		t.Fatalf("empty sweep logged %d events", len(rcpt.Logs))
	}

	// Nobody but the factory can make a forwarder move ether.
	c.pay(c.holder, paidAddr, big.NewInt(1e14), nil)
	c.expectRevert(c.stranger, paidAddr, fwdABI.PackFlushNative(c.stranger.addr), "NotFactory")
	c.expectRevert(c.stranger, impl, fwdABI.PackFlushNative(c.stranger.addr), "NotFactory")

	// The vault's owner, and nobody else, returns it to the customer.
	back := newAccount(t).addr
	c.expectRevert(c.executor, c.payout, payoutABI.PackWithdrawNative(back, wei), "NotOwner")
	c.expectRevert(c.stranger, c.payout, payoutABI.PackWithdrawNative(back, wei), "NotOwner")
	c.expectRevert(c.owner, c.payout, payoutABI.PackWithdrawNative(back, new(big.Int).Add(total, big.NewInt(1))), "InsufficientContractBalance")
	c.expectRevert(c.owner, c.payout, payoutABI.PackWithdrawNative(common.Address{}, wei), "InvalidRecipient")
	c.mustSend(c.owner, c.payout, payoutABI.PackWithdrawNative(back, wei))
	if got := c.ether(back); got.Cmp(wei) != 0 {
		t.Fatalf("customer got %v wei back, want %v", got, wei)
	}
	if got, want := c.ether(c.payout), new(big.Int).Sub(total, wei); got.Cmp(want) != 0 {
		t.Fatalf("vault keeps %v wei, want %v", got, want)
	}
}

func checkSweptNative(t *testing.T, rcpt *types.Receipt, salt [32]byte, deposit, vault common.Address, amount *big.Int) {
	t.Helper()
	var found int
	for _, l := range rcpt.Logs {
		e, err := factoryABI.UnpackSweptNativeEvent(l)
		if err != nil {
			continue
		}
		found++
		if e.Salt != salt || e.DepositAddress != deposit || e.Vault != vault || e.Amount.Cmp(amount) != 0 {
			t.Fatalf("SweptNative event %+v, want %s from %s to %s", e, amount, deposit, vault)
		}
	}
	if found != 1 {
		t.Fatalf("%d SweptNative events, want 1", found)
	}
}
