package payoutcontract_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier/payoutcontract"
)

// deployFactory deploys a deposit factory that sweeps into the payout
// contract, with the executor as sweeper.
func (c *chain) deployFactory(prefix byte) (factory, impl common.Address) {
	c.tb.Helper()
	factory = c.deploy(c.owner, "DepositFactory",
		factoryABI.PackConstructor(c.owner.addr, c.executor.addr, c.payout, [1]byte{prefix}))
	impl, err := factoryABI.UnpackImplementation(c.call(factory, factoryABI.PackImplementation()))
	if err != nil {
		c.tb.Fatal(err)
	}
	return factory, impl
}

func (c *chain) addressOf(factory common.Address, salt [32]byte) common.Address {
	c.tb.Helper()
	a, err := factoryABI.UnpackAddressOf(c.call(factory, factoryABI.PackAddressOf(salt)))
	if err != nil {
		c.tb.Fatal(err)
	}
	return a
}

func (c *chain) hasCode(a common.Address) bool {
	c.tb.Helper()
	code, err := c.client.CodeAt(context.Background(), a, nil)
	if err != nil {
		c.tb.Fatal(err)
	}
	return len(code) > 0
}

// TestDepositAddressMatchesFactory checks the off-chain address against the
// factory for both prefixes, and against go-ethereum's own CREATE2 rule.
func TestDepositAddressMatchesFactory(t *testing.T) {
	c := newChain(t)
	for _, prefix := range []byte{payoutcontract.Create2PrefixEVM, payoutcontract.Create2PrefixTRON} {
		factory, impl := c.deployFactory(prefix)
		for _, order := range []string{"order-1", "order-2", "P202511230001"} {
			salt := payoutcontract.DepositSalt(order)
			got := payoutcontract.DepositAddress(prefix, factory, impl, salt)
			if want := c.addressOf(factory, salt); got != want {
				t.Fatalf("prefix %#x order %s: go %s, factory %s", prefix, order, got, want)
			}
		}
	}
	factory, impl := c.deployFactory(payoutcontract.Create2PrefixEVM)
	salt := payoutcontract.DepositSalt("x")
	codeHash := crypto.Keccak256(payoutcontract.ProxyInitCode(impl))
	if got, want := payoutcontract.DepositAddress(0xff, factory, impl, salt), crypto.CreateAddress2(factory, salt, codeHash); got != want {
		t.Fatalf("EVM deposit address %s, CREATE2 rule gives %s", got, want)
	}
	if payoutcontract.DepositAddress(0x41, factory, impl, salt) == crypto.CreateAddress2(factory, salt, codeHash) {
		t.Fatal("TRON prefix gives the EVM address")
	}
}

// TestSweep sends tokens to not-yet-deployed deposit addresses and sweeps
// them into the vault, for each token kind.
func TestSweep(t *testing.T) {
	c := newChain(t)
	factory, impl := c.deployFactory(payoutcontract.Create2PrefixEVM)
	for _, kind := range tokenKinds {
		t.Run(kind, func(t *testing.T) {
			c := c.as(t)
			token := c.tokens[kind]
			paid := payoutcontract.DepositSalt(kind + "/paid")
			unpaid := payoutcontract.DepositSalt(kind + "/unpaid")
			paidAddr := payoutcontract.DepositAddress(0xff, factory, impl, paid)
			unpaidAddr := payoutcontract.DepositAddress(0xff, factory, impl, unpaid)

			c.mint(token, paidAddr, units(25)) // the customer pays before anything is deployed
			vaultBefore := c.balance(token, c.payout)
			salts := [][32]byte{paid, unpaid}

			c.expectRevert(c.stranger, factory, factoryABI.PackSweep(token, salts), "NotSweeper")
			c.expectRevert(c.owner, factory, factoryABI.PackSweep(token, salts), "NotSweeper")
			rcpt := c.mustSend(c.executor, factory, factoryABI.PackSweep(token, salts))

			if got := c.balance(token, paidAddr); got.Sign() != 0 {
				t.Fatalf("deposit address keeps %v", got)
			}
			if got := new(big.Int).Sub(c.balance(token, c.payout), vaultBefore); got.Cmp(units(25)) != 0 {
				t.Fatalf("vault received %v, want %v", got, units(25))
			}
			if !c.hasCode(paidAddr) {
				t.Fatal("paid deposit address was not deployed")
			}
			if c.hasCode(unpaidAddr) {
				t.Fatal("empty deposit address was deployed")
			}
			checkSwept(t, rcpt, token, paid, paidAddr, c.payout, units(25))

			// A second payment to the now deployed address sweeps the same way.
			c.mint(token, paidAddr, units(3))
			rcpt = c.mustSend(c.executor, factory, factoryABI.PackSweep(token, salts))
			checkSwept(t, rcpt, token, paid, paidAddr, c.payout, units(3))
			if got := new(big.Int).Sub(c.balance(token, c.payout), vaultBefore); got.Cmp(units(28)) != 0 {
				t.Fatalf("vault received %v in total, want %v", got, units(28))
			}
		})
	}
}

func checkSwept(t *testing.T, rcpt *types.Receipt, token common.Address, salt [32]byte, deposit, vault common.Address, amount *big.Int) {
	t.Helper()
	var found int
	for _, l := range rcpt.Logs {
		e, err := factoryABI.UnpackSweptEvent(l)
		if err != nil {
			continue
		}
		found++
		if e.Token != token || e.Salt != salt || e.DepositAddress != deposit || e.Vault != vault || e.Amount.Cmp(amount) != 0 {
			t.Fatalf("Swept event %+v, want %s from %s to %s", e, amount, deposit, vault)
		}
	}
	if found != 1 {
		t.Fatalf("%d Swept events, want 1", found)
	}
}

// TestDepositAdmin covers the factory's roles: vault and sweeper changes
// are owner-only and take effect at once; forwarders obey only the factory.
func TestDepositAdmin(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	factory, impl := c.deployFactory(payoutcontract.Create2PrefixEVM)
	newVault := newAccount(t).addr

	c.expectRevert(c.stranger, factory, factoryABI.PackSetVault(newVault), "NotOwner")
	c.expectRevert(c.executor, factory, factoryABI.PackSetSweeper(c.stranger.addr), "NotOwner")
	c.expectRevert(c.owner, factory, factoryABI.PackSetVault(common.Address{}), "ZeroAddress")
	c.mustSend(c.owner, factory, factoryABI.PackSetVault(newVault))
	c.mustSend(c.owner, factory, factoryABI.PackSetSweeper(c.stranger.addr))

	salt := payoutcontract.DepositSalt("admin")
	deposit := payoutcontract.DepositAddress(0xff, factory, impl, salt)
	c.mint(token, deposit, units(2))
	c.expectRevert(c.executor, factory, factoryABI.PackSweep(token, [][32]byte{salt}), "NotSweeper")
	c.mustSend(c.stranger, factory, factoryABI.PackSweep(token, [][32]byte{salt}))
	if got := c.balance(token, newVault); got.Cmp(units(2)) != 0 {
		t.Fatalf("new vault holds %v, want %v", got, units(2))
	}

	// Nobody but the factory can make a forwarder move funds.
	c.mint(token, deposit, units(1))
	c.expectRevert(c.stranger, deposit, fwdABI.PackFlush(token, c.stranger.addr), "NotFactory")
	c.expectRevert(c.stranger, impl, fwdABI.PackFlush(token, c.stranger.addr), "NotFactory")
}

// TestSweepRefusesFalseToken sweeps a token that answers false and keeps
// the funds: the forwarder must not report success.
func TestSweepRefusesFalseToken(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestFailingToken"]
	factory, impl := c.deployFactory(payoutcontract.Create2PrefixEVM)
	salt := payoutcontract.DepositSalt("failing")
	c.mint(token, payoutcontract.DepositAddress(0xff, factory, impl, salt), units(1))
	c.expectRevert(c.executor, factory, factoryABI.PackSweep(token, [][32]byte{salt}), "TransferNotVerified")
}

// TestTronPrefixFactoryOnEVM shows the prefix matters: a factory set up
// for TRON computes addresses an EVM chain's CREATE2 does not produce, and
// refuses to sweep rather than deploy to an unexpected address.
func TestTronPrefixFactoryOnEVM(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	factory, impl := c.deployFactory(payoutcontract.Create2PrefixTRON)
	salt := payoutcontract.DepositSalt("tron")
	c.mint(token, payoutcontract.DepositAddress(0x41, factory, impl, salt), units(1))
	c.expectRevert(c.executor, factory, factoryABI.PackSweep(token, [][32]byte{salt}), "DeployFailed")
}
