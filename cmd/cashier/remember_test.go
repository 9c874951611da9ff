package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// TestWebhookTestOnSandboxData: `cashier webhook test --data DIR` on a
// sandbox's data directory works with no other flag: the directory
// remembers the sandbox mode (a plain-http loopback receiver is allowed)
// and the brand prefix, and the test event is signed under them.
func TestWebhookTestOnSandboxData(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox's dev chains")
	}
	var mu sync.Mutex
	var key string
	got := make(chan *client.WebhookEvent, 1)
	recv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		k := key
		mu.Unlock()
		ev, _, err := client.VerifyWebhook(r, k, client.WithHeaderPrefix("Acme"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		got <- ev
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go recv.Serve(ln)
	defer recv.Close()

	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var sbErr bytes.Buffer
	go func() {
		done <- run(ctx, []string{"sandbox", "--data", dir, "--free-ports", "--header-prefix", "Acme",
			"--webhook-url", "http://" + ln.Addr().String() + "/hook"}, func(string) string { return "" }, &bytes.Buffer{}, &sbErr)
	}()
	defer func() {
		stop()
		<-done
	}()
	deadline := time.Now().Add(120 * time.Second)
	for {
		_, err1 := os.Stat(filepath.Join(dir, sandbox.InfoFile))
		_, err2 := os.Stat(filepath.Join(dir, config.SettingsFile))
		if err1 == nil && err2 == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("sandbox stopped: %v\n%s", err, sbErr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("sandbox not ready\n%s", sbErr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	info, err := sandbox.ReadInfo(filepath.Join(dir, sandbox.InfoFile))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	key = info.WebhookKey
	mu.Unlock()

	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"webhook", "test", "--data", dir, "--cashier", info.CashierID},
		func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("webhook test: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res["ok"] != true {
		t.Fatalf("webhook test printed %s (%v)", out.String(), err)
	}
	select {
	case ev := <-got:
		if ev.Type != "test" || !strings.HasPrefix(ev.ID, "evt_") {
			t.Fatalf("event %+v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the receiver got no verified test event")
	}
}
