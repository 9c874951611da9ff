package http

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// slowBodies opens n connections that send a create's headers and the
// first byte of its body, then nothing, until the test ends.
func slowBodies(t *testing.T, e *env, n int) {
	t.Helper()
	for range n {
		c, err := net.Dial("tcp", e.srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"+
			"Service-API-Key: %s\r\nService-Request-Time: %s\r\n\r\n{", pathCollection, apiKey, ms(e.clock.Now()))
	}
	s := e.srv.Config.Handler.(*server)
	waitFor(t, func() bool { return s.reading.Load() == int64(n) })
}

// Clients that send their bodies slowly hold neither a place among the
// requests in progress nor a CPU slot: with more of them connected than
// either bound, a create is served at once.
func TestSlowBodiesHoldNothing(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxInFlight = 2 })
	slowBodies(t, e, max(2, runtime.GOMAXPROCS(0))+1)
	s := e.srv.Config.Handler.(*server)
	if n := s.admit.InFlight(); n != 0 {
		t.Fatalf("%d requests in progress while only slow bodies are being read", n)
	}
	r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "SLOW-1"}), secretKey, ms(e.clock.Now()))})
	checkEnvelope(t, r, "200")
}

// Read ahead, a body still reaches the handler whole, a body over the limit
// is still refused as too large, and a body cut short is still an invalid
// request.
func TestReadAheadKeepsTheBody(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(request{method: http.MethodPost, path: pathCollection, params: withSign(collectionBody(map[string]any{"orderNo": "AHEAD-1"}), secretKey, ms(e.clock.Now()))})
	checkEnvelope(t, r, "200")

	s := e.srv.Config.Handler.(*server)
	big := `{"orderNo":"` + strings.Repeat("x", int(s.cfg.MaxBodyBytes)) + `"}`
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big)
		if chunked {
			body = io.MultiReader(body) // no length known: sent chunked
		}
		req, err := http.NewRequest(http.MethodPost, e.srv.URL+pathCollection, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Service-API-Key", apiKey)
		req.Header.Set("Service-Request-Time", ms(e.clock.Now()))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !bytes.Contains(b, []byte("larger than")) {
			t.Fatalf("chunked %v: a body over the limit got %d %s", chunked, res.StatusCode, b)
		}
	}

	c, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"+
		"Service-API-Key: %s\r\nService-Request-Time: %s\r\n\r\n{\"orderNo\"", pathCollection, apiKey, ms(e.clock.Now()))
	c.(*net.TCPConn).CloseWrite()
	b, _ := io.ReadAll(c)
	c.Close()
	if !bytes.Contains(b, []byte("reading the request body failed")) {
		t.Fatalf("a body cut short got %s", b)
	}
	if n, _ := e.counts(); n != 1 {
		t.Fatalf("%d orders stored, want the one valid create", n)
	}
}
