package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/sandbox"
)

// An operator cancels a PENDING collection order with the CLI while the
// service runs on the same data directory; an order a payment has reached
// cannot be cancelled; bad input changes nothing.
func TestCollectionCancelCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.WatchInterval = 100 * time.Millisecond
	cfg.RateKey, cfg.RateIP, cfg.RateEndpoint = 100_000, 100_000, 100_000 // the test polls the detail endpoint
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { sb.Serve(ctx); close(done) }()
	defer func() { cancel(); <-done; sb.Close() }()
	api := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)
	for _, no := range []string{"CAN-1", "CAN-2"} {
		if _, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: no,
			Amount: "2.00", Symbol: "USDT", ChainID: "ETH"}); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string { return map[string]string{"CASHIER_DATA": cfg.Data}[k] }
	cli := func(args ...string) (map[string]any, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, append([]string{"collection", "cancel"}, args...), getenv, &out, &errOut)
		if err != nil {
			if out.Len() != 0 {
				t.Errorf("cancel %q failed yet printed %q", args, out.String())
			}
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("cancel printed %q: %v", out.String(), err)
		}
		return m, nil
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--order", "CAN-1"}, "required"},
		{[]string{"--merchant", sb.Info.MerchantID}, "required"},
		{[]string{"--order", "NOPE", "--merchant", sb.Info.MerchantID}, "not found"},
		{[]string{"--order", "CAN-1", "--merchant", "m_nobody"}, "not found"},
	} {
		if _, err := cli(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cancel %q: %v, want %q", c.args, err, c.want)
		}
	}
	if d, _ := api.CollectionDetail(ctx, "CAN-1"); d.Status != "PENDING" {
		t.Fatalf("refused cancels changed the order: %s", d.Status)
	}

	m, err := cli("--order", "CAN-1", "--merchant", sb.Info.MerchantID)
	if err != nil || m["status"] != "CANCELLED" || m["orderNo"] != "CAN-1" {
		t.Fatalf("cancel: %v %v", m, err)
	}
	if d, _ := api.CollectionDetail(ctx, "CAN-1"); d.Status != "CANCELLED" {
		t.Fatalf("detail after cancel: %s", d.Status)
	}
	if _, err := cli("--order", "CAN-1", "--merchant", sb.Info.MerchantID); err == nil || !strings.Contains(err.Error(), "cannot be cancelled") {
		t.Fatalf("second cancel: %v", err)
	}

	// Pay CAN-2 from the customer wallet, then try to cancel it.
	d, err := api.CollectionDetail(ctx, "CAN-2")
	if err != nil {
		t.Fatal(err)
	}
	tok := common.HexToAddress(sb.Info.Networks["ETH"].Tokens["USDT"])
	if _, err := sb.ETH.Transact(ctx, sb.Info.Wallets["customer"].MustKey(), &tok, nil,
		bindings.NewTestUSDC().PackTransfer(common.HexToAddress(d.Address), big.NewInt(1_000_000)), 200_000); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(d.Payments) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		if d, err = api.CollectionDetail(ctx, "CAN-2"); err != nil {
			t.Fatal(err)
		}
	}
	if len(d.Payments) == 0 {
		t.Fatal("the payment was never recorded")
	}
	if _, err := cli("--order", "CAN-2", "--merchant", sb.Info.MerchantID); err == nil || !strings.Contains(err.Error(), "payment") {
		t.Fatalf("cancel of a paid order: %v", err)
	}
	if d, _ := api.CollectionDetail(ctx, "CAN-2"); d.Status != "PENDING" || d.PaidAmount != "1.00" {
		t.Fatalf("paid order after refused cancel: %s %s", d.Status, d.PaidAmount)
	}
}
