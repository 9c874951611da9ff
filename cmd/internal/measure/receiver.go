package measure

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier/client"
)

// Receiver verifies each webhook with the sandbox's webhook key and hands
// the verified ones, with their raw body and arrival time, to accept. A
// webhook that fails verification is answered 401, one accept refuses
// 400; both are counted as bad.
type Receiver struct {
	key    string
	accept func(ev *client.WebhookEvent, body []byte, at time.Time) error
	bad    atomic.Int64
	srv    *http.Server
}

// Receive starts a Receiver on addr.
func Receive(addr, key string, accept func(ev *client.WebhookEvent, body []byte, at time.Time) error) (*Receiver, error) {
	rc := &Receiver{key: key, accept: accept}
	srv, err := Serve(addr, rc)
	if err != nil {
		return nil, err
	}
	rc.srv = srv
	return rc, nil
}

func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ev, body, err := client.VerifyWebhook(r, rc.key)
	at := time.Now()
	if err != nil {
		rc.bad.Add(1)
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	if err := rc.accept(ev, body, at); err != nil {
		rc.bad.Add(1)
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
}

// Bad is how many webhooks were answered 401 or 400.
func (rc *Receiver) Bad() int64 { return rc.bad.Load() }

// Close stops the receiver.
func (rc *Receiver) Close() error { return rc.srv.Close() }
