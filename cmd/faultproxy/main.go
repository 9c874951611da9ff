// Command faultproxy runs the fault-injecting proxy of package faultproxy
// in front of one chain node, for trying the service against a misbehaving
// provider by hand:
//
//	go run ./cmd/faultproxy -target http://127.0.0.1:8545 -listen 127.0.0.1:9545 \
//	    -ratelimit 0.05 -5xx 0.05 -delay 0.02 -cut 0.02 -lag 0.2 -lostsend 0.3
//
// and point the service at http://127.0.0.1:9545. GET /_faultproxy/stats
// answers the counters; they are printed on exit too.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/stablecashier/cashier/faultproxy"
)

func main() {
	var (
		listen   = flag.String("listen", "127.0.0.1:0", "address to listen on")
		target   = flag.String("target", "", "the node's base URL")
		protocol = flag.String("protocol", "evm", "evm (JSON-RPC) or tron (wallet HTTP API)")
		retry    = flag.Duration("retry-after", time.Second, "pause a rate-limit answer asks for")
		delayFor = flag.Duration("delay-for", 3*time.Second, "how long a delayed answer waits")
		lagBy    = flag.Uint64("lag-blocks", 3, "how far behind a lagging node is")
		seed     = flag.Uint64("seed", 0, "random seed (0: from the clock)")
	)
	rates := map[faultproxy.Fault]*float64{}
	for _, f := range faultproxy.Faults {
		rates[f] = flag.Float64(string(f), 0, fmt.Sprintf("chance of %s per request (0..1)", f))
	}
	flag.Parse()
	cfg := faultproxy.Config{Target: *target, Protocol: faultproxy.Protocol(*protocol), RetryAfter: *retry,
		Delay: *delayFor, Lag: *lagBy, Seed: *seed, Rates: map[faultproxy.Fault]float64{}}
	for f, v := range rates {
		cfg.Rates[f] = *v
	}
	px, err := faultproxy.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("faultproxy http://%s -> %s\n", ln.Addr(), *target)
	srv := &http.Server{Handler: px, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
	json.NewEncoder(os.Stdout).Encode(px.Counts())
}
