package payoutexec

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
)

// resolve settles an execution whose send may exist unrecorded.
func (x *Executor) resolve(ctx context.Context, net *Network, e *cashier.PayoutExec) error {
	e.Ambiguous = true
	if found, err := x.findPaid(ctx, net, e); err != nil || found {
		return err
	}
	j, isJournaled := net.Client.(journaled)
	if isJournaled {
		if done, err := x.resolveJournaled(ctx, net, j, e); err != nil || done {
			return err
		}
	}
	expired, err := x.expired(ctx, net, e)
	if err != nil {
		return err
	}
	if expired {
		// Unused nonce, expired signature: nothing sent can pay any more.
		e.State, e.Ambiguous = cashier.ExecCreated, false
		return x.Orders.SaveExec(ctx, e)
	}
	// Send the same signed call again: if an earlier one is mined first,
	// this one is refused by the nonce and pays nothing.
	os, err := x.live(ctx, e)
	if err != nil {
		return err
	}
	call, err := x.signedCall(ctx, e, net, os)
	if err != nil {
		return err
	}
	var hash string
	if isJournaled {
		// Every journaled transaction provably expired unpaid: a new one,
		// journaled like the first.
		hash, err = x.sendJournaled(ctx, j, e, orderIDs(os), call)
	} else {
		hash, err = net.Client.SendCall(ctx, call)
	}
	if err != nil {
		e.LastError = err.Error()
		return x.Orders.SaveExec(ctx, e)
	}
	e.TxHashes, e.State = append(e.TxHashes, hash), cashier.ExecSent
	return x.Orders.SaveExec(ctx, e)
}

// findPaid asks the contract whether e's nonce is used and, if so, records
// the paying transaction (state sent) so confirm can settle it.
func (x *Executor) findPaid(ctx context.Context, net *Network, e *cashier.PayoutExec) (bool, error) {
	used, err := net.Client.ViewUint(ctx, e.Contract, payoutABI.PackNonceUsed(e.Nonce))
	if err != nil || used.Sign() == 0 {
		return false, err
	}
	h, err := net.Client.FindPayout(ctx, e.Contract, e.Nonce, e.StartBlock)
	if err != nil || h == "" {
		return true, err // used but not yet visible in logs: look again next round
	}
	if !slices.ContainsFunc(e.TxHashes, func(s string) bool { return strings.EqualFold(s, h) }) {
		e.TxHashes = append(e.TxHashes, h)
	}
	e.State = cashier.ExecSent
	return true, x.Orders.SaveExec(ctx, e)
}

// expired reports whether the chain's time is past e's signature window
// plus the margin.
func (x *Executor) expired(ctx context.Context, net *Network, e *cashier.PayoutExec) (bool, error) {
	if e.Timestamp == 0 {
		return true, nil // never signed
	}
	w, err := net.Client.ViewUint(ctx, e.Contract, payoutABI.PackSignatureWindow())
	if err != nil {
		return false, err
	}
	head, err := net.Client.Head(ctx)
	if err != nil {
		return false, err
	}
	deadline := time.Unix(e.Timestamp+w.Int64(), 0).Add(x.Config.ExpiryMargin)
	return head.Time.After(deadline), nil
}

// confirm follows a sent execution to SUCCESS.
func (x *Executor) confirm(ctx context.Context, net *Network, e *cashier.PayoutExec) error {
	failed := 0
	for _, h := range slices.Backward(e.TxHashes) {
		r, err := net.Client.Receipt(ctx, h)
		if err != nil {
			return err
		}
		if r == nil {
			continue
		}
		if !r.Success {
			failed++
			continue
		}
		dec, err := payoutcontract.DecodeLogs(e.Contract, r.Logs)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(dec.Batches, func(b payoutcontract.BatchEvent) bool { return b.Nonce.Cmp(e.Nonce) == 0 }) {
			continue
		}
		head, err := net.Client.Head(ctx)
		if err != nil {
			return err
		}
		if head.Number < r.BlockNumber || head.Number-r.BlockNumber+1 < net.Confirmations {
			return nil // not deep enough yet
		}
		b, err := net.Client.BlockByNumber(ctx, r.BlockNumber)
		if err != nil {
			return err
		}
		if !strings.EqualFold(b.Hash, r.BlockHash) {
			return nil // reorged out; the sender broadcasts it again
		}
		return x.paid(ctx, net, e, r, b.Time)
	}
	if found, err := x.findPaid(ctx, net, e); err != nil || found {
		return err
	}
	if _, ok := net.Client.(journaled); ok && failed == 0 {
		// A journaled transaction that provably expired outside every
		// block never pays: resolve signs a new one (same contract nonce).
		s, _, err := x.pendingSend(ctx, net, e)
		if err != nil {
			return err
		}
		if s == nil {
			e.State, e.Ambiguous = cashier.ExecSending, true
			return x.Orders.SaveExec(ctx, e)
		}
	}
	if failed == len(e.TxHashes) && failed > 0 && !e.Ambiguous {
		// Every transaction of the execution failed and none other exists:
		// back to created; the next pre-flight tells why.
		e.State, e.LastError = cashier.ExecCreated, fmt.Sprintf("transaction %s failed on chain", e.TxHashes[len(e.TxHashes)-1])
		return x.Orders.SaveExec(ctx, e)
	}
	expired, err := x.expired(ctx, net, e)
	if err != nil || !expired {
		return err
	}
	e.State, e.Ambiguous = cashier.ExecCreated, false
	return x.Orders.SaveExec(ctx, e)
}

// paid settles every order of e SUCCESS with the transaction and its share
// of the gas; blockTime is the time of the receipt's block.
func (x *Executor) paid(ctx context.Context, net *Network, e *cashier.PayoutExec, r *cashier.Receipt, blockTime time.Time) error {
	os, err := x.live(ctx, e)
	if err != nil {
		return err
	}
	spent := GasShares(r.Fee, os, net.CoinDecimals)
	out := orders.ExecOutcome{Paid: true, TxID: r.TxHash, Block: r.BlockNumber, BlockTime: blockTime, GasShares: spent}
	charged, err := chargedGas(e, r, os)
	if err != nil {
		return err
	}
	if len(os) > 0 && (charged.Sign() > 0 || net.GasPrice != nil) {
		// fee+gas: gasAmount is the token the contract deducted for gas,
		// read from the paying batch itself.
		out.GasShares, out.GasSpent = GasShares(charged, os, os[0].Decimals), spent
	}
	e.State, e.TxID, e.Block = cashier.ExecDone, r.TxHash, r.BlockNumber
	if err := x.Orders.SettleExec(ctx, e, out); err != nil {
		return err
	}
	x.Logger.Info("payout batch confirmed", "exec", e.ID, "chain", e.Chain, "tx", r.TxHash, "orders", len(os))
	return nil
}

// GasShares splits a transaction's fee (native coin base units) equally
// over its orders, the remainder going one base unit each to the first
// orders, so the shares add up to the fee exactly; each is written in the
// coin's units.
func GasShares(fee *big.Int, os []cashier.PayoutOrder, decimals int) map[string]string {
	out := map[string]string{}
	if fee == nil || len(os) == 0 {
		return out
	}
	q, m := new(big.Int).QuoRem(fee, big.NewInt(int64(len(os))), new(big.Int))
	for i, o := range os {
		s := new(big.Int).Set(q)
		if int64(i) < m.Int64() {
			s.Add(s, big.NewInt(1))
		}
		out[o.ID] = cashier.FormatAmount(s, decimals)
	}
	return out
}
