package check

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	mrand "math/rand/v2"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/sandbox"
)

// BatchSize is the number of recipients of the check's payout batches.
const BatchSize = 100

// batchFee is the totalFee of the check's batches: 0.50 tokens.
var batchFee = big.NewInt(500_000)

// tronEnergyLimit bounds the energy of a TRON payout batch. A transfer
// costs some 30,000 energy; the default fee limit of the client (100 TRX)
// buys too little for 100 of them at the stand-in's price.
const tronEnergyLimit = 10_000_000

// newBatch is a batch of count fresh random recipients paid 1.00 to 2.00
// each, with a fresh nonce and the chain head's time.
func (n *network) newBatch(ctx context.Context, symbol string, count int) (payoutcontract.Batch, error) {
	tk, err := n.token(symbol)
	if err != nil {
		return payoutcontract.Batch{}, err
	}
	ta, err := address.Parse(n.chain, tk)
	if err != nil {
		return payoutcontract.Batch{}, err
	}
	head, err := n.read.Head(ctx)
	if err != nil {
		return payoutcontract.Batch{}, err
	}
	nonce := make([]byte, 16)
	rand.Read(nonce)
	b := payoutcontract.Batch{Token: ta, TotalFee: new(big.Int).Set(batchFee),
		Nonce: new(big.Int).SetBytes(nonce), Timestamp: uint64(head.Time.Unix())}
	for range count {
		b.Recipients = append(b.Recipients, randomAddress())
		b.Amounts = append(b.Amounts, big.NewInt(1_000_000+10_000*mrand.Int64N(101)))
	}
	return b, nil
}

func (n *network) domain() (payoutcontract.Domain, error) {
	a, err := address.Parse(n.chain, n.info.PayoutContract)
	return payoutcontract.Domain{ChainID: new(big.Int).SetUint64(n.info.ChainID), Contract: a}, err
}

// balanceCall is the payoutWithBalance call of b signed by signer.
func (n *network) balanceCall(b payoutcontract.Batch, signer *sandbox.Wallet) (cashier.Call, error) {
	return n.signedCall(payoutcontract.BalancePayout{Batch: b}, signer)
}

// allowanceCall is the payoutWithAllowance call of b from the wallet from,
// signed by signer.
func (n *network) allowanceCall(b payoutcontract.Batch, from, signer *sandbox.Wallet) (cashier.Call, error) {
	return n.signedCall(payoutcontract.AllowancePayout{Batch: b, From: common.HexToAddress(from.EVMAddress)}, signer)
}

// payout is a payout of either mode (payoutcontract.BalancePayout,
// AllowancePayout).
type payout interface {
	Digest(payoutcontract.Domain) common.Hash
	CallData(sig []byte) ([]byte, error)
}

// signedCall is the payout contract's call of p, signed by signer.
func (n *network) signedCall(p payout, signer *sandbox.Wallet) (cashier.Call, error) {
	d, err := n.domain()
	if err != nil {
		return cashier.Call{}, err
	}
	sig, err := payoutcontract.Sign(p.Digest(d), signer.MustKey())
	if err != nil {
		return cashier.Call{}, err
	}
	data, err := p.CallData(sig)
	return n.payoutCall(data), err
}

func (n *network) payoutCall(data []byte) cashier.Call {
	c := cashier.Call{To: n.info.PayoutContract, Data: data}
	if n.chain == cashier.ChainTRON {
		c.GasLimit = tronEnergyLimit
	}
	return c
}

// balanceBatch pays 100 fresh recipients from the ETH payout contract's
// balance, as the executor.
func (r *run) balanceBatch(ctx context.Context) error {
	n := r.nets[cashier.ChainETH]
	b, err := n.newBatch(ctx, "USDT", BatchSize)
	if err != nil {
		return err
	}
	call, err := n.balanceCall(b, r.info.Roles["signer"])
	if err != nil {
		return err
	}
	if err := r.payBatch(ctx, n, b, payoutcontract.ModeBalance, n.info.PayoutContract, call); err != nil {
		return err
	}
	r.lastBatch = call
	return nil
}

// allowanceBatch pays 100 fresh recipients on TRON from the allowance
// wallet, which approved the payout contract, as the executor.
func (r *run) allowanceBatch(ctx context.Context) error {
	n := r.nets[cashier.ChainTRON]
	b, err := n.newBatch(ctx, "USDT", BatchSize)
	if err != nil {
		return err
	}
	from := r.info.Wallets["allowance"]
	call, err := n.allowanceCall(b, from, r.info.Roles["signer"])
	if err != nil {
		return err
	}
	return r.payBatch(ctx, n, b, payoutcontract.ModeAllowance, n.walletAddr(from), call)
}

// payBatch sends call as the executor and checks its outcome: the receipt
// succeeded, every recipient holds its amount, the fee address got
// totalFee, the source paid the sum of both, and the events map nonce and
// index to each recipient.
func (r *run) payBatch(ctx context.Context, n *network, b payoutcontract.Batch, mode payoutcontract.Mode, source string, call cashier.Call) error {
	tk := address.Format(n.chain, b.Token)
	fee := n.walletAddr(r.info.Roles["fee"])
	srcBefore, err := n.balance(ctx, tk, source)
	if err != nil {
		return err
	}
	feeBefore, err := n.balance(ctx, tk, fee)
	if err != nil {
		return err
	}
	executor := r.info.Roles["executor"]
	rc, err := n.send(ctx, executor, call)
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	if !rc.Success {
		return fmt.Errorf("batch %s failed on chain", rc.TxHash)
	}
	for i, to := range b.Recipients {
		if err := n.expectBalance(ctx, tk, address.Format(n.chain, to), b.Amounts[i]); err != nil {
			return fmt.Errorf("recipient %d: %w", i, err)
		}
		r.rec.Paid = append(r.rec.Paid, Holding{Chain: string(n.chain), Token: tk, Holder: address.Format(n.chain, to), Amount: b.Amounts[i].String()})
	}
	paid := new(big.Int).Add(b.Total(), b.TotalFee)
	// The running service may pay its own payouts' fees to the same
	// address meanwhile: the batch's share is read from its own Transfer
	// events, and the balance must hold at least that much more.
	if got := transferredTo(rc.Logs, b.Token, fee, n); got.Cmp(b.TotalFee) != 0 {
		return fmt.Errorf("fee address: the batch's transfers to it add up to %s base units, want %s", got, b.TotalFee)
	}
	if bal, err := n.balance(ctx, tk, fee); err != nil {
		return err
	} else if bal.Cmp(new(big.Int).Add(feeBefore, b.TotalFee)) < 0 {
		return fmt.Errorf("fee address: holds %s base units, want at least %s", bal, new(big.Int).Add(feeBefore, b.TotalFee))
	}
	if err := n.expectBalance(ctx, tk, source, new(big.Int).Sub(srcBefore, paid)); err != nil {
		return fmt.Errorf("source: %w", err)
	}

	ev, err := payoutcontract.DecodeLogs(n.info.PayoutContract, rc.Logs)
	if err != nil {
		return fmt.Errorf("decode events: %w", err)
	}
	type key struct {
		nonce string
		index uint64
	}
	byKey := map[key]payoutcontract.TransferEvent{}
	for _, t := range ev.Transfers {
		if !sameAddress(t.Contract, n.info.PayoutContract) {
			return fmt.Errorf("PayoutTransfer emitted by %s", t.Contract)
		}
		byKey[key{t.Nonce.String(), t.Index}] = t
	}
	if len(ev.Transfers) != len(b.Recipients) || len(byKey) != len(b.Recipients) {
		return fmt.Errorf("%d PayoutTransfer events (%d distinct), want %d", len(ev.Transfers), len(byKey), len(b.Recipients))
	}
	for i, to := range b.Recipients {
		t, ok := byKey[key{b.Nonce.String(), uint64(i)}]
		if !ok {
			return fmt.Errorf("no PayoutTransfer for nonce %s index %d", b.Nonce, i)
		}
		if t.Recipient != to || t.Amount.Cmp(b.Amounts[i]) != 0 {
			return fmt.Errorf("PayoutTransfer %d: %s gets %s, want %s gets %s", i, t.Recipient, t.Amount, to, b.Amounts[i])
		}
	}
	if len(ev.Batches) != 1 {
		return fmt.Errorf("%d batch events, want 1", len(ev.Batches))
	}
	e := ev.Batches[0]
	var from common.Address
	if mode == payoutcontract.ModeAllowance {
		from = common.HexToAddress(r.info.Wallets["allowance"].EVMAddress)
	}
	switch {
	case e.Mode != mode || e.Token != b.Token || e.From != from:
		return fmt.Errorf("batch event mode %d token %s from %s", e.Mode, e.Token, e.From)
	case e.TotalAmount.Cmp(b.Total()) != 0 || e.TotalFee.Cmp(b.TotalFee) != 0 || e.RecipientCount != uint64(len(b.Recipients)):
		return fmt.Errorf("batch event total %s fee %s count %d", e.TotalAmount, e.TotalFee, e.RecipientCount)
	case e.Nonce.Cmp(b.Nonce) != 0 || e.Timestamp != b.Timestamp:
		return fmt.Errorf("batch event nonce %s timestamp %d", e.Nonce, e.Timestamp)
	case e.Operator != common.HexToAddress(executor.EVMAddress):
		return fmt.Errorf("batch event operator %s, want the executor", e.Operator)
	}
	return nil
}

// replayedNonce sends the balance-mode batch again, unchanged: first as the
// client would (it refuses in the pre-flight), then forced onto the chain
// with a fixed gas limit, where the contract itself must refuse it.
func (r *run) replayedNonce(ctx context.Context) error {
	n := r.nets[cashier.ChainETH]
	if r.lastBatch.Data == nil {
		return errors.New("no balance-mode batch to replay")
	}
	watch, err := r.watch(ctx, n, "USDT", n.info.PayoutContract)
	if err != nil {
		return err
	}
	if err := r.refused(ctx, n, r.info.Roles["executor"], r.lastBatch, "NonceUsed", watch); err != nil {
		return err
	}
	forced := r.lastBatch
	forced.GasLimit = 8_000_000
	rc, err := n.send(ctx, r.info.Roles["executor"], forced)
	if err != nil {
		return fmt.Errorf("forced replay: %w", err)
	}
	if rc.Success {
		return fmt.Errorf("forced replay %s succeeded on chain", rc.TxHash)
	}
	return watch.unchanged(ctx)
}

// wrongSigner sends a batch signed by the customer's key.
func (r *run) wrongSigner(ctx context.Context) error {
	return r.refusedBatch(ctx, r.info.Wallets["customer"], r.info.Roles["executor"], "InvalidSignature")
}

// notExecutor sends a correctly signed batch from the customer's account.
func (r *run) notExecutor(ctx context.Context) error {
	return r.refusedBatch(ctx, r.info.Roles["signer"], r.info.Wallets["customer"], "NotExecutor")
}

// refusedBatch sends a balance-mode batch of 3 on ETH signed by signer,
// from sender, and wants it refused with reason and no balance moved.
func (r *run) refusedBatch(ctx context.Context, signer, sender *sandbox.Wallet, reason string) error {
	n := r.nets[cashier.ChainETH]
	b, err := n.newBatch(ctx, "USDT", 3)
	if err != nil {
		return err
	}
	call, err := n.balanceCall(b, signer)
	if err != nil {
		return err
	}
	watch, err := r.watch(ctx, n, "USDT", n.info.PayoutContract)
	if err != nil {
		return err
	}
	return r.refused(ctx, n, sender, call, reason, watch)
}

// contractShort asks the ETH contract, in balance mode, for one base unit
// more than it holds.
func (r *run) contractShort(ctx context.Context) error {
	n := r.nets[cashier.ChainETH]
	watch, err := r.watch(ctx, n, "USDC", n.info.PayoutContract)
	if err != nil {
		return err
	}
	b, err := n.newBatch(ctx, "USDC", 1)
	if err != nil {
		return err
	}
	b.TotalFee = new(big.Int)
	b.Amounts[0] = new(big.Int).Add(watch.before[0], big.NewInt(1))
	call, err := n.balanceCall(b, r.info.Roles["signer"])
	if err != nil {
		return err
	}
	return r.refused(ctx, n, r.info.Roles["executor"], call, "InsufficientContractBalance", watch)
}

// walletShort asks, in allowance mode on TRON, for one base unit more than
// the allowance wallet holds (its allowance is unlimited).
func (r *run) walletShort(ctx context.Context) error {
	n := r.nets[cashier.ChainTRON]
	from := r.info.Wallets["allowance"]
	watch, err := r.watch(ctx, n, "USDT", n.walletAddr(from))
	if err != nil {
		return err
	}
	b, err := n.newBatch(ctx, "USDT", 1)
	if err != nil {
		return err
	}
	b.TotalFee = new(big.Int)
	b.Amounts[0] = new(big.Int).Add(watch.before[0], big.NewInt(1))
	call, err := n.allowanceCall(b, from, r.info.Roles["signer"])
	if err != nil {
		return err
	}
	return r.refused(ctx, n, r.info.Roles["executor"], call, "InsufficientFromBalance", watch)
}

// refused sends call as from and requires the client to refuse it with the
// payout contract's custom error want, and the watched balances to stay.
func (r *run) refused(ctx context.Context, n *network, from *sandbox.Wallet, call cashier.Call, want string, watch *watched) error {
	c, err := n.sender(from)
	if err != nil {
		return err
	}
	h, err := c.SendCall(ctx, call)
	if err == nil {
		rc, werr := n.wait(ctx, h)
		if werr != nil {
			return fmt.Errorf("sent as %s, want refused with %s: %w", h, want, werr)
		}
		return fmt.Errorf("sent as %s (success %v), want refused with %s before sending", h, rc.Success, want)
	}
	rev, ok := payoutcontract.RevertOf(err)
	if !ok {
		return fmt.Errorf("refused without decodable revert data (want %s): %v", want, err)
	}
	if rev.Name != want {
		return fmt.Errorf("refused with %s %v, want %s", rev.Name, rev.Args, want)
	}
	return watch.unchanged(ctx)
}

// watched are token balances that a refused call must leave alone.
type watched struct {
	n       *network
	token   string
	holders []string
	before  []*big.Int
}

// watch reads the balances of token held by holders and by the fee address.
func (r *run) watch(ctx context.Context, n *network, symbol string, holders ...string) (*watched, error) {
	tk, err := n.token(symbol)
	if err != nil {
		return nil, err
	}
	w := &watched{n: n, token: tk, holders: append(holders, n.walletAddr(r.info.Roles["fee"]))}
	for _, h := range w.holders {
		b, err := n.balance(ctx, tk, h)
		if err != nil {
			return nil, err
		}
		w.before = append(w.before, b)
	}
	return w, nil
}

func (w *watched) unchanged(ctx context.Context) error {
	for i, h := range w.holders {
		if err := w.n.expectBalance(ctx, w.token, h, w.before[i]); err != nil {
			return fmt.Errorf("balance changed: %w", err)
		}
	}
	return nil
}

// transferTopic is the ERC-20 Transfer event's signature hash.
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// transferredTo sums the token's Transfer events to holder in logs.
func transferredTo(logs []cashier.Log, token common.Address, holder string, n *network) *big.Int {
	sum := new(big.Int)
	for _, l := range logs {
		a, err := address.Parse(n.chain, l.Address)
		if err != nil || a != token || len(l.Topics) != 3 || l.Topics[0] != transferTopic {
			continue
		}
		if address.Format(n.chain, common.BytesToAddress(l.Topics[2][12:])) == holder {
			sum.Add(sum, new(big.Int).SetBytes(l.Data))
		}
	}
	return sum
}
