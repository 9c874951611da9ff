package main

import (
	"context"
	"flag"
	"io"
	"path/filepath"
	"runtime/debug"

	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
)

// initCmd creates a data directory's database (migrated) and master key,
// so that `serve` can start on it. On a directory that has one already it
// changes nothing and says so, so a provisioning script may run it on
// every deploy.
func initCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, _, err := parseSettings("init", args, getenv, stderr, nil)
	if err != nil {
		return err
	}
	out := map[string]any{"database": "sqlite"}
	if cfg.DatabaseURL != "" {
		out["database"] = "postgres" // its schema is created or brought up to date
	} else {
		out["created"] = !app.HasDatabase(cfg)
	}
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := cfg.Remember(true); err != nil { // the settings the directory was created with
		return err
	}
	out["data"], _ = filepath.Abs(cfg.Data)
	return printJSON(stdout, out)
}

// Set by the release build (scripts/release.sh) through -ldflags -X:
// the release's version, the commit it was built from and that commit's
// date (not the build's, so that a rebuild is byte for byte the same).
var (
	releaseVersion string
	releaseCommit  string
	releaseDate    string
)

// versionCmd prints the build: the release's version, commit and date when
// scripts/release.sh set them, otherwise the module version and the
// commit as the Go toolchain recorded them; a build that recorded no
// commit (-buildvcs=false, or outside a git checkout) says so.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := config.Parse(fs, args); err != nil {
		return err
	}
	out := map[string]any{"version": "(unknown)"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		out["version"] = bi.Main.Version
		out["module"] = bi.Main.Path
		out["go"] = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				out["revision"] = s.Value
				out["commit"] = s.Value
			case "vcs.time":
				out["commitTime"] = s.Value
			case "vcs.modified":
				out["modified"] = s.Value == "true"
			}
		}
	}
	if releaseVersion != "" {
		out["version"] = releaseVersion
		out["release"] = true
	}
	if releaseCommit != "" {
		out["commit"], out["revision"] = releaseCommit, releaseCommit
	}
	if releaseDate != "" {
		out["commitTime"] = releaseDate
	}
	if out["commit"] == nil {
		out["commit"] = "unknown"
		out["note"] = "built without version control information (-buildvcs=false or outside a git checkout): the commit is unknown; release builds (scripts/release.sh) record it"
	}
	return printJSON(stdout, out)
}
