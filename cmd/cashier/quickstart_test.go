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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier/sandbox"
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
// openssl snippet, then the Python, Node and PHP ones where installed;
// each creates an order and reads it back; the curl order is paid with
// `cashier sandbox pay` and its SUCCESS webhook arrives verified by the
// receiver, which refuses a forged one.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary's sandbox")
	}
	dir, _ := filepath.Abs(quickstartDir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // the receiver listens on it next

	data := t.TempDir()
	sb := start(t, databaseEnv(), "sandbox", "--data", data, "--free-ports", "--tron-block-interval", "300ms",
		"--webhook-url", "http://127.0.0.1:"+strconv.Itoa(port)+"/hook")
	defer sb.stop(t)
	waitFor(t, "the sandbox", 3*time.Minute, func() bool { return strings.Contains(sb.stderr.String(), "sandbox ready at") })
	info, err := sandbox.ReadInfo(filepath.Join(data, sandbox.InfoFile))
	if err != nil {
		t.Fatal(err)
	}

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
	snippets := []struct{ lang, tool, file string }{
		{"curl", "bash", "create.sh"},
		{"python", "python3", "create.py"},
		{"node", "node", "create.js"},
		{"php", "php", "create.php"},
	}
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

	paid := "QS-curl-" + suffix
	payOrder(t, data, paid)
	waitFor(t, "the verified SUCCESS webhook", 2*time.Minute, func() bool {
		return strings.Contains(recv.stdout.String(), "verified "+paid+" SUCCESS")
	})
	if strings.Contains(recv.stdout.String(), "forged") {
		t.Errorf("the receiver accepted a forged webhook:\n%s", recv.stdout.String())
	}
}
