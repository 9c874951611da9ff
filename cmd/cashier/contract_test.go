package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// An on-chain contract is registered once, by any merchant; its webhook URL
// and status change in place; bad input changes nothing.
func TestContractRegisteredOnceUpdateDisable(t *testing.T) {
	ctx := context.Background()
	env := map[string]string{"CASHIER_DATA": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	runJSON := func(args ...string) (map[string]string, error) {
		var out, errOut bytes.Buffer
		if err := run(ctx, args, getenv, &out, &errOut); err != nil {
			return nil, err
		}
		var m map[string]string
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("%q printed %q: %v", args, out.String(), err)
		}
		return m, nil
	}
	must := func(args ...string) map[string]string {
		t.Helper()
		m, err := runJSON(args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return m
	}
	m1 := must("merchant", "create", "--name", "One")["merchantId"]
	m2 := must("merchant", "create", "--name", "Two")["merchantId"]
	const addr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	k := must("contract", "create", "--merchant", m1, "--chain", "ETH", "--address", addr)["contractId"]
	for _, m := range []string{m1, m2} {
		// The same address in lower case is the same contract.
		if _, err := runJSON("contract", "create", "--merchant", m, "--chain", "ETH", "--address", strings.ToLower(addr)); err == nil || !strings.Contains(err.Error(), "registered") {
			t.Fatalf("second registration by %s: %v, want refused as registered", m, err)
		}
	}
	// The same address on another network is another contract.
	must("contract", "create", "--merchant", m2, "--chain", "ARB", "--address", addr)

	got := must("contract", "update", "--id", k, "--webhook-url", "https://shop.example/payouts")
	if got["webhookUrl"] != "https://shop.example/payouts" || got["status"] != "active" {
		t.Fatalf("update printed %v", got)
	}
	for _, bad := range [][]string{
		{"contract", "update", "--id", k, "--webhook-url", "ftp://shop.example/x"},
		{"contract", "update", "--id", k},
		{"contract", "update", "--id", "k_nobody", "--webhook-url", "https://shop.example/y"},
		{"contract", "disable"},
	} {
		if _, err := runJSON(bad...); err == nil {
			t.Fatalf("%q succeeded", bad)
		}
	}
	got = must("contract", "disable", "--id", k)
	if got["status"] != "disabled" || got["webhookUrl"] != "https://shop.example/payouts" {
		t.Fatalf("disable printed %v (the refused updates must not have changed it)", got)
	}
	if got = must("contract", "enable", "--id", k); got["status"] != "active" {
		t.Fatalf("enable printed %v", got)
	}
}
