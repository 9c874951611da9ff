package http

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
)

// retryAfterKey carries, in a request's context, where the transport puts
// the answer's Retry-After.
type retryAfterKey struct{}

// retryAfterTransport records each answer's Retry-After for its caller.
type retryAfterTransport struct{ http.RoundTripper }

func (t retryAfterTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.RoundTripper.RoundTrip(r)
	if p, ok := r.Context().Value(retryAfterKey{}).(*string); ok && err == nil {
		*p = resp.Header.Get("Retry-After")
	}
	return resp, err
}

// 128 clients, each sending its next create when the last is answered and
// honouring Retry-After (waiting as told, then sending the same create
// again), all complete their creates without an error, and every refused
// create is served on its next try: a refusal books its place. The wait
// bound is set low (10 ms) so that creates are refused whatever the speed
// of the machine; every order is stored once.
func TestRetryAfterClientsAllServed(t *testing.T) { retryClients(t, true) }

// The same with clients that send a refused create again at once: each
// retry is held until its place is due and then served, so no create is
// refused twice and the clients do not spin on refusals.
func TestImpatientClientsAllServed(t *testing.T) { retryClients(t, false) }

func retryClients(t *testing.T, honour bool) {
	const clients, each = 128, 8
	e := newEnv(t, func(c *Config) {
		c.RateLimits = RateLimits{PerKey: -1, PerIP: -1, PerEndpoint: -1}
		c.MaxWait = 10 * time.Millisecond
	})
	hc := &http.Client{Transport: retryAfterTransport{&http.Transport{MaxIdleConnsPerHost: clients}}}
	cli := client.New(e.srv.URL, apiKey, secretKey, client.WithClock(e.clock), client.WithHTTPClient(hc))
	var refused, again atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				no := fmt.Sprintf("RA-%d-%d", c, i)
				for try := 0; ; try++ {
					var ra string
					ctx := context.WithValue(context.Background(), retryAfterKey{}, &ra)
					_, err := cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: no,
						Amount: "25.00", Symbol: "USDT", ChainID: "ETH"})
					if err == nil {
						break
					}
					if !client.IsCode(err, "000503") {
						errs <- fmt.Errorf("%s: %v", no, err)
						return
					}
					refused.Add(1)
					if try > 0 {
						again.Add(1)
					}
					secs, perr := strconv.Atoi(ra)
					if perr != nil || secs < 1 || secs > 10 {
						errs <- fmt.Errorf("%s: refused with Retry-After %q", no, ra)
						return
					}
					if honour {
						time.Sleep(time.Duration(secs) * time.Second)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	t.Logf("%d creates, %d refused first, %d refused again", clients*each, refused.Load(), again.Load())
	if refused.Load() == 0 {
		t.Fatal("nothing was refused: the test did not exercise Retry-After")
	}
	if again.Load() != 0 {
		t.Fatalf("%d creates refused again on their next try", again.Load())
	}
	if n, _ := e.counts(); n != clients*each {
		t.Fatalf("%d orders stored, want %d", n, clients*each)
	}
}
