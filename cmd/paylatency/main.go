// Command paylatency measures how soon a paid order reaches the merchant:
// on a running sandbox it creates N collection orders one after another,
// pays each in full from the customer wallet, and takes the time from the
// moment the block holding the payment was made to the moment the order's
// SUCCESS webhook arrived at a local receiver (the sandbox's webhook URL
// must point at --listen). A block's moment is when the node first
// announced it: over WebSocket (eth_subscribe newHeads) on the EVM chains,
// and on TRON when a read of the head every 2 ms first saw it. Both clocks
// are this machine's.
//
//	go run ./cmd/paylatency --data .sandbox --listen 127.0.0.1:8098 --n 50
//
// scripts/pay-latency.sh starts a sandbox with that webhook URL and runs it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/cmd/internal/measure"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

func main() { measure.Main("paylatency", run) }

// receiver keeps the first arrival of each order's payment SUCCESS among
// the verified webhooks.
type receiver struct {
	mu      sync.Mutex
	success map[string]time.Time // orderNo → arrival
	arrived chan struct{}
}

func (rc *receiver) accept(ev *client.WebhookEvent, _ []byte, at time.Time) error {
	if ev.EventType == "payment.success" {
		rc.mu.Lock()
		if _, ok := rc.success[ev.OrderNo]; !ok {
			rc.success[ev.OrderNo] = at
			select {
			case rc.arrived <- struct{}{}:
			default:
			}
		}
		rc.mu.Unlock()
	}
	return nil
}

func (rc *receiver) waitFor(ctx context.Context, orderNo string) (time.Time, error) {
	for {
		rc.mu.Lock()
		at, ok := rc.success[orderNo]
		rc.mu.Unlock()
		if ok {
			return at, nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("no SUCCESS webhook for %s: %w", orderNo, ctx.Err())
		case <-rc.arrived:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// blocks records when each block was first announced.
type blocks struct {
	mu   sync.Mutex
	seen map[uint64]time.Time
}

func (b *blocks) saw(n uint64, at time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.seen[n]; !ok {
		b.seen[n] = at
	}
}

func (b *blocks) at(ctx context.Context, n uint64) (time.Time, error) {
	for {
		b.mu.Lock()
		t, ok := b.seen[n]
		b.mu.Unlock()
		if ok {
			return t, nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("block %d never announced: %w", n, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// followEVM records new heads announced over WebSocket.
func followEVM(ctx context.Context, rpcURL string, b *blocks) (*ethclient.Client, error) {
	ws := "ws://" + strings.TrimPrefix(rpcURL, "http://")
	c, err := ethclient.DialContext(ctx, ws)
	if err != nil {
		return nil, err
	}
	heads := make(chan *types.Header, 64)
	sub, err := c.SubscribeNewHead(ctx, heads)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("subscribe to new heads at %s: %w", ws, err)
	}
	go func() {
		defer sub.Unsubscribe()
		for {
			select {
			case <-ctx.Done():
				return
			case <-sub.Err():
				return
			case h := <-heads:
				b.saw(h.Number.Uint64(), time.Now())
			}
		}
	}()
	return c, nil
}

// followTRON reads the head every 2 ms.
func followTRON(ctx context.Context, c *tron.Client, b *blocks) {
	go func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			if h, err := c.Head(ctx); err == nil {
				b.saw(h.Number, time.Now())
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("paylatency", flag.ContinueOnError)
	var sf measure.SandboxFlags
	sf.Define(fs, "127.0.0.1:8098")
	n := fs.Int("n", 50, "orders to pay, one after another")
	chainFlag := fs.String("chain", "ETH", "network: ETH, ARB or TRON")
	amt := fs.String("amount", "1.00", "amount of each order, USDT")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 {
		return errors.New("--n must be positive")
	}
	chain, err := cashier.ParseChain(*chainFlag)
	if err != nil {
		return err
	}
	info, err := sandbox.ReadInfo(filepath.Join(sf.Data, sandbox.InfoFile))
	if err != nil {
		return err
	}
	netInfo := info.Networks[string(chain)]
	if netInfo == nil {
		return fmt.Errorf("sandbox.json describes no %s network", chain)
	}
	units, err := cashier.ParseAmount(*amt, 6)
	if err != nil {
		return fmt.Errorf("--amount: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), sf.Timeout)
	defer cancel()

	rc := &receiver{success: map[string]time.Time{}, arrived: make(chan struct{}, 1)}
	hooks, err := measure.Receive(sf.Listen, info.WebhookKey, rc.accept)
	if err != nil {
		return err
	}
	defer hooks.Close()

	b := &blocks{seen: map[uint64]time.Time{}}
	var blockOf func(ctx context.Context, txID string) (uint64, error)
	if chain == cashier.ChainTRON {
		tc, err := tron.New(tron.Config{URLs: []string{netInfo.RPCURL}})
		if err != nil {
			return err
		}
		followTRON(ctx, tc, b)
		blockOf = func(ctx context.Context, txID string) (uint64, error) {
			r, err := tc.Receipt(ctx, txID)
			if err != nil || r == nil {
				return 0, fmt.Errorf("receipt of %s: %v", txID, err)
			}
			return r.BlockNumber, nil
		}
	} else {
		ec, err := followEVM(ctx, netInfo.RPCURL, b)
		if err != nil {
			return err
		}
		defer ec.Close()
		blockOf = func(ctx context.Context, txID string) (uint64, error) {
			r, err := ec.TransactionReceipt(ctx, common.HexToHash(txID))
			if err != nil {
				return 0, fmt.Errorf("receipt of %s: %w", txID, err)
			}
			return r.BlockNumber.Uint64(), nil
		}
	}

	api := client.New(info.BaseURL, info.APIKey, info.SecretKey)
	runID := measure.RandomHex(4)
	var lat []time.Duration
	for i := range *n {
		orderNo := fmt.Sprintf("LAT-%s-%03d", runID, i)
		o, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: info.CashierID, OrderNo: orderNo,
			Amount: *amt, Symbol: "USDT", ChainID: string(chain)})
		if err != nil {
			return fmt.Errorf("create %s: %w", orderNo, err)
		}
		txID, err := sandbox.Transfer(ctx, info, chain, "USDT", o.Address, new(big.Int).Set(units))
		if err != nil {
			return fmt.Errorf("pay %s: %w", orderNo, err)
		}
		num, err := blockOf(ctx, txID)
		if err != nil {
			return err
		}
		made, err := b.at(ctx, num)
		if err != nil {
			return err
		}
		got, err := rc.waitFor(ctx, orderNo)
		if err != nil {
			return err
		}
		lat = append(lat, got.Sub(made))
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	res := map[string]any{"chain": chain, "payments": len(lat), "p50Ms": ms(pct(0.50)), "p90Ms": ms(pct(0.90)),
		"p99Ms": ms(pct(0.99)), "maxMs": ms(lat[len(lat)-1]), "minMs": ms(lat[0]), "badWebhooks": hooks.Bad()}
	fmt.Fprintf(out, "%s: %d payments, block made → SUCCESS webhook: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms (min %.1f ms)\n",
		chain, len(lat), ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(lat[len(lat)-1]), ms(lat[0]))
	j, _ := json.Marshal(res)
	fmt.Fprintln(out, string(j))
	if b := hooks.Bad(); b > 0 {
		return fmt.Errorf("%d webhooks failed verification", b)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
