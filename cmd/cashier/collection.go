package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
)

// collectionCancel is the operator's cancel of a PENDING collection order;
// it works beside a running serve on the same data directory (the store
// takes the write lock per transaction) and the running service delivers
// the CANCELLED webhook it queues.
func collectionCancel(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var orderNo, merchantID string
	cfg, _, err := parseSettings("collection cancel", args, getenv, stderr, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&orderNo, "order", "", "the merchant's order number (required)")
		fs.StringVar(&merchantID, "merchant", "", "merchant id (required)")
	})
	if err != nil {
		return err
	}
	if orderNo == "" || merchantID == "" {
		return fmt.Errorf("--order and --merchant are required")
	}
	svc, err := chainlessService(ctx, "collection cancel", cfg, stderr)
	if err != nil {
		return err
	}
	defer svc.Close()
	o, err := svc.Orders.CancelCollectionByOrderNo(ctx, merchantID, orderNo)
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]any{
		"orderNo": o.OrderNo, "orderId": o.ID, "merchantId": o.MerchantID, "status": o.Status,
		"paidAmount": cashier.FormatAmount(o.PaidAmount, o.Decimals), "updateTime": o.UpdatedAt.UnixMilli(),
	})
}
