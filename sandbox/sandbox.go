// Package sandbox runs the whole service on one machine for development
// and demos: SQLite, three go-ethereum dev chains standing in for Ethereum,
// Arbitrum and BNB Smart Chain (whose USDT and USDC have 18 decimals), the
// TRON stand-in node, test tokens that behave like the real
// USDT and USDC of each network, the payout and deposit contracts, funded
// demo wallets and a demo merchant. Everything is kept in one data
// directory, so a restart with the same directory resumes where it stopped.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/tronnode"
)

// Default ports of the dev chains: the customary local ports of an
// Ethereum node and of a TRON full node's HTTP API, and ones beside them
// for Arbitrum and BNB Smart Chain.
var DefaultPorts = map[cashier.Chain]int{cashier.ChainETH: 8545, cashier.ChainARB: 8547, cashier.ChainBSC: 8549, cashier.ChainTRON: 8090}

// Networks are the sandbox's networks: a dev chain each. Polygon and Base
// are switched off in its registry (their 6-decimal tokens behave like
// Arbitrum's; BSC's 18 decimals are what needs a chain of its own).
var Networks = []cashier.Chain{cashier.ChainTRON, cashier.ChainETH, cashier.ChainARB, cashier.ChainBSC}

// Options configures a sandbox.
type Options struct {
	// Config is the service configuration; Data and Addr say where.
	// Mode is forced to sandbox.
	Config config.Config
	// FreePorts lets the dev chains and the service take any free port on
	// first start instead of the defaults (tests run several sandboxes).
	FreePorts bool
	// BlockPeriod of the EVM dev chains: a block at least this often (so
	// confirmations advance), and at once when a transaction arrives;
	// default 1 s.
	BlockPeriod time.Duration
	// TRONBlockInterval of the TRON stand-in; default 1 s.
	TRONBlockInterval time.Duration
	// Stderr receives the service's logs.
	Stderr io.Writer
	// WebhookURL is where the demo cashier's webhooks go (http and loopback
	// allowed). On an existing sandbox it replaces the demo cashier's URL
	// when given: non-empty, or WebhookURLSet (empty then means none).
	WebhookURL    string
	WebhookURLSet bool
	// Only runs one half: OnlyChains the dev chains (deploying and writing
	// sandbox.json on first start), OnlyService the service against the
	// chains of sandbox.json; "" runs both in one process.
	Only string
	// Confirmations the sandbox's networks ask of a payment; default 1.
	Confirmations int
}

// The halves a sandbox can run apart, so the service can be stopped or
// killed while the chains go on.
const (
	OnlyChains  = "chains"
	OnlyService = "service"
)

// Sandbox is a running sandbox.
type Sandbox struct {
	Info    *Info
	Service *app.Service
	// WebhookURL is where the demo cashier's webhooks go as the service
	// starts ("": nowhere), read back from its database.
	WebhookURL string
	ETH        *devchain.Chain
	ARB        *devchain.Chain
	BSC        *devchain.Chain
	TRON       *tronnode.Node

	listener net.Listener
	tronSrv  *http.Server
	mu       sync.Mutex // Info and sandbox.json after start (key rotations)
	closers  []func() error
}

// Start brings the sandbox up: it starts the chains, deploys and funds on
// first start (or finds the deployments of DATA/sandbox.json), provisions
// the demo merchant and assembles the service, ready for Serve. With
// Options.Only it does one half.
func Start(ctx context.Context, opts Options) (_ *Sandbox, err error) {
	cfg := opts.Config
	cfg.Mode = "sandbox"
	if cfg.Data == "" {
		return nil, errors.New("sandbox: no data directory")
	}
	if opts.Only != "" && opts.Only != OnlyChains && opts.Only != OnlyService {
		return nil, fmt.Errorf("sandbox: --only is %q, want %q or %q", opts.Only, OnlyChains, OnlyService)
	}
	if opts.TRONBlockInterval <= 0 {
		opts.TRONBlockInterval = time.Second
	}
	if opts.BlockPeriod <= 0 {
		opts.BlockPeriod = time.Second
	}
	if opts.Confirmations <= 0 {
		opts.Confirmations = DefaultConfirmations
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	infoPath := filepath.Join(cfg.Data, InfoFile)
	prev, err := ReadInfo(infoPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && opts.Only == OnlyService:
		return nil, fmt.Errorf("sandbox: no %s: start the chains first (cashier sandbox --only chains --data %s)", infoPath, cfg.Data)
	case errors.Is(err, fs.ErrNotExist):
		prev = nil
	case err != nil:
		return nil, err
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return nil, err
	}
	sb := &Sandbox{}
	defer func() {
		if err != nil {
			sb.Close()
		}
	}()
	info := prev
	if opts.Only != OnlyService {
		if info, err = sb.startChains(ctx, opts, prev); err != nil {
			return nil, err
		}
	}
	if opts.Only == OnlyChains {
		// The service half owns baseUrl and the merchant; rewrite the file
		// only when the chains changed it, so a restart of the chains never
		// races with the service writing its part.
		if prev == nil || !sameChains(prev, info) {
			if err := info.write(infoPath); err != nil {
				return nil, err
			}
		}
		sb.Info = info
		return sb, nil
	}
	if err := sb.startService(ctx, opts, cfg, prev, info); err != nil {
		return nil, err
	}
	if opts.Only == OnlyService {
		// Re-read so fields the chains process wrote meanwhile survive.
		if cur, err := ReadInfo(infoPath); err == nil && sameChains(cur, info) {
			cur.BaseURL, cur.MerchantID, cur.APIKey, cur.SecretKey, cur.WebhookKey, cur.CashierID, cur.ContractIDs =
				info.BaseURL, info.MerchantID, info.APIKey, info.SecretKey, info.WebhookKey, info.CashierID, info.ContractIDs
			cur.Dashboard = info.Dashboard
			info = cur
		}
	}
	if err := info.write(infoPath); err != nil {
		return nil, err
	}
	sb.Info = info
	if sb.Service.Dashboard != nil {
		sb.Service.Dashboard.OnKeys = func(k *dashboard.Keys) { sb.keysRotated(infoPath, k, opts.Stderr) }
	}
	return sb, nil
}

// keysRotated keeps sandbox.json and the printed credentials current when
// the demo merchant's keys are rotated in the dashboard: scripts reading
// the file pick up the new keys before the old ones' grace ends.
func (sb *Sandbox) keysRotated(infoPath string, k *dashboard.Keys, stderr io.Writer) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if k.MerchantID != sb.Info.MerchantID {
		return
	}
	cur, err := ReadInfo(infoPath)
	if err != nil {
		cur = sb.Info // the file went missing: write what this process knows
	}
	cur.APIKey, cur.SecretKey, cur.WebhookKey = k.APIKey, k.SecretKey, k.WebhookKey
	sb.Info.APIKey, sb.Info.SecretKey, sb.Info.WebhookKey = k.APIKey, k.SecretKey, k.WebhookKey
	if err := cur.write(infoPath); err != nil {
		fmt.Fprintf(stderr, "sandbox: keys rotated but %s not updated: %v\n", infoPath, err)
		return
	}
	old := "the previous API key stopped at once"
	if k.PreviousKeyUntil > 0 {
		old = "the previous API key works until " + time.UnixMilli(k.PreviousKeyUntil).UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(stderr, "sandbox keys rotated (written to %s): apiKey %s secretKey %s webhookKey %s; %s\n",
		infoPath, k.APIKey, k.SecretKey, k.WebhookKey, old)
}

// startService assembles the service against the chains of info,
// provisioning the demo merchant on first start.
func (sb *Sandbox) startService(ctx context.Context, opts Options, cfg config.Config, prev, info *Info) error {
	for _, c := range []cashier.Chain{cashier.ChainTRON, cashier.ChainETH, cashier.ChainARB} {
		if info.Networks[string(c)] == nil {
			return fmt.Errorf("sandbox: %s missing from %s", c, InfoFile)
		}
	}
	// Like the chains, the service keeps the address of its first start so
	// the URLs in sandbox.json stay valid.
	addr := cfg.Addr
	switch {
	case prev != nil && prev.BaseURL != "":
		addr = strings.TrimPrefix(prev.BaseURL, "http://")
	case opts.FreePorts:
		addr = "127.0.0.1:0"
	}
	var err error
	if sb.listener, err = net.Listen("tcp", addr); err != nil {
		return fmt.Errorf("sandbox: service: %w", err)
	}
	sb.closers = append(sb.closers, func() error { sb.listener.Close(); return nil })
	info.BaseURL = "http://" + sb.listener.Addr().String()
	if cfg.PublicURL == "" {
		cfg.PublicURL = info.BaseURL
	}
	// The dev chains serve WebSocket on their HTTP port: the service
	// follows their new heads as they are made, and falls back to HTTP.
	for _, c := range info.Chains() {
		u := info.Networks[string(c)].RPCURL
		if c.IsEVM() {
			u = wsURL(u) + "," + u
		}
		cfg.SetNodeURLs(c, u)
	}
	if cfg.ServiceKeys == "" && info.Roles["sweeper"] != nil {
		// The sandbox's sweeper role is the service's sweeper key from the
		// first start on (the sealed store has it only after provisioning).
		var ks []string
		for _, c := range info.Chains() {
			ks = append(ks, string(c)+".sweeper="+info.Roles["sweeper"].PrivateKey)
		}
		cfg.ServiceKeys = strings.Join(ks, ",")
	}
	reg, err := Registry(info, opts.Confirmations)
	if err != nil {
		return err
	}
	if sb.Service, err = app.New(ctx, cfg, app.Options{Registry: reg}, opts.Stderr); err != nil {
		return err
	}
	sb.closers = append(sb.closers, sb.Service.Close)
	if info.MerchantID == "" {
		if err := provision(ctx, sb.Service.Store, sb.Service.Chains, info, opts.WebhookURL); err != nil {
			return err
		}
	} else {
		if err := provisionMissing(ctx, sb.Service.Store, sb.Service.Chains, info); err != nil {
			return err
		}
		if opts.WebhookURLSet || opts.WebhookURL != "" {
			if err := setWebhookURL(ctx, sb.Service.Store, info.CashierID, opts.WebhookURL, opts.Stderr); err != nil {
				return err
			}
		}
	}
	c, err := sb.Service.Store.Cashier(ctx, info.CashierID)
	if err != nil {
		return fmt.Errorf("sandbox: the demo cashier %s: %w", info.CashierID, err)
	}
	sb.WebhookURL = c.WebhookURL
	return provisionDashboard(ctx, sb.Service.Store, info)
}

// Serve runs the service until ctx ends; a chains-only sandbox just
// keeps its chains running until then.
func (sb *Sandbox) Serve(ctx context.Context) error {
	if sb.Service == nil {
		<-ctx.Done()
		return nil
	}
	return sb.Service.Serve(ctx, sb.listener)
}

// Close stops everything, newest first.
func (sb *Sandbox) Close() error {
	var errs []error
	for i := len(sb.closers) - 1; i >= 0; i-- {
		if err := sb.closers[i](); err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
	}
	sb.closers = nil
	return errors.Join(errs...)
}
