package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/sqlite"
)

// multiFlag collects a repeated flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error {
	*m = append(*m, s)
	return nil
}

// payoutCmd runs the operator's review commands, each printing JSON.
func payoutCmd(ctx context.Context, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var (
		status, merchant, chain, reason, mode, above string
		ids                                          multiFlag
	)
	st, cfg, err := provisionFlags(ctx, cmd, args, getenv, stderr, func(fs *flag.FlagSet) {
		switch cmd {
		case "payout list":
			fs.StringVar(&status, "status", "", "PENDING, PROCESSING, SUCCESS or REFUSE")
			fs.StringVar(&merchant, "merchant", "", "merchant id")
			fs.StringVar(&chain, "chain", "", "TRON, ETH or ARB")
		case "payout approve":
			fs.Var(&ids, "id", "payout order id (repeatable)")
		case "payout refuse":
			fs.Var(&ids, "id", "payout order id")
			fs.StringVar(&reason, "reason", "", "why the payout is refused (sent in its webhook)")
		case "payout policy":
			fs.StringVar(&merchant, "merchant", "", "merchant id (required)")
			fs.StringVar(&mode, "mode", "", "default, always, never or above")
			fs.StringVar(&above, "above", "", "with --mode above: review orders above this token amount")
		}
	})
	if err != nil {
		return err
	}
	defer st.Close()
	reg, err := servedRegistry(cfg)
	if err != nil {
		return err
	}
	db, ok := st.(*sqlite.DB)
	if !ok {
		return fmt.Errorf("%s: the store reads no numeric ids for webhooks", cmd)
	}
	svc, err := app.OperatorOrders(ctx, cfg, reg, db)
	if err != nil {
		return err
	}
	switch cmd {
	case "payout list":
		f := cashier.PayoutFilter{MerchantID: merchant, Chain: cashier.Chain(chain), Status: cashier.PayoutStatus(strings.ToUpper(status)), PageSize: 1000}
		out := []app.PayoutView{}
		total := 0
		for f.Page = 1; ; f.Page++ {
			list, n, err := svc.ListPayouts(ctx, f)
			if err != nil {
				return err
			}
			total = n
			for i := range list {
				out = append(out, app.ViewPayout(&list[i]))
			}
			if f.Page*f.PageSize >= n {
				break
			}
		}
		return printJSON(stdout, map[string]any{"total": total, "orders": out})
	case "payout approve":
		if len(ids) == 0 {
			return fmt.Errorf("%s: --id is required", cmd)
		}
		type result struct {
			OrderID string          `json:"orderId"`
			Order   *app.PayoutView `json:"order,omitempty"`
			Error   string          `json:"error,omitempty"`
		}
		var (
			res    []result
			failed []string
		)
		for _, id := range ids {
			o, err := svc.ApprovePayout(ctx, id)
			if err != nil {
				res = append(res, result{OrderID: id, Error: err.Error()})
				failed = append(failed, id)
				continue
			}
			v := app.ViewPayout(o)
			res = append(res, result{OrderID: id, Order: &v})
		}
		if err := printJSON(stdout, map[string]any{"approved": len(ids) - len(failed), "results": res}); err != nil {
			return err
		}
		if len(failed) > 0 {
			return fmt.Errorf("%s: %d of %d not approved: %s", cmd, len(failed), len(ids), strings.Join(failed, ", "))
		}
		return nil
	case "payout refuse":
		if len(ids) != 1 {
			return fmt.Errorf("%s: exactly one --id is required", cmd)
		}
		o, err := svc.RefusePayout(ctx, ids[0], reason)
		if err != nil {
			return err
		}
		return printJSON(stdout, app.ViewPayout(o))
	case "payout policy":
		if merchant == "" {
			return fmt.Errorf("%s: --merchant is required", cmd)
		}
		p, err := svc.SetReviewPolicy(ctx, merchant, cashier.ReviewMode(mode), above)
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]string{"merchantId": p.MerchantID, "mode": string(p.Mode), "above": p.Above})
	}
	return errors.New("unknown payout command")
}
