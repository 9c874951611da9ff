package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sqliteBinary is the built binary itself, not the PostgreSQL wrapper of
// CASHIER_TEST_DATABASE=postgres: a data directory without a database is
// a SQLite matter (a database URL names its database explicitly).
func sqliteBinary() string { return strings.TrimSuffix(binary, "-pg") }

// TestServeNeedsInit: `serve` on a directory without a database (a new
// one, or a mistyped --data) refuses, says how to create one, and leaves
// nothing behind (no empty database, no new master key); `cashier init`
// creates it, says so, changes nothing when run again, and `serve` then
// starts on it.
func TestServeNeedsInit(t *testing.T) {
	bin := sqliteBinary()
	data := filepath.Join(t.TempDir(), "live")
	cmd := exec.Command(bin, "serve", "--data", data, "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil || len(out) != 0 || !strings.Contains(stderr.String(), "no database") || !strings.Contains(stderr.String(), "cashier init --data "+data) {
		t.Fatalf("serve on a new directory: %v, stdout %q, stderr %q", err, out, stderr.String())
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Fatalf("refused serve created %s (%v)", data, err)
	}
	empty := t.TempDir() // an existing directory without a database
	if err := exec.Command(bin, "serve", "--data", empty).Run(); err == nil {
		t.Fatal("serve started on an empty directory")
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Fatalf("refused serve left %d files", len(entries))
	}

	initOnce := func() map[string]any {
		t.Helper()
		out, err := exec.Command(bin, "init", "--data", data).Output()
		if err != nil {
			t.Fatalf("init: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("init printed %q: %v", out, err)
		}
		return m
	}
	if m := initOnce(); m["created"] != true || m["database"] != "sqlite" || m["data"] != data {
		t.Fatalf("first init: %v", m)
	}
	for _, f := range []string{"cashier.db", "master.key"} {
		if _, err := os.Stat(filepath.Join(data, f)); err != nil {
			t.Fatalf("init made no %s: %v", f, err)
		}
	}
	key, _ := os.ReadFile(filepath.Join(data, "master.key"))
	if m := initOnce(); m["created"] != false {
		t.Fatalf("second init: %v", m)
	}
	if again, _ := os.ReadFile(filepath.Join(data, "master.key")); !bytes.Equal(key, again) {
		t.Fatal("a second init changed the master key")
	}

	srv, base := serveWith(t, bin, nil, data)
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	srv.stop(t)
}

// TestFlagErrorOnce: a bad flag or value is reported once, on one line
// naming the flag, without the usage dump; -h still prints the usage.
func TestFlagErrorOnce(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--bogus"},
		{"serve", "--rate-per-ip", "many"},
		{"payout", "list", "--bogus"},
		{"sandbox", "pay", "--bogus"},
		{"version", "--bogus"},
	} {
		cmd := exec.Command(binary, args...)
		cmd.Dir = t.TempDir()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		flagName := strings.TrimLeft(args[len(args)-1], "-")
		if args[len(args)-1] == "many" {
			flagName = "rate-per-ip"
		}
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if err == nil || len(lines) != 1 || strings.Count(stderr.String(), flagName) != 1 || strings.Contains(stderr.String(), "Usage") {
			t.Errorf("%q: %v, stderr:\n%s", args, err, stderr.String())
		}
	}
}

// TestServeHelpByTopic: serve -h shows the settings under topic headings,
// each setting once, and names the environment-only secrets.
func TestServeHelpByTopic(t *testing.T) {
	cmd := exec.Command(binary, "serve", "-h")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("serve -h: %v", err)
	}
	help := stderr.String()
	last := -1
	for _, heading := range []string{"\nservice:\n", "\nAPI requests and signing:\n", "\nwebhooks:\n", "\nchains:\n", "\npayouts and sweeps:\n", "\nmonitoring:\n", "\nenvironment only"} {
		i := strings.Index(help, heading)
		if i <= last {
			t.Errorf("serve -h: heading %q at %d, after %d:\n%s", heading, i, last, help)
		}
		last = i
	}
	for _, flagName := range []string{"-data", "-eth-rpc", "-webhook-timeout", "-payout-batch-size", "-metrics-addr"} {
		if n := strings.Count(help, "  "+flagName+" "); n != 1 {
			t.Errorf("serve -h lists %s %d times", flagName, n)
		}
	}
	chains, payouts := strings.Index(help, "\nchains:\n"), strings.Index(help, "\npayouts and sweeps:\n")
	if i := strings.Index(help, "  -eth-rpc "); i < chains || i > payouts {
		t.Errorf("-eth-rpc is not under chains:\n%s", help)
	}
	if !strings.Contains(help, "CASHIER_MASTER_KEY") {
		t.Errorf("serve -h does not name CASHIER_MASTER_KEY")
	}
}

// TestVersion: `cashier version` prints the module and the Go toolchain
// it was built with, and the commit when the build recorded one.
func TestVersion(t *testing.T) {
	out, err := exec.Command(binary, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("version printed %q: %v", out, err)
	}
	goVersion, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	if v["module"] != "github.com/stablecashier/cashier" || v["go"] != strings.TrimSpace(string(goVersion)) || v["version"] == "" || v["version"] == nil {
		t.Fatalf("version: %v", v)
	}
	if rev, ok := v["revision"].(string); ok {
		head, err := exec.Command("git", "rev-parse", "HEAD").Output()
		if err == nil && rev != strings.TrimSpace(string(head)) {
			t.Errorf("revision %s, HEAD %s", rev, head)
		}
	}
}

// TestJSONIndentedOnATerminal: printed on a terminal (a pseudo-terminal
// from script(1)) the JSON is indented; into a pipe it is one line, as
// scripts expect.
func TestJSONIndentedOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatal("script(1) from util-linux is needed to give the binary a terminal")
	}
	out, err := exec.Command(script, "-qec", binary+" version", "/dev/null").Output()
	if err != nil {
		t.Fatalf("script: %v", err)
	}
	text := strings.ReplaceAll(string(out), "\r\n", "\n")
	if !strings.HasPrefix(text, "{\n  \"") || !json.Valid([]byte(text)) {
		t.Errorf("on a terminal: %q", out)
	}
	piped, err := exec.Command(binary, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(piped, []byte("\n")) != 1 || !json.Valid(piped) {
		t.Errorf("into a pipe: %q", piped)
	}
}

// serveWith starts `bin serve` on data and returns it with its base URL.
func serveWith(t *testing.T, bin string, env []string, data string) (*proc, string) {
	t.Helper()
	srv := &proc{cmd: exec.Command(bin, "serve", "--data", data, "--addr", "127.0.0.1:0"), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	srv.cmd.Env = append(os.Environ(), env...)
	srv.cmd.Stdout, srv.cmd.Stderr = &syncWriter{w: srv.stdout}, &syncWriter{w: srv.stderr}
	if err := srv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { srv.done <- srv.cmd.Wait() }()
	t.Cleanup(func() { srv.cmd.Process.Kill() })
	return srv, listening(t, srv)
}

// TestVersionHonest: a build that recorded no commit (the test binary,
// like -buildvcs=false) says the commit is unknown and why; a release
// build's -ldflags values are what it prints.
func TestVersionHonest(t *testing.T) {
	version := func() map[string]any {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), []string{"version"}, func(string) string { return "" }, &out, &errb); err != nil {
			t.Fatalf("version: %v %s", err, errb.Bytes())
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("version printed %q: %v", out.Bytes(), err)
		}
		return v
	}
	if v := version(); v["revision"] == nil && (v["commit"] != "unknown" || !strings.Contains(fmt.Sprint(v["note"]), "-buildvcs=false")) {
		t.Errorf("without a recorded commit: %v", v)
	}
	releaseVersion, releaseCommit, releaseDate = "v9.8.7", "0123456789abcdef0123456789abcdef01234567", "2026-01-02T03:04:05Z"
	defer func() { releaseVersion, releaseCommit, releaseDate = "", "", "" }()
	v := version()
	if v["version"] != "v9.8.7" || v["commit"] != releaseCommit || v["commitTime"] != releaseDate || v["release"] != true || v["note"] != nil {
		t.Errorf("a release build: %v", v)
	}
}
