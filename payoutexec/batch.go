package payoutexec

import (
	"context"
	"crypto/rand"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
)

type groupKey struct {
	contract, symbol, from string
	mode                   cashier.PayoutType
}

// batch groups the orders ready for execution and stores full batches, and
// partial ones whose oldest order waited Window.
func (x *Executor) batch(ctx context.Context) error {
	ready, err := x.Store.ExecutablePayouts(ctx, 20*x.Config.BatchSize)
	if err != nil {
		return err
	}
	groups := map[groupKey][]cashier.PayoutOrder{}
	var keys []groupKey
	for _, o := range ready {
		if x.Networks[o.Chain] == nil {
			continue // no keys or node: the orders wait, visible as PENDING/PROCESSING
		}
		k := groupKey{o.ContractID, o.Symbol, o.FromAddress, o.PayoutType}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], o)
	}
	now := x.Clock.Now()
	var errs []error
	for _, k := range keys {
		g := groups[k]
		for len(g) > 0 {
			n := min(len(g), x.Config.BatchSize)
			if n < x.Config.BatchSize && now.Sub(g[0].UpdatedAt) < x.Config.Window && now.Sub(g[0].CreatedAt) < x.Config.Window {
				break // a partial batch waits a little for company
			}
			if err := x.start(ctx, g[:n]); err != nil {
				errs = append(errs, err)
				break
			}
			g = g[n:]
		}
	}
	return errors.Join(errs...)
}

func (x *Executor) start(ctx context.Context, os []cashier.PayoutOrder) error {
	o := os[0]
	net := x.Networks[o.Chain]
	k, err := x.Store.Contract(ctx, o.ContractID)
	if err != nil {
		return err
	}
	head, err := net.Client.Head(ctx)
	if err != nil {
		return err
	}
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	now := x.Clock.Now()
	e := &cashier.PayoutExec{
		ID: orders.NewID("px_"), Chain: o.Chain, ContractID: k.ID, Contract: k.Address, Symbol: o.Symbol, Mode: o.PayoutType,
		From: o.FromAddress, Nonce: new(big.Int).SetBytes(nonce), State: cashier.ExecCreated, StartBlock: head.Number,
		CreatedAt: now, UpdatedAt: now,
	}
	ids := make([]string, len(os))
	for i := range os {
		ids[i] = os[i].ID
	}
	if err := x.Orders.StartExec(ctx, e, ids); err != nil {
		return err
	}
	x.Logger.Info("payout batch stored", "exec", e.ID, "chain", e.Chain, "contract", e.Contract, "orders", len(ids), "nonce", e.Nonce.String())
	return nil
}

// call builds and signs the contract call of e for its orders.
// A non-nil gas is added to the batch's totalFee (fee+gas).
func (x *Executor) call(ctx context.Context, e *cashier.PayoutExec, net *Network, os []cashier.PayoutOrder, gas *big.Int) (cashier.Call, error) {
	signer, err := x.signerFor(ctx, net, e)
	if err != nil {
		return cashier.Call{}, err
	}
	token, err := x.Registry.LookupToken(e.Chain, e.Symbol)
	if err != nil {
		return cashier.Call{}, err
	}
	b := payoutcontract.Batch{TotalFee: new(big.Int), Nonce: e.Nonce, Timestamp: uint64(e.Timestamp)}
	if b.Token, err = address.Parse(e.Chain, token.ContractAddress); err != nil {
		return cashier.Call{}, err
	}
	k, err := address.Parse(e.Chain, e.Contract)
	if err != nil {
		return cashier.Call{}, err
	}
	var from common.Address
	if e.Mode == cashier.PayoutAllowance {
		if from, err = address.Parse(e.Chain, e.From); err != nil {
			return cashier.Call{}, err
		}
	}
	for i, o := range os {
		// An order the contract can never pay (stored before its address
		// was refused at entry) is named, so it alone leaves the batch.
		r, err := address.Parse(e.Chain, o.Recipient)
		switch {
		case err != nil:
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is not an address: " + err.Error()}
		case address.Unpayable(r):
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is the zero address, which the contract cannot pay"}
		case r == k:
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is the payout contract itself"}
		case e.Mode == cashier.PayoutAllowance && r == from:
			return cashier.Call{}, &payoutcontract.TransferError{Index: i, Reason: "recipient " + o.Recipient + " is the paying wallet fromAddress itself"}
		}
		b.Recipients = append(b.Recipients, r)
		b.Amounts = append(b.Amounts, o.Amount)
		b.TotalFee.Add(b.TotalFee, o.Fee)
	}
	if gas != nil {
		b.TotalFee.Add(b.TotalFee, gas)
	}
	// Checked before anything is signed: a batch the contract can never
	// take must not wait for a signer, nor be retried for ever.
	if err := b.Validate(); err != nil {
		return cashier.Call{}, err
	}
	d := payoutcontract.Domain{ChainID: net.DomainChainID, Contract: k}
	var data []byte
	if e.Mode == cashier.PayoutAllowance {
		p := payoutcontract.AllowancePayout{Batch: b, From: from}
		sig, err := x.sign(ctx, net, signer, p.Digest(d), p.TypedData(d))
		if err != nil {
			return cashier.Call{}, err
		}
		data, err = p.CallData(sig)
		if err != nil {
			return cashier.Call{}, err
		}
	} else {
		p := payoutcontract.BalancePayout{Batch: b}
		sig, err := x.sign(ctx, net, signer, p.Digest(d), p.TypedData(d))
		if err != nil {
			return cashier.Call{}, err
		}
		data, err = p.CallData(sig)
		if err != nil {
			return cashier.Call{}, err
		}
	}
	call := cashier.Call{To: e.Contract, Data: data}
	if net.EnergyPerRecipient > 0 {
		call.GasLimit = net.EnergyBase + net.EnergyPerRecipient*uint64(len(os))
	}
	if net.GasPerRecipient > 0 || net.GasBase > 0 {
		call.MaxGas = net.GasBase + net.GasPerRecipient*uint64(len(os))
	}
	return call, nil
}

// signedCall is call with, under fee+gas, the batch's gas charge: priced
// on the call signed with the orders' fees alone, then signed again with
// the charge added (the gas hardly depends on the fee's value).
func (x *Executor) signedCall(ctx context.Context, e *cashier.PayoutExec, net *Network, os []cashier.PayoutOrder) (cashier.Call, error) {
	call, err := x.call(ctx, e, net, os, nil)
	if err != nil || net.GasPrice == nil {
		return call, err
	}
	charge, err := x.gasCharge(ctx, net, e, call)
	if err != nil {
		return cashier.Call{}, err
	}
	return x.call(ctx, e, net, os, charge)
}
