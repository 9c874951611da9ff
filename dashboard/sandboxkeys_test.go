package dashboard_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sandbox"
)

// TestSandboxKeepsKeysCurrent: rotating the demo merchant's keys in the
// dashboard rewrites sandbox.json (and the running sandbox's Info), so
// scripts reading the file use keys that work after the grace.
func TestSandboxKeepsKeysCurrent(t *testing.T) {
	sb, e := newSandboxEnv(t)
	before := *sb.Info
	e.addUser("dev@sandbox.example", before.MerchantID, "developer", false)
	dev := e.signIn("dev@sandbox.example")
	st, out := dev.post("/dashboard/api/keys/rotate", map[string]any{}, dev.csrf)
	if st != 200 {
		t.Fatalf("rotate: %d %v", st, out)
	}
	k := out["data"].(map[string]any)
	onDisk, err := sandbox.ReadInfo(filepath.Join(sb.Service.Config.Data, sandbox.InfoFile))
	if err != nil {
		t.Fatal(err)
	}
	if onDisk.APIKey != k["apiKey"] || onDisk.SecretKey != k["secretKey"] || onDisk.WebhookKey != k["webhookKey"] || onDisk.APIKey == before.APIKey {
		t.Fatalf("sandbox.json keeps %s, the rotation issued %s", onDisk.APIKey, k["apiKey"])
	}
	if sb.Info.APIKey != onDisk.APIKey {
		t.Fatal("the running sandbox's Info kept the old key")
	}
	// The rest of the file is as it was: chains, contracts, wallets.
	if onDisk.Networks["ETH"].PayoutContract != before.Networks["ETH"].PayoutContract || onDisk.CashierID != before.CashierID {
		t.Fatal("rewriting the keys changed the rest of sandbox.json")
	}
	if _, err := client.New(e.srv.URL, onDisk.APIKey, onDisk.SecretKey).CashierInfo(context.Background(), onDisk.CashierID); err != nil {
		t.Fatalf("the keys of sandbox.json: %v", err)
	}
}
