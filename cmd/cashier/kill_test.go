package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// TestWebhookSurvivesKill kills the service with SIGKILL while it is
// delivering a webhook (the receiver holds the request open), starts it
// again on the same data directory, and requires the event to arrive with
// the same id and the same bytes: a crash loses nothing.
func TestWebhookSurvivesKill(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	var ids []string
	hang := true
	arrived := make(chan struct{}, 10)
	hookSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		ids = append(ids, r.Header.Get("Service-Event-Id"))
		h := hang
		mu.Unlock()
		arrived <- struct{}{}
		if h {
			<-r.Context().Done() // hold the delivery open until the client goes away
			return
		}
		w.WriteHeader(http.StatusOK)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hookSrv.Serve(ln)
	defer hookSrv.Close()

	tw := newWorld(t, worldOpts{Shop: "Crash Shop", HookURL: "http://" + ln.Addr().String() + "/hook",
		Env: []string{"CASHIER_MODE=sandbox", "CASHIER_WEBHOOK_TIMEOUT=1s", "CASHIER_WEBHOOK_LEASE=2s", unreachableETH}})
	data, first, sdk, c := tw.Data, tw.Svc, tw.API, tw.Cashier
	if _, err := sdk.CreateCollection(context.Background(), client.CollectionRequest{CashierID: c["cashierId"], OrderNo: "K-1",
		Amount: "10.00", Symbol: "USDT", ChainID: "ETH", CustNo: "C-1"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the first delivery never arrived")
	}
	// Mid-delivery: kill -9, no chance to record anything.
	first.kill()

	mu.Lock()
	hang = false
	mu.Unlock()
	second := tw.startService()
	select {
	case <-arrived:
	case <-time.After(30 * time.Second):
		t.Fatal("the event was lost: no delivery after the restart")
	}
	mu.Lock()
	if len(ids) != 2 || ids[0] == "" || ids[0] != ids[1] || bodies[0] != bodies[1] {
		t.Fatalf("redelivery differs: ids %q, bodies %q", ids, bodies)
	}
	mu.Unlock()
	second.stop(t)

	// The delivery log shows it delivered, with the interrupted attempt not
	// counted against the merchant's retries.
	out, err := exec.Command(binary, "webhook", "log", "--data", data, "--event", ids[0]).Output()
	if err != nil || !strings.Contains(string(out), `"state":"delivered"`) {
		t.Fatalf("webhook log: %v %s", err, out)
	}
	// No further delivery arrives.
	select {
	case <-arrived:
		t.Fatal("delivered a third time")
	case <-time.After(500 * time.Millisecond):
	}
}
