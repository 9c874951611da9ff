package main

// A black-box run of the built binary: a sandbox process provides real dev
// chains with deployed contracts; a second process runs `cashier serve` on
// its own data directory, provisioned with the CLI and pointed at those
// chains; the test then calls every endpoint over HTTP with a request
// signer written here from the interface text alone (not the sign package),
// and checks fields, JSON types, envelopes, rejections, rate limits,
// webhooks and graceful shutdown.

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sandbox"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cashier-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "cashier")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the binary: %v\n%s", err, out)
		os.Exit(1)
	}
	var stopDB func() error
	binary, stopDB, err = usePostgres(binary)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := stopDB(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running cashier process.
type proc struct {
	cmd    *exec.Cmd
	stdout *bytes.Buffer
	stderr *bytes.Buffer
	done   chan error
}

func start(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(binary, args...), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &syncWriter{w: p.stdout}, &syncWriter{w: p.stderr}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s stderr:\n%s", args[0], p.stderr.String())
		}
	})
	return p
}

// stop sends SIGTERM and requires a clean exit.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, p.stderr.String())
		}
		p.done <- nil // for the cleanup
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of SIGTERM")
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}

// cli runs a provisioning command and decodes its one JSON object.
func cli(t *testing.T, args ...string) map[string]string {
	t.Helper()
	out, err := exec.Command(binary, args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("cashier %v: %v\n%s", args, err, stderr)
	}
	var m map[string]string
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&m); err != nil || dec.More() {
		t.Fatalf("cashier %v printed %q, not one JSON object of strings: %v", args, out, err)
	}
	return m
}

func waitFor(t *testing.T, what string, d time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ---- an independent signer, from the interface text -----------------------

// signV2 sorts the parameters by key, joins key=value with &, appends
// &time=<ms> and returns the lowercase hex HMAC-SHA256 under secret.
func signV2(secret string, params map[string]string, ms string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		if k != "sign" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+params[k])
	}
	msg := strings.Join(append(parts, "time="+ms), "&")
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

type api struct {
	t                    *testing.T
	base, apiKey, secret string
	now                  func() time.Time
}

type resp struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

// call sends a request. params are the signed parameters in text form (as
// the signed string shows them); body is the JSON sent (nil for GET, where
// params become the query). timeMs "" means now.
func (a *api) call(method, path string, params map[string]string, body []byte, opts ...func(*http.Request, map[string]string)) resp {
	a.t.Helper()
	ms := strconv.FormatInt(a.now().UnixMilli(), 10)
	var rdr io.Reader
	u := a.base + path
	if method == http.MethodGet && len(params) > 0 {
		q := url.Values{}
		for k, v := range params {
			q.Set(k, v)
		}
		u += "?" + q.Encode()
	}
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rdr)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Service-API-Key", a.apiKey)
	req.Header.Set("Service-Request-Time", ms)
	req.Header.Set("Service-Signature-V2", signV2(a.secret, params, ms))
	for _, o := range opts {
		o(req, params)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: raw}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		a.t.Fatalf("%s %s: body is not a JSON object: %q", method, path, raw)
	}
	return r
}

// jsonBody renders params as a JSON object of strings plus extra raw members.
func jsonBody(params map[string]string, extra map[string]any) []byte {
	m := map[string]any{}
	for k, v := range params {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

func (r resp) data(t *testing.T) map[string]any {
	t.Helper()
	d, ok := r.body["data"].(map[string]any)
	if !ok {
		t.Fatalf("data is not an object: %s", r.raw)
	}
	return d
}

// wantOK checks the success envelope of the family: code "200" (order
// endpoints) or "0" (configuration endpoints), success true.
func (r resp) wantOK(t *testing.T, code string) {
	t.Helper()
	if r.status != 200 || r.body["code"] != code || r.body["success"] != true {
		t.Fatalf("want success %s, got %d %s", code, r.status, r.raw)
	}
	for _, k := range []string{"code", "message"} {
		if _, ok := r.body[k].(string); !ok {
			t.Fatalf("envelope %s is not a string: %s", k, r.raw)
		}
	}
}

// wantErr checks an error envelope with code and a human message.
func (r resp) wantErr(t *testing.T, status int, code string) {
	t.Helper()
	msg, _ := r.body["message"].(string)
	if r.status != status || r.body["code"] != code || r.body["success"] != false || msg == "" || r.body["data"] != nil {
		t.Fatalf("want %d %s, got %d %s", status, code, r.status, r.raw)
	}
}

// wantTypes checks JSON types of fields: s string, n number (integer), b bool, a array, o object.
func wantTypes(t *testing.T, obj map[string]any, spec map[string]byte) {
	t.Helper()
	for k, kind := range spec {
		v, ok := obj[k]
		if !ok {
			t.Fatalf("field %s missing in %v", k, obj)
		}
		okType := false
		switch kind {
		case 's':
			_, okType = v.(string)
		case 'n':
			f, isNum := v.(float64)
			okType = isNum && f == float64(int64(f))
		case 'b':
			_, okType = v.(bool)
		case 'a':
			_, okType = v.([]any)
		case 'o':
			_, okType = v.(map[string]any)
		}
		if !okType {
			t.Fatalf("field %s = %#v, want JSON type %c", k, v, kind)
		}
	}
}

// ---- the run -------------------------------------------------------------

func TestBlackBox(t *testing.T) {
	// 1. Dev chains with deployed tokens and contracts, from the sandbox.
	tw := newWorld(t, worldOpts{OneProcess: true, Wait: 90 * time.Second})
	sb, info := tw.Svc, tw.Info

	// 2. A separate service: registry pointed at the dev chains.
	data := t.TempDir()
	regPath := writeRegistry(t, data, info, 1)

	// Webhook receiver (sandbox mode allows a loopback http target).
	var hookMu sync.Mutex
	var hooks []*client.WebhookEvent
	hook := newReceiver(t, func(ev *client.WebhookEvent) {
		hookMu.Lock()
		defer hookMu.Unlock()
		hooks = append(hooks, ev)
	})

	// 3. Provisioning with the CLI: exactly the documented shapes.
	m := cli(t, "merchant", "create", "--data", data, "--name", "Black Box Shop")
	for _, k := range []string{"merchantId", "apiKey", "secretKey", "webhookKey"} {
		if m[k] == "" {
			t.Fatalf("merchant create: %s missing in %v", k, m)
		}
	}
	if len(m) != 4 {
		t.Fatalf("merchant create printed %v", m)
	}
	hook.setKey(m["webhookKey"])
	hookURL := hook.URL
	if out, err := exec.Command(binary, "cashier", "create", "--data", data, "--merchant", m["merchantId"], "--webhook-url", hookURL).CombinedOutput(); err == nil {
		t.Fatalf("production mode accepted a plain-http loopback webhook URL: %s", out)
	}
	c := cli(t, "cashier", "create", "--data", data, "--mode", "sandbox", "--merchant", m["merchantId"], "--webhook-url", hookURL)
	if c["cashierId"] == "" || c["merchantId"] != m["merchantId"] {
		t.Fatalf("cashier create: %v", c)
	}
	contracts := map[string]string{}
	// The sandbox's contracts name its signer role: the operator who holds
	// that key makes it this merchant's signer, then registers them.
	signerFile := filepath.Join(t.TempDir(), "signer.hex")
	if err := os.WriteFile(signerFile, []byte(info.Roles["signer"].PrivateKey), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"ETH", "TRON"} {
		n := info.Networks[ch]
		cli(t, "key", "import", "--data", data, "--merchant", m["merchantId"], "--chain", ch, "--role", "signer", "--key-file", signerFile)
		k := cli(t, "contract", "create", "--data", data, "--merchant", m["merchantId"], "--chain", ch, "--address", n.PayoutContract,
			"--deposit-factory", n.DepositFactory, "--deposit-implementation", n.DepositImplementation,
			"--registry", regPath, "--eth-rpc", info.Networks["ETH"].RPCURL, "--tron-api", info.Networks["TRON"].RPCURL)
		if k["contractId"] == "" || k["chainId"] != ch || k["address"] != n.PayoutContract {
			t.Fatalf("contract create: %v", k)
		}
		contracts[ch] = k["contractId"]
	}
	if out, err := exec.Command(binary, "contract", "create", "--data", data, "--merchant", m["merchantId"], "--chain", "ETH", "--address", "0x1234").CombinedOutput(); err == nil {
		t.Fatalf("invalid contract address accepted: %s", out)
	}

	// 4. serve.
	srv, base := serveBase(t, []string{"CASHIER_MODE=sandbox", "CASHIER_REGISTRY=" + regPath, "CASHIER_ETH_RPC=" + info.Networks["ETH"].RPCURL,
		"CASHIER_TRON_API=" + info.Networks["TRON"].RPCURL}, "--data", data)
	a := &api{t: t, base: base, apiKey: m["apiKey"], secret: m["secretKey"], now: time.Now}

	// Configuration endpoints.
	r := a.call("GET", "/admin/api/v2/pub/coin/list", nil, nil)
	r.wantOK(t, "0")
	coins, ok := r.body["data"].([]any)
	if !ok || len(coins) != 2 {
		t.Fatalf("coin list: %s", r.raw)
	}
	coin := coins[0].(map[string]any)
	wantTypes(t, coin, map[string]byte{"symbol": 's', "name": 's', "networks": 'a'})
	wantTypes(t, coin["networks"].([]any)[0].(map[string]any), map[string]byte{"chainId": 's', "networkName": 's', "contractAddress": 's',
		"decimals": 'n', "minAmount": 's', "maxAmount": 's', "withdrawFee": 's'})
	r = a.call("GET", "/admin/api/v2/pub/network/list", nil, nil)
	r.wantOK(t, "0")
	nets := r.body["data"].([]any)
	ids := map[string]bool{}
	for _, n := range nets {
		nm := n.(map[string]any)
		wantTypes(t, nm, map[string]byte{"chainId": 's', "networkName": 's', "shortName": 's', "symbol": 's', "decimals": 'n',
			"explorerUrl": 's', "rpcUrl": 's', "status": 's', "avgBlockTime": 'n', "avgGasFee": 's'})
		ids[nm["chainId"].(string)] = true
	}
	if !ids["1"] || !ids["42161"] || !ids["TRON"] {
		t.Fatalf("network chainIds: %v", ids)
	}
	r = a.call("GET", "/admin/api/v2/pub/cashier/info", map[string]string{"cashierId": c["cashierId"]}, nil)
	r.wantOK(t, "0")
	wantTypes(t, r.data(t), map[string]byte{"cashierId": 's', "merchantId": 's', "merchantName": 's', "supportedNetworks": 'a',
		"supportedCoins": 'a', "paymentMethods": 'a', "webhookUrl": 's', "status": 's', "createdAt": 'n'})
	bad := *a
	bad.apiKey = "pk_unknown"
	bad.call("GET", "/admin/api/v2/pub/cashier/info", map[string]string{"cashierId": c["cashierId"]}, nil).wantErr(t, 401, "ERROR_000401")
	a.call("GET", "/admin/api/v2/pub/cashier/info", map[string]string{"cashierId": "c_nope"}, nil).wantErr(t, 404, "ERROR_000101")

	// Collection create, detail, list.
	col := map[string]string{"cashierId": c["cashierId"], "orderNo": "BB-C1", "amount": "25.50", "symbol": "USDT", "chainId": "ETH", "custNo": "CUST-7"}
	post := func(path string, p map[string]string, extra map[string]any) resp {
		// The body field sign carries the same signature as the header.
		var sig string
		return a.call("POST", path, p, nil, func(req *http.Request, params map[string]string) {
			sig = req.Header.Get("Service-Signature-V2")
			body := map[string]any{}
			for k, v := range params {
				body[k] = v
			}
			for k, v := range extra {
				body[k] = v
			}
			if path == "/order/api/v2/pay/order" {
				body["sign"] = sig
			}
			b, _ := json.Marshal(body)
			req.Body = io.NopCloser(bytes.NewReader(b))
			req.ContentLength = int64(len(b))
		})
	}
	r = post("/order/api/v2/pay/order", col, nil)
	r.wantOK(t, "200")
	d := r.data(t)
	wantTypes(t, d, map[string]byte{"orderNo": 's', "payUrl": 's', "qrCode": 's', "expireTime": 'n'})
	if !strings.HasPrefix(d["qrCode"].(string), "data:image/png;base64,") || d["orderNo"] != "BB-C1" {
		t.Fatalf("collection create: %s", r.raw)
	}
	if exp := int64(d["expireTime"].(float64)); exp < time.Now().Add(29*time.Minute).UnixMilli() || exp > time.Now().Add(31*time.Minute).UnixMilli() {
		t.Fatalf("expireTime %d is not 30 minutes ahead in ms", exp)
	}
	if res, err := http.Get(d["payUrl"].(string)); err != nil || res.StatusCode != 200 {
		t.Fatalf("payUrl: %v %v", res, err)
	}
	r = a.call("GET", "/order/api/v2/payorder/detail", map[string]string{"orderNo": "BB-C1"}, nil)
	r.wantOK(t, "200")
	wantTypes(t, r.data(t), map[string]byte{"orderNo": 's', "cashierId": 's', "amount": 's', "symbol": 's', "chainId": 's',
		"status": 's', "txId": 's', "createTime": 'n', "updateTime": 'n'})
	if r.data(t)["amount"] != "25.50" || r.data(t)["status"] != "PENDING" || r.data(t)["chainId"] != "ETH" {
		t.Fatalf("collection detail: %s", r.raw)
	}
	r = a.call("GET", "/order/api/v2/payorder/list", map[string]string{"status": "PENDING", "page": "1", "pageSize": "10"}, nil)
	r.wantOK(t, "200")
	wantTypes(t, r.data(t), map[string]byte{"list": 'a', "total": 'n', "page": 'n', "pageSize": 'n'})
	if r.data(t)["total"].(float64) != 1 {
		t.Fatalf("list: %s", r.raw)
	}
	listTotal := func() float64 {
		return a.call("GET", "/order/api/v2/payorder/list", map[string]string{}, nil).data(t)["total"].(float64)
	}

	// Rejections change nothing.
	r = a.call("POST", "/order/api/v2/pay/order", col, jsonBody(col, map[string]any{"orderNo": "BB-C2", "sign": "00"}))
	r.wantErr(t, 401, "000306") // header signed BB-C1, body says BB-C2
	stale := *a
	stale.now = func() time.Time { return time.Now().Add(-31 * time.Second) }
	c2 := map[string]string{"cashierId": c["cashierId"], "orderNo": "BB-C2", "amount": "5", "symbol": "USDT", "chainId": "TRON"}
	r = stale.call("POST", "/order/api/v2/pay/order", c2, nil, func(req *http.Request, p map[string]string) {
		b := jsonBody(p, map[string]any{"sign": req.Header.Get("Service-Signature-V2")})
		req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	})
	r.wantErr(t, 401, "000306")
	r = a.call("GET", "/order/api/v2/payorder/detail", map[string]string{"orderNo": "BB-C1"}, nil, func(req *http.Request, p map[string]string) {
		s := strconv.FormatInt(time.Now().Unix(), 10)
		req.Header.Set("Service-Request-Time", s)
		req.Header.Set("Service-Signature-V2", signV2(a.secret, p, s))
	})
	r.wantErr(t, 401, "000306")
	if !strings.Contains(strings.ToLower(r.body["message"].(string)), "seconds") {
		t.Fatalf("seconds timestamp message: %s", r.raw)
	}
	post("/order/api/v2/pay/order", col, nil).wantErr(t, 409, "000201") // duplicate orderNo
	badAmount := map[string]string{"cashierId": c["cashierId"], "orderNo": "BB-C3", "amount": "1.0000001", "symbol": "USDT"}
	post("/order/api/v2/pay/order", badAmount, nil).wantErr(t, 400, "000105")
	numAmount := map[string]string{"cashierId": c["cashierId"], "orderNo": "BB-C4", "symbol": "USDT"}
	r = a.call("POST", "/order/api/v2/pay/order", map[string]string{"cashierId": c["cashierId"], "orderNo": "BB-C4", "symbol": "USDT", "amount": "10"}, nil,
		func(req *http.Request, p map[string]string) {
			b := jsonBody(numAmount, map[string]any{"amount": 10, "sign": req.Header.Get("Service-Signature-V2")})
			req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		})
	if r.body["success"] != false {
		t.Fatalf("numeric amount accepted: %s", r.raw)
	}
	noKey := *a
	noKey.apiKey = ""
	noKey.call("GET", "/order/api/v2/payorder/detail", map[string]string{"orderNo": "BB-C1"}, nil).wantErr(t, 401, "000112")
	if got := listTotal(); got != 1 {
		t.Fatalf("rejected requests created orders: total %v", got)
	}

	// Payouts, funded by the sandbox's payout contract on ETH.
	recipient := "0x" + strings.Repeat("ab", 20)
	po := map[string]string{"contractId": contracts["ETH"], "orderNo": "BB-P1", "recipient": recipient, "amount": "12.00", "symbol": "USDT"}
	r = post("/order/api/v2/payout/order", po, map[string]any{"payoutType": 1})
	// payoutType is a JSON integer and is part of the signed text as "1".
	if r.body["success"] == true {
		t.Fatalf("payoutType outside the signature accepted: %s", r.raw)
	}
	po["payoutType"] = "1"
	r = a.call("POST", "/order/api/v2/payout/order", po, jsonBody(map[string]string{"contractId": po["contractId"], "orderNo": "BB-P1",
		"recipient": recipient, "amount": "12.00", "symbol": "USDT"}, map[string]any{"payoutType": 1}))
	r.wantOK(t, "200")
	wantTypes(t, r.data(t), map[string]byte{"orderNo": 's', "orderId": 's', "status": 's', "createTime": 'n'})
	r = a.call("GET", "/order/api/v2/payout/detail", map[string]string{"orderNo": "BB-P1"}, nil)
	r.wantOK(t, "200")
	wantTypes(t, r.data(t), map[string]byte{"orderNo": 's', "contractId": 's', "recipient": 's', "amount": 's', "symbol": 's',
		"payoutType": 'n', "txId": 's', "status": 's', "fee": 's', "gasAmount": 's', "createTime": 'n', "updateTime": 'n'})
	if r.data(t)["fee"] != "1.00" || r.data(t)["status"] != "PENDING" {
		t.Fatalf("payout detail: %s", r.raw)
	}
	allowNoFrom := map[string]string{"contractId": contracts["ETH"], "orderNo": "BB-P2", "recipient": recipient, "amount": "1", "symbol": "USDT", "payoutType": "2"}
	a.call("POST", "/order/api/v2/payout/order", allowNoFrom, jsonBody(map[string]string{"contractId": contracts["ETH"], "orderNo": "BB-P2",
		"recipient": recipient, "amount": "1", "symbol": "USDT"}, map[string]any{"payoutType": 2})).wantErr(t, 400, "000103")
	tooMuch := map[string]string{"contractId": contracts["ETH"], "orderNo": "BB-P3", "recipient": recipient, "amount": "999999", "symbol": "USDT"}
	post("/order/api/v2/payout/order", tooMuch, nil).wantErr(t, 422, "000403")
	a.call("GET", "/order/api/v2/payout/detail", map[string]string{"orderNo": "BB-P3"}, nil).wantErr(t, 404, "000202")

	// Batch: per-order results.
	orders := []map[string]string{
		{"amount": "2.00", "orderNo": "BB-B1", "recipient": recipient, "symbol": "USDT"},
		{"amount": "2.00", "orderNo": "BB-B2", "recipient": "0x1", "symbol": "USDT"},
		{"amount": "2.00", "orderNo": "BB-P1", "recipient": recipient, "symbol": "USDT"},
	}
	ordersJSON, _ := json.Marshal(orders) // Go sorts map keys: the canonical form
	batchParams := map[string]string{"contractId": contracts["ETH"], "orders": string(ordersJSON)}
	r = a.call("POST", "/order/api/v2/payout/batch", batchParams, jsonBody(map[string]string{"contractId": contracts["ETH"]}, map[string]any{"orders": orders}))
	r.wantOK(t, "200")
	wantTypes(t, r.data(t), map[string]byte{"successCount": 'n', "failCount": 'n', "orders": 'a'})
	if r.data(t)["successCount"].(float64) != 1 || r.data(t)["failCount"].(float64) != 2 {
		t.Fatalf("batch: %s", r.raw)
	}

	// Endpoint rate limit: 100 per minute per endpoint; the 101st is 429.
	var last resp
	for i := 0; ; i++ {
		last = a.call("GET", "/admin/api/v2/pub/network/list", nil, nil)
		for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			if _, err := strconv.ParseInt(last.header.Get(h), 10, 64); err != nil {
				t.Fatalf("%s header %q", h, last.header.Get(h))
			}
		}
		if last.status == 429 || i > 250 {
			break
		}
	}
	if last.status != 429 || last.body["success"] != false {
		t.Fatalf("no 429 after the endpoint limit: %d %s", last.status, last.raw)
	}
	if reset, _ := strconv.ParseInt(last.header.Get("X-RateLimit-Reset"), 10, 64); reset < time.Now().Unix() || reset > time.Now().Unix()+61 {
		t.Fatalf("X-RateLimit-Reset %d is not the next minute in Unix seconds", reset)
	}

	// Webhooks: the PENDING events of the created orders arrive signed.
	waitFor(t, "webhooks", 20*time.Second, func() bool {
		hookMu.Lock()
		defer hookMu.Unlock()
		return len(hooks) >= 3 // BB-C1, BB-P1, BB-B1
	})
	hookMu.Lock()
	seen := map[string]string{}
	for _, h := range hooks {
		seen[h.OrderNo] = h.Status
	}
	hookMu.Unlock()
	if seen["BB-C1"] != "PENDING" || seen["BB-P1"] != "PENDING" || seen["BB-B1"] != "PENDING" {
		t.Fatalf("webhooks: %v", seen)
	}

	// Graceful shutdown on SIGTERM.
	srv.stop(t)
	sb.stop(t)

	// Operator commands work on the stopped service's data.
	tr := exec.Command(binary, "webhook", "test", "--data", data, "--cashier", c["cashierId"])
	tr.Env = append(os.Environ(), "CASHIER_MODE=sandbox")
	out, err := tr.Output()
	if err != nil || !strings.Contains(string(out), `"ok":true`) {
		t.Fatalf("webhook test: %v %s", err, out)
	}
}

// writeRegistry writes dir/registry.json pointing a service at the
// sandbox's dev chains and tokens, asking confirmations on each, and
// returns its path.
func writeRegistry(t *testing.T, dir string, info *sandbox.Info, confirmations int) string {
	t.Helper()
	var networks, tokens []map[string]any
	for _, c := range []string{"ETH", "ARB", "TRON"} {
		n := info.Networks[c]
		nw := map[string]any{"chainId": c, "rpcUrl": n.RPCURL, "confirmations": confirmations, "create2Prefix": n.Create2Prefix}
		if c != "TRON" {
			nw["evmChainId"] = n.ChainID
		} else {
			nw["genesisBlockId"] = n.GenesisBlockID // the stand-in's, not mainnet's
		}
		networks = append(networks, nw)
		for sym, addr := range n.Tokens {
			tokens = append(tokens, map[string]any{"chainId": c, "symbol": sym, "contractAddress": addr})
		}
	}
	path := filepath.Join(dir, "registry.json")
	b, _ := json.Marshal(map[string]any{"networks": networks, "tokens": tokens})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
