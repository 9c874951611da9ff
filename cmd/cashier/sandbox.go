package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// sandbox runs the service with in-process dev chains and a demo merchant,
// printing the credentials and addresses a developer needs.
func sandboxCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "pay" {
		return sandboxPay(ctx, args[1:], getenv, stdout, stderr)
	}
	var opts sandbox.Options
	cfg, fs, err := parseSettings("sandbox", args, getenv, stderr, func(fs *flag.FlagSet, cfg *config.Config) {
		fs.DurationVar(&opts.BlockPeriod, "block-period", time.Second, "EVM dev chains make a block at least this often (and at once when a transaction arrives)")
		fs.StringVar(&opts.Only, "only", "", "run one half: chains (the dev chains) or service (the service against the chains of DATA/sandbox.json)")
		fs.IntVar(&opts.Confirmations, "confirmations", sandbox.DefaultConfirmations, "confirmations the sandbox's networks ask of a payment")
		fs.DurationVar(&opts.TRONBlockInterval, "tron-block-interval", time.Second, "TRON stand-in block interval")
		fs.BoolVar(&opts.FreePorts, "free-ports", false, "use any free ports on first start instead of 8080, 8545, 8547 and 8090")
		fs.StringVar(&opts.WebhookURL, "webhook-url", "", "where the demo cashier's webhooks go, on first start or, given again, on an existing sandbox (empty: none; http and loopback allowed)")
		cfg.Data = ".sandbox"
	})
	if err != nil {
		return err
	}
	if err := checkSandboxFlags(fs, opts); err != nil {
		return err
	}
	if cfg.NetworkPreset != config.PresetMainnet {
		return fmt.Errorf("sandbox: --network-preset %s: the sandbox runs its own dev chains; serve a data directory of its own for the public testnets (docs/going-live.md, \"Rehearse on a testnet\")", cfg.NetworkPreset)
	}
	fs.Visit(func(f *flag.Flag) { opts.WebhookURLSet = opts.WebhookURLSet || f.Name == "webhook-url" })
	opts.Config, opts.Stderr = cfg, stderr
	fmt.Fprintln(stderr, "starting the sandbox: "+map[string]string{"": "dev chains, contracts, demo merchant",
		sandbox.OnlyChains: "dev chains and contracts", sandbox.OnlyService: "the service, demo merchant"}[opts.Only]+" ...")
	sb, err := sandbox.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer sb.Close()
	if sb.Service != nil { // chains alone serve no settings to remember
		served := sb.Service.Config // the sandbox forces its mode
		if err := served.Remember(false); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sb.Info); err != nil {
		return err
	}
	abs, _ := filepath.Abs(filepath.Join(cfg.Data, sandbox.InfoFile))
	if opts.Only == sandbox.OnlyChains {
		fmt.Fprintf(stderr, "sandbox chains ready (written to %s); Ctrl-C stops them\n", abs)
	} else {
		hooks := sb.WebhookURL
		if hooks == "" {
			hooks = "none (cashier sandbox --webhook-url URL sets them)"
		}
		fmt.Fprintf(stderr, "sandbox ready at %s (written to %s); webhooks: %s; Ctrl-C stops it\n", sb.Info.BaseURL, abs, hooks)
		if d := sb.Info.Dashboard; d != nil {
			fmt.Fprintf(stderr, "dashboard: %s — sign in as %s with password %s\n", d.URL, d.Email, d.Password)
		}
	}
	return sb.Serve(ctx)
}

// checkSandboxFlags refuses combinations that would be silently ignored,
// before anything starts.
func checkSandboxFlags(fs *flag.FlagSet, opts sandbox.Options) error {
	switch opts.Only {
	case "", sandbox.OnlyChains, sandbox.OnlyService:
	default:
		return fmt.Errorf("sandbox: --only %q: want %q or %q", opts.Only, sandbox.OnlyChains, sandbox.OnlyService)
	}
	if opts.BlockPeriod <= 0 {
		return fmt.Errorf("sandbox: --block-period %v: must be above zero", opts.BlockPeriod)
	}
	if opts.TRONBlockInterval <= 0 {
		return fmt.Errorf("sandbox: --tron-block-interval %v: must be above zero", opts.TRONBlockInterval)
	}
	if opts.Confirmations < 1 {
		return fmt.Errorf("sandbox: --confirmations %d: must be at least 1", opts.Confirmations)
	}
	if err := app.CheckWebhookURL(strings.TrimSpace(opts.WebhookURL), true); err != nil {
		return fmt.Errorf("sandbox: --webhook-url: %w", err)
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		chainsOnly := f.Name == "block-period" || f.Name == "tron-block-interval"
		serviceOnly := f.Name == "webhook-url" || f.Name == "confirmations"
		switch {
		case err != nil:
		case opts.Only == sandbox.OnlyService && chainsOnly:
			err = fmt.Errorf("sandbox: --%s applies to the chains, not to --only service", f.Name)
		case opts.Only == sandbox.OnlyChains && serviceOnly:
			err = fmt.Errorf("sandbox: --%s applies to the service, not to --only chains", f.Name)
		}
	})
	return err
}

// sandboxPay pays a collection order of the sandbox from its customer
// wallet and prints the transfer.
func sandboxPay(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sandbox pay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var req sandbox.PayRequest
	data := getenv("CASHIER_DATA")
	if data == "" {
		data = ".sandbox"
	}
	fs.StringVar(&data, "data", data, "the sandbox's data directory")
	fs.StringVar(&req.OrderNo, "order", "", "merchant order number of the collection order (required)")
	fs.StringVar(&req.Amount, "amount", "", "amount to send, decimal (default: what the order still asks for)")
	fs.StringVar(&req.MerchantID, "merchant", "", "merchant id (default: the demo merchant)")
	fs.StringVar(&req.Symbol, "symbol", "", "token to send, or ETH / TRX for the network's own coin (--amount required) (default: the order's token)")
	if err := config.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sandbox pay: unexpected arguments %q", fs.Args())
	}
	if req.OrderNo == "" {
		return fmt.Errorf("sandbox pay: --order is required")
	}
	info, err := sandbox.ReadInfo(filepath.Join(data, sandbox.InfoFile))
	if err != nil {
		return fmt.Errorf("sandbox pay: %w (is %s a sandbox's data directory?)", err, data)
	}
	cfg := config.Default()
	cfg.Data = data
	cfg.MasterKey = getenv("CASHIER_MASTER_KEY")
	cfg.DatabaseURL = getenv("CASHIER_DATABASE_URL")
	if !app.HasDatabase(cfg) {
		return fmt.Errorf("sandbox pay: no service database in %s: start the service first (cashier sandbox --only service --data %s)", data, data)
	}
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	p, err := sandbox.Pay(ctx, info, st, req)
	if err != nil {
		return err
	}
	return printJSON(stdout, p)
}
