package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// serveBase starts `serve` with env and args and returns it with its base URL.
func serveBase(t *testing.T, env []string, args ...string) (*proc, string) {
	t.Helper()
	srv := start(t, env, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	return srv, listening(t, srv)
}

// listening waits until `serve` p prints where it listens and returns
// that base URL.
func listening(t *testing.T, p *proc) string {
	t.Helper()
	var base string
	waitFor(t, "serve", time.Minute, func() bool {
		line, _, _ := bufio.NewReader(strings.NewReader(p.stdout.String())).ReadLine()
		var ok bool
		base, ok = strings.CutPrefix(string(line), "cashier listening on ")
		return ok
	})
	return base
}

func getReadyz(t *testing.T, base string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, body
}

// The service never pretends, and the preflight says so first, on the
// binary:
//   - the running sandbox passes `cashier doctor`;
//   - a production directory with no node fails it, naming each network,
//     and served, answers /readyz 503 naming each network and why;
//   - served with a node for Ethereum only, an order and a payout on TRON
//     are refused with an error naming TRON and why, while Ethereum takes
//     its order; the network list shows TRON in maintenance and the coin
//     list leaves it out.
func TestDoctorAndInactiveNetworksOnBinary(t *testing.T) {
	tw := newWorld(t, worldOpts{OneProcess: true})
	sbDir, info := tw.Data, tw.Info
	out, err := exec.Command(binary, "doctor", "--data", sbDir).CombinedOutput()
	if err != nil || strings.Contains(string(out), "\nfail ") || strings.HasPrefix(string(out), "fail ") {
		t.Fatalf("doctor on the running sandbox: %v\n%s", err, out)
	}
	for _, want := range []string{"ok    database:", "ok    master key:", "ok    network ETH head:", "ok    network ARB head:", "ok    network TRON head:",
		"ok    clock:", "ok    webhook", "ok    ETH sweeper key:", "backup:"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("doctor on the sandbox has no %q:\n%s", want, out)
		}
	}

	// A production directory with no node.
	data := t.TempDir()
	if out, err := exec.Command(binary, "init", "--data", data).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	cmd := exec.Command(binary, "doctor", "--data", data)
	out, err = cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 0 || !strings.Contains(string(ee.Stderr), "checks failed") {
		t.Fatalf("doctor with no node: %v (want a non-zero exit)\n%s", err, out)
	}
	for _, c := range cashier.Chains {
		if !strings.Contains(string(out), "fail  network "+string(c)+": no node URL is configured") {
			t.Fatalf("doctor does not fail %s:\n%s", c, out)
		}
	}
	srv, base := serveBase(t, nil, "--data", data)
	code, body := getReadyz(t, base)
	failed, _ := body["failed"].(map[string]any)
	msg, _ := failed["networks"].(string)
	if code != 503 || !strings.Contains(msg, "no network can be watched") {
		t.Fatalf("/readyz with no node: %d %v", code, body)
	}
	nets, _ := body["networks"].([]any)
	if len(nets) != len(cashier.Chains) {
		t.Fatalf("/readyz networks: %v", body["networks"])
	}
	for _, n := range nets {
		m := n.(map[string]any)
		if m["state"] != "no node" || m["active"] != false || !strings.Contains(msg, string(m["chain"].(string))) {
			t.Fatalf("/readyz network %v (failed: %s)", m, msg)
		}
	}
	srv.stop(t)

	// A node for Ethereum only: TRON refuses, Ethereum works.
	regPath := writeRegistry(t, data, info, 1)
	m := cli(t, "merchant", "create", "--data", data, "--name", "One Network Shop")
	c := cli(t, "cashier", "create", "--data", data, "--merchant", m["merchantId"])
	signerFile := filepath.Join(t.TempDir(), "signer.hex")
	if err := os.WriteFile(signerFile, []byte(info.Roles["signer"].PrivateKey), 0o600); err != nil {
		t.Fatal(err)
	}
	contracts := map[string]string{}
	for _, ch := range []string{"ETH", "TRON"} {
		n := info.Networks[ch]
		cli(t, "key", "import", "--data", data, "--merchant", m["merchantId"], "--chain", ch, "--role", "signer", "--key-file", signerFile)
		contracts[ch] = cli(t, "contract", "create", "--data", data, "--merchant", m["merchantId"], "--chain", ch, "--address", n.PayoutContract,
			"--deposit-factory", n.DepositFactory, "--deposit-implementation", n.DepositImplementation,
			"--registry", regPath, "--eth-rpc", info.Networks["ETH"].RPCURL, "--tron-api", info.Networks["TRON"].RPCURL)["contractId"]
	}
	_, base = serveBase(t, []string{"CASHIER_REGISTRY=" + regPath, "CASHIER_ETH_RPC=" + info.Networks["ETH"].RPCURL}, "--data", data)
	waitFor(t, "ready", time.Minute, func() bool { code, _ := getReadyz(t, base); return code == 200 })
	a := &api{t: t, base: base, apiKey: m["apiKey"], secret: m["secretKey"], now: time.Now}
	order := func(no, chain string) resp {
		p := map[string]string{"cashierId": c["cashierId"], "orderNo": no, "amount": "10", "symbol": "USDT", "chainId": chain}
		return a.call("POST", "/order/api/v2/pay/order", p, jsonBody(p, nil))
	}
	order("NP-ETH", "ETH").wantOK(t, "200")
	r := order("NP-TRON", "TRON")
	r.wantErr(t, 503, "000105")
	if msg, _ := r.body["message"].(string); !strings.Contains(msg, "network TRON is not active") || !strings.Contains(msg, "no node URL is configured") {
		t.Fatalf("TRON order refusal: %s", r.raw)
	}
	po := map[string]string{"contractId": contracts["TRON"], "orderNo": "NP-P1", "recipient": randomRecipient(cashier.ChainTRON), "amount": "1", "symbol": "USDT", "payoutType": "1"}
	r = a.call("POST", "/order/api/v2/payout/order", po, jsonBody(map[string]string{"contractId": po["contractId"], "orderNo": po["orderNo"],
		"recipient": po["recipient"], "amount": "1", "symbol": "USDT"}, map[string]any{"payoutType": 1}))
	r.wantErr(t, 503, "000105")
	if msg, _ := r.body["message"].(string); !strings.Contains(msg, "network TRON is not active") {
		t.Fatalf("TRON payout refusal: %s", r.raw)
	}
	r = a.call("GET", "/admin/api/v2/pub/network/list", nil, nil)
	r.wantOK(t, "0")
	status := map[string]any{}
	for _, n := range r.body["data"].([]any) {
		status[n.(map[string]any)["chainId"].(string)] = n.(map[string]any)["status"]
	}
	if status["TRON"] != "maintenance" || status["42161"] != "maintenance" || status["1"] != "active" {
		t.Fatalf("network list statuses: %v", status)
	}
	r = a.call("GET", "/admin/api/v2/pub/coin/list", nil, nil)
	r.wantOK(t, "0")
	for _, coin := range r.body["data"].([]any) {
		for _, n := range coin.(map[string]any)["networks"].([]any) {
			if id := n.(map[string]any)["chainId"]; id != "1" {
				t.Fatalf("coin list offers a network nothing watches (%v): %s", id, r.raw)
			}
		}
	}
}
