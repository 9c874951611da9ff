package evm

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	cashier "github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/devchain"
)

// flaky fronts a node: the first fail requests get status, the rest pass.
func flaky(t *testing.T, node string, fail int32, status int) (string, *atomic.Int32) {
	u, _ := url.Parse(node)
	proxy := httputil.NewSingleHostReverseProxy(u)
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) <= fail {
			http.Error(w, http.StatusText(status), status)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &seen
}

func TestRetriesRateLimitAndServerErrors(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway} {
		u, seen := flaky(t, e.chain.URL, 2, status)
		c := e.client(nil, "", func(c *Config) { c.URLs = []string{u} })
		if _, err := c.Head(ctx(t)); err != nil {
			t.Fatalf("status %d: %v", status, err)
		}
		// Two refused, then the node's chain check (its first use), then
		// the call.
		if seen.Load() != 4 {
			t.Fatalf("status %d: %d requests, want 4", status, seen.Load())
		}
	}
	// A node's own answer is final: no retry.
	u, seen := flaky(t, e.chain.URL, 0, 0)
	c := e.client(nil, "", func(c *Config) { c.URLs = []string{u} })
	if _, err := c.TokenBalance(ctx(t), e.usdc.Hex(), "0x0000000000000000000000000000000000000001"); err != nil {
		t.Fatal(err)
	}
	before := seen.Load()
	_, err := c.Allowance(ctx(t), "0x0000000000000000000000000000000000000009", e.usdc.Hex(), e.usdc.Hex())
	if err == nil || seen.Load() != before+1 {
		t.Fatalf("call to a precompile: err %v after %d requests; want one request and an error", err, seen.Load()-before)
	}
}

func TestPerCallTimeoutFailsOver(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	release := make(chan struct{})
	var hangCalls atomic.Int32
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hangCalls.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) }) // runs first
	c := e.client(nil, "", func(c *Config) {
		c.URLs = []string{hang.URL, e.chain.URL}
		c.CallTimeout = 100 * time.Millisecond
	})
	begin := time.Now()
	if _, err := c.Head(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > time.Second {
		t.Fatalf("took %v", d)
	}
	// The live node is now preferred: the next call does not try the
	// hanging one again.
	before := hangCalls.Load()
	if _, err := c.Head(ctx(t)); err != nil {
		t.Fatalf("second call: %v", err)
	}
	if n := hangCalls.Load() - before; n != 0 {
		t.Fatalf("second call went to the hanging node %d times", n)
	}
}

func TestRefusedBroadcastReleasesNonce(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	key, _ := crypto.GenerateKey() // no ether for gas
	c := e.client(key, t.TempDir(), nil)
	call := cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(common.HexToAddress("0x8888888888888888888888888888888888888888"), big.NewInt(0)), GasLimit: 60_000}
	if _, err := c.SendCall(ctx(t), call); err == nil {
		t.Fatal("send without gas money succeeded")
	}
	if n, _ := c.cfg.Journal.NextNonce(); n != 0 {
		t.Fatalf("journal next nonce after refusal = %d, want 0", n)
	}
	if err := e.chain.Fund(ctx(t), addrOf(key), big.NewInt(1e18)); err != nil {
		t.Fatal(err)
	}
	h, err := c.SendCall(ctx(t), call)
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Wait(ctx(t), h, 5*time.Millisecond)
	if err != nil || st.State != SendConfirmed || st.Nonce != 0 {
		t.Fatalf("send after funding: %+v, %v", st, err)
	}
	if _, err := c.Check(ctx(t), "0x1234"); !errors.Is(err, ErrUnknownSend) {
		t.Fatalf("check of a foreign hash: %v", err)
	}
}

func TestReadOnlyClientCannotSend(t *testing.T) {
	c, err := New(Config{Chain: cashier.ChainETH, ChainID: 1, URLs: []string{"http://127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.SendCall(t.Context(), cashier.Call{To: "0x8888888888888888888888888888888888888888"}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only send: %v", err)
	}
	if _, err := New(Config{Chain: cashier.ChainTRON, ChainID: 1, URLs: []string{"http://127.0.0.1:1"}}); err == nil {
		t.Fatal("TRON accepted as an EVM chain")
	}
}

// TestUndeliveredSendIsDeliveredLater: no node takes the transaction when it
// is sent; it is journaled, reported sent, and Check delivers it later.
func TestUndeliveredSendIsDeliveredLater(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	u, _ := url.Parse(e.chain.URL)
	proxy := httputil.NewSingleHostReverseProxy(u)
	var blockSends atomic.Bool
	blockSends.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if blockSends.Load() && bytes.Contains(body, []byte("eth_sendRawTransaction")) {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	payer := e.account(10)
	c := e.client(payer, t.TempDir(), func(c *Config) { c.URLs = []string{srv.URL} })
	to := common.HexToAddress("0x9999999999999999999999999999999999999999")
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(10))})
	if err != nil {
		t.Fatalf("journaled send reported as failed: %v", err)
	}
	if r, _ := c.Receipt(ctx(t), h); r != nil {
		t.Fatal("undelivered transaction was mined")
	}
	blockSends.Store(false)
	st, err := c.Wait(ctx(t), h, 5*time.Millisecond)
	if err != nil || st.State != SendConfirmed || st.Receipt.TxHash != h || st.Replaced {
		t.Fatalf("after the node recovered: %+v, %v", st, err)
	}
}

// A hosted node keeps its API key in the URL's path, and Go's HTTP client
// quotes the whole URL in a transport error: the client's errors name the
// node by scheme and host only, and still unwrap to the transport error.
func TestErrorsHideTheNodesPath(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	dead := httptest.NewServer(http.NotFoundHandler())
	base := dead.URL
	dead.Close() // connections are refused from here on
	c := e.client(nil, "", func(c *Config) { c.URLs = []string{base + "/v3/S3CRETKEY"} })
	_, err := c.Head(ctx(t))
	if err == nil {
		t.Fatal("a refused node answered")
	}
	if strings.Contains(err.Error(), "S3CRETKEY") || !strings.Contains(err.Error(), base) {
		t.Fatalf("error %q", err)
	}
	var ue *url.Error
	if !errors.As(err, &ue) {
		t.Fatalf("error %q no longer unwraps to the transport error", err)
	}
}
