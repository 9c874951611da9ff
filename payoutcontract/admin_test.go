package payoutcontract_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier/payoutcontract"
)

// TestOwnerOnly refuses every admin function to everyone but the owner,
// the executor included.
func TestOwnerOnly(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	someone := newAccount(t).addr
	calls := map[string][]byte{
		"setExecutor":         payoutABI.PackSetExecutor(someone),
		"setSigner":           payoutABI.PackSetSigner(someone),
		"setFeeAddress":       payoutABI.PackSetFeeAddress(someone),
		"setSignatureWindow":  payoutABI.PackSetSignatureWindow(big.NewInt(3600)),
		"setWhitelistMode":    payoutABI.PackSetWhitelistMode(true, true),
		"addToWhitelist":      payoutABI.PackAddToWhitelist([]common.Address{someone}),
		"removeFromWhitelist": payoutABI.PackRemoveFromWhitelist([]common.Address{someone}),
		"withdraw":            payoutABI.PackWithdraw(token, someone, big.NewInt(1)),
		"transferOwnership":   payoutABI.PackTransferOwnership(someone),
	}
	for name, data := range calls {
		for _, who := range []account{c.stranger, c.executor} {
			c.expectRevert(who, c.payout, data, "NotOwner")
		}
		t.Logf("%s refused to non-owners", name)
	}
}

// TestRoleRotation rotates executor, signer and fee address and checks that
// each change takes effect at once.
func TestRoleRotation(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	c.mint(token, c.payout, units(1_000))
	pay := func(signer account) []byte {
		return c.balanceCall(payoutcontract.BalancePayout{Batch: c.batch(token, 1)}, signer.key)
	}

	newExec := c.stranger
	c.mustSend(c.owner, c.payout, payoutABI.PackSetExecutor(newExec.addr))
	c.expectRevert(c.executor, c.payout, pay(c.signer), "NotExecutor")
	c.mustSend(newExec, c.payout, pay(c.signer))
	c.executor = newExec // events name the operator

	newSigner := newAccount(t)
	c.mustSend(c.owner, c.payout, payoutABI.PackSetSigner(newSigner.addr))
	c.expectRevert(c.executor, c.payout, pay(c.signer), "InvalidSignature")
	c.mustSend(c.executor, c.payout, pay(newSigner))

	newFee := newAccount(t)
	c.mustSend(c.owner, c.payout, payoutABI.PackSetFeeAddress(newFee.addr))
	b := c.batch(token, 1)
	c.mustSend(c.executor, c.payout, c.balanceCall(payoutcontract.BalancePayout{Batch: b}, newSigner.key))
	if got := c.balance(token, newFee.addr); got.Cmp(b.TotalFee) != 0 {
		t.Fatalf("new fee address holds %v, want %v", got, b.TotalFee)
	}

	for _, bad := range []struct {
		data []byte
		want string
	}{
		{payoutABI.PackSetExecutor(common.Address{}), "ZeroAddress"},
		{payoutABI.PackSetSigner(common.Address{}), "ZeroAddress"},
		{payoutABI.PackSetFeeAddress(common.Address{}), "InvalidFeeAddress"},
		{payoutABI.PackSetFeeAddress(c.payout), "InvalidFeeAddress"},
		{payoutABI.PackSetSignatureWindow(big.NewInt(59)), "InvalidSignatureWindow"},
		{payoutABI.PackSetSignatureWindow(big.NewInt(7*24*3600 + 1)), "InvalidSignatureWindow"},
	} {
		c.expectRevert(c.owner, c.payout, bad.data, bad.want)
	}
}

// TestSignatureWindow widens the window and accepts a signature the default
// window refuses.
func TestSignatureWindow(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	c.mint(token, c.payout, units(1_000))
	window, err := payoutABI.UnpackSignatureWindow(c.call(c.payout, payoutABI.PackSignatureWindow()))
	if err != nil || window.Int64() != 600 {
		t.Fatalf("default window %v (%v), want 600 s", window, err)
	}
	old := func() []byte {
		b := c.batch(token, 1)
		b.Timestamp -= 15 * 60
		return c.balanceCall(payoutcontract.BalancePayout{Batch: b}, c.signer.key)
	}
	c.expectRevert(c.executor, c.payout, old(), "SignatureExpired")
	c.mustSend(c.owner, c.payout, payoutABI.PackSetSignatureWindow(big.NewInt(20*60)))
	c.mustSend(c.executor, c.payout, old())
}

// TestOwnershipTransfer walks the two-step transfer, including a cancel.
func TestOwnershipTransfer(t *testing.T) {
	c := newChain(t)
	next := c.holder
	c.mustSend(c.owner, c.payout, payoutABI.PackTransferOwnership(next.addr))
	c.expectRevert(c.stranger, c.payout, payoutABI.PackAcceptOwnership(), "NotPendingOwner")
	// The old owner stays in charge until the new one accepts.
	c.mustSend(c.owner, c.payout, payoutABI.PackSetWhitelistMode(true, false))
	c.mustSend(next, c.payout, payoutABI.PackAcceptOwnership())

	owner, err := payoutABI.UnpackOwner(c.call(c.payout, payoutABI.PackOwner()))
	if err != nil || owner != next.addr {
		t.Fatalf("owner %s (%v), want %s", owner, err, next.addr)
	}
	c.expectRevert(c.owner, c.payout, payoutABI.PackSetWhitelistMode(false, false), "NotOwner")
	c.mustSend(next, c.payout, payoutABI.PackSetWhitelistMode(false, false))
	c.expectRevert(next, c.payout, payoutABI.PackAcceptOwnership(), "NotPendingOwner")

	// A pending transfer can be cancelled with the zero address.
	c.mustSend(next, c.payout, payoutABI.PackTransferOwnership(c.stranger.addr))
	c.mustSend(next, c.payout, payoutABI.PackTransferOwnership(common.Address{}))
	c.expectRevert(c.stranger, c.payout, payoutABI.PackAcceptOwnership(), "NotPendingOwner")
}

// TestWithdraw moves tokens out of the contract for each token kind.
func TestWithdraw(t *testing.T) {
	c := newChain(t)
	for _, kind := range tokenKinds {
		t.Run(kind, func(t *testing.T) {
			c := c.as(t)
			token := c.tokens[kind]
			to := newAccount(t).addr
			c.mint(token, c.payout, units(10))
			c.expectRevert(c.owner, c.payout, payoutABI.PackWithdraw(token, to, units(11)), "InsufficientContractBalance")
			c.expectRevert(c.owner, c.payout, payoutABI.PackWithdraw(token, common.Address{}, units(1)), "InvalidRecipient")
			c.mustSend(c.owner, c.payout, payoutABI.PackWithdraw(token, to, units(4)))
			if got := c.balance(token, to); got.Cmp(units(4)) != 0 {
				t.Fatalf("withdrawn %v, want %v", got, units(4))
			}
			if got := c.balance(token, c.payout); got.Cmp(units(6)) != 0 {
				t.Fatalf("contract keeps %v, want %v", got, units(6))
			}
		})
	}
	t.Run("token that answers false and keeps the funds", func(t *testing.T) {
		c := c.as(t)
		token := c.tokens["TestFailingToken"]
		c.mint(token, c.payout, units(10))
		c.expectRevert(c.owner, c.payout, payoutABI.PackWithdraw(token, c.owner.addr, units(1)), "TransferNotVerified")
	})
}

// TestConstructorChecks refuses deployments with missing roles or a CREATE2
// prefix that belongs to no supported chain.
func TestConstructorChecks(t *testing.T) {
	c := newChain(t)
	a := newAccount(t).addr
	zero := common.Address{}
	cases := []struct {
		name string
		code []byte
		want string
	}{
		{"payout without owner", append(bytecode(t, "CashierPayout"), payoutABI.PackConstructor(zero, a, a, a)...), "ZeroAddress"},
		{"payout without executor", append(bytecode(t, "CashierPayout"), payoutABI.PackConstructor(a, zero, a, a)...), "ZeroAddress"},
		{"payout without signer", append(bytecode(t, "CashierPayout"), payoutABI.PackConstructor(a, a, zero, a)...), "ZeroAddress"},
		{"payout without fee address", append(bytecode(t, "CashierPayout"), payoutABI.PackConstructor(a, a, a, zero)...), "InvalidFeeAddress"},
		{"factory without vault", append(bytecode(t, "DepositFactory"), factoryABI.PackConstructor(a, a, zero, [1]byte{0xff})...), "ZeroAddress"},
		{"factory with unknown prefix", append(bytecode(t, "DepositFactory"), factoryABI.PackConstructor(a, a, a, [1]byte{0x00})...), "InvalidPrefix"},
	}
	for _, tc := range cases {
		_, err := c.send(c.owner, nil, tc.code)
		if got := revertName(err); got != tc.want {
			t.Errorf("%s: want %s, got %s (%v)", tc.name, tc.want, got, err)
		}
	}
}
