package client

import (
	"context"
	"net/url"
	"strconv"

	"github.com/stablecashier/cashier/api"
)

// The request and response types are the shared wire types of package api.
type (
	PayoutRequest     = api.PayoutRequest
	PayoutCreated     = api.PayoutCreated
	Payout            = api.Payout
	BatchRequest      = api.BatchRequest
	BatchOrder        = api.BatchOrder
	BatchResult       = api.BatchResult
	BatchOrderResult  = api.BatchOrderResult
	CollectionRequest = api.CollectionRequest
	CollectionCreated = api.CollectionCreated
	Collection        = api.Collection
	CollectionList    = api.CollectionList
	CashierInfo       = api.CashierInfo
	Coin              = api.Coin
	CoinNetwork       = api.CoinNetwork
	Network           = api.Network
	PayoutList        = api.PayoutList
	Balance           = api.Balance
	AllowanceBalance  = api.AllowanceBalance
	Balances          = api.Balances
	LedgerEntry       = api.LedgerEntry
	LedgerTotal       = api.LedgerTotal
	Ledger            = api.Ledger
	RefundRequest     = api.RefundRequest
	Refund            = api.Refund
)

// ListRequest filters the collection list; zero fields are left out.
type ListRequest struct {
	StartTime int64 // Unix milliseconds, inclusive
	EndTime   int64
	Status    string // PENDING, SUCCESS, EXPIRED, CANCELLED
	Page      int
	PageSize  int
}

// CreatePayout creates a payout order (signed).
func (c *Client) CreatePayout(ctx context.Context, req PayoutRequest) (*PayoutCreated, error) {
	var out PayoutCreated
	if err := c.post(ctx, api.PathCreatePayout, req, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PayoutDetail returns the payout order with the merchant order number (signed).
func (c *Client) PayoutDetail(ctx context.Context, orderNo string) (*Payout, error) {
	var out Payout
	if err := c.get(ctx, api.PathPayoutDetail, url.Values{"orderNo": {orderNo}}, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// BatchPayout creates several payout orders (signed). A nil error means the
// batch was processed; check each order's Success.
func (c *Client) BatchPayout(ctx context.Context, req BatchRequest) (*BatchResult, error) {
	var out BatchResult
	if err := c.post(ctx, api.PathBatchPayout, req, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateRefund refunds part or all of what a collection order received
// (signed). Repeating a request with the same RefundNo returns the same
// refund; without Address, RefundURL is the link to send the customer.
func (c *Client) CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error) {
	var out Refund
	if err := c.post(ctx, api.PathRefund, req, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// RefundDetail returns the refund with the merchant's refund number (signed).
func (c *Client) RefundDetail(ctx context.Context, refundNo string) (*Refund, error) {
	var out Refund
	if err := c.get(ctx, api.PathRefundDetail, url.Values{"refundNo": {refundNo}}, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CancelRefund withdraws a refund link the customer has not used yet
// (signed); the refund ends CANCELLED and its amount is refundable again.
func (c *Client) CancelRefund(ctx context.Context, refundNo string) (*Refund, error) {
	var out Refund
	if err := c.post(ctx, api.PathRefundCancel, api.RefundCancel{RefundNo: refundNo}, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateCollection creates a collection order (signed; the body field sign
// carries the signature as the interface requires).
func (c *Client) CreateCollection(ctx context.Context, req CollectionRequest) (*CollectionCreated, error) {
	var out CollectionCreated
	if err := c.post(ctx, api.PathCreateCollection, req, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CollectionDetail returns the collection order with the merchant order
// number (signed).
func (c *Client) CollectionDetail(ctx context.Context, orderNo string) (*Collection, error) {
	var out Collection
	if err := c.get(ctx, api.PathCollectionDetail, url.Values{"orderNo": {orderNo}}, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// query is the list filters as query parameters; zero fields are left out.
func (req ListRequest) query() url.Values {
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
	return q
}

// ListPayouts returns one page of the merchant's payout orders, newest
// first (signed); Status is PENDING, PROCESSING, SUCCESS or REFUSE;
// contractID ("" any) narrows to one contract.
func (c *Client) ListPayouts(ctx context.Context, req ListRequest, contractID string) (*PayoutList, error) {
	q := req.query()
	if contractID != "" {
		q.Set("contractId", contractID)
	}
	var out PayoutList
	if err := c.get(ctx, api.PathPayoutList, q, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CancelCollection cancels a PENDING collection order no payment has
// reached (signed) and returns it CANCELLED.
func (c *Client) CancelCollection(ctx context.Context, orderNo string) (*Collection, error) {
	var out Collection
	if err := c.post(ctx, api.PathCollectionCancel, api.CollectionCancel{OrderNo: orderNo}, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// HoldingsFilter narrows the balance and ledger endpoints; zero fields
// are left out. ChainID is TRON, ETH or ARB.
type HoldingsFilter struct {
	ContractID string
	ChainID    string
	Symbol     string
}

func (f HoldingsFilter) query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"contractId": f.ContractID, "chainId": f.ChainID, "symbol": f.Symbol} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

// Balance returns per payout contract and token the on-chain balance,
// the amount locked by pending payouts, what is available, and the live
// allowances of wallets that approved the contract (signed).
func (c *Client) Balance(ctx context.Context, f HoldingsFilter) (*Balances, error) {
	var out Balances
	if err := c.get(ctx, api.PathBalance, f.query(), signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// LedgerRequest selects ledger entries: Kind is sweep, deposit, payout,
// fee, refund or withdraw; times are Unix milliseconds.
type LedgerRequest struct {
	HoldingsFilter
	Kind      string
	StartTime int64
	EndTime   int64
	Page      int
	PageSize  int
}

// Ledger returns one page of the movements of the merchant's payout
// contracts' holdings, oldest first, with per contract and token the sum
// of all of them (signed).
func (c *Client) Ledger(ctx context.Context, req LedgerRequest) (*Ledger, error) {
	q := ListRequest{StartTime: req.StartTime, EndTime: req.EndTime, Page: req.Page, PageSize: req.PageSize}.query()
	for k, v := range req.HoldingsFilter.query() {
		q[k] = v
	}
	if req.Kind != "" {
		q.Set("kind", req.Kind)
	}
	var out Ledger
	if err := c.get(ctx, api.PathLedger, q, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListCollections returns one page of the merchant's collection orders,
// newest first (signed).
func (c *Client) ListCollections(ctx context.Context, req ListRequest) (*CollectionList, error) {
	q := req.query()
	var out CollectionList
	if err := c.get(ctx, api.PathCollectionList, q, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CashierInfo returns a cashier's configuration. The call is signed (the
// endpoint needs only the API key) so that the answer includes webhookUrl
// and counts against the merchant rather than the caller's IP.
func (c *Client) CashierInfo(ctx context.Context, cashierID string) (*CashierInfo, error) {
	var out CashierInfo
	if err := c.get(ctx, api.PathCashierInfo, url.Values{"cashierId": {cashierID}}, signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Coins lists the supported tokens (public).
func (c *Client) Coins(ctx context.Context) ([]Coin, error) {
	var out []Coin
	if err := c.get(ctx, api.PathCoins, nil, public, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Networks lists the supported networks (public).
func (c *Client) Networks(ctx context.Context) ([]Network, error) {
	var out []Network
	if err := c.get(ctx, api.PathNetworks, nil, public, &out); err != nil {
		return nil, err
	}
	return out, nil
}
