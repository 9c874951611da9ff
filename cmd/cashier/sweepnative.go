package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sweep"
)

// sweepNative moves the native coin (ETH, TRX) that customers sent to
// deposit addresses by mistake into the merchants' vaults, through
// DepositFactory.sweepNative with the service's sweeper key, recorded like
// token sweeps. It waits for the receipts (--wait) and prints the sweeps.
func sweepNative(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var chain, address string
	var wait time.Duration
	cfg, _, err := parseSettings("sweep native", args, getenv, stderr, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&chain, "chain", "", "network: TRON, ETH or ARB (required)")
		fs.StringVar(&address, "address", "", "only this deposit address (default: every one holding native coin)")
		fs.DurationVar(&wait, "wait", 2*time.Minute, "how long to wait for the sweep transactions to be mined (0: do not wait)")
	})
	if err != nil {
		return err
	}
	if chain == "" {
		return errors.New("sweep native: --chain is required")
	}
	c, err := cashier.ParseChain(chain)
	if err != nil {
		return fmt.Errorf("sweep native: --chain: %w", err)
	}
	if wait < 0 {
		return errors.New("sweep native: --wait must not be negative")
	}
	if err := app.NeedStore(cfg); err != nil {
		return fmt.Errorf("sweep native: %w", err)
	}
	opts := app.Options{}
	if info, err := sandbox.ReadInfo(filepath.Join(cfg.Data, sandbox.InfoFile)); err == nil {
		// A sandbox's data directory: its chains and sweeper role, as
		// `cashier sandbox --only service` uses them.
		if opts.Registry, err = sandboxChains(&cfg, info); err != nil {
			return err
		}
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = time.Minute // sweepers are built only when sweeping is on; none runs here
	}
	svc, err := app.New(ctx, cfg, opts, stderr)
	if err != nil {
		return err
	}
	defer svc.Close()
	var s *sweep.Sweeper
	for _, sw := range svc.Sweepers {
		if sw.Chain == c {
			s = sw
		}
	}
	if s == nil {
		return fmt.Errorf("sweep native: %s has no node or no sweeper key (CASHIER_SERVICE_KEYS or cashier key generate --role sweeper)", c)
	}
	if address != "" {
		if address, err = svc.Chains[c].ValidateAddress(address); err != nil {
			return fmt.Errorf("sweep native: --address: %w", err)
		}
	}
	started, err := s.SweepNative(ctx, address)
	if err != nil {
		return err
	}
	ids := map[string]bool{}
	for _, sw := range started {
		ids[sw.ID] = true
	}
	deadline := time.Now().Add(wait)
	for wait > 0 && len(ids) > 0 {
		open, err := svc.Store.Sweeps(ctx, c, true)
		if err != nil {
			return err
		}
		pending := false
		for _, o := range open {
			pending = pending || ids[o.ID]
		}
		if !pending || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
		if err := s.Settle(ctx); err != nil {
			return err
		}
	}
	all, err := svc.Store.Sweeps(ctx, c, false)
	if err != nil {
		return err
	}
	out := []sweepRow{}
	for _, sw := range all {
		if ids[sw.ID] {
			out = append(out, rowOf(sw, svc.Registry))
		}
	}
	return printJSON(stdout, map[string]any{"chainId": string(c), "total": len(out), "sweeps": out})
}

// sandboxChains points cfg at the chains and sweeper role of a sandbox's
// sandbox.json (when not set otherwise) and returns its registry.
func sandboxChains(cfg *config.Config, info *sandbox.Info) (*cashier.Registry, error) {
	set := false
	for _, c := range cashier.Chains {
		set = set || cfg.NodeURLs(c) != ""
	}
	if !set {
		for _, c := range info.Chains() {
			cfg.SetNodeURLs(c, info.Networks[string(c)].RPCURL)
		}
	}
	if cfg.ServiceKeys == "" && info.Roles["sweeper"] != nil {
		var ks []string
		for _, c := range info.Chains() {
			ks = append(ks, string(c)+".sweeper="+info.Roles["sweeper"].PrivateKey)
		}
		cfg.ServiceKeys = strings.Join(ks, ",")
	}
	return sandbox.Registry(info, 1)
}

// sweepRow is a sweep as the sweep commands print it; a native-coin
// sweep (the network's coin, swept by `cashier sweep native`) has token ""
// and native true, and its amounts are in the coin's base units (wei,
// sun). `sweep native` names the symbol (as "" when the registry does not
// know the token); `sweep list` leaves the field out.
type sweepRow struct {
	ID         string         `json:"sweepId"`
	Chain      string         `json:"chainId"`
	Factory    string         `json:"factory"`
	Token      string         `json:"token"`
	Native     bool           `json:"native"`
	Symbol     *string        `json:"symbol,omitempty"`
	Amount     string         `json:"amount"` // base units
	Status     string         `json:"status"`
	TxID       string         `json:"txId"`
	Error      string         `json:"error,omitempty"`
	Attempts   int            `json:"attempts"`
	CreateTime int64          `json:"createTime"`
	UpdateTime int64          `json:"updateTime"`
	Items      []sweepRowItem `json:"addresses"`
}

type sweepRowItem struct {
	OrderID string `json:"orderId"`
	Address string `json:"address"`
	Amount  string `json:"amount"` // base units
}

// rowOf is s as printed; with reg nil, without its symbol.
func rowOf(s cashier.Sweep, reg *cashier.Registry) sweepRow {
	r := sweepRow{ID: s.ID, Chain: string(s.Chain), Factory: s.Factory, Token: s.Token, Native: s.Token == "", Amount: s.Amount.String(),
		Status: string(s.Status), TxID: s.TxHash, Error: s.Error, Attempts: s.Attempts,
		CreateTime: s.CreatedAt.UnixMilli(), UpdateTime: s.UpdatedAt.UnixMilli()}
	if reg != nil {
		symbol := ""
		if r.Native {
			if n, ok := reg.Network(s.Chain); ok {
				symbol = n.Symbol
			}
		} else if t, ok := reg.TokenByAddress(s.Chain, s.Token); ok {
			symbol = t.Symbol
		}
		r.Symbol = &symbol
	}
	for _, it := range s.Items {
		r.Items = append(r.Items, sweepRowItem{OrderID: it.OrderID, Address: it.Address, Amount: it.Amount.String()})
	}
	return r
}

// nativeDeposit is a deposit address that received native coin not yet
// swept, with what the chain watcher recorded (base units).
type nativeDeposit struct {
	Chain    string `json:"chainId"`
	OrderID  string `json:"orderId"`
	Address  string `json:"address"`
	Symbol   string `json:"symbol"`
	Received string `json:"received"`
}

// nativeDeposits lists c's ("" every network) deposit addresses waiting
// for `cashier sweep native`, from the records alone.
func nativeDeposits(ctx context.Context, st *sqlite.DB, c cashier.Chain) ([]nativeDeposit, error) {
	out := []nativeDeposit{}
	for _, ch := range cashier.Chains {
		if c != "" && ch != c {
			continue
		}
		cands, err := st.NativeSweepCandidates(ctx, ch)
		if err != nil {
			return nil, err
		}
		for _, cd := range cands {
			ps, err := st.PaymentsByOrder(ctx, cd.OrderID)
			if err != nil {
				return nil, err
			}
			d := nativeDeposit{Chain: string(ch), OrderID: cd.OrderID, Address: cd.Address}
			sum := new(big.Int)
			for _, p := range ps {
				if p.Native() && p.Status == cashier.PaymentConfirmed {
					sum.Add(sum, p.Amount)
					d.Symbol = p.Symbol
				}
			}
			d.Received = sum.String()
			out = append(out, d)
		}
	}
	return out, nil
}
