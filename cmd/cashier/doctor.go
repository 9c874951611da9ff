package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/sandbox"
)

// doctor checks a data directory with the settings `serve` takes (the
// same settings code) and prints one line per check; any failure makes
// it exit non-zero.
func doctor(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, _, err := parseSettings("doctor", args, getenv, stderr, nil)
	if err != nil {
		return err
	}
	var reg *cashier.Registry
	if info, err := sandbox.ReadInfo(filepath.Join(cfg.Data, sandbox.InfoFile)); err == nil && cfg.Registry == "" {
		// A sandbox's directory: its chains and keys, as its service uses them.
		if reg, err = sandboxChains(&cfg, info); err != nil {
			return err
		}
	}
	checks := app.Doctor(ctx, cfg, reg, nil, time.Now())
	var failed []string
	for _, c := range checks {
		line := fmt.Sprintf("%-4s  %s: %s", c.Status, c.Name, c.Detail)
		if c.Fix != "" && c.Status != app.CheckOK {
			line += " — fix: " + c.Fix
		}
		fmt.Fprintln(stdout, line)
		if c.Status == app.CheckFail {
			failed = append(failed, c.Name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("doctor: %d %w: %s", len(failed), app.ErrChecksFailed, strings.Join(failed, ", "))
	}
	return nil
}
