package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// quickstartDir holds the snippets docs/quickstart.md includes verbatim.
const quickstartDir = "../../docs/quickstart"

// TestQuickstartIncludesSnippets: the quickstart shows each snippet file
// exactly as the tests run it.
func TestQuickstartIncludesSnippets(t *testing.T) {
	doc, err := os.ReadFile("../../docs/quickstart.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(quickstartDir, "*"))
	if len(files) < 5 {
		t.Fatalf("snippets: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "\n"+string(b)+"```") {
			t.Errorf("docs/quickstart.md does not include %s verbatim", filepath.Base(f))
		}
	}
}

// TestQuickstart runs the quickstart against a sandbox started from the
// binary, as a newcomer would: the webhook receiver (Node), the curl +
// openssl snippet, then the Python, Node and PHP ones, with and without
// their SDKs, where installed; each creates an order and reads it back;
// the curl order is paid with `cashier sandbox pay` and its SUCCESS webhook
// arrives verified by the receiver, which refuses a forged one, and by the
// SDK receivers, each fed by `cashier listen --forward-to`. A paid order of
// another amount is not taken for the 12.50 USDT sold, and a refund's
// SUCCESS is not taken for a payment's.
func TestQuickstart(t *testing.T) {
	dir, _ := filepath.Abs(quickstartDir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // the receiver listens on it next

	tw := newWorld(t, worldOpts{OneProcess: true, Env: databaseEnv(), Service: []string{"--tron-block-interval", "300ms", "--webhook-url", "http://127.0.0.1:" + strconv.Itoa(port) + "/hook"}})
	data, sb, info := tw.Data, tw.Svc, tw.Info
	defer sb.stop(t)

	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed (test.sh requires it)")
	}
	recv := &proc{cmd: exec.Command(node, filepath.Join(dir, "webhook.js")), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	recv.cmd.Env = append(os.Environ(), "WEBHOOK_KEY="+info.WebhookKey, "PORT="+strconv.Itoa(port))
	recv.cmd.Stdout, recv.cmd.Stderr = &syncWriter{w: recv.stdout}, &syncWriter{w: recv.stderr}
	if err := recv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { recv.done <- recv.cmd.Wait() }()
	defer recv.cmd.Process.Kill()
	hook := "http://127.0.0.1:" + strconv.Itoa(port) + "/hook"
	waitFor(t, "the webhook receiver", 30*time.Second, func() bool {
		resp, err := http.Post(hook, "application/json", strings.NewReader(`{"orderNo":"forged","status":"SUCCESS"}`))
		if err != nil {
			return false
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the receiver answered a forged webhook %d", resp.StatusCode)
		}
		return true
	})

	suffix := time.Now().Format("150405.000")
	snippets := []struct {
		lang, tool, file string
		sdk              bool // prints the SDK's data, not the envelope
	}{
		{"curl", "bash", "create.sh", false},
		{"python", "python3", "create.py", false},
		{"node", "node", "create.js", false},
		{"php", "php", "create.php", false},
		{"python-sdk", "python3", "sdk-create.py", true},
		{"node-sdk", "node", "sdk-create.js", true},
		{"php-sdk", "php", "sdk-create.php", true},
	}
	sdkEnv := quickstartSDKEnv(t)
	ran := 0
	for _, s := range snippets {
		t.Run(s.lang, func(t *testing.T) {
			tool, err := exec.LookPath(s.tool)
			if err != nil {
				if s.lang == "curl" {
					t.Fatal("bash is needed")
				}
				t.Skipf("%s is not installed", s.tool)
			}
			orderNo := "QS-" + s.lang + "-" + suffix
			cmd := exec.Command(tool, filepath.Join(dir, s.file))
			cmd.Env = append(os.Environ(), "CASHIER_URL="+info.BaseURL, "API_KEY="+info.APIKey, "SECRET_KEY="+info.SecretKey,
				"CASHIER_ID="+info.CashierID, "ORDER_NO="+orderNo)
			cmd.Env = append(cmd.Env, sdkEnv...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", s.file, err, out)
			}
			var created, detail struct {
				Success bool           `json:"success"`
				Code    string         `json:"code"`
				Data    map[string]any `json:"data"`
			}
			var lines []string // the two answers, without blank lines
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			sc.Buffer(nil, 1<<20) // the create answer carries a QR code image
			for sc.Scan() {
				if l := strings.TrimSpace(sc.Text()); l != "" {
					lines = append(lines, l)
				}
			}
			if s.sdk && len(lines) == 2 { // the SDK answers the data, or raises the refusal
				lines = []string{`{"success":true,"data":` + lines[0] + `}`, `{"success":true,"data":` + lines[1] + `}`}
			}
			if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &created) != nil || json.Unmarshal([]byte(lines[1]), &detail) != nil {
				t.Fatalf("%s printed %q", s.file, out)
			}
			if !created.Success || created.Data["orderNo"] != orderNo || created.Data["address"] == "" {
				t.Fatalf("%s create: %+v", s.file, created)
			}
			if !detail.Success || detail.Data["orderNo"] != orderNo || detail.Data["status"] != "PENDING" || detail.Data["amount"] != "12.50" {
				t.Fatalf("%s detail: %+v", s.file, detail)
			}
			ran++
		})
	}
	if ran < 2 {
		t.Fatalf("only %d snippets ran", ran)
	}

	// The SDK receivers, each on its own port, fed by cashier listen.
	var receivers []*proc
	for _, r := range []struct{ tool, file string }{{"python3", "sdk-webhook.py"}, {"node", "sdk-webhook.js"}, {"php", "sdk-webhook.php"}} {
		tool, err := exec.LookPath(r.tool)
		if err != nil {
			continue // not installed: its create snippet was skipped above too
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		args := []string{filepath.Join(dir, r.file)}
		if r.tool == "php" {
			args = []string{"-S", addr, filepath.Join(dir, r.file)}
		}
		p := &proc{cmd: exec.Command(tool, args...), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
		p.cmd.Env = append(append(os.Environ(), sdkEnv...), "WEBHOOK_KEY="+info.WebhookKey, "PORT="+addr[strings.LastIndex(addr, ":")+1:])
		p.cmd.Stdout, p.cmd.Stderr = &syncWriter{w: p.stdout}, &syncWriter{w: p.stderr}
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.done <- p.cmd.Wait() }()
		defer p.cmd.Process.Kill()
		url := "http://" + addr + "/hook"
		waitFor(t, r.file, 30*time.Second, func() bool {
			resp, err := http.Post(url, "application/json", strings.NewReader(`{"eventId":"evt_forged","orderNo":"forged","status":"SUCCESS"}`))
			if err != nil {
				return false
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("%s answered a forged webhook %d", r.file, resp.StatusCode)
			}
			return true
		})
		l := start(t, databaseEnv(), "listen", "--data", data, "--forward-to", url)
		defer l.stop(t)
		waitFor(t, "listen to "+r.file, time.Minute, func() bool { return strings.Contains(l.stderr.String(), "Ctrl-C stops") })
		receivers = append(receivers, p)
	}
	if len(receivers) == 0 {
		t.Fatal("no SDK receiver ran")
	}

	paid := "QS-curl-" + suffix
	payOrder(t, data, paid)
	waitFor(t, "the verified SUCCESS webhook", 2*time.Minute, func() bool {
		return strings.Contains(recv.stdout.String(), "verified "+paid+" SUCCESS")
	})
	for _, p := range receivers {
		waitFor(t, "the SDK receiver's verified SUCCESS", time.Minute, func() bool {
			return strings.Contains(p.stdout.String(), "verified "+paid+" SUCCESS")
		})
	}

	// A paid order of 10.00 (trigger's default) is not what the receivers
	// sold; its refund's SUCCESS is a refund's. (On PostgreSQL trigger
	// cannot approve the refund's payout: the payment alone.)
	event := "refund.success"
	if len(databaseEnv()) > 0 {
		event = "payment.success"
	}
	trig := exec.Command(binary, "trigger", event, "--data", data)
	trig.Env = append(os.Environ(), databaseEnv()...)
	out, err := trig.CombinedOutput()
	if err != nil {
		t.Fatalf("trigger %s: %v\n%s", event, err, out)
	}
	other := regexp.MustCompile(`collection (TRIGGER-\S+) created`).FindSubmatch(out)
	if other == nil {
		t.Fatalf("trigger printed %s", out)
	}
	for _, p := range append(receivers, recv) {
		waitFor(t, "the mismatch", time.Minute, func() bool {
			return strings.Contains(p.stdout.String(), "mismatch "+string(other[1])+": 10.00 USDT, not shipped")
		})
	}
	if event == "refund.success" {
		for _, p := range receivers {
			waitFor(t, "the refund's SUCCESS", time.Minute, func() bool {
				return strings.Contains(p.stdout.String(), "refund RF-"+string(other[1])+" of "+string(other[1])+" SUCCESS")
			})
		}
		waitFor(t, "the refund's SUCCESS", time.Minute, func() bool {
			return strings.Contains(recv.stdout.String(), "noted refund.success "+string(other[1]))
		})
	}
	for _, p := range append(receivers, recv) {
		if s := p.stdout.String(); strings.Contains(s, "forged") || strings.Contains(s, "verified "+string(other[1])) {
			t.Errorf("a receiver took a forged webhook or the other order as sold:\n%s", s)
		}
	}
}

// quickstartSDKEnv makes the SDKs importable by the names the snippets
// use, as an installed package would be: PYTHONPATH for stablecashier,
// NODE_PATH for @stablecashier/sdk, and sdk/php/autoload.php for PHP.
func quickstartSDKEnv(t *testing.T) []string {
	sdk, err := filepath.Abs("../../sdk")
	if err != nil {
		t.Fatal(err)
	}
	nodePath := t.TempDir()
	if err := os.MkdirAll(filepath.Join(nodePath, "@stablecashier"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sdk, "node"), filepath.Join(nodePath, "@stablecashier", "sdk")); err != nil {
		t.Fatal(err)
	}
	return []string{"PYTHONPATH=" + filepath.Join(sdk, "python"), "NODE_PATH=" + nodePath,
		"STABLECASHIER_AUTOLOAD=" + filepath.Join(sdk, "php", "autoload.php")}
}
