package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/postgres/pgtest"
	"github.com/stablecashier/cashier/sandbox"
)

// worldOpts says how newWorld starts a binary test's world.
type worldOpts struct {
	Chains  []string // extra flags of `sandbox --only chains`
	Env     []string // the service's environment (world.Env, for every start)
	Service []string // extra flags of the service's first start
	// ChainsOnly starts the chains alone (world.Info holds what they
	// wrote: their networks, wallets and roles, no service); the test
	// starts the service with world.serve, or one of its own.
	ChainsOnly bool
	// ProvisionOnly stops the service once its first run has provisioned
	// the demo merchant, contracts and keys (in a Shop world: starts no
	// service); the test starts the services it needs.
	ProvisionOnly bool
	// Shop makes a world without chains: the CLI provisions a merchant of
	// this name with a sandbox-mode cashier whose webhooks go to HookURL
	// (newShop; world.Merchant, world.Cashier), and the service is
	// `cashier serve` on the data directory (world.Base; world.API has
	// the merchant's keys; world.Info is nil).
	Shop, HookURL string
	// Serve: the services the test starts after the first run are
	// `cashier serve` on the data directory (world.Base; world.API for
	// the demo merchant), not the sandbox's service.
	Serve bool
	// OneProcess runs the chains and the service in one `sandbox`
	// process (world.Svc; world.Chains is nil), with the Chains and
	// Service flags.
	OneProcess bool
	// Postgres runs the world on a PostgreSQL server of its own
	// (world.PG), in a new database on it (world.DatabaseURL, first in
	// world.Env).
	Postgres bool
	// Timeout bounds world.Ctx, the context of the test's calls, from the
	// world's start (none: no deadline).
	Timeout time.Duration
	// Wait is how long the first start may take: default a minute for the
	// service alone, three for the whole sandbox.
	Wait time.Duration
}

// world is a binary test's world: a data directory, the sandbox's dev
// chains in one process and the service on them in another, the demo
// merchant's details and an API client; or a shop's data directory and
// `cashier serve` on it.
type world struct {
	t      *testing.T
	Data   string
	Chains *proc
	Svc    *proc
	Info   *sandbox.Info
	API    *client.Client
	Env    []string // the service's environment on its next start
	Ctx    context.Context
	wait   time.Duration
	// A Shop world's merchant and cashier, as the CLI printed them, and
	// its service's base URL.
	Merchant, Cashier map[string]string
	Base              string
	plain             bool // the service is `cashier serve`
	// A Postgres world's server and database.
	PG          *pgtest.Server
	DatabaseURL string
}

// newWorld starts the chains on a new data directory, then the service
// (which provisions the demo merchant and contracts on its first start),
// and reads what the service wrote. A short run (go test -short) skips
// the test: a world takes a minute or more to start.
func newWorld(t *testing.T, o worldOpts) *world {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the binary's processes")
	}
	w := &world{t: t, Data: t.TempDir(), Env: o.Env, Ctx: context.Background(), wait: o.Wait}
	if o.Timeout > 0 {
		ctx, cancel := context.WithTimeout(w.Ctx, o.Timeout)
		t.Cleanup(cancel)
		w.Ctx = ctx
	}
	if w.wait == 0 {
		w.wait = time.Minute
	}
	if o.Postgres {
		srv, err := pgtest.Start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Stop() })
		if w.DatabaseURL, err = srv.NewDatabase(); err != nil {
			t.Fatal(err)
		}
		w.PG, w.Env = srv, append([]string{"CASHIER_DATABASE_URL=" + w.DatabaseURL}, w.Env...)
	}
	if o.Shop != "" {
		w.plain = true
		w.Merchant, w.Cashier = newShop(t, w.Data, o.Shop, o.HookURL)
		if !o.ProvisionOnly {
			w.serve(o.Service...)
		}
		return w
	}
	if o.OneProcess {
		if o.Wait == 0 {
			w.wait = 3 * time.Minute
		}
		args := append([]string{"sandbox", "--data", w.Data, "--free-ports"}, append(o.Chains, o.Service...)...)
		w.Svc = start(t, w.Env, args...)
		waitFor(t, "the sandbox", w.wait, func() bool { return strings.Contains(w.Svc.stderr.String(), "sandbox ready at") })
		w.readInfo()
		return w
	}
	w.Chains = startChains(t, w.Data, o.Chains...)
	if o.ChainsOnly {
		info, err := sandbox.ReadInfo(filepath.Join(w.Data, sandbox.InfoFile))
		if err != nil {
			t.Fatal(err)
		}
		w.Info = info
		return w
	}
	w.serve(o.Service...)
	if o.ProvisionOnly {
		w.Svc.stop(t)
	}
	w.plain = o.Serve
	return w
}

// startChains starts `sandbox --only chains` on data (extra flags after
// it) and waits until its dev chains are ready.
func startChains(t *testing.T, data string, extra ...string) *proc {
	t.Helper()
	p := start(t, nil, append([]string{"sandbox", "--only", "chains", "--data", data, "--free-ports"}, extra...)...)
	waitFor(t, "the chains", 2*time.Minute, func() bool { return strings.Contains(p.stderr.String(), "sandbox chains ready") })
	return p
}

// serve starts the service (extra flags after it) and reads the demo
// merchant's details it wrote (`cashier serve`: makes world.API for the
// world's merchant on it).
func (w *world) serve(extra ...string) {
	w.t.Helper()
	w.Svc = w.startService(extra...)
	switch {
	case w.Merchant != nil:
		w.API = client.New(w.Base, w.Merchant["apiKey"], w.Merchant["secretKey"])
	case w.plain:
		w.API = client.New(w.Base, w.Info.APIKey, w.Info.SecretKey)
	default:
		w.readInfo()
	}
}

// readInfo reads the demo merchant's details the service wrote.
func (w *world) readInfo() {
	w.t.Helper()
	info, err := sandbox.ReadInfo(filepath.Join(w.Data, sandbox.InfoFile))
	if err != nil {
		w.t.Fatal(err)
	}
	w.Info, w.API = info, client.New(info.BaseURL, info.APIKey, info.SecretKey)
}

// order creates collection order no of amount USDT on chain for the
// demo merchant's cashier.
func (w *world) order(ctx context.Context, no, amount, chain string) *client.CollectionCreated {
	w.t.Helper()
	c, err := w.API.CreateCollection(ctx, client.CollectionRequest{CashierID: w.Info.CashierID, OrderNo: no,
		Amount: amount, Symbol: "USDT", ChainID: chain})
	if err != nil {
		w.t.Fatalf("create %s: %v", no, err)
	}
	return c
}

// startService starts `sandbox --only service` (a Shop or Serve world:
// `cashier serve`, its base URL in world.Base) on the world's data
// directory (extra flags after it), with w.Env, and waits until it serves.
func (w *world) startService(extra ...string) *proc {
	w.t.Helper()
	if w.plain {
		p, base := serveBase(w.t, w.Env, append([]string{"--data", w.Data}, extra...)...)
		w.Base = base
		return p
	}
	p := start(w.t, w.Env, append([]string{"sandbox", "--only", "service", "--data", w.Data, "--free-ports"}, extra...)...)
	waitFor(w.t, "the service", w.wait, func() bool { return strings.Contains(p.stderr.String(), "sandbox ready at") })
	return p
}

// restart kills the service with SIGKILL, as a crash would, and starts it
// again (extra flags after it).
func (w *world) restart(extra ...string) {
	w.t.Helper()
	w.Svc.kill()
	w.Svc = w.startService(extra...)
}

// instanceProc is one `cashier serve` of a multi-instance test.
type instanceProc struct {
	*proc
	id, base, metrics string
}

// instances starts n `cashier serve` on the world's database with env,
// all on the world's data directory or, with ownDirs, each on a data
// directory of its own holding copies of the master key and remembered
// settings (as on separate hosts, nothing shared but the database). It
// waits until each has said its address, instance id and metrics
// address, and returns them with their data directories.
func (w *world) instances(n int, env []string, ownDirs bool) ([]*instanceProc, []string) {
	w.t.Helper()
	var insts []*instanceProc
	var dirs []string
	for range n {
		dir := w.Data
		if ownDirs {
			dir = w.t.TempDir()
			for _, f := range []string{"master.key", "settings.json"} {
				b, err := os.ReadFile(filepath.Join(w.Data, f))
				if err != nil {
					w.t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
					w.t.Fatal(err)
				}
			}
		}
		p := &instanceProc{proc: start(w.t, env, "serve", "--data", dir, "--addr", "127.0.0.1:0")}
		waitFor(w.t, "serve", time.Minute, func() bool {
			line, _, _ := bufio.NewReader(strings.NewReader(p.stdout.String())).ReadLine()
			s, ok := strings.CutPrefix(string(line), "cashier listening on ")
			p.base = s
			im, mm := instanceLine.FindStringSubmatch(p.stderr.String()), metricsLine.FindStringSubmatch(p.stderr.String())
			if im != nil && mm != nil {
				p.id, p.metrics = im[1], mm[1]
			}
			return ok && p.id != "" && p.metrics != ""
		})
		insts, dirs = append(insts, p), append(dirs, dir)
	}
	return insts, dirs
}

// kill ends p with SIGKILL and waits for it to be gone.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	p.done <- nil // for the cleanup
}

// newShop provisions a merchant and a sandbox-mode cashier whose webhooks
// go to hookURL on data with the CLI, and registers an ETH deposit
// factory unchecked: deposit addresses are computed off chain, so no node
// is needed.
func newShop(t *testing.T, data, name, hookURL string) (merchant, cashierOut map[string]string) {
	t.Helper()
	m := cli(t, "merchant", "create", "--data", data, "--name", name)
	c := cli(t, "cashier", "create", "--data", data, "--mode", "sandbox", "--merchant", m["merchantId"], "--webhook-url", hookURL)
	registerUnchecked(t, data, m["merchantId"], "ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")
	return m, c
}

// unreachableETH gives Ethereum a node URL where nothing answers: the
// network is active (only unreachable for now), so it takes orders, for
// the tests about what happens to them in the service, not on a chain.
const unreachableETH = "CASHIER_ETH_RPC=http://127.0.0.1:9"
