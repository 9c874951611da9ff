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

// evmDevChains are the EVM dev chains: their chain ids and data directories.
var evmDevChains = []struct {
	chain cashier.Chain
	id    uint64
	dir   string
	name  string
}{
	{cashier.ChainETH, devchain.ChainIDETH, "eth", "Ethereum"},
	{cashier.ChainARB, devchain.ChainIDARB, "arb", "Arbitrum"},
	{cashier.ChainBSC, devchain.ChainIDBSC, "bsc", "BNB Smart Chain"},
}

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

// sameChains reports whether a and b describe the same chain endpoints.
func sameChains(a, b *Info) bool {
	if len(a.Networks) != len(b.Networks) {
		return false
	}
	for _, c := range a.Chains() {
		na, nb := a.Networks[string(c)], b.Networks[string(c)]
		if na == nil || nb == nil || na.RPCURL != nb.RPCURL || na.PayoutContract != nb.PayoutContract {
			return false
		}
	}
	return true
}

// startChains starts the dev chains on the ports of prev (or new ones),
// deploying on first start, and returns the description with their URLs.
func (sb *Sandbox) startChains(ctx context.Context, opts Options, prev *Info) (*Info, error) {
	data := opts.Config.Data
	port := func(c cashier.Chain) int {
		if prev != nil && prev.Networks[string(c)] != nil {
			return prev.Networks[string(c)].Port
		}
		if opts.FreePorts {
			return 0
		}
		return DefaultPorts[c]
	}
	var err error
	for _, e := range evmDevChains {
		ch, err := devchain.Start(devchain.Options{ChainID: e.id, Port: port(e.chain),
			DataDir: filepath.Join(data, "chains", e.dir), Period: opts.BlockPeriod, OnDemand: true, WallClock: true})
		if err != nil {
			return nil, fmt.Errorf("sandbox: %s dev chain: %w", e.name, err)
		}
		sb.closers = append(sb.closers, ch.Close)
		*sb.evm(e.chain) = ch
	}
	if sb.TRON, err = tronnode.Open(tronnode.Options{Dir: filepath.Join(data, "chains", "tron"), BlockInterval: opts.TRONBlockInterval}); err != nil {
		return nil, fmt.Errorf("sandbox: TRON stand-in: %w", err)
	}
	sb.closers = append(sb.closers, sb.TRON.Close)
	tronLn, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port(cashier.ChainTRON)))
	if err != nil {
		return nil, fmt.Errorf("sandbox: TRON stand-in: %w", err)
	}
	sb.tronSrv = &http.Server{Handler: sb.TRON.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go sb.tronSrv.Serve(tronLn)
	sb.closers = append(sb.closers, sb.tronSrv.Close)
	tronURL := "http://" + tronLn.Addr().String()

	// Deployments: made once, then found again in sandbox.json.
	var info *Info
	if prev != nil {
		cp := *prev
		cp.Networks = map[string]*Network{}
		for k, n := range prev.Networks {
			nn := *n
			cp.Networks[k] = &nn
		}
		info = &cp
		// A sandbox.json written before a network joined the sandbox:
		// set that network up now, beside the others.
		if err := deployMissing(ctx, sb, info); err != nil {
			return nil, err
		}
	} else if info, err = deployAll(ctx, sb); err != nil {
		return nil, err
	}
	for _, e := range evmDevChains {
		ch := *sb.evm(e.chain)
		info.Networks[string(e.chain)].RPCURL, info.Networks[string(e.chain)].Port = ch.URL, portOf(ch.URL)
	}
	info.Networks["TRON"].RPCURL, info.Networks["TRON"].Port = tronURL, portOf(tronURL)
	info.Networks["TRON"].GenesisBlockID = sb.TRON.GenesisID()
	return info, nil
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

// setWebhookURL points an existing sandbox's demo cashier at url (""
// stops its webhooks) and says so: a restart with --webhook-url must not
// leave the webhooks going where they went before.
func setWebhookURL(ctx context.Context, st cashier.Store, cashierID, url string, stderr io.Writer) error {
	url = strings.TrimSpace(url)
	if err := app.CheckWebhookURL(url, true); err != nil {
		return fmt.Errorf("sandbox: --webhook-url: %w", err)
	}
	as, ok := st.(cashier.AccountStore)
	if !ok {
		return errors.New("sandbox: this store cannot change cashiers")
	}
	var was string
	err := as.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		c, err := tx.Cashier(ctx, cashierID)
		if err != nil {
			return err
		}
		was, c.WebhookURL = c.WebhookURL, url
		return tx.UpdateCashier(ctx, c)
	})
	if err != nil {
		return fmt.Errorf("sandbox: set the demo cashier's webhook URL: %w", err)
	}
	fmt.Fprintf(stderr, "sandbox: the demo cashier %s now sends its webhooks to %s (before: %s)\n", cashierID, orNone(url), orNone(was))
	return nil
}

// orNone is a webhook URL for a person to read.
func orNone(url string) string {
	if url == "" {
		return "none"
	}
	return url
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

func portOf(u string) int {
	_, p, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://"))
	if err != nil {
		return 0
	}
	var n int
	fmt.Sscanf(p, "%d", &n)
	return n
}

// deployAll generates the keys and sets up every chain.
func deployAll(ctx context.Context, sb *Sandbox) (*Info, error) {
	info := &Info{ContractIDs: map[string]string{}, Networks: map[string]*Network{},
		Wallets: map[string]*Wallet{}, Roles: map[string]*Wallet{}}
	for _, name := range []string{"owner", "executor", "signer", "sweeper", "fee"} {
		w, err := NewWallet()
		if err != nil {
			return nil, err
		}
		info.Roles[name] = w
	}
	for _, name := range []string{"customer", "allowance"} {
		w, err := NewWallet()
		if err != nil {
			return nil, err
		}
		info.Wallets[name] = w
	}
	if err := deployMissing(ctx, sb, info); err != nil {
		return nil, err
	}
	return info, nil
}

// evm is the field holding c's EVM dev chain.
func (sb *Sandbox) evm(c cashier.Chain) **devchain.Chain {
	switch c {
	case cashier.ChainARB:
		return &sb.ARB
	case cashier.ChainBSC:
		return &sb.BSC
	}
	return &sb.ETH
}

// deployMissing sets up every sandbox network info does not describe yet.
func deployMissing(ctx context.Context, sb *Sandbox, info *Info) error {
	type net struct {
		chain  cashier.Chain
		ch     chain
		id     uint64
		prefix byte
	}
	nets := []net{}
	for _, e := range evmDevChains {
		nets = append(nets, net{e.chain, &evmChain{c: *sb.evm(e.chain)}, e.id, 0xff})
	}
	nets = append(nets, net{cashier.ChainTRON, tronChain{sb.TRON}, tronnode.ChainID, tronnode.Create2Prefix})
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, c := range nets {
		if info.Networks[string(c.chain)] != nil {
			continue
		}
		// The chains are set up side by side: each stamps its blocks
		// with the wall clock, a second apart (devchain.Options.WallClock),
		// so one after the other would add their waits.
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := setup(ctx, c.ch, c.chain, c.prefix, info.Roles, info.Wallets)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("sandbox: set up %s: %w", c.chain, err))
				return
			}
			n.ChainID = c.id
			info.Networks[string(c.chain)] = n
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}

// DefaultConfirmations is what the sandbox's networks ask of a payment:
// one, so a payment counts in the block after it is sent and tests stay
// quick; --confirmations raises it to watch the confirming stage.
const DefaultConfirmations = 1

// Registry is the built-in registry pointed at the sandbox's chains and
// test tokens, asking confirmations of every payment. The built-in
// networks the sandbox has no chain for are switched off.
func Registry(info *Info, confirmations int) (*cashier.Registry, error) {
	reg := config.DefaultRegistry()
	ov := config.Override{}
	conf := confirmations
	off := false
	for _, c := range cashier.Chains {
		if info.Networks[string(c)] == nil {
			ov.Networks = append(ov.Networks, config.NetworkOverride{ChainID: string(c), Enabled: &off})
		}
	}
	for _, c := range info.Chains() {
		n := info.Networks[string(c)]
		name := c.DisplayName() + " (sandbox)"
		rpc, prefix := n.RPCURL, n.Create2Prefix
		// The sandbox's chains make a block a second (the EVM chains also
		// one as soon as a transaction arrives); the TRON watcher's rounds
		// fall in step with it.
		blockTime := 1
		no := config.NetworkOverride{ChainID: string(c), NetworkName: &name, RPCURL: &rpc, Confirmations: &conf, Create2Prefix: &prefix,
			AvgBlockTime: &blockTime}
		if c.IsEVM() {
			id := int64(n.ChainID)
			no.EVMChainID = &id
		} else {
			// The stand-in's genesis, not mainnet's ("" from a sandbox.json
			// written before it was recorded: not checked).
			g := n.GenesisBlockID
			no.GenesisBlockID = &g
		}
		ov.Networks = append(ov.Networks, no)
		for sym, addr := range n.Tokens {
			a := addr
			ov.Tokens = append(ov.Tokens, config.TokenOverride{ChainID: string(c), Symbol: sym, ContractAddress: &a})
		}
	}
	if err := config.Apply(reg, ov); err != nil {
		return nil, err
	}
	return reg, nil
}

// provision creates the demo merchant, its cashier and a payout contract
// with deposit factory on every network.
func provision(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, info *Info, webhookURL string) error {
	clock := cashier.SystemClock{}
	m, err := app.NewMerchant("Sandbox Merchant", clock)
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, m) }); err != nil {
		return err
	}
	c, err := app.NewCashier(ctx, st, m.ID, "Sandbox Cashier", webhookURL, true, clock)
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCashier(ctx, c) }); err != nil {
		return err
	}
	info.MerchantID, info.APIKey, info.SecretKey, info.WebhookKey, info.CashierID = m.ID, m.APIKey, m.SecretKey, m.WebhookKey, c.ID
	return provisionMissing(ctx, st, chains, info)
}

// provisionMissing gives the demo merchant its signer and payout contract
// on every sandbox network it has none on yet (all on first start; a
// network that joined the sandbox later on a restart), and the service
// its keys there.
func provisionMissing(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, info *Info) error {
	clock := cashier.SystemClock{}
	// The sandbox's signer role is the demo merchant's own signer on every
	// network: its contracts were deployed naming it.
	signer, err := info.Roles[string(cashier.KeySigner)].Key()
	if err != nil {
		return err
	}
	added := false
	for _, ch := range info.Chains() {
		if info.ContractIDs[string(ch)] != "" {
			continue
		}
		if _, err := app.ImportMerchantSigner(ctx, st, app.ServiceKeys{Store: st}, info.MerchantID, ch, signer, clock); err != nil {
			return err
		}
		n := info.Networks[string(ch)]
		k, err := app.NewContract(ctx, st, chains, app.ContractSpec{MerchantID: info.MerchantID, Chain: string(ch), Address: n.PayoutContract,
			DepositFactory: n.DepositFactory, DepositImplementation: n.DepositImplementation}, clock)
		if err != nil {
			return err
		}
		if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }); err != nil {
			return err
		}
		info.ContractIDs[string(ch)] = k.ID
		added = true
	}
	if !added {
		return nil
	}
	return provisionKeys(ctx, st, info)
}

// wsURL is the WebSocket form of a dev chain's HTTP endpoint (the same
// host and port).
func wsURL(httpURL string) string {
	return "ws://" + strings.TrimPrefix(strings.TrimPrefix(httpURL, "http://"), "ws://")
}
