package client

import (
	"context"
	"net/url"
	"strconv"
)

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
}

// Collection is a collection order as the detail and list endpoints report it.
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
}

// ListRequest filters the collection list; zero fields are left out.
type ListRequest struct {
	StartTime int64 // Unix milliseconds, inclusive
	EndTime   int64
	Status    string // PENDING, SUCCESS, EXPIRED, CANCELLED
	Page      int
	PageSize  int
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
	CashierID         string `json:"cashierId"`
	MerchantID        string `json:"merchantId"`
	MerchantName      string `json:"merchantName"`
	SupportedNetworks []struct {
		ChainID     string `json:"chainId"`
		NetworkName string `json:"networkName"`
		Symbol      string `json:"symbol"`
		Decimals    int    `json:"decimals"`
	} `json:"supportedNetworks"`
	SupportedCoins []struct {
		Symbol          string `json:"symbol"`
		Name            string `json:"name"`
		ChainID         string `json:"chainId"`
		ContractAddress string `json:"contractAddress"`
		Decimals        int    `json:"decimals"`
		MinAmount       string `json:"minAmount"`
		MaxAmount       string `json:"maxAmount"`
	} `json:"supportedCoins"`
	PaymentMethods []struct {
		Type    string `json:"type"`
		Name    string `json:"name"`
		Enabled bool   `json:"enabled"`
	} `json:"paymentMethods"`
	WebhookURL string `json:"webhookUrl"`
	Status     string `json:"status"`
	CreatedAt  int64  `json:"createdAt"`
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
	PathCashierInfo      = "/admin/api/v2/pub/cashier/info"
	PathCoins            = "/admin/api/v2/pub/coin/list"
	PathNetworks         = "/admin/api/v2/pub/network/list"
)

// CreatePayout creates a payout order (signed).
func (c *Client) CreatePayout(ctx context.Context, req PayoutRequest) (*PayoutCreated, error) {
	var out PayoutCreated
	if err := c.post(ctx, PathCreatePayout, req, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PayoutDetail returns the payout order with the merchant order number (signed).
func (c *Client) PayoutDetail(ctx context.Context, orderNo string) (*Payout, error) {
	var out Payout
	if err := c.get(ctx, PathPayoutDetail, url.Values{"orderNo": {orderNo}}, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// BatchPayout creates several payout orders (signed). A nil error means the
// batch was processed; check each order's Success.
func (c *Client) BatchPayout(ctx context.Context, req BatchRequest) (*BatchResult, error) {
	var out BatchResult
	if err := c.post(ctx, PathBatchPayout, req, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateCollection creates a collection order (signed; the body field sign
// carries the signature as the interface requires).
func (c *Client) CreateCollection(ctx context.Context, req CollectionRequest) (*CollectionCreated, error) {
	var out CollectionCreated
	if err := c.post(ctx, PathCreateCollection, req, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CollectionDetail returns the collection order with the merchant order
// number (signed).
func (c *Client) CollectionDetail(ctx context.Context, orderNo string) (*Collection, error) {
	var out Collection
	if err := c.get(ctx, PathCollectionDetail, url.Values{"orderNo": {orderNo}}, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListCollections returns one page of the merchant's collection orders,
// newest first (signed).
func (c *Client) ListCollections(ctx context.Context, req ListRequest) (*CollectionList, error) {
	q := url.Values{}
	if req.StartTime != 0 {
		q.Set("startTime", strconv.FormatInt(req.StartTime, 10))
	}
	if req.EndTime != 0 {
		q.Set("endTime", strconv.FormatInt(req.EndTime, 10))
	}
	if req.Status != "" {
		q.Set("status", req.Status)
	}
	if req.Page != 0 {
		q.Set("page", strconv.Itoa(req.Page))
	}
	if req.PageSize != 0 {
		q.Set("pageSize", strconv.Itoa(req.PageSize))
	}
	var out CollectionList
	if err := c.get(ctx, PathCollectionList, q, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CashierInfo returns a cashier's configuration (API key only).
func (c *Client) CashierInfo(ctx context.Context, cashierID string) (*CashierInfo, error) {
	var out CashierInfo
	if err := c.get(ctx, PathCashierInfo, url.Values{"cashierId": {cashierID}}, keyOnly, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Coins lists the supported tokens (public).
func (c *Client) Coins(ctx context.Context) ([]Coin, error) {
	var out []Coin
	if err := c.get(ctx, PathCoins, nil, public, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Networks lists the supported networks (public).
func (c *Client) Networks(ctx context.Context) ([]Network, error) {
	var out []Network
	if err := c.get(ctx, PathNetworks, nil, public, &out); err != nil {
		return nil, err
	}
	return out, nil
}
