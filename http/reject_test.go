package http

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sign"
)

const (
	pathCollection = "/order/api/v2/pay/order"
	pathPayout     = "/order/api/v2/payout/order"
	pathBatch      = "/order/api/v2/payout/batch"
)

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// TestCollectionCreateRejections sends one broken request per case and
// checks the status, code and message, and that no order was created.
func TestCollectionCreateRejections(t *testing.T) {
	e := newEnv(t, nil)
	now := ms(t0)
	h := sign.HeaderNames("")
	signed := func(over map[string]any) map[string]any { return withSign(collectionBody(over), secretKey, now) }
	cases := []struct {
		name   string
		req    request
		status int
		code   string
		msg    string
	}{
		{"missing API key", request{params: signed(nil), apiKey: "-"}, 401, "000112", "Service-API-Key header is required"},
		{"unknown API key", request{params: signed(nil), apiKey: "pk_unknown"}, 401, "000112", "not valid"},
		{"wrong secret", request{params: signed(nil), sigKey: "sk_wrong"}, 401, "000306", "signature verification failed"},
		{"other merchant's secret", request{params: signed(nil), sigKey: secretKey2}, 401, "000306", "signature verification failed"},
		{"no signature header", request{params: signed(nil), sigKey: "-"}, 401, "000306", "Service-Signature-V2 header is required"},
		{"no time header", request{params: signed(nil), headers: map[string]string{h.RequestTime: ""}}, 401, "000306", "Service-Request-Time header is required"},
		{"stale time", request{params: withSign(collectionBody(nil), secretKey, ms(t0.Add(-31*time.Second))), timeMs: ms(t0.Add(-31 * time.Second))}, 401, "000306", "outside the validity window"},
		{"time in seconds", request{params: withSign(collectionBody(nil), secretKey, strconv.FormatInt(t0.Unix(), 10)), timeMs: strconv.FormatInt(t0.Unix(), 10)}, 401, "000306", "looks like Unix seconds"},
		{"future time", request{params: withSign(collectionBody(nil), secretKey, ms(t0.Add(5*time.Second))), timeMs: ms(t0.Add(5 * time.Second))}, 401, "000306", "ahead of the server clock"},
		{"window too large", request{params: signed(nil), headers: map[string]string{h.RecvWindow: "120000"}}, 401, "000306", "at most 60000"},
		{"window not a number", request{params: signed(nil), headers: map[string]string{h.RecvWindow: "soon"}}, 401, "000306", "Rec_Window"},
		{"sign field differs from header", request{params: withSign(collectionBody(nil), "sk_other", now)}, 401, "000306", "body field sign"},
		{"sign field not a string", request{params: collectionBody(map[string]any{"sign": 7})}, 400, "000102", "sign must be a JSON string"},
		{"too many decimals", request{params: signed(map[string]any{"amount": "1.0000001"})}, 400, "000105", "more than 6 decimal places"},
		{"negative amount", request{params: signed(map[string]any{"amount": "-1"})}, 400, "000105", "not a plain decimal"},
		{"zero amount", request{params: signed(map[string]any{"amount": "0"})}, 400, "000105", "greater than zero"},
		{"below minimum", request{params: signed(map[string]any{"amount": "0.99"})}, 400, "000105", "below the minimum 1.00"},
		{"above maximum", request{params: signed(map[string]any{"amount": "1000000.01"})}, 400, "000105", "above the maximum"},
		{"exponent amount", request{params: signed(map[string]any{"amount": "1e3"})}, 400, "000105", "not a plain decimal"},
		{"amount as JSON number", request{params: signed(map[string]any{"amount": 10.5})}, 400, "000102", "amount must be a JSON string"},
		{"amount as JSON integer", request{params: signed(map[string]any{"amount": 10})}, 400, "000102", "amount must be a JSON string"},
		{"unknown chain", request{params: signed(map[string]any{"chainId": "BTC"})}, 400, "000105", `chainId "BTC" is not supported`},
		{"unknown token", request{params: signed(map[string]any{"symbol": "DAI"})}, 400, "000105", `token "DAI" is not supported`},
		{"orderNo wrong type", request{params: signed(map[string]any{"orderNo": 12345})}, 400, "000102", "orderNo must be a JSON string"},
		{"chainId wrong type", request{params: signed(map[string]any{"chainId": true})}, 400, "000102", "chainId must be a JSON string, not a boolean"},
		{"unknown field", request{params: signed(map[string]any{"colour": "red"})}, 400, "000105", `unknown field "colour"`},
		{"missing cashierId", request{params: signed(map[string]any{"cashierId": nil})}, 400, "000103", "cashierId is required"},
		{"missing amount", request{params: signed(map[string]any{"amount": nil})}, 400, "000103", "amount is required"},
		{"null orderNo", request{params: signed(map[string]any{"orderNo": nil})}, 400, "000103", "orderNo is required"},
		{"unknown cashier", request{params: signed(map[string]any{"cashierId": "cs_nope"})}, 404, "000202", "cs_nope"},
		{"other merchant's cashier", request{params: signed(map[string]any{"cashierId": cashier2})}, 404, "000202", "does not exist"},
		{"closed cashier", request{params: signed(map[string]any{"cashierId": cashierOff})}, 409, "000204", "inactive"},
		{"bad orderNo", request{params: signed(map[string]any{"orderNo": "a b"})}, 400, "000105", "orderNo"},
		{"bad redirect", request{params: signed(map[string]any{"redirectUrl": "javascript:alert(1)"})}, 400, "000105", "redirectUrl"},
		{"body is an array", request{body: []byte(`[{"orderNo":"x"}]`)}, 400, "000105", "JSON object"},
		{"body is not JSON", request{body: []byte(`orderNo=x`)}, 400, "000105", "JSON object"},
		{"empty body", request{body: []byte{}}, 400, "000105", "JSON object"},
		{"duplicate key", request{body: []byte(`{"orderNo":"a","orderNo":"b"}`)}, 400, "000105", "more than once"},
		{"trailing data", request{body: []byte(`{"orderNo":"a"} {}`)}, 400, "000105", "more than one JSON value"},
		{"oversized body", request{params: signed(map[string]any{"custNo": strings.Repeat("x", 70_000)})}, 413, "000105", "larger than 65536 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.method, c.req.path = http.MethodPost, pathCollection
			if c.req.timeMs == "" {
				c.req.timeMs = now
			}
			expectError(t, e.do(c.req), c.status, c.code, c.msg)
			if n, _ := e.counts(); n != 0 {
				t.Fatalf("%d collection orders exist after a rejected request", n)
			}
		})
	}
}

func TestPayoutRejections(t *testing.T) {
	e := newEnv(t, nil)
	body := func(over map[string]any) map[string]any {
		p := map[string]any{"contractId": tronK, "orderNo": "P1", "recipient": tronRecip, "amount": "10", "symbol": "USDT"}
		for k, v := range over {
			if v == nil {
				delete(p, k)
			} else {
				p[k] = v
			}
		}
		return p
	}
	cases := []struct {
		name   string
		path   string
		params map[string]any
		status int
		code   string
		msg    string
	}{
		{"allowance without fromAddress", pathPayout, body(map[string]any{"contractId": ethK, "recipient": ethRecip, "payoutType": 2}), 400, "000103", "fromAddress is required"},
		{"payoutType as text", pathPayout, body(map[string]any{"payoutType": "one"}), 400, "000102", "payoutType must be a JSON integer"},
		{"payoutType as signed digits", pathPayout, body(map[string]any{"payoutType": "+1"}), 400, "000102", "payoutType must be a JSON integer"},
		{"payoutType fractional", pathPayout, body(map[string]any{"payoutType": 1.5}), 400, "000102", "payoutType must be an integer"},
		{"payoutType 3", pathPayout, body(map[string]any{"payoutType": 3}), 400, "000105", "payoutType must be 1"},
		{"payoutType 0", pathPayout, body(map[string]any{"payoutType": 0}), 400, "000105", "payoutType must be 1"},
		{"fromAddress in balance mode", pathPayout, body(map[string]any{"fromAddress": tronRecip}), 400, "000105", "only used when payoutType is 2"},
		{"chainId disagrees with contract", pathPayout, body(map[string]any{"chainId": "ETH"}), 400, "000105", "does not match contract"},
		{"unknown contract", pathPayout, body(map[string]any{"contractId": "ct_nope"}), 404, "000401", "ct_nope"},
		{"bad recipient", pathPayout, body(map[string]any{"recipient": "0x12"}), 400, "000105", "not a valid TRON address"},
		{"contract balance too low", pathPayout, body(map[string]any{"amount": "999.01"}), 422, "000403", "contract has only 1000.00"},
		{"recipient is the paying wallet", pathPayout, body(map[string]any{"contractId": ethK, "recipient": ethRecip, "payoutType": 2, "fromAddress": ethRecip}), 400, "000105", "paying wallet"},
		{"allowance too low", pathPayout, body(map[string]any{"contractId": ethK, "recipient": ethRecip, "payoutType": 2, "fromAddress": "0x3333333333333333333333333333333333333333"}), 422, "000308", "allows the contract only 0.00"},
		{"amount as number", pathPayout, body(map[string]any{"amount": 10}), 400, "000102", "amount must be a JSON string"},
		{"unknown field", pathPayout, body(map[string]any{"memo": "x"}), 400, "000105", `unknown field "memo"`},
		{"missing recipient", pathPayout, body(map[string]any{"recipient": nil}), 400, "000103", "recipient is required"},
		{"token not on network", pathPayout, body(map[string]any{"symbol": "BUSD"}), 400, "000105", "not supported"},
		{"batch without orders", pathBatch, map[string]any{"contractId": tronK}, 400, "000103", "orders is required"},
		{"batch empty", pathBatch, map[string]any{"contractId": tronK, "orders": []any{}}, 400, "000103", "at least one order"},
		{"batch orders not array", pathBatch, map[string]any{"contractId": tronK, "orders": "B1"}, 400, "000102", "orders must be a JSON array"},
		{"batch entry wrong type", pathBatch, map[string]any{"contractId": tronK, "orders": []any{map[string]any{"orderNo": "B1", "recipient": tronRecip, "amount": 5, "symbol": "USDT"}}}, 400, "000102", "orders[0].amount must be a JSON string"},
		{"batch entry unknown field", pathBatch, map[string]any{"contractId": tronK, "orders": []any{map[string]any{"orderNo": "B1", "recipient": tronRecip, "amount": "5", "symbol": "USDT", "x": 1}}}, 400, "000105", `unknown field orders[0]."x"`},
		{"batch allowance without fromAddress", pathBatch, map[string]any{"contractId": ethK, "payoutType": 2, "orders": []any{map[string]any{"orderNo": "B1", "recipient": ethRecip, "amount": "5", "symbol": "USDT"}}}, 400, "000103", "fromAddress is required"},
		{"batch too large", pathBatch, map[string]any{"contractId": tronK, "orders": manyOrders(101)}, 413, "000105", "at most 100 orders"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectError(t, e.do(request{method: http.MethodPost, path: c.path, params: c.params}), c.status, c.code, c.msg)
			if _, n := e.counts(); n != 0 {
				t.Fatalf("%d payout orders exist after a rejected request", n)
			}
		})
	}
}

func manyOrders(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"orderNo": fmt.Sprintf("M%d", i), "recipient": tronRecip, "amount": "1", "symbol": "USDT"}
	}
	return out
}

func TestGetRejections(t *testing.T) {
	e := newEnv(t, nil)
	list := "/order/api/v2/payorder/list"
	cases := []struct {
		name, path, query string
		req               request
		status            int
		code, msg         string
	}{
		{"detail without key", "/order/api/v2/payorder/detail", "orderNo=x", request{apiKey: "-"}, 401, "000112", "API-Key"},
		{"detail unsigned", "/order/api/v2/payout/detail", "orderNo=x", request{sigKey: "-"}, 401, "000306", "Signature-V2"},
		{"detail badly signed", "/order/api/v2/payorder/detail", "orderNo=x", request{sigKey: "nope"}, 401, "000306", "verification failed"},
		{"detail missing orderNo", "/order/api/v2/payorder/detail", "", request{}, 400, "000103", "orderNo is required"},
		{"detail unknown order", "/order/api/v2/payorder/detail", "orderNo=nope", request{}, 404, "000202", "nope"},
		{"detail unknown param", "/order/api/v2/payout/detail", "orderNo=x&y=1", request{}, 400, "000105", `unknown field "y"`},
		{"detail repeated param", "/order/api/v2/payout/detail", "orderNo=x&orderNo=y", request{}, 400, "000105", "more than once"},
		{"page zero", list, "page=0", request{}, 400, "000105", "page must be at least 1"},
		{"page negative", list, "page=-2", request{}, 400, "000105", "page must be at least 1"},
		{"page not a number", list, "page=two", request{}, 400, "000102", "page must be an integer"},
		{"page fractional", list, "page=1.5", request{}, 400, "000102", "page must be an integer"},
		{"pageSize zero", list, "pageSize=0", request{}, 400, "000105", "pageSize must be between 1 and 100"},
		{"pageSize too big", list, "pageSize=101", request{}, 400, "000105", "pageSize must be between 1 and 100"},
		{"startTime not a number", list, "startTime=yesterday", request{}, 400, "000102", "startTime must be an integer"},
		{"endTime in seconds", list, "endTime=1763884810", request{}, 400, "000105", "endTime 1763884810 looks like Unix seconds"},
		{"endTime before startTime", list, "startTime=1763884810000&endTime=1763884800000", request{}, 400, "000105", "endTime is before startTime"},
		{"bad status", list, "status=PAID", request{}, 400, "000105", `status "PAID"`},
		{"cashier info missing id", "/admin/api/v2/pub/cashier/info", "", request{}, 400, "ERROR_000400", "cashierId is required"},
		{"network list unknown param", "/admin/api/v2/pub/network/list", "x=1", request{apiKey: "-"}, 400, "ERROR_000400", `unknown field "x"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.method, c.req.path, c.req.query = http.MethodGet, c.path, c.query
			expectError(t, e.do(c.req), c.status, c.code, c.msg)
		})
	}
}

func TestDuplicateOrderNo(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	req := client.CollectionRequest{CashierID: cashierID, OrderNo: "D1", Amount: "10", Symbol: "USDT"}
	if _, err := e.cli.CreateCollection(ctx, req); err != nil {
		t.Fatal(err)
	}
	_, err := e.cli.CreateCollection(ctx, req)
	if !client.IsCode(err, "000201") || err.(*client.Error).HTTPStatus != 409 {
		t.Fatalf("second create: %v", err)
	}
	// Another merchant may use the same number.
	other := client.New(e.srv.URL, apiKey2, secretKey2, client.WithClock(e.clock))
	if _, err := other.CreateCollection(ctx, client.CollectionRequest{CashierID: cashier2, OrderNo: "D1", Amount: "10", Symbol: "USDT"}); err != nil {
		t.Fatalf("other merchant: %v", err)
	}
	preq := client.PayoutRequest{ContractID: tronK, OrderNo: "D1", Recipient: tronRecip, Amount: "1", Symbol: "USDT"}
	if _, err := e.cli.CreatePayout(ctx, preq); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cli.CreatePayout(ctx, preq); !client.IsCode(err, "000201") {
		t.Fatalf("duplicate payout: %v", err)
	}
	if c, p := e.counts(); c != 1 || p != 1 {
		t.Fatalf("counts %d %d", c, p)
	}
}

func TestConcurrentDuplicateCreatesOneOrder(t *testing.T) {
	e := newEnv(t, nil)
	const n = 12
	for _, kind := range []string{"collection", "payout"} {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				ctx := context.Background()
				if kind == "collection" {
					_, errs[i] = e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "SAME", Amount: "10", Symbol: "USDT"})
				} else {
					_, errs[i] = e.cli.CreatePayout(ctx, client.PayoutRequest{ContractID: tronK, OrderNo: "SAME", Recipient: tronRecip, Amount: "10", Symbol: "USDT"})
				}
			}(i)
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !client.IsCode(err, "000201"):
				t.Fatalf("%s: unexpected error %v", kind, err)
			}
		}
		if ok != 1 {
			t.Fatalf("%s: %d successes, want exactly 1", kind, ok)
		}
	}
	if c, p := e.counts(); c != 1 || p != 1 {
		t.Fatalf("counts %d %d", c, p)
	}
}

func TestPoliciesCanBeRelaxed(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.SignField = SignFieldIgnore; c.UnknownFields = UnknownIgnore })
	r := e.do(request{method: http.MethodPost, path: pathCollection, params: collectionBody(map[string]any{"colour": "red", "sign": "whatever"})})
	checkEnvelope(t, r, "200")
	r = e.do(request{method: http.MethodGet, path: "/order/api/v2/payorder/detail", query: "orderNo=C1001&extra=1"})
	checkEnvelope(t, r, "200")
}

func TestURLEncodedSignaturesWhenEnabled(t *testing.T) {
	h := sign.HeaderNames("")
	for _, accept := range [][]sign.Encoding{{sign.Raw}, {sign.Raw, sign.URLEncoded}} {
		e := newEnv(t, func(c *Config) { c.Encodings = accept })
		p := collectionBody(map[string]any{"custNo": "a b&c"})
		params, body, _ := sign.FromValue(p)
		now := ms(t0)
		sig, _ := sign.Request(secretKey, params, now, sign.URLEncoded)
		var withSig map[string]any
		_ = jsonUnmarshal(body, &withSig)
		withSig["sign"] = sig
		r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSig, sigKey: "-", headers: map[string]string{h.SignatureV2: sig}})
		if len(accept) == 1 {
			expectError(t, r, 401, "000306", "verification failed")
		} else {
			checkEnvelope(t, r, "200")
		}
	}
}

func TestCustomHeaderPrefix(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.HeaderPrefix = "Brand" })
	cli := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock), client.WithHeaderPrefix("Brand"))
	if _, err := cli.CreateCollection(context.Background(), client.CollectionRequest{CashierID: cashierID, OrderNo: "H1", Amount: "10", Symbol: "USDT"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cli.CollectionDetail(context.Background(), "H1"); !client.IsCode(err, "000112") {
		t.Fatalf("default prefix against a Brand server: %v", err)
	}
}

func TestDisabledMerchantIsUnauthorized(t *testing.T) {
	e := newEnv(t, nil)
	_, err := e.store.Merchant(context.Background(), "m_1")
	if err != nil {
		t.Fatal(err)
	}
	// A store that reports the merchant disabled.
	h, _ := NewServer(DefaultConfig(), e.svc, disabledStore{e.store}, e.svc.Registry, e.clock, nil)
	e.srv.Config.Handler = h
	expectError(t, e.do(request{method: http.MethodGet, path: "/order/api/v2/payorder/detail", query: "orderNo=x"}), 401, "000112", "disabled")
}
