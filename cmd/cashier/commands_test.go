package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/sandbox"
)

// binaryCommands parses the command list of `cashier help`: the lines
// "  NAME [SUB]   description".
func binaryCommands(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(binary, "help").Output()
	if err != nil {
		t.Fatalf("cashier help: %v", err)
	}
	line := regexp.MustCompile(`^  ([a-z]+(?: [a-z]+(?:-[a-z]+)*)?)  +\S`)
	var cmds []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			cmds = append(cmds, m[1])
		}
	}
	if len(cmds) < 20 {
		t.Fatalf("cashier help lists %d commands:\n%s", len(cmds), out)
	}
	return cmds
}

// documentedCommands finds every `cashier NAME [SUB]` in README.md and
// docs/*.md ("SUB|SUB" names several). A group word followed by a word
// the binary does not know is returned as documented, so it fails; a group
// word alone ("cashier key") names no command.
func documentedCommands(t *testing.T, known []string) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	var text strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(b)
		text.WriteString("\n")
	}
	// Line breaks (and shell continuations) inside a mention become spaces.
	flat := regexp.MustCompile(`\s*\\?\n\s*|[ \t]+`).ReplaceAllString(text.String(), " ")
	isKnown := map[string]bool{}
	groups := map[string]bool{}
	for _, c := range known {
		isKnown[c] = true
		first, _, _ := strings.Cut(c, " ")
		groups[first] = true
	}
	var names []string
	for g := range groups {
		names = append(names, g)
	}
	word := `[a-z]+(?:-[a-z]+)*`
	mention := regexp.MustCompile(`\bcashier (` + strings.Join(names, "|") + `)\b(?: (` + word + `(?:\|` + word + `)*)\b)?`)
	doc := map[string]bool{}
	for _, m := range mention.FindAllStringSubmatch(flat, -1) {
		group, subs := m[1], m[2]
		if subs == "" || (isKnown[group] && !isKnown[group+" "+strings.Split(subs, "|")[0]]) {
			if isKnown[group] { // serve, sandbox: a command by itself
				doc[group] = true
			}
			continue
		}
		for _, s := range strings.Split(subs, "|") {
			doc[group+" "+s] = true
		}
	}
	return doc
}

// hookLog keeps every verified webhook body the sandbox delivers.
type hookLog struct {
	mu     sync.Mutex
	key    string
	bodies map[string][]map[string]any // orderNo → bodies in arrival order
}

func (h *hookLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ev, _, err := client.VerifyWebhook(r, h.key)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	h.bodies[ev.OrderNo] = append(h.bodies[ev.OrderNo], ev.Fields)
}

// find returns the first body of orderNo with the given status.
func (h *hookLog) find(orderNo, status string) map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range h.bodies[orderNo] {
		if b["status"] == status {
			return b
		}
	}
	return nil
}

// TestDocumentedCommands: every command the binary lists is documented in
// README.md or docs/, every documented command exists, answers -h
// without crashing, and does its job once on the built binary, on data
// directories this test creates (one provisioned with the CLI, one a
// running sandbox). Registering a contract is proven on chain, so the
// contract commands run in the sandbox, on a CashierPayout the test deploys
// naming the demo merchant's signer. The sandbox part also checks the
// webhooks an operator command writes against the service's own for the
// same payout.
func TestDocumentedCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary's sandbox")
	}
	known := binaryCommands(t)
	isKnown := map[string]bool{}
	for _, c := range known {
		isKnown[c] = true
	}
	doc := documentedCommands(t, known)
	for _, c := range known {
		if !doc[c] {
			t.Errorf("cashier %s is not documented in README.md or docs/", c)
		}
	}
	for c := range doc {
		if !isKnown[c] {
			t.Errorf("documented command cashier %s is not one the binary lists", c)
		}
	}

	t.Run("help", func(t *testing.T) {
		// Processes in parallel: each is quick but waits for a CPU.
		var wg sync.WaitGroup
		errs := make([]string, len(known))
		sem := make(chan struct{}, 6)
		for i, c := range known {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				cmd := exec.Command(binary, append(strings.Fields(c), "-h")...)
				cmd.Dir = t.TempDir() // -h must not need (or create) a data directory
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				err := cmd.Run()
				if err != nil || strings.Contains(stderr.String(), "panic") || !strings.Contains(stderr.String(), "Usage of "+c+":") {
					errs[i] = fmt.Sprintf("cashier %s -h: %v\n%s", c, err, stderr.String())
				} else if entries, _ := os.ReadDir(cmd.Dir); len(entries) != 0 {
					errs[i] = fmt.Sprintf("cashier %s -h left %d files behind", c, len(entries))
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Error(e)
			}
		}
	})

	used := map[string]bool{}
	// use runs a command on the binary, marks it used and decodes the JSON
	// object it prints.
	use := func(t *testing.T, env []string, args ...string) map[string]any {
		t.Helper()
		name := args[0]
		if len(args) > 1 && isKnown[args[0]+" "+args[1]] {
			name = args[0] + " " + args[1]
		}
		used[name] = true
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("cashier %q: %v\n%s%s", args, err, out, stderr.String())
		}
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(out))
		if err := dec.Decode(&m); err != nil || dec.More() {
			t.Fatalf("cashier %q printed %q, not one JSON object: %v", args, out, err)
		}
		return m
	}

	t.Run("provisioned data directory", func(t *testing.T) {
		data := t.TempDir()
		env := []string{"CASHIER_MODE=sandbox"} // a loopback webhook URL is allowed
		if i := use(t, env, "init", "--data", data); i["data"] != data || (i["database"] == "sqlite" && i["created"] != true) {
			t.Fatalf("init: %v", i)
		}
		if v := use(t, nil, "version"); v["module"] != "github.com/stablecashier/cashier" {
			t.Fatalf("version: %v", v)
		}
		m := use(t, env, "merchant", "create", "--data", data, "--name", "Docs Shop")["merchantId"].(string)
		c := use(t, nil, "cashier", "create", "--data", data, "--merchant", m, "--webhook-url", "http://127.0.0.1:9/hook")
		if c["merchantId"] != m {
			t.Fatalf("cashier create: %v", c)
		}
		u := use(t, nil, "cashier", "update", "--data", data, "--id", c["cashierId"].(string), "--allowed-origins", "https://shop.example")
		if o, _ := u["allowedOrigins"].([]any); len(o) != 1 || o[0] != "https://shop.example" {
			t.Fatalf("cashier update: %v", u)
		}
		// Registering a contract needs the network's node: the sandbox part
		// registers one it deployed.
		signer := use(t, nil, "key", "generate", "--data", data, "--chain", "ETH", "--role", "signer")
		keyFile := func(name string) (string, common.Address) {
			key, _ := crypto.GenerateKey()
			f := filepath.Join(t.TempDir(), name+".key")
			if err := os.WriteFile(f, []byte(hex.EncodeToString(crypto.FromECDSA(key))+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return f, crypto.PubkeyToAddress(key.PublicKey)
		}
		execFile, execAddr := keyFile("executor")
		executor := use(t, nil, "key", "import", "--data", data, "--chain", "ETH", "--role", "executor", "--key-file", execFile)
		if !strings.EqualFold(executor["address"].(string), execAddr.Hex()) {
			t.Fatalf("key import stored %v, want %s", executor["address"], execAddr.Hex())
		}
		// The merchant's own signer, imported by the operator.
		mineFile, mineAddr := keyFile("merchant-signer")
		mine := use(t, nil, "key", "import", "--data", data, "--merchant", m, "--chain", "ETH", "--role", "signer", "--key-file", mineFile)
		if !strings.EqualFold(mine["address"].(string), mineAddr.Hex()) || mine["merchantId"] != m {
			t.Fatalf("key import --merchant stored %v, want %s", mine, mineAddr.Hex())
		}
		keys, _ := json.Marshal(use(t, nil, "key", "list", "--data", data)["keys"])
		for _, a := range []any{signer["address"], executor["address"]} {
			if !strings.Contains(string(keys), a.(string)) {
				t.Fatalf("key list %s lacks %s", keys, a)
			}
		}
		if strings.Contains(string(keys), mine["address"].(string)) {
			t.Fatalf("key list without --merchant %s shows the merchant's signer %s", keys, mine["address"])
		}
		if keys, _ := json.Marshal(use(t, nil, "key", "list", "--data", data, "--merchant", m)["keys"]); !strings.Contains(string(keys), mine["address"].(string)) {
			t.Fatalf("key list --merchant %s lacks %s", keys, mine["address"])
		}
		if u := use(t, nil, "user", "create", "--data", data, "--email", "viewer@docs.example", "--merchant", m, "--role", "viewer"); u["email"] != "viewer@docs.example" || u["password"] == "" {
			t.Fatalf("user create: %v", u)
		}
		if u := use(t, nil, "user", "list", "--data", data, "--merchant", m); u["total"] != float64(1) {
			t.Fatalf("user list: %v", u)
		}
		if u := use(t, nil, "user", "disable", "--data", data, "--email", "viewer@docs.example"); u["disabled"] != true {
			t.Fatalf("user disable: %v", u)
		}
		if u := use(t, nil, "user", "enable", "--data", data, "--email", "viewer@docs.example"); u["disabled"] != false {
			t.Fatalf("user enable: %v", u)
		}
		if u := use(t, nil, "user", "reset-password", "--data", data, "--email", "viewer@docs.example"); len(u["password"].(string)) != 20 {
			t.Fatalf("user reset-password: %v", u)
		}
		if u := use(t, nil, "user", "reset-totp", "--data", data, "--email", "viewer@docs.example"); u["totp"] != false {
			t.Fatalf("user reset-totp: %v", u)
		}
		if u := use(t, nil, "user", "remove", "--data", data, "--email", "viewer@docs.example"); u["removed"] != true {
			t.Fatalf("user remove: %v", u)
		}
		r := use(t, nil, "merchant", "rotate-keys", "--data", data, "--merchant", m, "--key-grace", "1h")
		if r["merchantId"] != m || r["apiKey"] == "" || r["previousKeyUntil"].(float64) <= 0 {
			t.Fatalf("merchant rotate-keys: %v", r)
		}
		if r := use(t, nil, "merchant", "revoke-old-key", "--data", data, "--merchant", m); r["merchantId"] != m {
			t.Fatalf("merchant revoke-old-key: %v", r)
		}
		// listen and trigger follow and drive a running sandbox's events:
		// TestListenAndTrigger runs each of them against one.
		used["listen"], used["trigger"] = true, true
		// No node is configured here: the preflight fails, naming each network.
		used["doctor"] = true
		if out, err := exec.Command(binary, "doctor", "--data", data).Output(); err == nil || !strings.Contains(string(out), "fail  network ETH: no node URL is configured") {
			t.Fatalf("doctor without a node: %v\n%s", err, out)
		}
		used["serve"] = true
		srv := start(t, nil, "serve", "--data", data, "--addr", "127.0.0.1:0")
		base := listening(t, srv)
		resp, err := http.Get(base + "/healthz")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("serve: GET /healthz: %v %v", resp, err)
		}
		resp.Body.Close()
		if onPostgres() {
			// The command backs up SQLite only; on PostgreSQL it refuses
			// and names the server's own tools.
			used["backup"] = true
			out, err := exec.Command(binary, "backup", "--data", data, "--out", filepath.Join(t.TempDir(), "cashier.db")).CombinedOutput()
			if err == nil || !strings.Contains(string(out), "pg_dump") {
				t.Fatalf("backup on PostgreSQL: %v\n%s", err, out)
			}
			srv.stop(t)
			return
		}
		// A backup of the live database, restored beside its master key,
		// is the same service's data.
		copyDir := t.TempDir()
		b := use(t, nil, "backup", "--data", data, "--out", filepath.Join(copyDir, "cashier.db"))
		if b["integrity"] != "ok" || b["bytes"].(float64) <= 0 || b["masterKey"] != filepath.Join(data, "master.key") {
			t.Fatalf("backup: %v", b)
		}
		// The preflight sees the backup just made.
		if out, _ := exec.Command(binary, "doctor", "--data", data).Output(); !strings.Contains(string(out), "ok    backup: "+filepath.Join(copyDir, "cashier.db")) {
			t.Fatalf("doctor after a backup:\n%s", out)
		}
		srv.stop(t)
		key, err := os.ReadFile(filepath.Join(data, "master.key"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copyDir, "master.key"), key, 0o600); err != nil {
			t.Fatal(err)
		}
		if u := use(t, nil, "user", "list", "--data", copyDir, "--merchant", m); u["total"] != float64(0) {
			t.Fatalf("user list on the restored copy: %v", u)
		}
		if k, _ := json.Marshal(use(t, nil, "key", "list", "--data", copyDir)["keys"]); !strings.Contains(string(k), executor["address"].(string)) {
			t.Fatalf("restored copy's keys: %s", k)
		}
	})

	t.Run("sandbox data directory", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		hooks := &hookLog{bodies: map[string][]map[string]any{}}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hookSrv := &http.Server{Handler: hooks}
		go hookSrv.Serve(ln)
		defer hookSrv.Close()

		tw := newWorld(t, worldOpts{OneProcess: true, Env: databaseEnv(), Service: []string{"--tron-block-interval", "300ms", "--webhook-url", "http://" + ln.Addr().String() + "/hook"}})
		used["sandbox"] = true
		data, info := tw.Data, tw.Info
		hooks.mu.Lock()
		hooks.key = info.WebhookKey
		hooks.mu.Unlock()
		sdk := client.New(info.BaseURL, info.APIKey, info.SecretKey)
		env := databaseEnv()

		// Collections: one paid from the demo wallet, one cancelled.
		suffix := time.Now().Format("150405.000")
		paidNo, cancelNo := "DOC-PAY-"+suffix, "DOC-CANCEL-"+suffix
		for _, no := range []string{paidNo, cancelNo} {
			if _, err := sdk.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: no, Amount: "3.25", Symbol: "USDT", ChainID: "ETH"}); err != nil {
				t.Fatalf("create %s: %v", no, err)
			}
		}
		if p := use(t, env, "sandbox", "pay", "--data", data, "--order", paidNo); p["txId"] == "" || p["txId"] == nil {
			t.Fatalf("sandbox pay printed %v", p)
		}
		if c := use(t, env, "collection", "cancel", "--data", data, "--order", cancelNo, "--merchant", info.MerchantID); c["status"] != "CANCELLED" {
			t.Fatalf("collection cancel: %v", c)
		}

		// Payouts held for review (the demo merchant's default policy):
		// one approved, one refused by the operator.
		recipient := func() string {
			var a [20]byte
			rand.Read(a[:])
			return common.BytesToAddress(a[:]).Hex()
		}
		approveNo, refuseNo := "DOC-PO-OK-"+suffix, "DOC-PO-NO-"+suffix
		ids := map[string]string{}
		for _, no := range []string{approveNo, refuseNo} {
			r, err := sdk.CreatePayout(ctx, client.PayoutRequest{ContractID: info.ContractIDs["ETH"], OrderNo: no, Recipient: recipient(), Amount: "1.50", Symbol: "USDT"})
			if err != nil {
				t.Fatalf("create payout %s: %v", no, err)
			}
			ids[no] = r.OrderID
		}
		listed, _ := json.Marshal(use(t, env, "payout", "list", "--data", data, "--status", "PENDING", "--merchant", info.MerchantID, "--chain", "ETH"))
		for _, id := range ids {
			if !strings.Contains(string(listed), id) {
				t.Fatalf("payout list lacks %s: %s", id, listed)
			}
		}
		if r := use(t, env, "payout", "refuse", "--data", data, "--id", ids[refuseNo], "--reason", "recipient failed KYC"); r["status"] != "REFUSE" {
			t.Fatalf("payout refuse: %v", r)
		}
		if a := use(t, env, "payout", "approve", "--data", data, "--id", ids[approveNo]); a["approved"] != float64(1) {
			t.Fatalf("payout approve: %v", a)
		}
		// The documented form that crashed with "flag redefined: mode".
		if p := use(t, env, "payout", "policy", "--data", data, "--merchant", info.MerchantID, "--mode", "never"); p["mode"] != "never" || p["merchantId"] != info.MerchantID {
			t.Fatalf("payout policy: %v", p)
		}

		// Pricing a second pair of contracts for the demo merchant sends nothing
		// (the deploy itself: TestContractDeployOnTheBinary).
		if d := use(t, env, "contract", "deploy", "--data", data, "--chain", "ETH", "--merchant", info.MerchantID,
			"--owner", info.Wallets["customer"].EVMAddress, "--rpc", info.Networks["ETH"].RPCURL, "--dry-run"); d["dryRun"] != true || len(d["transactions"].([]any)) != 2 {
			t.Fatalf("contract deploy --dry-run: %v", d)
		}

		// The operator's REFUSE arrives through the running service.
		var refused map[string]any
		waitFor(t, "the REFUSE webhook", time.Minute, func() bool { refused = hooks.find(refuseNo, "REFUSE"); return refused != nil })
		evID, _ := refused["eventId"].(string)
		if l := use(t, env, "webhook", "log", "--data", data, "--event", evID); l["eventId"] != evID || l["status"] != "REFUSE" {
			t.Fatalf("webhook log: %v", l)
		}
		if r := use(t, env, "webhook", "resend", "--data", data, "--event", evID); r["eventId"] != evID {
			t.Fatalf("webhook resend: %v", r)
		}
		if r := use(t, env, "webhook", "test", "--data", data, "--cashier", info.CashierID); r["ok"] != true {
			t.Fatalf("webhook test: %v", r)
		}
		if s := use(t, env, "sweep", "list", "--data", data, "--chain", "ETH"); s["total"] == nil {
			t.Fatalf("sweep list: %v", s)
		}
		if s := use(t, env, "sweep", "native", "--data", data, "--chain", "ETH", "--wait", "0"); s["chainId"] != "ETH" {
			t.Fatalf("sweep native: %v", s)
		}

		// A contract of the demo merchant's own: deployed naming its signer
		// (`key signer`), registered with the proof on the sandbox's chain,
		// proven again, then changed in place.
		signer := use(t, env, "key", "signer", "--data", data, "--merchant", info.MerchantID, "--chain", "ETH")
		if !strings.EqualFold(signer["address"].(string), info.Roles["signer"].EVMAddress) {
			t.Fatalf("key signer %v, want the sandbox's signer role %s", signer, info.Roles["signer"].EVMAddress)
		}
		eth := info.Networks["ETH"]
		deployed := deployPayout(ctx, t, eth.RPCURL, info.Roles["owner"], info.Roles["executor"].EVMAddress, signer["address"].(string), info.Roles["fee"].EVMAddress)
		onChain := []string{"--registry", writeRegistry(t, t.TempDir(), info, 1), "--eth-rpc", eth.RPCURL}
		k := use(t, env, append([]string{"contract", "create", "--data", data, "--merchant", info.MerchantID, "--chain", "ETH", "--address", deployed}, onChain...)...)
		if k["merchantId"] != info.MerchantID || !strings.EqualFold(k["address"].(string), deployed) || !strings.EqualFold(k["signer"].(string), signer["address"].(string)) {
			t.Fatalf("contract create: %v", k)
		}
		id := k["contractId"].(string)
		if c := use(t, env, append([]string{"contract", "check", "--data", data, "--id", id}, onChain...)...); c["contractId"] != id || !strings.EqualFold(c["signer"].(string), signer["address"].(string)) {
			t.Fatalf("contract check: %v", c)
		}
		// A registration from before ownership proofs (naming the network's
		// service signer, recorded without a signer): the operator confirms
		// it after the audit; the owner read on chain is printed.
		serviceSigner := use(t, env, "key", "generate", "--data", data, "--chain", "ETH", "--role", "signer")["address"].(string)
		legacy := deployPayout(ctx, t, eth.RPCURL, info.Roles["owner"], info.Roles["executor"].EVMAddress, serviceSigner, info.Roles["fee"].EVMAddress)
		legacyID := registerUnchecked(t, data, info.MerchantID, "ETH", legacy, "", "")
		if c := use(t, env, append([]string{"contract", "confirm", "--data", data, "--id", legacyID}, onChain...)...); c["contractId"] != legacyID ||
			!strings.EqualFold(c["signer"].(string), serviceSigner) || !strings.EqualFold(c["owner"].(string), info.Roles["owner"].EVMAddress) || c["proof"] != "confirmed" {
			t.Fatalf("contract confirm: %v", c)
		}
		payoutsURL := "http://" + ln.Addr().String() + "/payouts"
		if c := use(t, env, "contract", "update", "--data", data, "--id", id, "--webhook-url", payoutsURL); c["webhookUrl"] != payoutsURL {
			t.Fatalf("contract update: %v", c)
		}
		if c := use(t, env, "contract", "disable", "--data", data, "--id", id); c["status"] != "disabled" {
			t.Fatalf("contract disable: %v", c)
		}
		if c := use(t, env, "contract", "enable", "--data", data, "--id", id); c["status"] != "active" {
			t.Fatalf("contract enable: %v", c)
		}

		var paid map[string]any
		waitFor(t, "the paid collection's webhook", 2*time.Minute, func() bool { paid = hooks.find(paidNo, "SUCCESS"); return paid != nil })
		var success map[string]any
		waitFor(t, "the approved payout's SUCCESS webhook", 2*time.Minute, func() bool {
			success = hooks.find(approveNo, "SUCCESS")
			return success != nil
		})

		t.Run("operator-written webhook matches the service's", func(t *testing.T) {
			pending := hooks.find(refuseNo, "PENDING") // written by the service at creation
			if pending == nil {
				t.Fatal("no PENDING webhook of the refused payout")
			}
			sameShape(t, "REFUSE (cashier payout refuse) vs PENDING (service)", refused, pending)
			sameShape(t, "REFUSE (cashier payout refuse) vs SUCCESS (service)", refused, success)
			if n, ok := refused["contractId"].(json.Number); !ok || n == "" || refused["contractId"] != pending["contractId"] || refused["contractId"] != success["contractId"] {
				t.Errorf("contractId %v (CLI) vs %v, %v (service): want one number", refused["contractId"], pending["contractId"], success["contractId"])
			}
			if refused["network"] != pending["network"] || refused["network"] != success["network"] || refused["chainId"] != pending["chainId"] {
				t.Errorf("network %v (CLI) vs %v, %v (service)", refused["network"], pending["network"], success["network"])
			}
			// Without a transaction blockTime is the time of the change.
			if refused["failReason"] != "recipient failed KYC" || refused["reason"] != refused["failReason"] ||
				refused["blockTime"] == nil || refused["blockTime"] != refused["updateTime"] {
				t.Errorf("refused body %v", refused)
			}
			cancelled := hooks.find(cancelNo, "CANCELLED")
			if cancelled == nil {
				t.Fatal("no CANCELLED webhook of the order cancelled with the CLI")
			}
			sameShape(t, "CANCELLED (cashier collection cancel) vs SUCCESS (service)", cancelled, paid)
			if cancelled["network"] != paid["network"] || cancelled["cashierId"] != paid["cashierId"] {
				t.Errorf("collection network/cashierId %v %v (CLI) vs %v %v (service)", cancelled["network"], cancelled["cashierId"], paid["network"], paid["cashierId"])
			}
		})

		t.Run("payout blockTime is its block's time", func(t *testing.T) {
			ec, err := ethclient.Dial(info.Networks["ETH"].RPCURL)
			if err != nil {
				t.Fatal(err)
			}
			defer ec.Close()
			rc, err := ec.TransactionReceipt(ctx, common.HexToHash(success["txId"].(string)))
			if err != nil {
				t.Fatal(err)
			}
			h, err := ec.HeaderByNumber(ctx, rc.BlockNumber)
			if err != nil {
				t.Fatal(err)
			}
			if bt, _ := success["blockTime"].(json.Number); bt.String() != strconv.FormatUint(h.Time*1000, 10) {
				t.Errorf("blockTime %v, want block %s's time %d000 (updateTime %v)", success["blockTime"], rc.BlockNumber, h.Time, success["updateTime"])
			}
		})
	})

	var missing []string
	for _, c := range known {
		if !used[c] {
			missing = append(missing, c)
		}
	}
	if !t.Failed() && len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("commands without a use here: %s", strings.Join(missing, ", "))
	}
}

// sameShape requires two webhook bodies to have the same fields with the
// same JSON types.
func sameShape(t *testing.T, what string, a, b map[string]any) {
	t.Helper()
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	if ka, kb := keys(a), keys(b); !slices.Equal(ka, kb) {
		t.Errorf("%s: fields differ:\n%v\n%v", what, ka, kb)
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			continue
		}
		if fmt.Sprintf("%T", va) != fmt.Sprintf("%T", vb) {
			t.Errorf("%s: %s is %T (%v) vs %T (%v)", what, k, va, va, vb, vb)
		}
	}
}

// deployPayout deploys a CashierPayout on the EVM dev chain at rpc, sent and
// owned by owner, naming executor, signer and fee; it returns the address.
func deployPayout(ctx context.Context, t *testing.T, rpc string, owner *sandbox.Wallet, executor, signer, fee string) string {
	t.Helper()
	ec, err := ethclient.Dial(rpc)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	key, err := owner.Key()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	code := append(common.FromHex(bindings.CashierPayoutMetaData.Bin), bindings.NewCashierPayout().PackConstructor(
		from, common.HexToAddress(executor), common.HexToAddress(signer), common.HexToAddress(fee))...)
	chainID, err := ec.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gas, err := ec.EstimateGas(ctx, ethereum.CallMsg{From: from, Data: code})
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := ec.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	head, err := ec.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tip := big.NewInt(params.GWei)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, Data: code,
	})
	if err := ec.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	r, err := devchain.WaitMined(ctx, ec, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("deploying CashierPayout failed: %s", tx.Hash())
	}
	return r.ContractAddress.Hex()
}
