package http

import (
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// openAPI is the parsed openapi.yaml at the repository root.
type openAPI map[string]any

func loadOpenAPI(t *testing.T) openAPI {
	t.Helper()
	b, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func mapAt(v any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	m, _ := v.(map[string]any)
	return m
}

// resolve follows a local $ref.
func (d openAPI) resolve(node map[string]any) map[string]any {
	for {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		node = mapAt(map[string]any(d), strings.Split(strings.TrimPrefix(ref, "#/"), "/")...)
		if node == nil {
			panic("dangling $ref " + ref)
		}
	}
}

// validate checks a decoded JSON value against a schema: types, enums,
// and for objects that the value has exactly the declared properties.
func (d openAPI) validate(t *testing.T, where string, schema map[string]any, v any) {
	t.Helper()
	schema = d.resolve(schema)
	if v == nil {
		if schema["nullable"] != true {
			t.Errorf("%s: null but the schema is not nullable", where)
		}
		return
	}
	want, _ := schema["type"].(string)
	got := jsonKind(v)
	if want != got && !(want == "number" && got == "integer") {
		t.Errorf("%s: %s, schema says %s", where, got, want)
		return
	}
	if enum, ok := schema["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %v is not in the enum %v", where, v, enum)
		}
	}
	switch got {
	case "object":
		props := mapAt(schema, "properties")
		obj := v.(map[string]any)
		for k, pv := range obj {
			ps, ok := props[k].(map[string]any)
			if !ok {
				t.Errorf("%s: field %s is not in the schema", where, k)
				continue
			}
			d.validate(t, where+"."+k, ps, pv)
		}
		for k := range props {
			if _, ok := obj[k]; !ok {
				t.Errorf("%s: schema field %s is not in the response", where, k)
			}
		}
		req, _ := schema["required"].([]any)
		for _, k := range req {
			if _, ok := obj[k.(string)]; !ok {
				t.Errorf("%s: required field %s missing", where, k)
			}
		}
	case "array":
		for i, e := range v.([]any) {
			d.validate(t, fmt.Sprintf("%s[%d]", where, i), mapAt(schema, "items"), e)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func TestOpenAPIMatchesServer(t *testing.T) {
	doc := loadOpenAPI(t)
	e := newEnv(t, nil)
	srv := e.srv.Config.Handler.(*server)

	// Every API route is documented, and nothing else is.
	var documented, served []string
	ops := map[string]map[string]any{}
	for path, item := range mapAt(map[string]any(doc), "paths") {
		if strings.HasPrefix(path, "/dashboard/") {
			continue // the dashboard's admin API, checked in its package
		}
		if path == "/healthz" || path == "/readyz" {
			continue // served ahead of the API by package app, checked there
		}
		for method, op := range item.(map[string]any) {
			key := strings.ToUpper(method) + " " + path
			documented = append(documented, key)
			ops[key] = op.(map[string]any)
		}
	}
	for pattern := range srv.routes {
		if !strings.Contains(pattern, "/api/v2/") {
			continue // customer pages are not part of the API
		}
		served = append(served, pattern)
	}
	sort.Strings(documented)
	sort.Strings(served)
	if strings.Join(documented, "\n") != strings.Join(served, "\n") {
		t.Fatalf("documented:\n%s\nserved:\n%s", strings.Join(documented, "\n"), strings.Join(served, "\n"))
	}

	// Request fields and query parameters are those the server accepts;
	// security matches each route's authentication.
	fieldsOf := map[string][]string{
		"POST /order/api/v2/payout/order":    payoutFields,
		"GET /order/api/v2/payout/detail":    detailFields,
		"POST /order/api/v2/payout/batch":    batchFields,
		"POST /order/api/v2/pay/order":       collectionFields,
		"GET /order/api/v2/payorder/detail":  detailFields,
		"GET /order/api/v2/payorder/list":    listFields,
		"POST /order/api/v2/refund":          refundFields,
		"GET /order/api/v2/refund/detail":    refundDetailFields,
		"POST /order/api/v2/refund/cancel":   refundDetailFields,
		"GET /admin/api/v2/pub/cashier/info": cashierInfoFields,
		"GET /admin/api/v2/pub/coin/list":    nil,
		"GET /admin/api/v2/pub/network/list": nil,
		"GET /order/api/v2/payout/list":      payoutListFields,
		"POST /order/api/v2/payorder/cancel": cancelFields,
		"GET /order/api/v2/balance":          balanceFields,
		"GET /order/api/v2/ledger":           ledgerFields,
	}
	for key, op := range ops {
		var names []string
		if rb := mapAt(op, "requestBody", "content", "application/json", "schema"); rb != nil {
			schema := doc.resolve(rb)
			names = sortedKeys(mapAt(schema, "properties"))
			if key == "POST /order/api/v2/payout/batch" {
				entry := doc.resolve(mapAt(schema, "properties", "orders", "items"))
				if got, want := sortedKeys(mapAt(entry, "properties")), sortedCopy(batchOrderFields); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("batch entry fields: documented %v, server %v", got, want)
				}
			}
		}
		params, _ := op["parameters"].([]any)
		for _, p := range params {
			pm := doc.resolve(p.(map[string]any))
			if pm["in"] == "query" {
				names = append(names, pm["name"].(string))
			}
		}
		sort.Strings(names)
		if want := sortedCopy(fieldsOf[key]); strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("%s: documented fields %v, server accepts %v", key, names, want)
		}

		var schemes []string
		if sec, ok := op["security"].([]any); ok && len(sec) > 0 {
			schemes = sortedKeys(sec[0].(map[string]any))
		}
		want := map[authMode]string{authPublic: "", authKey: "ApiKey", authSigned: "ApiKey,RequestTime,Signature"}[srv.routes[key].auth]
		if strings.Join(schemes, ",") != want {
			t.Errorf("%s: security %v, server demands %q", key, schemes, want)
		}
	}

	// Responses: each success and one error per family against the schema.
	ts := ms(t0)
	e.do(request{method: http.MethodPost, path: pathPayout, params: map[string]any{"contractId": tronK, "orderNo": "P1", "recipient": tronRecip, "amount": "1", "symbol": "USDT"}})
	samples := map[string]request{
		"POST /order/api/v2/payout/order": {params: map[string]any{"contractId": ethK, "orderNo": "P2", "recipient": ethRecip, "amount": "1", "symbol": "USDT",
			"payoutType": 2, "fromAddress": richWallet, "remark": "r", "chainId": "ETH"}},
		"GET /order/api/v2/payout/detail": {query: "orderNo=P1"},
		"POST /order/api/v2/payout/batch": {params: map[string]any{"contractId": tronK, "payoutType": 1, "orders": []any{
			map[string]any{"orderNo": "B1", "recipient": tronRecip, "amount": "1", "symbol": "USDT", "remark": "r"},
			map[string]any{"orderNo": "B2", "recipient": tronRecip, "amount": "0", "symbol": "USDT"}}}},
		"POST /order/api/v2/pay/order":       {params: withSign(collectionBody(map[string]any{"redirectUrl": "https://acme.example/done"}), secretKey, ts)},
		"GET /order/api/v2/payorder/detail":  {query: "orderNo=C1001"},
		"GET /order/api/v2/payorder/list":    {query: "startTime=" + ms(t0.Add(-time.Minute)) + "&endTime=" + ms(t0.Add(time.Minute)) + "&status=PENDING&page=1&pageSize=10"},
		"GET /admin/api/v2/pub/cashier/info": {query: "cashierId=" + cashierID},
		"GET /admin/api/v2/pub/coin/list":    {apiKey: "-"},
		"GET /admin/api/v2/pub/network/list": {apiKey: "-"},
		"GET /order/api/v2/payout/list":      {query: "status=PENDING&page=1&pageSize=10&contractId=" + tronK},
		"POST /order/api/v2/payorder/cancel": {params: map[string]any{"orderNo": "C1001"}},
	}
	order := []string{"POST /order/api/v2/payout/order", "GET /order/api/v2/payout/detail", "POST /order/api/v2/payout/batch",
		"POST /order/api/v2/pay/order", "GET /order/api/v2/payorder/detail", "GET /order/api/v2/payorder/list",
		"GET /admin/api/v2/pub/cashier/info", "GET /admin/api/v2/pub/coin/list", "GET /admin/api/v2/pub/network/list",
		"GET /order/api/v2/payout/list", "POST /order/api/v2/payorder/cancel"}
	// The balance and ledger answers read chains, which this server has
	// none of: dashboard's TestHoldingsOnEveryNetwork checks their shapes
	// against this file on the sandbox.
	for _, key := range order {
		rq := samples[key]
		rq.method, rq.path, _ = strings.Cut(key, " ")
		rq.timeMs = ts
		r := e.do(rq)
		if r.status != 200 || r.body["success"] != true {
			t.Fatalf("%s: %d %s", key, r.status, r.raw)
		}
		schema := mapAt(ops[key], "responses", "200", "content", "application/json", "schema")
		doc.validate(t, key, schema, any(r.body))
		if (key == "GET /order/api/v2/payorder/list" || key == "GET /order/api/v2/payout/list") && len(r.data()["list"].([]any)) == 0 {
			t.Fatalf("list sample returned no entries to check")
		}
	}

	orderErr := e.do(request{method: http.MethodGet, path: "/order/api/v2/payout/detail", query: "orderNo=nope"})
	doc.validate(t, "order error", mapAt(doc.resolve(mapAt(ops["GET /order/api/v2/payout/detail"], "responses", "404")), "content", "application/json", "schema"), any(orderErr.body))
	configErr := e.do(request{method: http.MethodGet, path: "/admin/api/v2/pub/cashier/info", query: "cashierId=nope"})
	doc.validate(t, "config error", mapAt(doc.resolve(mapAt(ops["GET /admin/api/v2/pub/cashier/info"], "responses", "404")), "content", "application/json", "schema"), any(configErr.body))
	if orderErr.status != 404 || configErr.status != 404 {
		t.Fatalf("error samples: %d %d", orderErr.status, configErr.status)
	}
}
