package main

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/stablecashier/cashier/app"
)

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, _, err := parseSettings("serve", args, getenv, stderr, nil)
	if err != nil {
		return err
	}
	// A missing database is a mistyped --data or a lost volume far more
	// often than a first start: starting empty would also make a new master
	// key. `cashier init` creates one on purpose.
	if !app.HasDatabase(cfg) {
		return fmt.Errorf("serve: no database in %q: check --data, or create one with `cashier init --data %s`", cfg.Data, cfg.Data)
	}
	svc, err := app.New(ctx, cfg, app.Options{}, stderr)
	if err != nil {
		return err
	}
	defer svc.Close()
	if err := cfg.Remember(false); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cashier listening on http://%s\n", ln.Addr())
	return svc.Serve(ctx, ln)
}
