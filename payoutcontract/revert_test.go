package payoutcontract_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier/payoutcontract"
)

// TestBalanceModeReverts drives payoutWithBalance into every refusal. The
// contract holds plenty of tokens, so only the named fault can trigger.
func TestBalanceModeReverts(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	c.mint(token, c.payout, units(1_000_000))

	signed := func(b payoutcontract.Batch) []byte {
		return c.balanceCall(payoutcontract.BalancePayout{Batch: b}, c.signer.key)
	}
	withSig := func(b payoutcontract.Batch, mutate func(sig []byte) []byte) []byte {
		p := payoutcontract.BalancePayout{Batch: b}
		sig, err := payoutcontract.Sign(p.Digest(c.domain()), c.signer.key)
		if err != nil {
			t.Fatal(err)
		}
		return rawBalanceCall(p, mutate(sig))
	}
	signedFor := func(b payoutcontract.Batch, d payoutcontract.Domain) []byte {
		p := payoutcontract.BalancePayout{Batch: b}
		sig, err := payoutcontract.Sign(p.Digest(d), c.signer.key)
		if err != nil {
			t.Fatal(err)
		}
		return rawBalanceCall(p, sig)
	}

	cases := []struct {
		name string
		from account
		data func() []byte
		want string
	}{
		{"stranger calls", c.stranger, func() []byte { return signed(c.batch(token, 2)) }, "NotExecutor"},
		{"owner calls", c.owner, func() []byte { return signed(c.batch(token, 2)) }, "NotExecutor"},
		{"signer calls", c.signer, func() []byte { return signed(c.batch(token, 2)) }, "NotExecutor"},
		{"wrong signer", c.executor, func() []byte {
			return c.balanceCall(payoutcontract.BalancePayout{Batch: c.batch(token, 2)}, c.stranger.key)
		}, "InvalidSignature"},
		{"amount changed after signing", c.executor, func() []byte {
			b := c.batch(token, 2)
			p := payoutcontract.BalancePayout{Batch: b}
			sig := mustSign(t, p.Digest(c.domain()), c)
			b.Amounts[1] = units(1000)
			return rawBalanceCall(payoutcontract.BalancePayout{Batch: b}, sig)
		}, "InvalidSignature"},
		{"recipient changed after signing", c.executor, func() []byte {
			b := c.batch(token, 2)
			sig := mustSign(t, payoutcontract.BalancePayout{Batch: b}.Digest(c.domain()), c)
			b.Recipients[0] = c.stranger.addr
			return rawBalanceCall(payoutcontract.BalancePayout{Batch: b}, sig)
		}, "InvalidSignature"},
		{"fee changed after signing", c.executor, func() []byte {
			b := c.batch(token, 2)
			sig := mustSign(t, payoutcontract.BalancePayout{Batch: b}.Digest(c.domain()), c)
			b.TotalFee = big.NewInt(0)
			return rawBalanceCall(payoutcontract.BalancePayout{Batch: b}, sig)
		}, "InvalidSignature"},
		{"token changed after signing", c.executor, func() []byte {
			b := c.batch(token, 2)
			sig := mustSign(t, payoutcontract.BalancePayout{Batch: b}.Digest(c.domain()), c)
			b.Token = c.tokens["TestUSDT"]
			return rawBalanceCall(payoutcontract.BalancePayout{Batch: b}, sig)
		}, "InvalidSignature"},
		{"signed for another chain", c.executor, func() []byte {
			return signedFor(c.batch(token, 2), payoutcontract.Domain{ChainID: big.NewInt(1), Contract: c.payout})
		}, "InvalidSignature"},
		{"signed for another contract", c.executor, func() []byte {
			return signedFor(c.batch(token, 2), payoutcontract.Domain{ChainID: c.chainID, Contract: token})
		}, "InvalidSignature"},
		{"allowance signature on balance call", c.executor, func() []byte {
			b := c.batch(token, 2)
			sig := mustSign(t, payoutcontract.AllowancePayout{Batch: b}.Digest(c.domain()), c)
			return rawBalanceCall(payoutcontract.BalancePayout{Batch: b}, sig)
		}, "InvalidSignature"},
		{"short signature", c.executor, func() []byte {
			return withSig(c.batch(token, 2), func(sig []byte) []byte { return sig[:64] })
		}, "InvalidSignature"},
		{"v of 0", c.executor, func() []byte {
			return withSig(c.batch(token, 2), func(sig []byte) []byte { sig[64] -= 27; return sig })
		}, "InvalidSignature"},
		{"high s twin", c.executor, func() []byte {
			return withSig(c.batch(token, 2), func(sig []byte) []byte {
				// (r, n-s, v^1) recovers the same key; the contract refuses it.
				s := new(big.Int).SetBytes(sig[32:64])
				s.Sub(crypto.S256().Params().N, s)
				copy(sig[32:64], common.LeftPadBytes(s.Bytes(), 32))
				sig[64] ^= 1
				return sig
			})
		}, "InvalidSignature"},
		{"expired timestamp", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Timestamp -= 11 * 60
			return signed(b)
		}, "SignatureExpired"},
		{"future timestamp", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Timestamp += 120
			return signed(b)
		}, "TimestampInFuture"},
		{"length mismatch", c.executor, func() []byte {
			b := c.batch(token, 3)
			b.Amounts = b.Amounts[:2]
			return signed(b)
		}, "LengthMismatch"},
		{"empty batch", c.executor, func() []byte { return signed(c.batch(token, 0)) }, "EmptyBatch"},
		{"201 recipients", c.executor, func() []byte { return signed(c.batch(token, 201)) }, "TooManyRecipients"},
		{"zero recipient", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Recipients[1] = common.Address{}
			return signed(b)
		}, "InvalidRecipient"},
		{"contract as recipient", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Recipients[0] = c.payout
			return signed(b)
		}, "InvalidRecipient"},
		{"zero amount", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Amounts[0] = big.NewInt(0)
			return signed(b)
		}, "ZeroAmount"},
		{"more than the contract holds", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Amounts[0] = units(1_000_000)
			return signed(b)
		}, "InsufficientContractBalance"},
		{"fee beyond the balance", c.executor, func() []byte {
			b := c.batch(token, 1)
			b.TotalFee = units(1_000_000)
			return signed(b)
		}, "InsufficientContractBalance"},
		{"token without code", c.executor, func() []byte { return signed(c.batch(c.stranger.addr, 1)) },
			"TokenNotContract"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := c.as(t)
			c.expectRevert(tc.from, c.payout, tc.data(), tc.want)
		})
	}

	t.Run("replayed nonce", func(t *testing.T) {
		c := c.as(t)
		b := c.batch(token, 2)
		c.mustSend(c.executor, c.payout, signed(b))
		used, err := payoutABI.UnpackNonceUsed(c.call(c.payout, payoutABI.PackNonceUsed(b.Nonce)))
		if err != nil || !used {
			t.Fatalf("nonce %v not marked used (%v)", b.Nonce, err)
		}
		c.expectRevert(c.executor, c.payout, signed(b), "NonceUsed")
		// A fresh batch under the same nonce is refused just the same.
		again := c.batch(token, 1)
		again.Nonce = b.Nonce
		c.expectRevert(c.executor, c.payout, signed(again), "NonceUsed")
	})
	t.Run("timestamps inside the window pass", func(t *testing.T) {
		c := c.as(t)
		old := c.batch(token, 1)
		old.Timestamp -= 9 * 60
		c.mustSend(c.executor, c.payout, signed(old))
		ahead := c.batch(token, 1)
		ahead.Timestamp += 30
		c.mustSend(c.executor, c.payout, signed(ahead))
	})
	t.Run("zero fee sends no fee transfer", func(t *testing.T) {
		c := c.as(t)
		b := c.batch(token, 1)
		b.TotalFee = big.NewInt(0)
		before := c.balance(token, c.fee.addr)
		c.mustSend(c.executor, c.payout, signed(b))
		if got := c.balance(token, c.fee.addr); got.Cmp(before) != 0 {
			t.Fatalf("fee address balance moved from %v to %v", before, got)
		}
	})
}

// TestAllowanceModeReverts covers the refusals specific to allowance mode;
// the shared checks (signature, nonce, time, shape) run the same code and
// are spot-checked here.
func TestAllowanceModeReverts(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	c.mint(token, c.holder.addr, units(1_000))
	c.approve(c.holder, token, c.payout, units(500))
	// stranger approves everything but holds nothing.
	c.approve(c.stranger, token, c.payout, units(1_000_000))

	call := func(b payoutcontract.Batch, from common.Address) []byte {
		return c.allowanceCall(payoutcontract.AllowancePayout{Batch: b, From: from}, c.signer.key)
	}
	cases := []struct {
		name   string
		sender account
		data   func() []byte
		want   string
	}{
		{"stranger calls", c.stranger, func() []byte { return call(c.batch(token, 1), c.holder.addr) }, "NotExecutor"},
		{"wrong signer", c.executor, func() []byte {
			return c.allowanceCall(payoutcontract.AllowancePayout{Batch: c.batch(token, 1), From: c.holder.addr},
				c.stranger.key)
		}, "InvalidSignature"},
		{"from changed after signing", c.executor, func() []byte {
			b := c.batch(token, 1)
			sig := mustSign(t, payoutcontract.AllowancePayout{Batch: b, From: c.holder.addr}.Digest(c.domain()), c)
			return rawAllowanceCall(payoutcontract.AllowancePayout{Batch: b, From: c.stranger.addr}, sig)
		}, "InvalidSignature"},
		{"balance signature on allowance call", c.executor, func() []byte {
			b := c.batch(token, 1)
			sig := mustSign(t, payoutcontract.BalancePayout{Batch: b}.Digest(c.domain()), c)
			return rawAllowanceCall(payoutcontract.AllowancePayout{Batch: b, From: c.holder.addr}, sig)
		}, "InvalidSignature"},
		{"expired timestamp", c.executor, func() []byte {
			b := c.batch(token, 1)
			b.Timestamp -= 3600
			return call(b, c.holder.addr)
		}, "SignatureExpired"},
		{"length mismatch", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Recipients = b.Recipients[:1]
			return call(b, c.holder.addr)
		}, "LengthMismatch"},
		{"allowance too small", c.executor, func() []byte {
			b := c.batch(token, 1)
			b.Amounts[0] = units(600)
			return call(b, c.holder.addr)
		}, "InsufficientAllowance"},
		{"fee pushes past the allowance", c.executor, func() []byte {
			b := c.batch(token, 1)
			b.Amounts[0] = units(500)
			return call(b, c.holder.addr)
		}, "InsufficientAllowance"},
		{"from holds too little", c.executor, func() []byte { return call(c.batch(token, 1), c.stranger.addr) },
			"InsufficientFromBalance"},
		{"zero from", c.executor, func() []byte { return call(c.batch(token, 1), common.Address{}) }, "InvalidFrom"},
		{"contract as from", c.executor, func() []byte { return call(c.batch(token, 1), c.payout) }, "InvalidFrom"},
		{"fee address as from", c.executor, func() []byte { return call(c.batch(token, 1), c.fee.addr) }, "InvalidFrom"},
		{"from as recipient", c.executor, func() []byte {
			b := c.batch(token, 2)
			b.Recipients[1] = c.holder.addr
			return call(b, c.holder.addr)
		}, "InvalidRecipient"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := c.as(t)
			c.expectRevert(tc.sender, c.payout, tc.data(), tc.want)
		})
	}

	t.Run("replayed nonce across modes", func(t *testing.T) {
		c := c.as(t)
		c.mint(token, c.payout, units(100))
		b := c.batch(token, 1)
		c.mustSend(c.executor, c.payout, call(b, c.holder.addr))
		// Nonces are shared by both modes: a balance payout cannot reuse it.
		c.expectRevert(c.executor, c.payout,
			c.balanceCall(payoutcontract.BalancePayout{Batch: b}, c.signer.key), "NonceUsed")
	})
}

// TestWhitelist checks the per-mode recipient whitelist: off by default,
// and when on it refuses exactly the recipients not on the list.
func TestWhitelist(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	c.mint(token, c.payout, units(1_000))
	c.mint(token, c.holder.addr, units(1_000))
	c.approve(c.holder, token, c.payout, units(1_000))
	listed := newAccount(t).addr

	balanceTo := func(r common.Address) []byte {
		b := c.batch(token, 1)
		b.Recipients[0] = r
		return c.balanceCall(payoutcontract.BalancePayout{Batch: b}, c.signer.key)
	}
	allowanceTo := func(r common.Address) []byte {
		b := c.batch(token, 1)
		b.Recipients[0] = r
		return c.allowanceCall(payoutcontract.AllowancePayout{Batch: b, From: c.holder.addr}, c.signer.key)
	}
	unlisted := func() common.Address { return newAccount(t).addr }

	// Off by default in both modes.
	c.mustSend(c.executor, c.payout, balanceTo(unlisted()))
	c.mustSend(c.executor, c.payout, allowanceTo(unlisted()))

	c.mustSend(c.owner, c.payout, payoutABI.PackAddToWhitelist([]common.Address{listed}))
	c.mustSend(c.owner, c.payout, payoutABI.PackSetWhitelistMode(true, false))
	c.expectRevert(c.executor, c.payout, balanceTo(unlisted()), "RecipientNotWhitelisted")
	c.mustSend(c.executor, c.payout, balanceTo(listed))
	// Allowance payouts are not bound by the balance-mode whitelist.
	c.mustSend(c.executor, c.payout, allowanceTo(unlisted()))

	c.mustSend(c.owner, c.payout, payoutABI.PackSetWhitelistMode(true, true))
	c.expectRevert(c.executor, c.payout, allowanceTo(unlisted()), "RecipientNotWhitelisted")
	c.mustSend(c.executor, c.payout, allowanceTo(listed))

	c.mustSend(c.owner, c.payout, payoutABI.PackRemoveFromWhitelist([]common.Address{listed}))
	c.expectRevert(c.executor, c.payout, balanceTo(listed), "RecipientNotWhitelisted")
	c.expectRevert(c.executor, c.payout, allowanceTo(listed), "RecipientNotWhitelisted")

	c.mustSend(c.owner, c.payout, payoutABI.PackSetWhitelistMode(false, false))
	c.mustSend(c.executor, c.payout, balanceTo(listed))
}
