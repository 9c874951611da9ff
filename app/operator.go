package app

import (
	"context"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sign"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/webhook"
)

// EventWriter is the one webhook body writer of every process on a data
// directory (serve, the sandbox, the dashboard inside them, and the
// operator commands), so every event of an order carries the same fields
// whichever process wrote it: the network names of reg, the configured
// body form and signature scheme, and the numeric ids read from st.
func EventWriter(cfg config.Config, reg *cashier.Registry, st webhook.Numbers) *webhook.Writer {
	return &webhook.Writer{Registry: reg, Strings: cfg.WebhookBody == "strings", Scheme: sign.WebhookScheme(cfg.WebhookSignature), Numbers: st}
}

// OperatorOrders is the order service an operator command uses on a store
// it opened itself, possibly while serve runs on the same data directory:
// the webhooks it writes are delivered by the running service's dispatcher.
// reg is the registry the service runs with (nil: the configured one).
func OperatorOrders(_ context.Context, cfg config.Config, reg *cashier.Registry, st *sqlite.DB) (*orders.Service, error) {
	if reg == nil {
		var err error
		if reg, err = cfg.Networks(); err != nil {
			return nil, err
		}
	}
	svc := &orders.Service{
		Store:    st,
		Registry: reg,
		Clock:    cashier.SystemClock{},
		Events:   EventWriter(cfg, reg, st),
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
