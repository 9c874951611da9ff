package watch_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/watch"
)

// The watcher polls only once a minute here, so payments credited within
// seconds were found on the heads the node announced over WebSocket. The
// test then cuts every WebSocket connection: the watcher subscribes again
// and the next payment is credited the same way.
func TestWatcherFollowsAnnouncedHeads(t *testing.T) {
	var proxy *cutProxy
	r := newRig(t, rigOptions{confirmations: 1, rpc: func(chainURL string) string {
		proxy = newCutProxy(t, strings.TrimPrefix(chainURL, "http://"))
		return "ws://" + proxy.addr()
	}})
	var logs syncBuffer
	w := watch.New(watch.Config{Chain: cashier.ChainETH, Tokens: []string{r.usdt.Hex()}, Confirmations: 1,
		Interval: time.Minute, FeedPoll: time.Minute, BlockTime: 12 * time.Second,
		BackoffBase: 10 * time.Millisecond, BackoffMax: 100 * time.Millisecond},
		r.svc.Chains[cashier.ChainETH].(watch.Scanner), r.svc.Orders, slog.New(slog.NewJSONHandler(&logs, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitLog(t, &logs, "following new heads", 1)

	paid := func(label string) {
		t.Helper()
		o := r.order(t, "2.00")
		r.pay(t, o.DepositAddress, 2_000_000)
		deadline := time.Now().Add(20 * time.Second)
		for {
			got, _ := r.reload(t, o.ID)
			if got.Status == cashier.CollectionSuccess {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: order still %s 20 s after its payment was mined; log:\n%.3000s", label, got.Status, logs.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	paid("first payment")

	proxy.cut()
	waitLog(t, &logs, "the head feed broke", 1)
	waitLog(t, &logs, "following new heads", 2)
	paid("after the connection was cut")
}

func waitLog(t *testing.T, logs *syncBuffer, msg string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(logs.String(), msg) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%q not logged %d times; log:\n%.3000s", msg, n, logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// cutProxy passes TCP connections through to target until cut closes all
// of those open.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) addr() string { return p.ln.Addr().String() }

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
