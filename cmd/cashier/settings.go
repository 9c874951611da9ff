package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/stablecashier/cashier/config"
)

// parseSettings is every command's reading of its arguments: the command's
// own flags (own, may be nil, which may also change a default of the
// settings), then the settings every command shares from the flags and the
// environment (config.Load). Arguments left over are refused, named for the
// command. The flag set is returned for the commands that look at which
// flags were given.
func parseSettings(name string, args []string, getenv func(string) string, stderr io.Writer, own func(*flag.FlagSet, *config.Config)) (config.Config, *flag.FlagSet, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config.Default()
	if own != nil {
		// Before Load: a command's own flag of a setting's name wins, and
		// a changed default shows in the usage.
		own(fs, &cfg)
	}
	rest, err := cfg.Load(fs, args, getenv)
	if err != nil {
		return cfg, fs, err
	}
	if len(rest) > 0 {
		return cfg, fs, fmt.Errorf("%s: unexpected arguments %q", name, rest)
	}
	return cfg, fs, nil
}
