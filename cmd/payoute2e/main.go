// Command payoute2e measures payouts end to end on a running sandbox: it
// creates N payouts through the API (allowance mode, or balance mode with
// --mode balance), receives their webhooks on a local receiver that
// answers at once (the sandbox's webhook URL must point at --listen), and
// reports how long after the last create every payout reached SUCCESS and
// every SUCCESS webhook arrived, and how long each event took from its
// status change (the body's updateTime) to the receiver. Every recipient's balance is then checked on chain.
//
//	go run ./cmd/payoute2e --data .sandbox --listen 127.0.0.1:8099 --n 1000
//
// scripts/payout-e2e.sh starts a sandbox with that webhook URL and runs it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/cmd/internal/measure"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sandbox"
)

func main() { measure.Main("payoute2e", run) }

type payout struct {
	orderNo, recipient string
	created            time.Time
	success            time.Time // when a poll first saw SUCCESS
	update             time.Time // its updateTime then
}

// createBatch creates ps with one batch request, retried while refused as
// overloaded.
func createBatch(ctx context.Context, api *client.Client, ps []*payout, contract string, typ int, from, amt string, retries *atomic.Int64) error {
	req := client.BatchRequest{ContractID: contract, PayoutType: typ, FromAddress: from}
	for _, p := range ps {
		req.Orders = append(req.Orders, client.BatchOrder{OrderNo: p.orderNo, Recipient: p.recipient, Amount: amt, Symbol: "USDT"})
	}
	res, err := api.BatchPayout(ctx, req)
	for client.IsCode(err, "000503") && ctx.Err() == nil {
		retries.Add(1)
		time.Sleep(200 * time.Millisecond)
		res, err = api.BatchPayout(ctx, req)
	}
	if err != nil {
		return fmt.Errorf("batch from %s: %w", ps[0].orderNo, err)
	}
	for _, o := range res.Orders {
		if !o.Success {
			return fmt.Errorf("batch order %s refused: %s %s", o.OrderNo, o.Code, o.Msg)
		}
	}
	now := time.Now()
	for _, p := range ps {
		p.created = now
	}
	return nil
}

// arrival is one webhook the receiver accepted.
type arrival struct {
	at        time.Time
	eventType string
	orderNo   string
	update    time.Time // the body's updateTime: when the status changed
}

// receiver records the verified webhooks, each event id once.
type receiver struct {
	mu   sync.Mutex
	seen map[string]bool
	got  []arrival
}

func (rc *receiver) accept(ev *client.WebhookEvent, body []byte, at time.Time) error {
	var b struct {
		UpdateTime int64 `json:"updateTime"`
	}
	d := json.NewDecoder(bytes.NewReader(body))
	if err := d.Decode(&b); err != nil {
		return err
	}
	rc.mu.Lock()
	if !rc.seen[ev.ID] {
		rc.seen[ev.ID] = true
		rc.got = append(rc.got, arrival{at, ev.EventType, ev.OrderNo, time.UnixMilli(b.UpdateTime)})
	}
	rc.mu.Unlock()
	return nil
}

func (rc *receiver) arrivals() []arrival {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("payoute2e", flag.ContinueOnError)
	var sf measure.SandboxFlags
	sf.Define(fs, "127.0.0.1:8099")
	n := fs.Int("n", 1000, "payouts to create")
	conc := fs.Int("concurrency", 8, "concurrent creates")
	batch := fs.Int("batch", 0, "create the payouts with batch requests of this many orders (0: one create per payout)")
	chain := fs.String("chain", "ETH", "network: ETH or ARB")
	mode := fs.String("mode", "allowance", "payout mode: allowance (from the sandbox's allowance wallet) or balance (from the payout contract's own balance)")
	amt := fs.String("amount", "1.00", "amount of each payout, USDT (the sandbox minimum is 1.00)")
	freePort := fs.Bool("free-port", false, "print a free TCP port of 127.0.0.1 and exit (for the receiver's address)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *freePort {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		defer ln.Close()
		fmt.Fprintln(out, ln.Addr().(*net.TCPAddr).Port)
		return nil
	}
	if *n < 1 || *conc < 1 || *batch < 0 {
		return errors.New("--n and --concurrency must be positive, --batch not negative")
	}
	info, err := sandbox.ReadInfo(filepath.Join(sf.Data, sandbox.InfoFile))
	if err != nil {
		return err
	}
	netInfo := info.Networks[*chain]
	if netInfo == nil || *chain == string(cashier.ChainTRON) {
		return fmt.Errorf("--chain %s: want ETH or ARB", *chain)
	}
	units, err := cashier.ParseAmount(*amt, 6)
	if err != nil {
		return fmt.Errorf("--amount: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), sf.Timeout)
	defer cancel()

	rc := &receiver{seen: map[string]bool{}}
	hooks, err := measure.Receive(sf.Listen, info.WebhookKey, rc.accept)
	if err != nil {
		return err
	}
	defer hooks.Close()

	api := client.New(info.BaseURL, info.APIKey, info.SecretKey)
	typ, from := 2, info.Wallets["allowance"].EVMAddress
	switch *mode {
	case "allowance":
	case "balance":
		typ, from = 1, ""
	default:
		return fmt.Errorf("--mode %q: allowance or balance", *mode)
	}
	contract := info.ContractIDs[*chain]
	run := measure.RandomHex(4)
	ps := make([]*payout, *n)
	for i := range ps {
		ps[i] = &payout{orderNo: fmt.Sprintf("E2E-%s-%05d", run, i), recipient: "0x" + measure.RandomHex(20)}
	}

	// Create.
	start := time.Now()
	var next, retries atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, *conc)
	for range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if *batch > 0 {
					i := int(next.Add(int64(*batch)) - int64(*batch))
					if i >= len(ps) {
						return
					}
					if err := createBatch(ctx, api, ps[i:min(i+*batch, len(ps))], contract, typ, from, *amt, &retries); err != nil {
						errs <- err
						return
					}
					continue
				}
				i := int(next.Add(1) - 1)
				if i >= len(ps) {
					return
				}
				p := ps[i]
				req := client.PayoutRequest{ContractID: contract, OrderNo: p.orderNo, Recipient: p.recipient,
					Amount: *amt, Symbol: "USDT", PayoutType: typ, FromAddress: from}
				_, err := api.CreatePayout(ctx, req)
				for client.IsCode(err, "000503") && ctx.Err() == nil {
					// Refused as overloaded, nothing created: retry as a
					// merchant's client would, after a pause.
					retries.Add(1)
					time.Sleep(200 * time.Millisecond)
					_, err = api.CreatePayout(ctx, req)
				}
				if err != nil {
					errs <- fmt.Errorf("create %s: %w", p.orderNo, err)
					return
				}
				p.created = time.Now()
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	lastCreate := start
	for _, p := range ps {
		lastCreate = later(lastCreate, p.created)
	}
	fmt.Fprintf(out, "created %d payouts in %s (%.0f/s, %d refusals retried)\n", *n, lastCreate.Sub(start).Round(time.Millisecond),
		float64(*n)/lastCreate.Sub(start).Seconds(), retries.Load())

	// Wait until every payout is seen SUCCESS: by its verified SUCCESS
	// webhook, or by a poll of the API. A poll asks about at most
	// maxPolled payouts not yet seen, oldest first: enough to see a
	// refusal or a stall, without ten thousand queries a second competing
	// with the payouts being measured.
	const maxPolled = 200
	byNo := make(map[string]*payout, len(ps))
	for _, p := range ps {
		byNo[p.orderNo] = p
	}
	for {
		for _, a := range rc.arrivals() {
			if p := byNo[a.orderNo]; p != nil && a.eventType == "payout.success" && p.success.IsZero() {
				p.success, p.update = a.at, a.update
			}
		}
		var open []*payout
		for _, p := range ps {
			if p.success.IsZero() {
				open = append(open, p)
			}
		}
		if len(open) == 0 {
			break
		}
		open = open[:min(len(open), maxPolled)]
		var mu sync.Mutex
		var pollErr error
		sem := make(chan struct{}, *conc)
		var wg sync.WaitGroup
		for _, p := range open {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				d, err := api.PayoutDetail(ctx, p.orderNo)
				now := time.Now()
				mu.Lock()
				defer mu.Unlock()
				switch {
				case client.IsCode(err, "000503"):
					// Refused as overloaded: asked again next round.
				case err != nil:
					pollErr = err
				case d.Status == "SUCCESS":
					p.success, p.update = now, time.UnixMilli(d.UpdateTime)
				case d.Status == "REFUSE":
					pollErr = fmt.Errorf("payout %s refused", p.orderNo)
				}
			}()
		}
		wg.Wait()
		if pollErr != nil {
			return pollErr
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%d payouts not SUCCESS in time", len(open))
		}
		time.Sleep(500 * time.Millisecond)
	}
	var lastSuccess, lastUpdate time.Time
	for _, p := range ps {
		lastSuccess, lastUpdate = later(lastSuccess, p.success), later(lastUpdate, p.update)
	}

	// Wait for every SUCCESS webhook.
	for {
		succ := 0
		for _, a := range rc.arrivals() {
			if a.eventType == "payout.success" {
				succ++
			}
		}
		if succ == *n {
			break
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%d of %d SUCCESS webhooks arrived in time", succ, *n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := rc.arrivals()
	byType := map[string][]time.Duration{}
	var lastHook time.Time
	mine := map[string]bool{}
	for _, p := range ps {
		mine[p.orderNo] = true
	}
	for _, a := range got {
		if !mine[a.orderNo] {
			continue
		}
		byType[a.eventType] = append(byType[a.eventType], a.at.Sub(a.update))
		byType["all"] = append(byType["all"], a.at.Sub(a.update))
		if a.eventType == "payout.success" {
			lastHook = later(lastHook, a.at)
		}
	}
	fmt.Fprintf(out, "last SUCCESS status (updateTime) %s after the last create; seen (its webhook or a poll) %s after\n",
		lastUpdate.Sub(lastCreate).Round(time.Millisecond), lastSuccess.Sub(lastCreate).Round(time.Millisecond))
	fmt.Fprintf(out, "last SUCCESS webhook %s after the last create\n", lastHook.Sub(lastCreate).Round(time.Millisecond))
	fmt.Fprintf(out, "webhook lag from status change to arrival:\n")
	for _, t := range []string{"payout.pending", "payout.processing", "payout.success", "all"} {
		l := byType[t]
		slices.Sort(l)
		if len(l) == 0 {
			continue
		}
		fmt.Fprintf(out, "  %-18s %5d events  p50 %8s  p99 %8s  max %8s\n", t, len(l),
			l[len(l)/2].Round(time.Millisecond), l[len(l)*99/100].Round(time.Millisecond), l[len(l)-1].Round(time.Millisecond))
	}
	if b := hooks.Bad(); b > 0 {
		return fmt.Errorf("%d webhooks failed verification", b)
	}

	// Every recipient on chain.
	ec, err := evm.New(evm.Config{Chain: cashier.Chain(*chain), ChainID: netInfo.ChainID, URLs: []string{netInfo.RPCURL}})
	if err != nil {
		return err
	}
	defer ec.Close()
	token := netInfo.Tokens["USDT"]
	for _, p := range ps {
		bal, err := ec.TokenBalance(ctx, token, p.recipient)
		if err != nil {
			return err
		}
		if bal.Cmp(units) != 0 {
			return fmt.Errorf("recipient %s of %s holds %s base units, want %s", p.recipient, p.orderNo, bal, units)
		}
	}
	fmt.Fprintf(out, "every recipient holds its %s USDT on chain (%d checked)\n", *amt, *n)
	return nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
