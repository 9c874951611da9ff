package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
)

// TestPaymentsSurviveKill runs the built binary against a dev chain in
// this process. A customer pays one order after another while the service
// is killed with SIGKILL at random moments and started again; one payment
// is made while it is down. In the end every order is SUCCESS with exactly
// its amount paid, one confirmed payment each, and a signed SUCCESS
// webhook: nothing lost, nothing credited twice.
func TestPaymentsSurviveKill(t *testing.T) {
	// A webhook receiver that verifies signatures.
	var mu sync.Mutex
	success := map[string]string{} // orderNo → paidAmount of a SUCCESS webhook
	hook := newReceiver(t, func(ev *client.WebhookEvent) {
		if ev.Status == "SUCCESS" {
			mu.Lock()
			success[ev.OrderNo], _ = ev.Fields["paidAmount"].(string)
			mu.Unlock()
		}
	})

	// The shop is provisioned first; its service starts once the chain
	// and the registry naming it are there.
	tw := newWorld(t, worldOpts{Shop: "Kill Shop", HookURL: hook.URL, ProvisionOnly: true})
	data, m, c := tw.Data, tw.Merchant, tw.Cashier
	hook.setKey(m["webhookKey"])

	ctx := context.Background()
	chain, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer chain.Close()
	usdtABI := bindings.NewTestUSDC()
	usdt, err := chain.Deploy(ctx, chain.Faucet, append(common.FromHex(bindings.TestUSDCMetaData.Bin), usdtABI.PackConstructor("Tether USD", "USDT")...))
	if err != nil {
		t.Fatal(err)
	}
	customer, _ := crypto.GenerateKey()
	custAddr := crypto.PubkeyToAddress(customer.PublicKey)
	if err := chain.Fund(ctx, custAddr, big.NewInt(1e18)); err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Transact(ctx, chain.Faucet, &usdt, nil, usdtABI.PackMint(custAddr, big.NewInt(1e12)), 200_000); err != nil {
		t.Fatal(err)
	}

	registry := filepath.Join(data, "registry.json")
	reg, _ := json.Marshal(map[string]any{
		"networks": []any{map[string]any{"chainId": "ETH", "evmChainId": devchain.ChainIDETH, "confirmations": 2}},
		"tokens":   []any{map[string]any{"chainId": "ETH", "symbol": "USDT", "contractAddress": usdt.Hex()}},
	})
	if err := os.WriteFile(registry, reg, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"CASHIER_MODE=sandbox", "CASHIER_ETH_RPC=" + chain.URL, "CASHIER_REGISTRY=" + registry,
		"CASHIER_WATCH_INTERVAL=30ms", "CASHIER_RATE_PER_ENDPOINT=100000", "CASHIER_RATE_PER_KEY=100000", "CASHIER_RATE_PER_IP=100000",
		"CASHIER_WEBHOOK_TIMEOUT=1s", "CASHIER_WEBHOOK_LEASE=2s", "CASHIER_WEBHOOK_SCHEDULE=1s,2s,3s,5s,10s"}
	tw.Env = env
	tw.serve()
	const n = 12
	addrs := make([]string, n)
	sdk := tw.API
	for i := range n {
		no := fmt.Sprintf("KP-%d", i)
		if _, err := sdk.CreateCollection(ctx, client.CollectionRequest{CashierID: c["cashierId"], OrderNo: no,
			Amount: "1.50", Symbol: "USDT", ChainID: "ETH"}); err != nil {
			t.Fatal(err)
		}
		d, err := sdk.CollectionDetail(ctx, no)
		if err != nil {
			t.Fatal(err)
		}
		addrs[i] = d.Address
	}

	pay := func(i int) {
		to := common.HexToAddress(addrs[i])
		if _, err := chain.Transact(ctx, customer, &usdt, nil, usdtABI.PackTransfer(to, big.NewInt(1_500_000)), 200_000); err != nil {
			t.Error(err)
		}
	}
	// Payments go on while the service is killed and restarted at random.
	paid := make(chan struct{})
	go func() {
		defer close(paid)
		for i := range n - 1 {
			pay(i)
			time.Sleep(time.Duration(rand.IntN(120)) * time.Millisecond)
		}
	}()
	for k := 0; k < 4; k++ {
		time.Sleep(time.Duration(50+rand.IntN(400)) * time.Millisecond)
		tw.restart()
	}
	<-paid
	// One payment while the service is down.
	tw.Svc.kill()
	pay(n - 1)
	chain.Commit()
	chain.Commit() // confirmations for the last payment
	tw.serve()
	sdk = tw.API

	waitFor(t, "every order paid", 60*time.Second, func() bool {
		for i := range n {
			d, err := sdk.CollectionDetail(ctx, fmt.Sprintf("KP-%d", i))
			if err != nil || d.Status != "SUCCESS" {
				return false
			}
		}
		return true
	})
	for i := range n {
		no := fmt.Sprintf("KP-%d", i)
		d, err := sdk.CollectionDetail(ctx, no)
		if err != nil {
			t.Fatal(err)
		}
		if d.PaidAmount != "1.50" || len(d.Payments) != 1 || d.Payments[0].Status != "CONFIRMED" || d.Payments[0].Effect != "CREDITED" {
			t.Errorf("%s: paid %s, payments %+v", no, d.PaidAmount, d.Payments)
		}
	}
	waitFor(t, "a SUCCESS webhook per order", 60*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(success) == n
	})
	mu.Lock()
	for no, amt := range success {
		if amt != "1.50" {
			t.Errorf("%s: SUCCESS webhook with paidAmount %s", no, amt)
		}
	}
	mu.Unlock()
	tw.Svc.stop(t)
}
