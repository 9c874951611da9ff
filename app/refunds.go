package app

import (
	"context"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/dashboard"
	"github.com/stablecashier/cashier/ledger"
)

// refundRecords feeds the refunds to the ledger (which names the transfers
// of a refund's transaction) and to the dashboard's refunds export.
type refundRecords struct{ store cashier.Store }

// RefundsByTx implements ledger.Refunds: the refunds paid by txID on c.
func (r refundRecords) RefundsByTx(ctx context.Context, c cashier.Chain, txID string) ([]ledger.RefundMove, error) {
	list, err := r.store.Refunds(ctx, cashier.RefundFilter{Chain: c, TxID: txID, Status: cashier.RefundSuccess})
	if err != nil {
		return nil, err
	}
	out := make([]ledger.RefundMove, 0, len(list))
	for _, x := range list {
		out = append(out, ledger.RefundMove{RefundNo: x.RefundNo, Recipient: x.Address, Amount: x.Amount})
	}
	return out, nil
}

// RefundRows implements dashboard.RefundExporter: the merchant's refunds
// created in [start, end] (zero: unbounded).
func (r refundRecords) RefundRows(ctx context.Context, merchantID string, start, end time.Time) ([]dashboard.RefundRow, error) {
	list, err := r.store.Refunds(ctx, cashier.RefundFilter{MerchantID: merchantID})
	if err != nil {
		return nil, err
	}
	var out []dashboard.RefundRow
	for _, x := range list {
		if (!start.IsZero() && x.CreatedAt.Before(start)) || (!end.IsZero() && x.CreatedAt.After(end)) {
			continue
		}
		out = append(out, dashboard.RefundRow{Created: x.CreatedAt, RefundNo: x.RefundNo, OrderNo: x.OrderNo, Status: string(x.Status),
			Chain: x.Chain, Symbol: x.Symbol, Decimals: x.Decimals, Amount: x.Amount, Fee: x.Fee, Address: x.Address,
			TxID: x.TxID, Completed: x.SentAt})
	}
	return out, nil
}
