// Package api holds the JSON shapes of the merchant API: the request and
// response bodies of the nine endpoints, their paths and the envelope. The
// server (package http) and the Go SDK (package client) both use these
// types, so what one writes the other reads.
package api

import "encoding/json"

// Envelope is the one response shape of every endpoint. It carries msg and
// message both, so readers of the order-endpoint shape and of the
// configuration-endpoint shape each find their field. Code is "200" (order
// endpoints) or "0" (configuration endpoints) on success.
type Envelope struct {
	Code    string `json:"code"`
	Success bool   `json:"success"`
	Msg     string `json:"msg"`
	Message string `json:"message"`
	Trace   string `json:"trace"`
	Data    any    `json:"data"`
}

// RawEnvelope is Envelope with Data left undecoded, for readers.
type RawEnvelope struct {
	Code    string          `json:"code"`
	Success bool            `json:"success"`
	Msg     string          `json:"msg"`
	Message string          `json:"message"`
	Trace   string          `json:"trace"`
	Data    json.RawMessage `json:"data"`
}

// PayoutRequest creates a payout. Amount is a decimal string ("100.00").
// PayoutType 0 is left out of the request (the server's default, 1).
type PayoutRequest struct {
	ContractID  string `json:"contractId"`
	OrderNo     string `json:"orderNo"`
	Recipient   string `json:"recipient"`
	Amount      string `json:"amount"`
	Symbol      string `json:"symbol"`
	PayoutType  int    `json:"payoutType,omitempty"`
	FromAddress string `json:"fromAddress,omitempty"`
	Remark      string `json:"remark,omitempty"`
	ChainID     string `json:"chainId,omitempty"`
	CustNo      string `json:"custNo,omitempty"` // the merchant's customer number, echoed in the payout's webhooks
}

// PayoutCreated is the answer to CreatePayout.
type PayoutCreated struct {
	OrderNo    string `json:"orderNo"`
	OrderID    string `json:"orderId"`
	Status     string `json:"status"`
	CreateTime int64  `json:"createTime"` // Unix milliseconds
}

// Payout is a payout order as the detail endpoint reports it.
type Payout struct {
	OrderNo     string `json:"orderNo"`
	OrderID     string `json:"orderId"`
	ContractID  string `json:"contractId"`
	ChainID     string `json:"chainId"`
	Recipient   string `json:"recipient"`
	Amount      string `json:"amount"`
	Symbol      string `json:"symbol"`
	PayoutType  int    `json:"payoutType"`
	FromAddress string `json:"fromAddress"`
	Remark      string `json:"remark"`
	TxID        string `json:"txId"`
	Status      string `json:"status"`
	Fee         string `json:"fee"`
	GasAmount   string `json:"gasAmount"`
	CreateTime  int64  `json:"createTime"`
	UpdateTime  int64  `json:"updateTime"`
	CustNo      string `json:"custNo"` // "" when none was given
}

// BatchRequest creates several payouts from one contract. FromAddress is
// the approving wallet of an allowance-mode (PayoutType 2) batch.
type BatchRequest struct {
	ContractID  string       `json:"contractId"`
	PayoutType  int          `json:"payoutType,omitempty"`
	FromAddress string       `json:"fromAddress,omitempty"`
	Orders      []BatchOrder `json:"orders"`
}

// BatchOrder is one order of a batch.
type BatchOrder struct {
	OrderNo   string `json:"orderNo"`
	Recipient string `json:"recipient"`
	Amount    string `json:"amount"`
	Symbol    string `json:"symbol"`
	Remark    string `json:"remark,omitempty"`
}

// BatchResult reports each order of a batch on its own.
type BatchResult struct {
	SuccessCount int                `json:"successCount"`
	FailCount    int                `json:"failCount"`
	Orders       []BatchOrderResult `json:"orders"`
}

// BatchOrderResult is one order's outcome; Code and Msg say why a refused
// order (Success false) was refused.
type BatchOrderResult struct {
	OrderNo string `json:"orderNo"`
	OrderID string `json:"orderId"`
	Status  string `json:"status"`
	Success bool   `json:"success"`
	Code    string `json:"code"`
	Msg     string `json:"msg"`
}

// CollectionRequest creates a collection order. ChainID is TRON (default),
// ETH or ARB; CustNo is the merchant's customer number, echoed in webhooks.
type CollectionRequest struct {
	CashierID   string `json:"cashierId"`
	OrderNo     string `json:"orderNo"`
	Amount      string `json:"amount"`
	Symbol      string `json:"symbol"`
	ChainID     string `json:"chainId,omitempty"`
	RedirectURL string `json:"redirectUrl,omitempty"`
	CustNo      string `json:"custNo,omitempty"`
}

// CollectionCreated is the answer to CreateCollection. QRCode is a
// data:image/png;base64 URI.
type CollectionCreated struct {
	OrderNo    string `json:"orderNo"`
	PayURL     string `json:"payUrl"`
	QRCode     string `json:"qrCode"`
	ExpireTime int64  `json:"expireTime"`
	Address    string `json:"address"` // the deposit address the customer pays
}

// Collection is a collection order as the detail and list endpoints report
// it: the interface's fields plus what a merchant needs to reconcile (orderId,
// custNo, the amount received so far, deposit address, payment link, expiry).
type Collection struct {
	OrderNo        string `json:"orderNo"`
	OrderID        string `json:"orderId"`
	CashierID      string `json:"cashierId"`
	CustNo         string `json:"custNo"`
	Amount         string `json:"amount"`
	PaidAmount     string `json:"paidAmount"`
	Symbol         string `json:"symbol"`
	ChainID        string `json:"chainId"`
	Status         string `json:"status"`
	TxID           string `json:"txId"`
	DepositAddress string `json:"depositAddress"`
	PayURL         string `json:"payUrl"`
	ExpireTime     int64  `json:"expireTime"`
	CreateTime     int64  `json:"createTime"`
	UpdateTime     int64  `json:"updateTime"`

	// Address is the deposit address (the same as depositAddress);
	// FromAddress and PayTime (block time, ms; 0 until seen) belong to txId.
	Address     string              `json:"address"`
	FromAddress string              `json:"fromAddress"`
	PayTime     int64               `json:"payTime"`
	Payments    []CollectionPayment `json:"payments"`

	// Refunds are the order's refunds, oldest first.
	Refunds []Refund `json:"refunds"`

	// CreatedBy is "browser" for orders the widget SDK created from the
	// merchant's page (Origin is that page's origin), "api" otherwise.
	CreatedBy string `json:"createdBy"`
	Origin    string `json:"origin"`

	// NetworkChoice is "open" while the customer of a browser-created
	// order has yet to choose its network and token (chainId and symbol
	// are then the preselected ones, and depositAddress is empty),
	// "chosen" once chosen; absent for orders whose network and token
	// were fixed at creation.
	NetworkChoice string `json:"networkChoice,omitempty"`
}

// CollectionPayment is one token transfer received at an order's deposit
// address. Status is SEEN, CONFIRMED or DROPPED; Effect (once confirmed) is
// CREDITED, LATE, EXTRA, AFTER_CANCEL, WRONG_TOKEN or NATIVE (the
// network's coin, symbol ETH or TRX: never counted).
type CollectionPayment struct {
	TxID          string `json:"txId"`
	LogIndex      int64  `json:"logIndex"`
	Amount        string `json:"amount"`
	Symbol        string `json:"symbol"`
	FromAddress   string `json:"fromAddress"`
	BlockNumber   int64  `json:"blockNumber"`
	BlockTime     int64  `json:"blockTime"`
	Confirmations int64  `json:"confirmations"`
	Status        string `json:"status"`
	Effect        string `json:"effect"`
}

// RefundRequest refunds part or all of what a collection order received.
// RefundNo is the merchant's idempotency key. Without Address the answer
// carries a refundUrl where the customer enters it. Symbol is the order's
// token when empty; another token refunds a wrong-token payment.
type RefundRequest struct {
	OrderNo  string `json:"orderNo"`
	RefundNo string `json:"refundNo"`
	Amount   string `json:"amount"`
	Address  string `json:"address,omitempty"`
	Symbol   string `json:"symbol,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Refund is a refund as the refund endpoints and the order's detail report
// it. Status is AWAITING_ADDRESS, PENDING, PROCESSING, SUCCESS, FAILED or CANCELLED.
// PayoutOrderNo is the payout order paying it ("refund/" and the refundNo),
// once the address is known. SentTime is the paying block's time (ms).
type Refund struct {
	RefundNo      string `json:"refundNo"`
	RefundID      string `json:"refundId"`
	OrderNo       string `json:"orderNo"`
	OrderID       string `json:"orderId"`
	ChainID       string `json:"chainId"`
	Symbol        string `json:"symbol"`
	Amount        string `json:"amount"`
	Fee           string `json:"fee"`
	Address       string `json:"address"`
	RefundURL     string `json:"refundUrl"`
	Status        string `json:"status"`
	TxID          string `json:"txId"`
	PayoutOrderNo string `json:"payoutOrderNo"`
	FailReason    string `json:"failReason"`
	Reason        string `json:"reason"`
	CreateTime    int64  `json:"createTime"`
	UpdateTime    int64  `json:"updateTime"`
	SentTime      int64  `json:"sentTime"`
}

// CollectionList is one page of collection orders.
type CollectionList struct {
	List     []Collection `json:"list"`
	Total    int          `json:"total"`
	Page     int          `json:"page"`
	PageSize int          `json:"pageSize"`
}

// CashierInfo is a cashier's configuration.
type CashierInfo struct {
	CashierID         string           `json:"cashierId"`
	MerchantID        string           `json:"merchantId"`
	MerchantName      string           `json:"merchantName"`
	SupportedNetworks []CashierNetwork `json:"supportedNetworks"`
	SupportedCoins    []CashierCoin    `json:"supportedCoins"`
	PaymentMethods    []PaymentMethod  `json:"paymentMethods"`
	WebhookURL        string           `json:"webhookUrl"`
	Status            string           `json:"status"` // active or inactive
	CreatedAt         int64            `json:"createdAt"`
}

// CashierNetwork is a network a cashier accepts; Symbol is its native coin.
type CashierNetwork struct {
	ChainID     string `json:"chainId"`
	NetworkName string `json:"networkName"`
	Symbol      string `json:"symbol"`
	Decimals    int    `json:"decimals"`
}

// CashierCoin is a token a cashier accepts, with its payment bounds.
type CashierCoin struct {
	Symbol          string `json:"symbol"`
	Name            string `json:"name"`
	ChainID         string `json:"chainId"`
	ContractAddress string `json:"contractAddress"`
	Decimals        int    `json:"decimals"`
	MinAmount       string `json:"minAmount"`
	MaxAmount       string `json:"maxAmount"`
}

// PaymentMethod is a way the hosted cashier lets a customer pay.
type PaymentMethod struct {
	Type    string `json:"type"` // wallet or scan
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// Coin is a token symbol and the networks it is supported on.
type Coin struct {
	Symbol   string        `json:"symbol"`
	Name     string        `json:"name"`
	Networks []CoinNetwork `json:"networks"`
}

// CoinNetwork is one token on one network.
type CoinNetwork struct {
	ChainID         string `json:"chainId"`
	NetworkName     string `json:"networkName"`
	ContractAddress string `json:"contractAddress"`
	Decimals        int    `json:"decimals"`
	MinAmount       string `json:"minAmount"`
	MaxAmount       string `json:"maxAmount"`
	WithdrawFee     string `json:"withdrawFee"`
}

// Network is a supported network; ChainID is 1, 42161 or TRON.
type Network struct {
	ChainID      string `json:"chainId"`
	NetworkName  string `json:"networkName"`
	ShortName    string `json:"shortName"`
	Symbol       string `json:"symbol"`
	Decimals     int    `json:"decimals"`
	ExplorerURL  string `json:"explorerUrl"`
	RPCURL       string `json:"rpcUrl"`
	Status       string `json:"status"`
	AvgBlockTime int    `json:"avgBlockTime"`
	AvgGasFee    string `json:"avgGasFee"`
}

// Paths of the endpoints.
const (
	PathCreatePayout     = "/order/api/v2/payout/order"
	PathPayoutDetail     = "/order/api/v2/payout/detail"
	PathBatchPayout      = "/order/api/v2/payout/batch"
	PathCreateCollection = "/order/api/v2/pay/order"
	PathCollectionDetail = "/order/api/v2/payorder/detail"
	PathCollectionList   = "/order/api/v2/payorder/list"
	PathRefund           = "/order/api/v2/refund"
	PathRefundDetail     = "/order/api/v2/refund/detail"
	PathRefundCancel     = "/order/api/v2/refund/cancel"
	PathCashierInfo      = "/admin/api/v2/pub/cashier/info"
	PathCoins            = "/admin/api/v2/pub/coin/list"
	PathNetworks         = "/admin/api/v2/pub/network/list"
)

// Paths of the merchant's lists, balances and ledger.
const (
	PathPayoutList       = "/order/api/v2/payout/list"
	PathCollectionCancel = "/order/api/v2/payorder/cancel"
	PathBalance          = "/order/api/v2/balance"
	PathLedger           = "/order/api/v2/ledger"
)

// PayoutList is one page of payout orders.
type PayoutList struct {
	List     []Payout `json:"list"`
	Total    int      `json:"total"`
	Page     int      `json:"page"`
	PageSize int      `json:"pageSize"`
}

// CollectionCancel cancels a PENDING collection order ("payorder").
type CollectionCancel struct {
	OrderNo string `json:"orderNo"`
}

// RefundCancel withdraws a refund link the customer has not used.
type RefundCancel struct {
	RefundNo string `json:"refundNo"`
}

// Balance is one payout contract's holdings of one token. OnChain is the
// contract's token balance, Locked the amount and fee of its balance-mode
// payouts still PENDING or PROCESSING, Available OnChain − Locked.
type Balance struct {
	ContractID string             `json:"contractId"`
	Contract   string             `json:"contractAddress"`
	ChainID    string             `json:"chainId"`
	Symbol     string             `json:"symbol"`
	OnChain    string             `json:"onChainBalance"`
	Locked     string             `json:"locked"`
	Available  string             `json:"available"`
	Block      int64              `json:"blockNumber"`
	Allowances []AllowanceBalance `json:"allowances"`
}

// AllowanceBalance is a wallet that approved the contract (allowance
// mode), read live: Available is min(allowance, balance) − locked.
type AllowanceBalance struct {
	FromAddress string `json:"fromAddress"`
	Allowance   string `json:"allowance"`
	Balance     string `json:"balance"`
	Locked      string `json:"locked"`
	Available   string `json:"available"`
}

// Balances answers the balance endpoint.
type Balances struct {
	List []Balance `json:"list"`
}

// LedgerEntry is one movement of a contract's holdings: Amount is signed
// (negative out of the contract). Kind is sweep, deposit, payout, fee,
// refund or withdraw; Ref the order number, refund number or sweep id.
type LedgerEntry struct {
	ContractID   string `json:"contractId"`
	ChainID      string `json:"chainId"`
	Symbol       string `json:"symbol"`
	Kind         string `json:"kind"`
	Amount       string `json:"amount"`
	TxID         string `json:"txId"`
	LogIndex     int64  `json:"logIndex"`
	BlockNumber  int64  `json:"blockNumber"`
	Time         int64  `json:"time"`
	Counterparty string `json:"counterparty"`
	Ref          string `json:"ref"`
	GasAmount    string `json:"gasAmount"`
}

// LedgerTotal is the sum of every ledger entry of a contract and token
// (not only the page's): the holdings the ledger explains.
type LedgerTotal struct {
	ContractID string `json:"contractId"`
	ChainID    string `json:"chainId"`
	Symbol     string `json:"symbol"`
	Sum        string `json:"sum"`
}

// Ledger is one page of ledger entries, oldest first.
type Ledger struct {
	List     []LedgerEntry `json:"list"`
	Totals   []LedgerTotal `json:"totals"`
	Total    int           `json:"total"`
	Page     int           `json:"page"`
	PageSize int           `json:"pageSize"`
}
