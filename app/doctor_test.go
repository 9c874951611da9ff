package app_test

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/devchain"
)

// The preflight on a production directory with what operators get wrong,
// each reported by its own line with a fix: a master key others can read,
// a node of another chain beside a right one, networks left without a
// node, a clock behind the chain, an executor whose Clef does not answer,
// a sweeper without coin, webhook URLs over http and to a loopback name,
// an http public URL, no trusted proxies, an old backup. Put right, the
// same checks pass.
func TestDoctorChecks(t *testing.T) {
	eth, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	arb, err := devchain.Start(devchain.Options{ChainID: devchain.ChainIDARB})
	if err != nil {
		t.Fatal(err)
	}
	defer arb.Close()
	reg := config.DefaultRegistry()
	id := int64(devchain.ChainIDETH)
	if err := config.Apply(reg, config.Override{Networks: []config.NetworkOverride{{ChainID: "ETH", EVMChainID: &id}}}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err = st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, &cashier.Merchant{ID: "m_1", Name: "Shop", APIKey: "pk_1", SecretKey: "sk", WebhookKey: "whk", Status: cashier.MerchantActive, CreatedAt: now}); err != nil {
			return err
		}
		for id, u := range map[string]string{"c_plain": "http://hooks.example.com/x", "c_local": "https://localhost/hook"} {
			if err := tx.CreateCashier(ctx, &cashier.Cashier{ID: id, MerchantID: "m_1", Name: id, WebhookURL: u, Status: cashier.CashierActive, CreatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(cfg.Data, "master.key")
	if err := os.Chmod(keyPath, 0o644); err != nil {
		t.Fatal(err)
	}
	sweeper, _ := crypto.GenerateKey()
	cfg.ServiceKeys = "ETH.sweeper=" + hex.EncodeToString(crypto.FromECDSA(sweeper))
	cfg.ExecutorClef, cfg.ExecutorClefAccount = "ETH=http://127.0.0.1:1", "ETH=0x"+strings.Repeat("11", 20)
	cfg.SetNodeURLs(cashier.ChainETH, eth.URL+","+arb.URL)
	cfg.SetFinality(cashier.ChainETH, config.FinalityFinalized)
	cfg.PublicURL = "http://pay.example.com"
	head, err := eth.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	headTime := time.Unix(int64(head.Time), 0)
	if err := app.RecordBackup(cfg.Data, "/backups/old.db", headTime.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}

	run := func(cfg config.Config, now time.Time) map[string]app.Check {
		t.Helper()
		out := map[string]app.Check{}
		for _, c := range app.Doctor(ctx, cfg, reg, nil, now) {
			if _, dup := out[c.Name]; dup {
				t.Fatalf("two checks named %q", c.Name)
			}
			if c.Status != app.CheckOK && c.Fix == "" {
				t.Errorf("%s %s: no fix given (%s)", c.Status, c.Name, c.Detail)
			}
			out[c.Name] = c
		}
		return out
	}
	want := func(got map[string]app.Check, name, status, detail string) {
		t.Helper()
		c, ok := got[name]
		if !ok || c.Status != status || !strings.Contains(c.Detail, detail) {
			var all []string
			for _, c := range got {
				all = append(all, c.Status+" "+c.Name+": "+c.Detail)
			}
			t.Fatalf("%s: %+v, want %s %q; all:\n%s", name, c, status, detail, strings.Join(all, "\n"))
		}
	}

	got := run(cfg, headTime)
	want(got, "master key", app.CheckFail, "readable by others")
	want(got, "database", app.CheckFail, "chmod 600") // the store refuses such a key too
	if err := os.Chmod(keyPath, 0o600); err != nil {
		t.Fatal(err)
	}
	got = run(cfg, headTime.Add(-5*time.Minute)) // this clock 5 min behind the chain
	want(got, "database", app.CheckOK, "migrations applied")
	want(got, "master key", app.CheckOK, "-rw-------")
	want(got, "network ETH node "+strings.TrimSuffix(eth.URL, "/"), app.CheckOK, "")
	want(got, "network ETH node "+strings.TrimSuffix(arb.URL, "/"), app.CheckFail, "another chain")
	want(got, "network TRON", app.CheckWarn, "no node URL is configured")
	want(got, "network ARB", app.CheckWarn, "no node URL is configured")
	want(got, "network ETH finalized", app.CheckOK, "block")
	want(got, "clock", app.CheckFail, "behind ETH's head time")
	want(got, "ETH executor key", app.CheckFail, "Clef at http://127.0.0.1:1")
	want(got, "ETH sweeper key", app.CheckOK, "CASHIER_SERVICE_KEYS")
	want(got, "ETH sweeper balance", app.CheckFail, "cannot pay for gas")
	want(got, "webhook cashier c_plain", app.CheckFail, "must use https")
	want(got, "webhook cashier c_local", app.CheckFail, "not public")
	want(got, "public url", app.CheckFail, "not https")
	want(got, "proxy", app.CheckWarn, "no --trusted-proxies")
	want(got, "backup", app.CheckWarn, "old")

	// Put right.
	cfg.SetNodeURLs(cashier.ChainETH, eth.URL)
	cfg.PublicURL, cfg.TrustedProxies = "https://pay.example.com", "10.0.0.0/8"
	if err := app.RecordBackup(cfg.Data, "/backups/new.db", headTime); err != nil {
		t.Fatal(err)
	}
	got = run(cfg, headTime.Add(time.Second))
	for _, name := range []string{"master key", "clock", "network ETH head", "public url", "proxy", "backup"} {
		want(got, name, app.CheckOK, "")
	}
	if _, ok := got["network ETH node "+strings.TrimSuffix(arb.URL, "/")]; ok {
		t.Fatal("a node no longer configured is still checked")
	}
	// A head an hour old; a network whose only node does not answer.
	want(run(cfg, headTime.Add(time.Hour)), "network ETH head", app.CheckWarn, "1h0m0s old")
	down := cfg
	down.SetNodeURLs(cashier.ChainETH, "http://127.0.0.1:1")
	got = run(down, headTime)
	want(got, "network ETH node http://127.0.0.1:1", app.CheckWarn, "unreachable")
	want(got, "network ETH", app.CheckFail, "no node answers")
	// Without any node, the networks fail, each named.
	cfg.SetNodeURLs(cashier.ChainETH, "")
	got = run(cfg, headTime)
	for _, n := range reg.Networks {
		want(got, "network "+string(n.Chain), app.CheckFail, "no node URL is configured")
	}
	want(got, "networks", app.CheckFail, "no network can be watched")
}
