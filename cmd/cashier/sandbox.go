package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// sandbox runs the service with in-process dev chains and a demo merchant,
// printing the credentials and addresses a developer needs.
func sandboxCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts sandbox.Options
	fs.DurationVar(&opts.BlockPeriod, "block-period", 0, "EVM dev chain block period (0: a block as soon as a transaction arrives)")
	fs.DurationVar(&opts.TRONBlockInterval, "tron-block-interval", time.Second, "TRON stand-in block interval")
	fs.BoolVar(&opts.FreePorts, "free-ports", false, "use any free ports on first start instead of 8080, 8545, 8547 and 8090")
	fs.StringVar(&opts.WebhookURL, "webhook-url", "", "where the demo cashier's webhooks go (first start only; http and loopback allowed)")
	cfg := config.Default()
	cfg.Data = ".sandbox"
	rest, err := cfg.Load(fs, args, getenv)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("sandbox: unexpected arguments %q", rest)
	}
	opts.Config, opts.Stderr = cfg, stderr
	fmt.Fprintln(stderr, "starting the sandbox: dev chains, contracts, demo merchant ...")
	sb, err := sandbox.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer sb.Close()
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sb.Info); err != nil {
		return err
	}
	abs, _ := filepath.Abs(filepath.Join(cfg.Data, sandbox.InfoFile))
	fmt.Fprintf(stderr, "sandbox ready at %s (written to %s); Ctrl-C stops it\n", sb.Info.BaseURL, abs)
	if d := sb.Info.Dashboard; d != nil {
		fmt.Fprintf(stderr, "dashboard: %s — sign in as %s with password %s\n", d.URL, d.Email, d.Password)
	}
	return sb.Serve(ctx)
}
