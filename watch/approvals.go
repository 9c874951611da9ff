package watch

import (
	"context"
	"fmt"

	"github.com/stablecashier/cashier"
)

// ApprovalScanner is the chain access that following approvals needs:
// every Approval of some tokens to some spenders in a block range
// (evm.Client and tron.Client provide it).
type ApprovalScanner interface {
	TokenApprovals(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Approval, error)
}

// EventScanner reads a range's token transfers and its approvals to some
// spenders in one log read (evm.Client), where ApprovalScanner and
// Scanner would make two.
type EventScanner interface {
	TokenEvents(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Transfer, []cashier.Approval, error)
}

// recordApprovals records the Approval events to the network's payout
// contracts in a confirmed range, before the cursor passes it: a crash in
// between scans the range again, and the recorded ones are recognised by
// their (txHash, logIndex). Unconfirmed approvals are never read, so one a
// reorg removes is never acted on.
// got holds the range's approvals when scanConfirmed read them already.
func (w *Watcher) recordApprovals(ctx context.Context, from, to uint64, got []cashier.Approval) error {
	sc, ok := w.chain.(ApprovalScanner)
	if !w.cfg.Approvals || !ok {
		return nil
	}
	if got == nil {
		spenders, err := w.store.ContractAddresses(ctx, w.cfg.Chain)
		if err != nil || len(spenders) == 0 {
			return err
		}
		if got, err = sc.TokenApprovals(ctx, w.cfg.Tokens, spenders, from, to); err != nil {
			return fmt.Errorf("approvals %d-%d: %w", from, to, err)
		}
	}
	blocks := map[uint64]cashier.BlockRef{}
	for i := range got {
		a := &got[i]
		if a.BlockHash != "" && !a.BlockTime.IsZero() {
			continue
		}
		b, ok := blocks[a.BlockNumber]
		if !ok {
			var err error
			if b, err = w.chain.BlockByNumber(ctx, a.BlockNumber); err != nil {
				return fmt.Errorf("block %d: %w", a.BlockNumber, err)
			}
			blocks[a.BlockNumber] = b
		}
		if a.BlockHash == "" {
			a.BlockHash = b.Hash
		}
		if a.BlockTime.IsZero() {
			a.BlockTime = b.Time
		}
	}
	n, err := w.orders.RecordApprovals(ctx, w.cfg.Chain, got)
	if n > 0 {
		w.log.Info("approvals recorded", "from", from, "to", to, "approvals", n)
	}
	return err
}

// holdToAllowances refuses the pending allowance-mode orders that a newly
// recorded approval no longer covers. A failure is logged and retried next
// round without failing this one: payments must go on being seen.
func (w *Watcher) holdToAllowances(ctx context.Context) {
	if !w.cfg.Approvals {
		return
	}
	refused, err := w.orders.HoldToAllowances(ctx, w.cfg.Chain)
	for _, o := range refused {
		w.log.Info("allowance payout refused: allowance lowered", "order", o.ID, "wallet", o.FromAddress, "reason", o.FailReason)
	}
	if err != nil && ctx.Err() == nil {
		w.log.Warn("holding pending payouts to lowered allowances failed", "err", err)
	}
}
