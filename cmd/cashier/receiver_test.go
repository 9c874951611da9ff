package main

import (
	"net"
	"net/http"
	"sync"
	"testing"

	"github.com/stablecashier/cashier/client"
)

// receiver is a merchant's webhook receiver on a free loopback port: it
// verifies each event's signature under the webhook key (setKey, once
// known), answers 401 to one it cannot verify, and hands the verified
// events to on.
type receiver struct {
	URL string // http://127.0.0.1:PORT/hook
	mu  sync.Mutex
	key string
}

func newReceiver(t *testing.T, on func(*client.WebhookEvent)) *receiver {
	t.Helper()
	rc := &receiver{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc.mu.Lock()
		key := rc.key
		rc.mu.Unlock()
		ev, _, err := client.VerifyWebhook(r, key)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		on(ev)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	rc.URL = "http://" + ln.Addr().String() + "/hook"
	return rc
}

func (rc *receiver) setKey(key string) {
	rc.mu.Lock()
	rc.key = key
	rc.mu.Unlock()
}
