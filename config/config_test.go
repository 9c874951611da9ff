package config

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func TestDefaultRegistry(t *testing.T) {
	r := DefaultRegistry()
	for _, c := range cashier.Chains {
		n, ok := r.Network(c)
		if !ok || n.Create2Prefix == 0 {
			t.Fatalf("network %s missing or without CREATE2 prefix", c)
		}
		if c == cashier.ChainBSC || c == cashier.ChainBASE {
			continue // 18 decimals; no USDT (TestDefaultRegistryHasBSCPolygonBase)
		}
		for _, sym := range []string{"USDT", "USDC"} {
			tok, ok := r.Token(c, sym)
			if !ok || tok.Decimals != 6 || tok.WithdrawFee.Int64() != 1_000_000 || tok.MinAmount.Int64() != 1_000_000 {
				t.Fatalf("%s %s = %+v", c, sym, tok)
			}
		}
	}
	if tok, _ := r.Token(cashier.ChainETH, "USDT"); tok.ContractAddress != "0xdAC17F958D2ee523a2206206994597C13D831ec7" {
		t.Fatalf("ETH USDT address %s", tok.ContractAddress)
	}
}

func TestLoadRegistryOverride(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	body := `{"networks":[{"chainId":"1","rpcUrl":"http://127.0.0.1:8545","evmChainId":1337,"status":"maintenance"},
	  {"chainId":"TRON","create2Prefix":"0xff"}],
	 "tokens":[{"chainId":"ETH","symbol":"USDT","contractAddress":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","minAmount":"0.5","withdrawFee":"0"},
	  {"chainId":"ARB","symbol":"DAI","name":"Dai","contractAddress":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","decimals":18,"minAmount":"1","maxAmount":"100"}]}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := LoadRegistry(path)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := r.Network(cashier.ChainETH)
	if n.RPCURL != "http://127.0.0.1:8545" || n.EVMChainID != 1337 || n.Status != cashier.NetworkMaintenance || n.NetworkName != "Ethereum" {
		t.Fatalf("network = %+v", n)
	}
	if tn, _ := r.Network(cashier.ChainTRON); tn.Create2Prefix != 0xff {
		t.Fatalf("TRON prefix = %x", tn.Create2Prefix)
	}
	tok, _ := r.Token(cashier.ChainETH, "USDT")
	if tok.ContractAddress != "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" || tok.MinAmount.Int64() != 500_000 || tok.WithdrawFee.Sign() != 0 || tok.MaxAmount.Int64() != 1_000_000_000_000 {
		t.Fatalf("token = %+v", tok)
	}
	dai, ok := r.Token(cashier.ChainARB, "DAI")
	if !ok || dai.Decimals != 18 || dai.MaxAmount.String() != "100000000000000000000" {
		t.Fatalf("added token = %+v", dai)
	}
	for _, bad := range []string{
		`{"networks":[{"chainId":"OPTIMISM"}]}`,
		`{"networks":[{"chainId":"1","status":"down"}]}`,
		`{"networks":[{"chainId":"1","create2Prefix":"0x00"}]}`,
		`{"tokens":[{"chainId":"1","symbol":"USDT","minAmount":"1.0000001"}]}`,
		`{"tokens":[{"chainId":"1","symbol":"USDT","minAmount":"10","maxAmount":"5"}]}`,
		`{"tokens":[{"chainId":"1","symbol":"NEW"}]}`,
		`{"tokens":[{"chainId":"1"}]}`,
		`{"unknown":1}`,
		`{"networks":[{"chainId":"ARB","evmChainId":0}]}`,                                        // QR codes and signatures need it
		`{"tokens":[{"chainId":"ETH","symbol":"NEW","contractAddress":"0x1","maxAmount":"10"}]}`, // no minAmount
		`{"tokens":[{"chainId":"ETH","symbol":"USDT","minAmount":"0"}]}`,
	} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadRegistry(path); err == nil {
			t.Errorf("override %s accepted", bad)
		}
	}
}

func TestLoadPrecedence(t *testing.T) {
	env := map[string]string{"CASHIER_ADDR": "0.0.0.0:1", "CASHIER_DATA": "/env", "CASHIER_RATE_PER_KEY": "5", "CASHIER_RECV_WINDOW": "10s"}
	c := Default()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	rest, err := c.Load(fs, []string{"--data", "/flag", "extra"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Data != "/flag" || c.Addr != "0.0.0.0:1" || c.RateKey != 5 || c.RecvWindow != 10*time.Second || c.RateIP != 2000 {
		t.Fatalf("config = %+v", c)
	}
	if len(rest) != 1 || rest[0] != "extra" {
		t.Fatalf("rest = %v", rest)
	}
	for _, bad := range []map[string]string{
		{"CASHIER_MODE": "staging"},
		{"CASHIER_RATE_PER_KEY": "x"},
		{"CASHIER_RATE_PER_KEY": "0"},
		{"CASHIER_SIGN_FIELD": "maybe"},
		{"CASHIER_RECV_WINDOW": "90s"},
		{"CASHIER_FUTURE_SKEW": "-1s"},
		{"CASHIER_COLLECTION_TTL": "0s"},
	} {
		c := Default()
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if _, err := c.Load(fs, nil, func(k string) string { return bad[k] }); err == nil {
			t.Errorf("env %v accepted", bad)
		}
	}
	// Secrets cannot be given as flags (they would show in process lists).
	c = Default()
	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := c.Load(fs, []string{"--master-key", "00"}, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "master-key") {
		t.Fatalf("--master-key flag: %v", err)
	}
}

// An override names a built-in token in any letter case, and changing its
// decimals keeps the bounds and fee it does not set at the same value in
// tokens.
func TestOverrideDecimalsAndSymbolCase(t *testing.T) {
	r := DefaultRegistry()
	d := 18
	if err := Apply(r, Override{Tokens: []TokenOverride{{ChainID: "ETH", Symbol: "usdt", Decimals: &d}}}); err != nil {
		t.Fatal(err)
	}
	if n := len(r.Tokens); n != len(DefaultRegistry().Tokens) {
		t.Fatalf("%d tokens: the override added one instead of changing USDT", n)
	}
	tok, _ := r.Token(cashier.ChainETH, "USDT")
	if tok.Decimals != 18 || tok.MinAmount.String() != "1000000000000000000" || cashier.FormatAmount(tok.MaxAmount, 18) != "1000000.00" || cashier.FormatAmount(tok.WithdrawFee, 18) != "1.00" {
		t.Fatalf("token = %+v", tok)
	}
	d = 0
	if err := Apply(r, Override{Tokens: []TokenOverride{{ChainID: "ARB", Symbol: "USDC", Decimals: &d}}}); err != nil {
		t.Fatal(err)
	}
	if tok, _ := r.Token(cashier.ChainARB, "USDC"); tok.MinAmount.Int64() != 1 || tok.WithdrawFee.Int64() != 1 {
		t.Fatalf("token = %+v", tok)
	}
	half := "0.5"
	if err := Apply(r, Override{Tokens: []TokenOverride{{ChainID: "TRON", Symbol: "USDT", MinAmount: &half}}}); err != nil {
		t.Fatal(err)
	}
	if err := Apply(r, Override{Tokens: []TokenOverride{{ChainID: "TRON", Symbol: "USDT", Decimals: &d}}}); err == nil {
		t.Fatal("0 decimals accepted for a minimum of 0.5")
	}
	d = -1
	if err := Apply(r, Override{Tokens: []TokenOverride{{ChainID: "ETH", Symbol: "USDC", Decimals: &d}}}); err == nil {
		t.Fatal("negative decimals accepted")
	}
}

// TestRememberedSettings: a data directory's settings file fills what
// neither the environment nor a flag sets; both of those still win.
func TestRememberedSettings(t *testing.T) {
	dir := t.TempDir()
	saved := Default()
	saved.Data, saved.Mode, saved.HeaderPrefix, saved.WebhookSignature, saved.WebhookBody = dir, "sandbox", "Acme", "sorted", "strings"
	if err := saved.Remember(false); err != nil {
		t.Fatal(err)
	}
	load := func(args []string, env map[string]string) Config {
		t.Helper()
		c := Default()
		if _, err := c.Load(flag.NewFlagSet("t", flag.ContinueOnError), args, func(k string) string { return env[k] }); err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := load([]string{"--data", dir}, nil)
	if c.Mode != "sandbox" || c.HeaderPrefix != "Acme" || c.WebhookSignature != "sorted" || c.WebhookBody != "strings" {
		t.Fatalf("remembered settings not applied: %+v", c)
	}
	c = load([]string{"--data", dir, "--header-prefix", "Other"}, map[string]string{"CASHIER_MODE": "production"})
	if c.HeaderPrefix != "Other" || c.Mode != "production" || c.WebhookSignature != "sorted" {
		t.Fatalf("flag or environment lost to the file: %+v", c)
	}
	// Provisioning keeps the file it finds; serving rewrites it.
	other := Default()
	other.Data = dir
	if err := other.Remember(true); err != nil {
		t.Fatal(err)
	}
	if c := load([]string{"--data", dir}, nil); c.HeaderPrefix != "Acme" {
		t.Fatalf("Remember(true) replaced the file: %+v", c)
	}
	if err := other.Remember(false); err != nil {
		t.Fatal(err)
	}
	if c := load([]string{"--data", dir}, nil); c.HeaderPrefix != "Service" || c.Mode != "production" {
		t.Fatalf("Remember(false) kept the old file: %+v", c)
	}
	// A broken value in the file is an error naming the file, not ignored.
	os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"mode":"party"}`), 0o600)
	c2 := Default()
	if _, err := c2.Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--data", dir}, func(string) string { return "" }); err == nil {
		t.Fatal("invalid remembered mode accepted")
	}
	// Settings outside the remembered list are never taken from the file.
	os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"addr":"0.0.0.0:1"}`), 0o600)
	if c := load([]string{"--data", dir}, nil); c.Addr != Default().Addr {
		t.Fatalf("addr taken from the file: %s", c.Addr)
	}
}

// An operator command's -h lists its own flags and the data location, not
// every service setting; serve's lists them all.
func TestBriefUsageOfOperatorCommands(t *testing.T) {
	help := func(name string) string {
		var out bytes.Buffer
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		fs.SetOutput(&out)
		fs.String("status", "", "order status")
		cfg := Default()
		if _, err := cfg.Load(fs, []string{"-h"}, func(string) string { return "" }); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", name, err)
		}
		return out.String()
	}
	brief := help("payout list")
	for _, want := range []string{"-status", "-data", "-database-url", "cashier serve -h"} {
		if !strings.Contains(brief, want) {
			t.Errorf("payout list -h lacks %q:\n%s", want, brief)
		}
	}
	if strings.Contains(brief, "-eth-rpc") {
		t.Errorf("payout list -h lists the service's settings:\n%s", brief)
	}
	if full := help("serve"); !strings.Contains(full, "-eth-rpc") || !strings.Contains(full, "-status") {
		t.Errorf("serve -h lacks the settings:\n%s", full)
	}
}

// A command's own flag named like a setting is the command's: `payout
// policy --mode never` parses (it panicked with "flag redefined: mode"),
// the value goes to the command, its -h shows it, and the service mode
// still comes from CASHIER_MODE or the data directory.
func TestOwnFlagWinsOverSetting(t *testing.T) {
	dir := t.TempDir()
	saved := Default()
	saved.Data, saved.Mode = dir, "sandbox"
	if err := saved.Remember(false); err != nil {
		t.Fatal(err)
	}
	parse := func(args []string, env map[string]string) (Config, string, string) {
		t.Helper()
		var out bytes.Buffer
		fs := flag.NewFlagSet("payout policy", flag.ContinueOnError)
		fs.SetOutput(&out)
		mode := fs.String("mode", "", "default, always, never or above")
		c := Default()
		_, err := c.Load(fs, args, func(k string) string { return env[k] })
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%q: %v", args, err)
		}
		return c, *mode, out.String()
	}
	c, mode, _ := parse([]string{"--data", dir, "--mode", "never"}, nil)
	if mode != "never" || c.Mode != "sandbox" {
		t.Fatalf("own --mode %q, service mode %q; want never and the remembered sandbox", mode, c.Mode)
	}
	c, mode, _ = parse([]string{"--data", dir, "--mode", "always"}, map[string]string{"CASHIER_MODE": "production"})
	if mode != "always" || c.Mode != "production" {
		t.Fatalf("own --mode %q, service mode %q; want always and CASHIER_MODE's production", mode, c.Mode)
	}
	if _, _, help := parse([]string{"-h"}, nil); !strings.Contains(help, "never or above") {
		t.Fatalf("-h hides the command's own --mode:\n%s", help)
	}
}

// The registry override is remembered as an absolute path, so an operator
// command run from another directory names networks as the service does.
func TestRegistryRememberedAbsolute(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg.json")
	if err := os.WriteFile(reg, []byte(`{"networks":[{"chainId":"ETH","networkName":"Mainnet"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	saved := Default()
	saved.Data, saved.Registry = dir, "reg.json"
	if err := saved.Remember(false); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	c := Default()
	if _, err := c.Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--data", dir}, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if c.Registry != reg {
		t.Fatalf("remembered registry %q, want %q", c.Registry, reg)
	}
	r, err := LoadRegistry(c.Registry)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.Network(cashier.ChainETH); n.NetworkName != "Mainnet" {
		t.Fatalf("network name %q", n.NetworkName)
	}
}

// TestEverySettingHasATopic: each setting of serve -h is under one topic
// heading, and every name a topic lists is a setting.
func TestEverySettingHasATopic(t *testing.T) {
	var c Config
	flags := map[string]bool{}
	for _, f := range c.fields() {
		if f.flag != "-" {
			flags[f.flag] = true
		}
	}
	seen := map[string]int{}
	for _, tp := range topics {
		for _, n := range tp.flags {
			seen[n]++
			if !flags[n] {
				t.Errorf("topic %q lists %q, which is no setting", tp.name, n)
			}
		}
	}
	for f := range flags {
		if seen[f] != 1 {
			t.Errorf("setting %q is under %d topics, want 1", f, seen[f])
		}
	}
}

// The finality setting takes confirmations or finalized per EVM network;
// anything else is refused with a message naming the setting.
func TestFinalitySetting(t *testing.T) {
	c := Default()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	if _, err := c.Load(fs, []string{"--eth-finality", "finalized"}, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if !c.Finalized(cashier.ChainETH) || c.Finalized(cashier.ChainARB) || c.Finalized(cashier.ChainTRON) {
		t.Fatalf("finality %v", c.EVMFinality)
	}
	c = Default()
	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	_, err := c.Load(fs, nil, func(k string) string { return map[string]string{"CASHIER_ARB_FINALITY": "safe"}[k] })
	if err == nil || !strings.Contains(err.Error(), "arb-finality must be confirmations or finalized") {
		t.Fatalf("arb-finality safe: %v", err)
	}
}
