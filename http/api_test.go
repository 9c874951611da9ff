package http

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/png"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
)

// jsonKind names the JSON type of a decoded value (numbers as json.Number).
func jsonKind(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case json.Number:
		if strings.ContainsAny(v.String(), ".eE") {
			return "number"
		}
		return "integer"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return "?"
}

// checkTypes asserts obj has exactly the fields of want with those JSON
// types.
func checkTypes(t *testing.T, what string, obj map[string]any, want map[string]string) {
	t.Helper()
	for k, kind := range want {
		v, ok := obj[k]
		if !ok {
			t.Errorf("%s: field %s missing", what, k)
			continue
		}
		if got := jsonKind(v); got != kind {
			t.Errorf("%s: field %s is %s (%v), want %s", what, k, got, v, kind)
		}
	}
	for k := range obj {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: unexpected field %s", what, k)
		}
	}
}

func checkEnvelope(t *testing.T, r response, code string) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	checkTypes(t, "envelope", r.body, map[string]string{"code": "string", "success": "boolean", "msg": "string", "message": "string", "trace": "string", "data": jsonKind(r.body["data"])})
	if r.body["code"] != code || r.body["success"] != true || r.body["msg"] != "success" || r.body["message"] != "success" {
		t.Fatalf("envelope %s", r.raw)
	}
	if tr := r.body["trace"].(string); len(tr) != 36 || r.header.Get("X-Request-Id") != tr {
		t.Fatalf("trace %q, X-Request-Id %q", tr, r.header.Get("X-Request-Id"))
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if r.header.Get(h) == "" {
			t.Fatalf("header %s missing", h)
		}
	}
}

func num(v any) int64 {
	n, err := v.(json.Number).Int64()
	if err != nil {
		panic(err)
	}
	return n
}

var collectionDetailTypes = map[string]string{
	"orderNo": "string", "orderId": "string", "cashierId": "string", "custNo": "string", "amount": "string",
	"paidAmount": "string", "symbol": "string", "chainId": "string", "status": "string", "txId": "string",
	"depositAddress": "string", "payUrl": "string", "expireTime": "integer", "createTime": "integer", "updateTime": "integer",
	"address": "string", "fromAddress": "string", "payTime": "integer", "payments": "array",
	"createdBy": "string", "origin": "string", "refunds": "array",
}

var payoutDetailTypes = map[string]string{
	"orderNo": "string", "orderId": "string", "contractId": "string", "chainId": "string", "recipient": "string",
	"amount": "string", "symbol": "string", "payoutType": "integer", "fromAddress": "string", "remark": "string",
	"txId": "string", "status": "string", "fee": "string", "gasAmount": "string", "createTime": "integer", "updateTime": "integer",
	"custNo": "string",
}

func TestCreateCollectionAndReadItBack(t *testing.T) {
	e := newEnv(t, nil)
	ts := strconv.FormatInt(t0.UnixMilli(), 10)
	r := e.do(request{method: "POST", path: "/order/api/v2/pay/order", params: withSign(collectionBody(nil), secretKey, ts), timeMs: ts})
	checkEnvelope(t, r, "200")
	d := r.data()
	checkTypes(t, "create collection", d, map[string]string{"orderNo": "string", "payUrl": "string", "qrCode": "string", "expireTime": "integer", "address": "string"})
	if d["orderNo"] != "C1001" || num(d["expireTime"]) != t0.Add(30*time.Minute).UnixMilli() {
		t.Fatalf("data %v", d)
	}
	payURL := d["payUrl"].(string)
	if !strings.HasPrefix(payURL, e.srv.URL+"/pay/co_") {
		t.Fatalf("payUrl %s", payURL)
	}
	const prefix = "data:image/png;base64,"
	qrCode := d["qrCode"].(string)
	if !strings.HasPrefix(qrCode, prefix) {
		t.Fatalf("qrCode %.40s", qrCode)
	}
	pngBytes, err := base64.StdEncoding.DecodeString(qrCode[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(pngBytes)); err != nil || cfg.Width != cfg.Height || cfg.Width < 100 {
		t.Fatalf("QR PNG %v %+v", err, cfg)
	}

	// Detail, raw.
	r = e.do(request{method: "GET", path: "/order/api/v2/payorder/detail", query: "orderNo=C1001"})
	checkEnvelope(t, r, "200")
	d = r.data()
	checkTypes(t, "collection detail", d, collectionDetailTypes)
	want := map[string]any{"orderNo": "C1001", "cashierId": cashierID, "custNo": "cust-7", "amount": "100.50", "paidAmount": "0.00",
		"symbol": "USDT", "chainId": "ETH", "status": "PENDING", "txId": "", "payUrl": payURL}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("detail %s = %v, want %v", k, d[k], v)
		}
	}
	if num(d["createTime"]) != t0.UnixMilli() || !strings.HasPrefix(d["depositAddress"].(string), "0x") {
		t.Errorf("detail %v", d)
	}

	// Through the SDK.
	ctx := context.Background()
	got, err := e.cli.CollectionDetail(ctx, "C1001")
	if err != nil || got.Amount != "100.50" || got.CustNo != "cust-7" || got.PayURL != payURL {
		t.Fatalf("SDK detail %+v, %v", got, err)
	}
	created, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "C1002", Amount: "5", Symbol: "usdc"})
	if err != nil || created.OrderNo != "C1002" {
		t.Fatalf("SDK create %+v, %v", created, err)
	}
	if o, err := e.cli.CollectionDetail(ctx, "C1002"); err != nil || o.ChainID != "TRON" || o.Symbol != "USDC" || o.Amount != "5.00" || o.DepositAddress[0] != 'T' {
		t.Fatalf("default chain TRON: %+v, %v", o, err)
	}
}

func TestCollectionList(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		if _, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "L" + strconv.Itoa(i), Amount: "10", Symbol: "USDT"}); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Second)
	}
	r := e.do(request{method: "GET", path: "/order/api/v2/payorder/list", query: "page=2&pageSize=2&status=PENDING"})
	checkEnvelope(t, r, "200")
	d := r.data()
	checkTypes(t, "list", d, map[string]string{"list": "array", "total": "integer", "page": "integer", "pageSize": "integer"})
	if num(d["total"]) != 5 || num(d["page"]) != 2 || num(d["pageSize"]) != 2 {
		t.Fatalf("list %v", d)
	}
	list := d["list"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d entries", len(list))
	}
	checkTypes(t, "list entry", list[0].(map[string]any), collectionDetailTypes)
	if no := list[0].(map[string]any)["orderNo"]; no != "L2" { // newest first: L4 L3 | L2 L1 | L0
		t.Fatalf("first entry of page 2 is %v", no)
	}

	// Defaults and time bounds through the SDK.
	all, err := e.cli.ListCollections(ctx, client.ListRequest{})
	if err != nil || all.Total != 5 || all.Page != 1 || all.PageSize != 20 || len(all.List) != 5 {
		t.Fatalf("defaults: %+v, %v", all, err)
	}
	some, err := e.cli.ListCollections(ctx, client.ListRequest{StartTime: t0.Add(time.Second).UnixMilli(), EndTime: t0.Add(3 * time.Second).UnixMilli()})
	if err != nil || some.Total != 3 {
		t.Fatalf("time window: %+v, %v", some, err)
	}
	none, err := e.cli.ListCollections(ctx, client.ListRequest{Status: "SUCCESS"})
	if err != nil || none.Total != 0 || none.List == nil {
		t.Fatalf("status filter: %+v, %v", none, err)
	}
	if r := e.do(request{method: "GET", path: "/order/api/v2/payorder/list", query: "status=SUCCESS"}); !bytes.Contains(r.raw, []byte(`"list":[]`)) {
		t.Fatalf("empty list must be [] not null: %s", r.raw)
	}
}

func TestCreatePayoutAndDetail(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(request{method: "POST", path: "/order/api/v2/payout/order", params: map[string]any{
		"contractId": tronK, "orderNo": "P1", "recipient": tronRecip, "amount": "10.5", "symbol": "USDT", "payoutType": 1, "remark": "salary", "chainId": "TRON", "custNo": "C-9"}})
	checkEnvelope(t, r, "200")
	d := r.data()
	checkTypes(t, "create payout", d, map[string]string{"orderNo": "string", "orderId": "string", "status": "string", "createTime": "integer"})
	if d["orderNo"] != "P1" || d["status"] != "PENDING" || !strings.HasPrefix(d["orderId"].(string), "po_") || num(d["createTime"]) != t0.UnixMilli() {
		t.Fatalf("data %v", d)
	}
	r = e.do(request{method: "GET", path: "/order/api/v2/payout/detail", query: "orderNo=P1"})
	checkEnvelope(t, r, "200")
	d = r.data()
	checkTypes(t, "payout detail", d, payoutDetailTypes)
	want := map[string]any{"orderNo": "P1", "contractId": tronK, "chainId": "TRON", "recipient": tronRecip, "amount": "10.50", "symbol": "USDT",
		"fromAddress": tronContract, "remark": "salary", "txId": "", "status": "PENDING", "fee": "1.00", "gasAmount": "", "custNo": "C-9"}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("detail %s = %v, want %v", k, d[k], v)
		}
	}
	if num(d["payoutType"]) != 1 {
		t.Errorf("payoutType %v", d["payoutType"])
	}

	// Allowance mode through the SDK.
	ctx := context.Background()
	p, err := e.cli.CreatePayout(ctx, client.PayoutRequest{ContractID: ethK, OrderNo: "P2", Recipient: ethRecip, Amount: "100", Symbol: "USDC", PayoutType: 2, FromAddress: richWallet})
	if err != nil || p.Status != "PENDING" {
		t.Fatalf("%+v, %v", p, err)
	}
	got, err := e.cli.PayoutDetail(ctx, "P2")
	if err != nil || got.PayoutType != 2 || got.FromAddress != strings.ToLower(richWallet) || got.Amount != "100.00" {
		t.Fatalf("%+v, %v", got, err)
	}
	if _, err := e.cli.PayoutDetail(ctx, "nope"); !client.IsCode(err, "000202") {
		t.Fatalf("unknown order: %v", err)
	}
}

func TestBatchPayoutReportsEachOrder(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(request{method: "POST", path: "/order/api/v2/payout/batch", params: map[string]any{
		"contractId": tronK,
		"orders": []any{
			map[string]any{"orderNo": "B1", "recipient": tronRecip, "amount": "100", "symbol": "USDT"},
			map[string]any{"orderNo": "B2", "recipient": tronRecip, "amount": "1.0000001", "symbol": "USDT"},
			map[string]any{"orderNo": "B1", "recipient": tronRecip, "amount": "5", "symbol": "USDT"},
			map[string]any{"orderNo": "B3", "recipient": "not-an-address", "amount": "5", "symbol": "USDT", "remark": "x"},
			map[string]any{"orderNo": "B4", "recipient": tronRecip, "amount": "950", "symbol": "USDT"},
		}}})
	checkEnvelope(t, r, "200")
	d := r.data()
	checkTypes(t, "batch", d, map[string]string{"successCount": "integer", "failCount": "integer", "orders": "array"})
	if num(d["successCount"]) != 1 || num(d["failCount"]) != 4 {
		t.Fatalf("batch %s", r.raw)
	}
	wantCodes := []string{"200", "000105", "000201", "000105", "000403"}
	for i, it := range d["orders"].([]any) {
		o := it.(map[string]any)
		checkTypes(t, "batch order", o, map[string]string{"orderNo": "string", "orderId": "string", "status": "string", "success": "boolean", "code": "string", "msg": "string"})
		if o["code"] != wantCodes[i] || o["success"] != (i == 0) {
			t.Errorf("order %d: %v, want code %s", i, o, wantCodes[i])
		}
	}
	if _, p := e.counts(); p != 1 {
		t.Fatalf("%d payouts stored, want 1", p)
	}

	// Allowance batch: one fromAddress for all orders.
	res, err := e.cli.BatchPayout(context.Background(), client.BatchRequest{ContractID: ethK, PayoutType: 2, FromAddress: richWallet,
		Orders: []client.BatchOrder{{OrderNo: "A1", Recipient: ethRecip, Amount: "200", Symbol: "USDT"}, {OrderNo: "A2", Recipient: ethRecip, Amount: "299", Symbol: "USDT"}}})
	if err != nil || res.SuccessCount != 1 || res.FailCount != 1 || res.Orders[1].Code != "000308" {
		t.Fatalf("%+v, %v", res, err)
	}
}

func TestConfigEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierID, sigKey: "-"})
	checkEnvelope(t, r, "0")
	d := r.data()
	checkTypes(t, "cashier info", d, map[string]string{"cashierId": "string", "merchantId": "string", "merchantName": "string",
		"supportedNetworks": "array", "supportedCoins": "array", "paymentMethods": "array", "webhookUrl": "string", "status": "string", "createdAt": "integer"})
	// Key only: the public API key does not reveal the webhook URL.
	if d["merchantName"] != "Acme Shop" || d["status"] != "active" || d["webhookUrl"] != "" || num(d["createdAt"]) != t0.UnixMilli() {
		t.Fatalf("%v", d)
	}
	signedInfo := e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierID})
	if signedInfo.data()["webhookUrl"] != "https://acme.example/hook" {
		t.Fatalf("signed cashier info: %s", signedInfo.raw)
	}
	if bad := e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierID, sigKey: "sk_wrong"}); bad.status != 401 {
		t.Fatalf("cashier info with a wrong signature: %s", bad.raw)
	}
	checkTypes(t, "supported network", d["supportedNetworks"].([]any)[1].(map[string]any), map[string]string{"chainId": "string", "networkName": "string", "symbol": "string", "decimals": "integer"})
	coin := d["supportedCoins"].([]any)[2].(map[string]any)
	checkTypes(t, "supported coin", coin, map[string]string{"symbol": "string", "name": "string", "chainId": "string", "contractAddress": "string", "decimals": "integer", "minAmount": "string", "maxAmount": "string"})
	if coin["chainId"] != "1" || coin["minAmount"] != "1.00" || coin["maxAmount"] != "1000000.00" {
		t.Fatalf("coin %v", coin)
	}
	checkTypes(t, "payment method", d["paymentMethods"].([]any)[0].(map[string]any), map[string]string{"type": "string", "name": "string", "enabled": "boolean"})

	expectError(t, e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierID, apiKey: "-"}), 401, "ERROR_000401", "API-Key")
	expectError(t, e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierID, apiKey: "pk_wrong"}), 401, "ERROR_000401", "not valid")
	expectError(t, e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=cs_nope"}), 404, "ERROR_000101", "does not exist")
	expectError(t, e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashier2}), 404, "ERROR_000101", "does not exist")
	expectError(t, e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierOff}), 409, "ERROR_000102", "closed")

	r = e.do(request{method: "GET", path: "/admin/api/v2/pub/coin/list", apiKey: "-", sigKey: "-"})
	checkEnvelope(t, r, "0")
	coins := r.body["data"].([]any)
	if len(coins) != 2 {
		t.Fatalf("%d coins", len(coins))
	}
	c0 := coins[0].(map[string]any)
	checkTypes(t, "coin", c0, map[string]string{"symbol": "string", "name": "string", "networks": "array"})
	cn := c0["networks"].([]any)
	if len(cn) != 3 {
		t.Fatalf("%d networks for %v", len(cn), c0["symbol"])
	}
	checkTypes(t, "coin network", cn[2].(map[string]any), map[string]string{"chainId": "string", "networkName": "string", "contractAddress": "string", "decimals": "integer", "minAmount": "string", "maxAmount": "string", "withdrawFee": "string"})
	if cn[2].(map[string]any)["chainId"] != "42161" || cn[2].(map[string]any)["withdrawFee"] != "1.00" {
		t.Fatalf("%v", cn[2])
	}

	r = e.do(request{method: "GET", path: "/admin/api/v2/pub/network/list", apiKey: "-", sigKey: "-"})
	checkEnvelope(t, r, "0")
	nets := r.body["data"].([]any)
	var ids []string
	for _, n := range nets {
		checkTypes(t, "network", n.(map[string]any), map[string]string{"chainId": "string", "networkName": "string", "shortName": "string", "symbol": "string", "decimals": "integer", "explorerUrl": "string", "rpcUrl": "string", "status": "string", "avgBlockTime": "integer", "avgGasFee": "string"})
		ids = append(ids, n.(map[string]any)["chainId"].(string))
	}
	if strings.Join(ids, ",") != "TRON,1,42161" {
		t.Fatalf("chain ids %v", ids)
	}

	// The SDK reads the same.
	ctx := context.Background()
	info, err := e.cli.CashierInfo(ctx, cashierID)
	if err != nil || len(info.SupportedCoins) != 6 || info.PaymentMethods[1].Type != "scan" {
		t.Fatalf("%+v, %v", info, err)
	}
	if cs, err := e.cli.Coins(ctx); err != nil || cs[1].Networks[0].ChainID != "TRON" {
		t.Fatalf("%+v, %v", cs, err)
	}
	if ns, err := e.cli.Networks(ctx); err != nil || ns[1].ExplorerURL != "https://etherscan.io" || ns[2].AvgBlockTime != 1 {
		t.Fatalf("%+v, %v", ns, err)
	}
	var ce *client.Error
	_, err = client.New(e.srv.URL, "pk_wrong", "x").CashierInfo(ctx, cashierID)
	if !errors.As(err, &ce) || ce.HTTPStatus != 401 || ce.Code != "ERROR_000401" || ce.Trace == "" {
		t.Fatalf("SDK error %#v", err)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	e := newEnv(t, nil)
	expectError(t, e.do(request{method: "GET", path: "/order/api/v2/nothing"}), 404, "000202", "no endpoint")
	expectError(t, e.do(request{method: "GET", path: "/order/api/v2/pay/order"}), 405, "000105", "not allowed")
	expectError(t, e.do(request{method: "POST", path: "/admin/api/v2/pub/coin/list", params: map[string]any{}}), 405, "ERROR_000400", "not allowed")
}

func TestPanicBecomesSystemError(t *testing.T) {
	e := newEnv(t, nil)
	h, err := NewServer(DefaultConfig(), e.svc, panicStore{e.store}, e.svc.Registry, e.clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Config.Handler = h
	expectError(t, e.do(request{method: "GET", path: "/order/api/v2/payout/detail", query: "orderNo=x"}), 500, "000101", "system error")
	expectError(t, e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=x"}), 500, "ERROR_000500", "system error")
}

// panicStore fails the way a bug would.
type panicStore struct{ cashier.Store }

func (panicStore) MerchantByAPIKey(context.Context, string) (*cashier.Merchant, error) {
	panic("boom")
}

func TestAlways200Mode(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.ErrorStatus = StatusAlways200 })
	expectError(t, e.do(request{method: "GET", path: "/order/api/v2/payout/detail", query: "orderNo=x", apiKey: "-"}), 200, "000112", "API-Key")
	_, err := e.cli.PayoutDetail(context.Background(), "nope")
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Code != "000202" || ce.HTTPStatus != 200 {
		t.Fatalf("SDK must read success:false as an error: %v", err)
	}
}

func TestRequestsAreLogged(t *testing.T) {
	e := newEnv(t, nil)
	var buf syncBuffer
	h, err := NewServer(DefaultConfig(), e.svc, e.store, e.svc.Registry, e.clock, slog.New(slog.NewJSONHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Config.Handler = h
	r := e.do(request{method: http.MethodGet, path: "/order/api/v2/payorder/detail", query: "orderNo=nope"})
	// The access log is written as the handler returns; give it a moment.
	for i := 0; i < 100 && len(buf.Bytes()) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil {
		t.Fatalf("%v: %s", err, buf.Bytes())
	}
	if line["trace"] != r.header.Get("X-Request-Id") || line["status"] != float64(404) || line["merchant"] != "m_1" || line["code"] != "not_found" || line["path"] != "/order/api/v2/payorder/detail" {
		t.Fatalf("log line %v", line)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.b.Bytes()...)
}
