package payoutcontract_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/stablecashier/cashier/payoutcontract"
)

// TestDigestMatchesContract checks the Go EIP-712 digests against the
// contract's own view functions.
func TestDigestMatchesContract(t *testing.T) {
	c := newChain(t)
	b := c.batch(c.tokens["TestUSDC"], 3)

	sep, err := payoutABI.UnpackDomainSeparator(c.call(c.payout, payoutABI.PackDomainSeparator()))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.domain().Separator(); got != common.Hash(sep) {
		t.Fatalf("domain separator: go %x, contract %x", got, sep)
	}

	ts := new(big.Int).SetUint64(b.Timestamp)
	onChain, err := payoutABI.UnpackBalancePayoutDigest(c.call(c.payout,
		payoutABI.PackBalancePayoutDigest(b.Token, b.Recipients, b.Amounts, b.TotalFee, b.Nonce, ts)))
	if err != nil {
		t.Fatal(err)
	}
	if got := (payoutcontract.BalancePayout{Batch: b}).Digest(c.domain()); got != common.Hash(onChain) {
		t.Fatalf("balance digest: go %x, contract %x", got, onChain)
	}

	onChain, err = payoutABI.UnpackAllowancePayoutDigest(c.call(c.payout,
		payoutABI.PackAllowancePayoutDigest(b.Token, c.holder.addr, b.Recipients, b.Amounts, b.TotalFee, b.Nonce, ts)))
	if err != nil {
		t.Fatal(err)
	}
	ap := payoutcontract.AllowancePayout{Batch: b, From: c.holder.addr}
	if got := ap.Digest(c.domain()); got != common.Hash(onChain) {
		t.Fatalf("allowance digest: go %x, contract %x", got, onChain)
	}
}

// TestPayoutBatches pays 100 recipients in each mode with each token kind
// and checks every balance and every event.
func TestPayoutBatches(t *testing.T) {
	c := newChain(t)
	for _, kind := range tokenKinds {
		token := c.tokens[kind]
		t.Run(kind+"/balance", func(t *testing.T) {
			c := c.as(t)
			b := c.batch(token, 100)
			need := sum(b.Total(), b.TotalFee)
			c.mint(token, c.payout, sum(need, units(5))) // 5 tokens stay behind
			feeBefore := c.balance(token, c.fee.addr)

			p := payoutcontract.BalancePayout{Batch: b}
			data, err := p.CallData(mustSign(t, p.Digest(c.domain()), c))
			if err != nil {
				t.Fatal(err)
			}
			rcpt := c.mustSend(c.executor, c.payout, data)

			checkRecipients(t, c, b)
			if got := c.balance(token, c.payout); got.Cmp(units(5)) != 0 {
				t.Fatalf("contract keeps %v, want %v", got, units(5))
			}
			if got := new(big.Int).Sub(c.balance(token, c.fee.addr), feeBefore); got.Cmp(b.TotalFee) != 0 {
				t.Fatalf("fee address received %v, want %v", got, b.TotalFee)
			}
			checkEvents(t, c, rcpt, b, payoutcontract.ModeBalance, common.Address{})
		})
		t.Run(kind+"/allowance", func(t *testing.T) {
			c := c.as(t)
			b := c.batch(token, 100)
			need := sum(b.Total(), b.TotalFee)
			c.mint(token, c.holder.addr, sum(need, units(7)))
			c.approve(c.holder, token, c.payout, need)
			feeBefore := c.balance(token, c.fee.addr)
			contractBefore := c.balance(token, c.payout)

			p := payoutcontract.AllowancePayout{Batch: b, From: c.holder.addr}
			data, err := p.CallData(mustSign(t, p.Digest(c.domain()), c))
			if err != nil {
				t.Fatal(err)
			}
			rcpt := c.mustSend(c.executor, c.payout, data)

			checkRecipients(t, c, b)
			if got := c.balance(token, c.holder.addr); got.Cmp(units(7)) != 0 {
				t.Fatalf("from keeps %v, want %v", got, units(7))
			}
			if got := new(big.Int).Sub(c.balance(token, c.fee.addr), feeBefore); got.Cmp(b.TotalFee) != 0 {
				t.Fatalf("fee address received %v, want %v", got, b.TotalFee)
			}
			if got := c.balance(token, c.payout); got.Cmp(contractBefore) != 0 {
				t.Fatalf("contract balance moved in allowance mode: %v -> %v", contractBefore, got)
			}
			checkEvents(t, c, rcpt, b, payoutcontract.ModeAllowance, c.holder.addr)
		})
	}
}

// TestFalseReturningTokenIsCheckedByBalance shows why a false return value
// is not simply accepted: a token that answers false and moves nothing
// fails the balance-delta proof in both modes.
func TestFalseReturningTokenIsCheckedByBalance(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestFailingToken"]
	b := c.batch(token, 2)
	need := sum(b.Total(), b.TotalFee)
	c.mint(token, c.payout, need)
	c.expectRevert(c.executor, c.payout, c.balanceCall(payoutcontract.BalancePayout{Batch: b}, c.signer.key),
		"TransferNotVerified")

	c.mint(token, c.holder.addr, need)
	c.approve(c.holder, token, c.payout, need)
	b = c.batch(token, 2)
	c.expectRevert(c.executor, c.payout,
		c.allowanceCall(payoutcontract.AllowancePayout{Batch: b, From: c.holder.addr}, c.signer.key),
		"TransferNotVerified")
}

func mustSign(t *testing.T, digest common.Hash, c *chain) []byte {
	t.Helper()
	sig, err := payoutcontract.Sign(digest, c.signer.key)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func checkRecipients(t *testing.T, c *chain, b payoutcontract.Batch) {
	t.Helper()
	for i, r := range b.Recipients {
		if got := c.balance(b.Token, r); got.Cmp(b.Amounts[i]) != 0 {
			t.Fatalf("recipient %d holds %v, want %v", i, got, b.Amounts[i])
		}
	}
}

func checkEvents(t *testing.T, c *chain, rcpt *types.Receipt, b payoutcontract.Batch, mode payoutcontract.Mode, from common.Address) {
	t.Helper()
	ev := logsOf(c.payout, rcpt)
	if len(ev.Batches) != 1 {
		t.Fatalf("%d batch events, want 1", len(ev.Batches))
	}
	got := ev.Batches[0]
	if !eqAddr(got.Contract, c.payout.Hex()) || got.Mode != mode || got.Token != b.Token || got.From != from ||
		got.TotalAmount.Cmp(b.Total()) != 0 || got.TotalFee.Cmp(b.TotalFee) != 0 ||
		got.RecipientCount != uint64(len(b.Recipients)) || got.Nonce.Cmp(b.Nonce) != 0 ||
		got.Timestamp != b.Timestamp || got.Operator != c.executor.addr {
		t.Fatalf("batch event %+v does not match batch", got)
	}
	if len(ev.Transfers) != len(b.Recipients) {
		t.Fatalf("%d transfer events, want %d", len(ev.Transfers), len(b.Recipients))
	}
	for i, tr := range ev.Transfers {
		if !eqAddr(tr.Contract, c.payout.Hex()) || tr.Nonce.Cmp(b.Nonce) != 0 || tr.Index != uint64(i) ||
			tr.Recipient != b.Recipients[i] || tr.Amount.Cmp(b.Amounts[i]) != 0 {
			t.Fatalf("transfer event %d %+v does not match recipient %s amount %v", i, tr, b.Recipients[i], b.Amounts[i])
		}
	}
}

// TestEstimateHoldsInLaterBlocks sends a payout with the gas estimated in
// the block it was signed in, minutes of block time later: the contract's
// gas use must not depend on how old the signature is.
func TestEstimateHoldsInLaterBlocks(t *testing.T) {
	c := newChain(t)
	token := c.tokens["TestUSDC"]
	c.mint(token, c.payout, units(1_000))
	b := c.batch(token, 3)
	data := c.balanceCall(payoutcontract.BalancePayout{Batch: b}, c.signer.key)
	ctx := context.Background()
	gas, err := c.client.EstimateGas(ctx, ethereum.CallMsg{From: c.executor.addr, To: &c.payout, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.sim.AdjustTime(5 * time.Minute); err != nil {
		t.Fatal(err)
	}
	c.sim.Commit()
	_, err = c.client.CallContract(ctx, ethereum.CallMsg{From: c.executor.addr, To: &c.payout, Data: data, Gas: gas}, nil)
	if err != nil {
		t.Fatalf("payout with the gas estimated 5 minutes earlier (%d) fails: %v", gas, err)
	}
}
