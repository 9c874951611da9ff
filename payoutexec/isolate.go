package payoutexec

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/payoutcontract"
)

// isolate handles a pre-flight revert of a created execution: the order it
// names is refused; a shortfall of the whole batch splits it, down to one
// order, which is then refused with the contract's reason; a refusal that
// is the service's own (keys, roles, clock) makes the orders wait.
func (x *Executor) isolate(ctx context.Context, e *cashier.PayoutExec, os []cashier.PayoutOrder, rev payoutcontract.Revert) error {
	reason := describe(rev)
	out := orders.ExecOutcome{Refuse: map[string]string{}}
	switch rev.Name {
	case "InvalidRecipient", "ZeroAmount", "RecipientNotWhitelisted":
		i, _ := rev.Args["index"].(*big.Int)
		if i == nil || !i.IsInt64() || i.Int64() >= int64(len(os)) {
			return x.Orders.SaveExec(ctx, e)
		}
		out.Refuse[os[i.Int64()].ID] = reason
		e.Attempts = 0
	case "NotExecutor", "InvalidSignature", "SignatureExpired", "TimestampInFuture", "NonceUsed":
		x.Logger.Error("payout batch refused by the contract for the service's own keys or clock; orders wait", "exec", e.ID, "reason", reason)
		if rev.Name == "NonceUsed" {
			e.State = cashier.ExecSending // paid already: resolve from the chain
			e.Ambiguous = true
		}
		return x.Orders.SaveExec(ctx, e)
	case "TokenTransferFailed":
		// The token itself refused. A paused token stops every transfer:
		// the orders wait for it, nothing is refused. A recipient on the
		// token's blacklist is refused alone, naming the blacklist.
		if x.tokenPaused(ctx, e) {
			return x.Orders.SaveExec(ctx, e)
		}
		// The paying account (the contract, or the approving wallet) on
		// the blacklist can pay nobody: every order is refused at once,
		// not tried again in ever smaller batches.
		payer := e.Contract
		if e.Mode == cashier.PayoutAllowance && e.From != "" {
			payer = e.From
		}
		if common.IsHexAddress(payer) && x.blacklisted(ctx, e, common.HexToAddress(payer)) {
			x.Logger.Error("paying account blacklisted by the token contract: its payouts are refused", "chain", e.Chain, "symbol", e.Symbol,
				"payer", payer, "exec", e.ID, "orders", len(os))
			if x.Alerts != nil {
				x.Alerts.Set(cashier.TokenAlert{Chain: e.Chain, Symbol: e.Symbol, Token: x.tokenAddress(e), Kind: cashier.TokenBlacklisted,
					Account: payer, Since: x.Clock.Now()})
			}
			for _, o := range os {
				out.Refuse[o.ID] = "paying account " + payer + " is blacklisted by the token contract: " + reason
			}
			e.State = cashier.ExecFailed
			break
		}
		to, _ := rev.Args["to"].(common.Address)
		if x.blacklisted(ctx, e, to) {
			for _, o := range os {
				if strings.EqualFold(o.Recipient, to.Hex()) {
					out.Refuse[o.ID] = "recipient " + to.Hex() + " is blacklisted by the token contract: " + reason
				}
			}
		}
		if len(out.Refuse) > 0 {
			e.Attempts = 0
			break
		}
		fallthrough
	default:
		if len(os) > 1 {
			for _, o := range os[len(os)/2:] {
				out.Detach = append(out.Detach, o.ID)
			}
			e.Attempts = 0
		} else {
			out.Refuse[os[0].ID] = reason
			e.State = cashier.ExecFailed
		}
	}
	x.Logger.Info("payout batch refused in pre-flight", "exec", e.ID, "reason", reason, "refused", len(out.Refuse), "split", len(out.Detach))
	return x.Orders.SettleExec(ctx, e, out)
}

// refuseInvalid takes out of a created execution the order that makes its
// batch one the contract can never take (as a pre-flight revert naming
// that order would): it is refused with the reason and its webhook, and
// the rest of the batch is signed again next round.
func (x *Executor) refuseInvalid(ctx context.Context, e *cashier.PayoutExec, os []cashier.PayoutOrder, te *payoutcontract.TransferError) error {
	o := os[te.Index]
	reason := "the payout can never be sent: " + te.Reason
	out := orders.ExecOutcome{Refuse: map[string]string{o.ID: reason}}
	e.Attempts, e.LastError = 0, reason
	if len(os) == 1 {
		e.State = cashier.ExecFailed
	}
	x.Logger.Error("payout refused: its batch can never be valid with it; the rest of the batch goes on",
		"exec", e.ID, "chain", e.Chain, "order", o.ID, "orderNo", o.OrderNo, "reason", te.Reason, "left", len(os)-1)
	return x.Orders.SettleExec(ctx, e, out)
}

func describe(r payoutcontract.Revert) string {
	keys := make([]string, 0, len(r.Args))
	for k := range r.Args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, r.Args[k]))
	}
	return fmt.Sprintf("%s(%s)", r.Name, strings.Join(parts, ", "))
}
