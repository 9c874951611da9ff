package app

import (
	"context"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/webhook"
)

// OperatorOrders is the order service an operator command uses on a store
// it opened itself, possibly while serve runs on the same data directory:
// the webhooks it writes are delivered by the running service's dispatcher.
func OperatorOrders(_ context.Context, cfg config.Config, st cashier.Store) (*orders.Service, error) {
	reg, err := config.LoadRegistry(cfg.Registry)
	if err != nil {
		return nil, err
	}
	svc := &orders.Service{
		Store:    st,
		Registry: reg,
		Clock:    cashier.SystemClock{},
		Events:   webhook.NewWriter(reg),
		Config:   orders.DefaultConfig,
	}
	return svc, nil
}

// PayoutView is the operator's JSON form of a payout order.
type PayoutView struct {
	OrderID     string `json:"orderId"`
	OrderNo     string `json:"orderNo"`
	MerchantID  string `json:"merchantId"`
	ContractID  string `json:"contractId"`
	ChainID     string `json:"chainId"`
	Recipient   string `json:"recipient"`
	Amount      string `json:"amount"`
	Fee         string `json:"fee"`
	Symbol      string `json:"symbol"`
	PayoutType  int    `json:"payoutType"`
	FromAddress string `json:"fromAddress"`
	Status      string `json:"status"`
	NeedsReview bool   `json:"needsReview"`
	TxID        string `json:"txId"`
	GasAmount   string `json:"gasAmount"`
	FailReason  string `json:"failReason"`
	CreateTime  int64  `json:"createTime"`
	UpdateTime  int64  `json:"updateTime"`
}

// ViewPayout renders o for the operator.
func ViewPayout(o *cashier.PayoutOrder) PayoutView {
	v := PayoutView{
		OrderID: o.ID, OrderNo: o.OrderNo, MerchantID: o.MerchantID, ContractID: o.ContractID, ChainID: string(o.Chain),
		Recipient: o.Recipient, Amount: cashier.FormatAmount(o.Amount, o.Decimals), Symbol: o.Symbol,
		PayoutType: int(o.PayoutType), FromAddress: o.FromAddress, Status: string(o.Status), NeedsReview: o.NeedsReview,
		TxID: o.TxID, GasAmount: o.GasAmount, FailReason: o.FailReason, CreateTime: o.CreatedAt.UnixMilli(),
	}
	if o.Fee != nil {
		v.Fee = cashier.FormatAmount(o.Fee, o.Decimals)
	}
	if !o.UpdatedAt.IsZero() {
		v.UpdateTime = o.UpdatedAt.UnixMilli()
	}
	return v
}
