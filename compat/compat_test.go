package compat

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/sandbox"
)

const brand = "Acme"

// hookRecorder is a plain receiver that keeps every delivery it gets.
type hookRecorder struct {
	mu  sync.Mutex
	got []delivery
	srv *httptest.Server
}

func newRecorder(t *testing.T) *hookRecorder {
	h := &hookRecorder{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		d := delivery{header: map[string]string{}, body: body}
		for k := range r.Header {
			d.header[k] = r.Header.Get(k)
		}
		h.mu.Lock()
		h.got = append(h.got, d)
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// wait returns the first delivery whose body has field = value.
func (h *hookRecorder) wait(t *testing.T, field, value string) delivery {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		for _, d := range h.got {
			var m map[string]any
			if json.Unmarshal(d.body, &m) == nil && m[field] == value {
				h.mu.Unlock()
				return d
			}
		}
		h.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no webhook with %s=%s arrived", field, value)
	return delivery{}
}

// TestPublishedNodeClientAndReceivers runs the provider's Node client
// against the sandbox with the brand prefix set and default settings, and
// verifies the webhooks it causes the ways the provider documents.
func TestPublishedNodeClientAndReceivers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox's dev chains")
	}
	hooks := newRecorder(t)
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.HeaderPrefix = brand
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, WebhookURL: hooks.srv.URL + "/hook"})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	go sb.Serve(ctx)
	info := sb.Info
	node := nodeClient{base: info.BaseURL, prefix: brand, apiKey: info.APIKey, secret: info.SecretKey}

	// Collections: create without a body sign, exactly the sample's fields
	// (custNo included), then read back with GETs signed as a map.
	env := node.call(t, http.MethodPost, "/order/api/v2/pay/order", []kv{
		{"cashierId", info.CashierID}, {"orderNo", "NODE-C1"}, {"amount", "100.00"}, {"symbol", "USDT"},
		{"chainId", "ETH"}, {"custNo", "C86002201"}, {"redirectUrl", "https://shop.example/done"},
	})
	data := env["data"].(map[string]any)
	if env["code"] != "200" || data["orderNo"] != "NODE-C1" || !strings.HasPrefix(data["qrCode"].(string), "data:image/png;base64,") || data["payUrl"] == "" {
		t.Fatalf("create collection: %v", env)
	}
	env = node.call(t, http.MethodGet, "/order/api/v2/payorder/detail", []kv{{"orderNo", "NODE-C1"}})
	if d := env["data"].(map[string]any); d["status"] != "PENDING" || d["amount"] != "100.00" || d["custNo"] != "C86002201" {
		t.Fatalf("collection detail: %v", env)
	}
	env = node.call(t, http.MethodGet, "/order/api/v2/payorder/list", []kv{{"page", 1}, {"pageSize", 20}, {"status", "PENDING"}})
	if d := env["data"].(map[string]any); d["total"].(float64) < 1 {
		t.Fatalf("collection list: %v", env)
	}

	// Cashier info: the key with the query signed, as the sample sends
	// every GET; the configuration envelope.
	env = node.call(t, http.MethodGet, "/admin/api/v2/pub/cashier/info", []kv{{"cashierId", info.CashierID}})
	if d := env["data"].(map[string]any); env["code"] != "0" || d["cashierId"] != info.CashierID || d["status"] != "active" || d["webhookUrl"] != hooks.srv.URL+"/hook" {
		t.Fatalf("cashier info: %v", env)
	}

	// Payouts: the sample sends chainId too.
	recipient := info.Wallets["customer"].EVMAddress
	env = node.call(t, http.MethodPost, "/order/api/v2/payout/order", []kv{
		{"contractId", info.ContractIDs["ETH"]}, {"orderNo", "NODE-P1"}, {"recipient", recipient},
		{"amount", "25.00"}, {"symbol", "USDT"}, {"payoutType", 1}, {"chainId", "ETH"}, {"remark", "refund"},
	})
	if d := env["data"].(map[string]any); d["orderNo"] != "NODE-P1" || d["status"] != "PENDING" {
		t.Fatalf("create payout: %v", env)
	}
	env = node.call(t, http.MethodGet, "/order/api/v2/payout/detail", []kv{{"orderNo", "NODE-P1"}})
	payoutDetail := env["data"].(map[string]any)
	if payoutDetail["amount"] != "25.00" || payoutDetail["fromAddress"] != info.Networks["ETH"].PayoutContract {
		t.Fatalf("payout detail: %v", env)
	}
	// The Java sample builds its request from a Map<String,String>: every
	// value a string, payoutType "1" included; and it gives the merchant's
	// customer number.
	env = node.call(t, http.MethodPost, "/order/api/v2/payout/order", []kv{
		{"contractId", info.ContractIDs["ETH"]}, {"orderNo", "JAVA-P2"}, {"recipient", recipient},
		{"amount", "7.50"}, {"symbol", "USDT"}, {"payoutType", "1"}, {"custNo", "C86002201"},
	})
	if d, _ := env["data"].(map[string]any); d == nil || d["orderNo"] != "JAVA-P2" || d["status"] != "PENDING" {
		t.Fatalf("create payout from a string map: %v", env)
	}

	// Webhooks of both orders, verified the four documented ways.
	payment := hooks.wait(t, "orderNo", "NODE-C1")
	payout := hooks.wait(t, "bizOrderNo", "NODE-P1")
	javaPayout := hooks.wait(t, "bizOrderNo", "JAVA-P2")
	key := info.WebhookKey
	for name, d := range map[string]delivery{"payment": payment, "payout": payout} {
		if err := verifyRawV2(d, key, brand, time.Now()); err != nil {
			t.Errorf("%s: verification page receiver: %v", name, err)
		}
		et, err := verifyPlain(d, key, brand)
		if err != nil {
			t.Errorf("%s: example receiver: %v", name, err)
		}
		if et != name+".pending" {
			t.Errorf("%s: eventType %q", name, et)
		}
		if err := verifySortedV2(d, key, brand); err == nil {
			t.Errorf("%s: the default V2 also verifies as the sorted form; the suite cannot tell the schemes apart", name)
		}
	}
	var pb paymentBody
	if err := strictDecode(payment.body, &pb); err != nil {
		t.Fatalf("typed payment body: %v\n%s", err, payment.body)
	}
	// Without a block yet, blockTime is still the documented Long: the
	// time of the status change (updateTime).
	if pb.Event != "payment" || pb.ID <= 0 || pb.CashierID <= 0 || pb.OrderType != 3 || pb.BlockTime == nil || *pb.BlockTime != pb.UpdateTime ||
		pb.CustNo != "C86002201" || pb.Amount != "100.00" || !strings.HasPrefix(pb.Network, "Ethereum") || pb.TxHash != pb.TxID {
		t.Errorf("typed payment body %+v", pb)
	}
	var ob payoutBody
	if err := strictDecode(payout.body, &ob); err != nil {
		t.Fatalf("typed payout body: %v\n%s", err, payout.body)
	}
	if ob.Event != "payout" || ob.Type != 1 || ob.ContractID <= 0 || ob.CreateTime < time.Now().Add(-time.Hour).UnixMilli() ||
		ob.Amount != "25.00" || ob.Fee != "1.00" || ob.ToAddress != recipient || ob.BizOrderNo != "NODE-P1" ||
		ob.ID <= 0 || ob.BlockTime == nil || *ob.BlockTime != ob.UpdateTime {
		t.Errorf("typed payout body %+v", ob)
	}
	var loose map[string]any
	json.Unmarshal(payout.body, &loose)
	if loose["fromAddress"] != payoutDetail["fromAddress"] {
		t.Errorf("payout webhook fromAddress %v, detail %v", loose["fromAddress"], payoutDetail["fromAddress"])
	}
	// No customer number given: custNo is an empty string (not the
	// merchant id); the reason is sent under both names.
	if custNo, has := loose["custNo"]; !has || custNo != "" || loose["reason"] != loose["failReason"] || loose["reason"] == nil {
		t.Errorf("payout webhook custNo %v, reason %v, failReason %v", loose["custNo"], loose["reason"], loose["failReason"])
	}
	var jb payoutBody
	if err := strictDecode(javaPayout.body, &jb); err != nil {
		t.Fatalf("typed payout body: %v\n%s", err, javaPayout.body)
	}
	if jb.CustNo != "C86002201" || jb.Type != 1 || jb.ID <= 0 || jb.ID == ob.ID || jb.Amount != "7.50" {
		t.Errorf("payout created from a string map: %+v", jb)
	}
}

// TestSortedSchemeReceiver: with --webhook-signature sorted the receiver
// that verifies the sorted key=value form accepts the service's bodies,
// including one whose custNo holds '&' and '=' (sent percent-encoded, so
// the text cannot be re-split into a forged body).
func TestSortedSchemeReceiver(t *testing.T) {
	hooks := newRecorder(t)
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.Mode = "sandbox"
	cfg.HeaderPrefix = brand
	cfg.WebhookSignature = "sorted"
	ctx := t.Context()
	// An Ethereum node, so that the network is active (a network nobody
	// watches takes no orders); nothing is paid on it.
	eth, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	cfg.SetNodeURLs(cashier.ChainETH, eth.URL)
	reg := config.DefaultRegistry()
	id := int64(devchain.ChainIDETH)
	if err := config.Apply(reg, config.Override{Networks: []config.NetworkOverride{{ChainID: "ETH", EVMChainID: &id}}}); err != nil {
		t.Fatal(err)
	}
	svc, err := app.New(ctx, cfg, app.Options{Registry: reg}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	m, err := app.NewMerchant("Sorted Shop", svc.Clock)
	if err != nil {
		t.Fatal(err)
	}
	var c *cashier.Cashier
	err = svc.Store.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, m); err != nil {
			return err
		}
		if c, err = app.NewCashier(ctx, tx, m.ID, "Main", hooks.srv.URL+"/hook", true, svc.Clock); err != nil {
			return err
		}
		if err := tx.CreateCashier(ctx, c); err != nil {
			return err
		}
		// A payout contract with a deposit factory: collections on ETH get
		// their CREATE2 deposit addresses from it (no chain is needed, so it
		// is stored directly rather than proven on chain by NewContract).
		return tx.CreateContract(ctx, &cashier.Contract{ID: "k_compat", MerchantID: m.ID, Chain: cashier.ChainETH,
			Address:               common.HexToAddress("0x00000000000000000000000000000000000c0de1").Hex(),
			DepositFactory:        common.HexToAddress("0x00000000000000000000000000000000000fac01").Hex(),
			DepositImplementation: common.HexToAddress("0x00000000000000000000000000000000000017e1").Hex(), Status: cashier.ContractActive, CreatedAt: svc.Clock.Now()})
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- svc.Serve(sctx, ln) }()
	defer func() { stop(); <-done }()

	node := nodeClient{base: "http://" + ln.Addr().String(), prefix: brand, apiKey: m.APIKey, secret: m.SecretKey}
	node.call(t, http.MethodPost, "/order/api/v2/pay/order", []kv{
		{"cashierId", c.ID}, {"orderNo", "SORT-1"}, {"amount", "10.00"}, {"symbol", "USDC"}, {"chainId", "ETH"}, {"custNo", "u1&eventType=payment.success"},
	})
	d := hooks.wait(t, "orderNo", "SORT-1")
	if err := verifySortedV2(d, m.WebhookKey, brand); err != nil {
		t.Fatal(err)
	}
	if err := verifyRawV2(d, m.WebhookKey, brand, time.Now()); err == nil {
		t.Fatal("the sorted scheme's V2 also verifies as the raw form")
	}
	if _, err := verifyPlain(d, m.WebhookKey, brand); err != nil {
		t.Fatal(err)
	}
	var pb paymentBody
	if err := strictDecode(d.body, &pb); err != nil || pb.CustNo != "u1%26eventType%3Dpayment.success" || pb.EventType != "payment.pending" {
		t.Fatalf("body %s: %+v %v", d.body, pb, err)
	}
}
