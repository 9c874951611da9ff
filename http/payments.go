package http

import (
	"net/http"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
)

// addPayments fills the collection fields about received transfers: the
// deposit address under its short name, the payer and block time of txId,
// and every transfer received with its confirmations.
func (s *server) addPayments(r *http.Request, d *api.Collection, o *cashier.CollectionOrder) error {
	d.Address, d.FromAddress = o.DepositAddress, o.FromAddress
	if !o.PayTime.IsZero() {
		d.PayTime = cashier.Millis(o.PayTime)
	}
	ps, cur, err := s.svc.CollectionPayments(r.Context(), o)
	if err != nil {
		return err
	}
	head := cur.Head
	d.Payments = make([]api.CollectionPayment, len(ps))
	for i, p := range ps {
		var conf uint64
		if p.Status != cashier.PaymentDropped {
			conf = cashier.Confirmations(head, p.BlockNumber)
		}
		out := api.CollectionPayment{
			TxID: p.TxHash, LogIndex: int64(p.LogIndex), Amount: cashier.FormatAmount(p.Amount, p.Decimals),
			Symbol: p.Symbol, FromAddress: p.From, BlockNumber: int64(p.BlockNumber),
			Confirmations: int64(conf), Status: string(p.Status), Effect: string(p.Effect),
		}
		if !p.BlockTime.IsZero() {
			out.BlockTime = cashier.Millis(p.BlockTime)
		}
		d.Payments[i] = out
	}
	return nil
}
