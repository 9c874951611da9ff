package orders

import (
	"context"
	"strings"

	"github.com/stablecashier/cashier"
)

// NetworkOption is one network and token a customer may pay an order
// with: the network's usual fee (paid by the customer, in the network's
// coin) and the token's minimum.
type NetworkOption struct {
	Chain       cashier.Chain
	NetworkName string
	Symbol      string
	Fee         string // the network's average gas fee, as configured (text)
	FeeSymbol   string // the network's own coin
	MinAmount   string // the token's minimum order amount
	Amount      string // the order's amount in this token
}

// NetworkOptions lists what the customer of o may choose: every active
// network (only o's own when the network is fixed) on which the merchant
// takes collections (a deposit factory), with each allowed token (only
// o's own when the token is fixed) whose bounds take the order's amount.
// Empty for an order without a choice.
func (s *Service) NetworkOptions(ctx context.Context, m *cashier.Merchant, o *cashier.CollectionOrder) []NetworkOption {
	if o.Choose == "" || s.Registry == nil || s.Deposits == nil {
		return nil
	}
	amount := cashier.FormatAmount(o.Amount, o.Decimals)
	var out []NetworkOption
	for _, n := range s.Registry.Networks {
		if n.Status == cashier.NetworkMaintenance || (!o.MayChoose(cashier.ChooseChain) && n.Chain != o.Chain) {
			continue
		}
		if s.Networks != nil && s.Networks.Inactive(n.Chain) != nil {
			continue // nothing watches it
		}
		if _, err := s.Deposits.DepositAddress(ctx, m, n.Chain, o.ID); err != nil {
			continue // no collections on this network for the merchant
		}
		for _, t := range s.Registry.Tokens {
			if t.Chain != n.Chain || (!o.MayChoose(cashier.ChooseToken) && t.Symbol != o.Symbol) || t.Symbol == n.Symbol {
				continue
			}
			a, err := t.ParseOrderAmount(amount)
			if err != nil {
				continue // outside this token's bounds, or finer than its decimals
			}
			out = append(out, NetworkOption{Chain: n.Chain, NetworkName: n.NetworkName, Symbol: t.Symbol, Fee: n.AvgGasFee,
				FeeSymbol: n.Symbol, MinAmount: cashier.FormatAmount(t.MinAmount, t.Decimals), Amount: cashier.FormatAmount(a, t.Decimals)})
		}
	}
	return out
}

// ChooseNetwork records the customer's choice of network and token for
// order id and gives it its deposit address there. The customer may
// change it again until a payment is seen; from then on the choice is
// final and a change is refused. Every address shown stays watched for
// the order: a payment sent to one before a switch and seen after it
// takes the order back to that network and token (applier.switchBack).
// Choosing what is already chosen changes nothing.
func (s *Service) ChooseNetwork(ctx context.Context, id, chainName, symbol string) (*cashier.CollectionOrder, error) {
	symbol = strings.ToUpper(symbol)
	chain, err := cashier.ParseChain(chainName)
	if err != nil {
		return nil, err
	}
	var out *cashier.CollectionOrder
	err = s.Store.Update(ctx, func(tx cashier.Tx) error {
		o, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		if o.Choose == "" {
			return cashier.Errorf(cashier.EInvalidStatus, "the network and token of order %s were fixed by the merchant", o.OrderNo)
		}
		now := s.Clock.Now()
		if o.Status != cashier.CollectionPending || !now.Before(o.ExpireAt) {
			return cashier.Errorf(cashier.EInvalidStatus, "order %s is no longer open", o.OrderNo)
		}
		ps, err := tx.PaymentsByOrder(ctx, o.ID)
		if err != nil {
			return err
		}
		if len(ps) > 0 || (o.PaidAmount != nil && o.PaidAmount.Sign() > 0) {
			if o.DepositAddress != "" && o.Chain == chain && o.Symbol == symbol {
				out = o
				return nil
			}
			return cashier.Errorf(cashier.EInvalidStatus, "a payment to order %s has been seen on %s: its network and token are final", o.OrderNo, o.Chain)
		}
		m, err := tx.Merchant(ctx, o.MerchantID)
		if err != nil {
			return err
		}
		var pick *NetworkOption
		for _, opt := range s.NetworkOptions(ctx, m, o) {
			if opt.Chain == chain && opt.Symbol == symbol {
				pick = &opt
				break
			}
		}
		if pick == nil {
			return cashier.Errorf(cashier.EInvalid, "%s on %s is not one of this order's choices", symbol, chain)
		}
		if o.DepositAddress != "" && o.Chain == chain && o.Symbol == symbol {
			out = o
			return nil
		}
		token, err := s.lookupToken(chain, symbol)
		if err != nil {
			return err
		}
		amount, err := token.ParseOrderAmount(pick.Amount)
		if err != nil {
			return err
		}
		addr, err := s.Deposits.DepositAddress(ctx, m, chain, o.ID)
		if err != nil {
			return err
		}
		// Every address shown stays the order's: a payment sent to it
		// before a switch is seen after it (see applier.switchBack).
		if err := tx.AddShownAddress(ctx, chain, addr, o.ID); err != nil {
			return err
		}
		o.Chain, o.Symbol, o.Decimals, o.Amount, o.DepositAddress, o.UpdatedAt = chain, token.Symbol, token.Decimals, amount, addr, now
		out = o
		return tx.UpdateCollection(ctx, o)
	})
	return out, err
}
