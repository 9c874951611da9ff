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
	type item struct {
		OrderID string `json:"orderId"`
		Address string `json:"address"`
		Amount  string `json:"amount"` // base units
	}
	type row struct {
		ID         string `json:"sweepId"`
		Chain      string `json:"chainId"`
		Factory    string `json:"factory"`
		Token      string `json:"token"`
		Native     bool   `json:"native"` // the network's coin (token ""), swept by `cashier sweep native`
		Amount     string `json:"amount"` // base units
		Status     string `json:"status"`
		TxID       string `json:"txId"`
		Error      string `json:"error,omitempty"`
		Attempts   int    `json:"attempts"`
		CreateTime int64  `json:"createTime"`
		UpdateTime int64  `json:"updateTime"`
		Items      []item `json:"addresses"`
	}
	out := []row{}
	for _, s := range sweeps {
		r := row{ID: s.ID, Chain: string(s.Chain), Factory: s.Factory, Token: s.Token, Native: s.Token == "", Amount: s.Amount.String(), Status: string(s.Status),
			TxID: s.TxHash, Error: s.Error, Attempts: s.Attempts, CreateTime: s.CreatedAt.UnixMilli(), UpdateTime: s.UpdatedAt.UnixMilli()}
		for _, it := range s.Items {
			r.Items = append(r.Items, item{OrderID: it.OrderID, Address: it.Address, Amount: it.Amount.String()})
		}
		out = append(out, r)
	}
	native, err := nativeDeposits(ctx, st, c)
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]any{"total": len(out), "sweeps": out, "nativeDeposits": native})
}
