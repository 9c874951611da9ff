package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

// startsDataDir lists the commands that may start a new data directory;
// every other command works on an existing one and refuses a missing
// database instead of creating an empty one (and a master key) behind a
// mistyped --data.
var startsDataDir = map[string]bool{"merchant create": true, "key generate": true, "key import": true, "user create": true}

// provisionFlags parses the common configuration plus the command's own
// flags, then opens the store.
func provisionFlags(ctx context.Context, name string, args []string, getenv func(string) string, stderr io.Writer, own func(*flag.FlagSet)) (cashier.Store, config.Config, error) {
	cfg, _, err := parseSettings(name, args, getenv, stderr, func(fs *flag.FlagSet, _ *config.Config) { own(fs) })
	if err != nil {
		return nil, cfg, err
	}
	if !startsDataDir[name] {
		if err := app.NeedStore(cfg); err != nil {
			return nil, cfg, fmt.Errorf("%s: %w", name, err)
		}
	}
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return nil, cfg, err
	}
	if err := cfg.Remember(true); err != nil { // the settings the directory was created with
		st.Close()
		return nil, cfg, err
	}
	return st, cfg, nil
}

func merchantCreate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var name string
	st, _, err := provisionFlags(ctx, "merchant create", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", "", "merchant name (required)")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := app.NewMerchant(name, cashier.SystemClock{})
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, m) }); err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{
		"merchantId": m.ID, "apiKey": m.APIKey, "secretKey": m.SecretKey, "webhookKey": m.WebhookKey,
	})
}

func cashierCreate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var merchant, webhookURL, name string
	st, cfg, err := provisionFlags(ctx, "cashier create", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&merchant, "merchant", "", "merchant id (required)")
		fs.StringVar(&webhookURL, "webhook-url", "", "where the cashier's webhooks go")
		fs.StringVar(&name, "name", "", "display name")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := app.NewCashier(ctx, st, merchant, name, webhookURL, cfg.Mode == "sandbox", cashier.SystemClock{})
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCashier(ctx, c) }); err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{
		"cashierId": c.ID, "merchantId": c.MerchantID, "name": c.Name, "webhookUrl": c.WebhookURL, "status": string(c.Status),
		"cashierNum": strconv.FormatInt(c.Num, 10), // the cashierId of typed webhook bodies
	})
}

func contractCreate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var spec app.ContractSpec
	st, cfg, err := provisionFlags(ctx, "contract create", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&spec.MerchantID, "merchant", "", "merchant id (required)")
		fs.StringVar(&spec.Chain, "chain", "", "TRON, ETH or ARB (required)")
		fs.StringVar(&spec.Address, "address", "", "deployed payout contract address (required)")
		fs.StringVar(&spec.WebhookURL, "webhook-url", "", "where payout webhooks go (default: the merchant's first cashier's URL)")
		fs.StringVar(&spec.DepositFactory, "deposit-factory", "", "deposit factory that sweeps collections into this contract")
		fs.StringVar(&spec.DepositImplementation, "deposit-implementation", "", "the deposit factory's implementation() address")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	spec.Sandbox = cfg.Mode == "sandbox"
	chains, err := dialServed(ctx, cfg)
	if err != nil {
		return err
	}
	k, err := app.NewContract(ctx, st, chains, spec, cashier.SystemClock{})
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }); err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{
		"contractId": k.ID, "merchantId": k.MerchantID, "chainId": string(k.Chain), "address": k.Address, "status": string(k.Status),
		"depositFactory": k.DepositFactory, "signer": k.Signer,
		"contractNum": strconv.FormatInt(k.Num, 10), // the contractId of typed webhook bodies
	})
}

// servedRegistry is the registry of the service running on cfg's data
// directory, so an operator command writes webhooks naming networks as
// that service does: the configured override file (remembered in the
// directory) or, in a sandbox's directory, the sandbox's networks;
// otherwise the built-in registry of the network preset (also remembered).
func servedRegistry(cfg config.Config) (*cashier.Registry, error) {
	if cfg.Registry != "" {
		return cfg.Networks()
	}
	info, err := sandbox.ReadInfo(filepath.Join(cfg.Data, sandbox.InfoFile))
	if err != nil {
		return cfg.Networks() // not a sandbox's directory
	}
	return sandbox.Registry(info, sandbox.DefaultConfirmations)
}

// chainlessService opens the service on cfg's existing data directory
// with the registry it serves (servedRegistry) but no chain dialled, for
// the operator commands that need the database and webhooks only. name
// labels a missing database.
func chainlessService(ctx context.Context, name string, cfg config.Config, stderr io.Writer) (*app.Service, error) {
	if err := app.NeedStore(cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	reg, err := servedRegistry(cfg)
	if err != nil {
		return nil, err
	}
	return app.New(ctx, cfg, app.Options{Chains: map[cashier.Chain]cashier.ChainClient{}, Registry: reg}, stderr)
}

// dialServed connects to the chains of the service running on cfg's data
// directory, with that service's registry (servedRegistry), so a contract
// is checked against the networks the service watches.
func dialServed(ctx context.Context, cfg config.Config) (map[cashier.Chain]cashier.ChainClient, error) {
	reg, err := servedRegistry(cfg)
	if err != nil {
		return nil, err
	}
	return app.DialChains(ctx, cfg, reg, cashier.SystemClock{})
}

// printJSON writes v as one JSON document: indented when w is a terminal,
// for a person, and on one line otherwise, for scripts and pipes.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	if isTerminal(w) {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}

// isTerminal reports whether w is a character device (a terminal), not a
// file or pipe.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// cashierUpdate changes a cashier: today the origins whose pages may
// create orders from the browser (widget SDK) and embed its page.
func cashierUpdate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var id, origins string
	set := false
	st, _, err := provisionFlags(ctx, "cashier update", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "id", "", "cashier id (required)")
		fs.Func("allowed-origins", "origins (https://shop.example[,…]) allowed to create orders from the browser; empty: none", func(v string) error {
			origins, set = v, true
			return nil
		})
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if id == "" || !set {
		return fmt.Errorf("cashier update needs --id and --allowed-origins")
	}
	list, err := cashier.ParseOrigins(origins)
	if err != nil {
		return err
	}
	as, ok := st.(cashier.AccountStore)
	if !ok {
		return fmt.Errorf("this store cannot change cashiers")
	}
	var c *cashier.Cashier
	err = as.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		if c, err = tx.Cashier(ctx, id); err != nil {
			return err
		}
		c.AllowedOrigins = list
		return tx.UpdateCashier(ctx, c)
	})
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]any{"cashierId": c.ID, "merchantId": c.MerchantID, "allowedOrigins": append([]string{}, c.AllowedOrigins...)})
}
