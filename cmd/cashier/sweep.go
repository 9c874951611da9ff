package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
)

// sweepList is the operator's report of sweeps: in flight first, then
// newest first, failed ones with their reason.
func sweepList(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var chain string
	cfg, _, err := parseSettings("sweep list", args, getenv, stderr, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&chain, "chain", "", "only this network: TRON, ETH or ARB")
	})
	if err != nil {
		return err
	}
	var c cashier.Chain
	if chain != "" {
		if c, err = cashier.ParseChain(chain); err != nil {
			return fmt.Errorf("sweep list: --chain: %w", err)
		}
	}
	if err := app.NeedStore(cfg); err != nil {
		return fmt.Errorf("%s: %w", "sweep list", err)
	}
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	sweeps, err := st.Sweeps(ctx, c, false)
	if err != nil {
		return err
	}
	out := []sweepRow{}
	for _, s := range sweeps {
		out = append(out, rowOf(s, nil))
	}
	native, err := nativeDeposits(ctx, st, c)
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]any{"total": len(out), "sweeps": out, "nativeDeposits": native})
}
