package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
)

// contractChange runs "contract update" (webhook URL) and "contract
// disable"/"contract enable": a registration is changed in place, never
// registered again, since an on-chain contract has exactly one.
func contractChange(ctx context.Context, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var id, webhookURL string
	urlSet := false
	st, cfg, err := provisionFlags(ctx, cmd, args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "id", "", "contract id (required)")
		if cmd == "contract update" {
			fs.Func("webhook-url", "where payout webhooks go (empty: the merchant's first cashier's URL)", func(s string) error {
				webhookURL, urlSet = s, true
				return nil
			})
		}
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if id == "" {
		return fmt.Errorf("%s: --id is required", cmd)
	}
	if cmd == "contract update" && !urlSet {
		return fmt.Errorf("%s: nothing to change (--webhook-url)", cmd)
	}
	var k *cashier.Contract
	err = st.Update(ctx, func(tx cashier.Tx) error {
		var err error
		if k, err = tx.Contract(ctx, id); err != nil {
			return err
		}
		switch cmd {
		case "contract update":
			if err := app.CheckWebhookURL(webhookURL, cfg.Mode == "sandbox"); err != nil {
				return err
			}
			k.WebhookURL = webhookURL
		case "contract disable":
			k.Status = cashier.ContractDisabled
		case "contract enable":
			k.Status = cashier.ContractActive
		}
		return tx.UpdateContract(ctx, k)
	})
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{
		"contractId": k.ID, "merchantId": k.MerchantID, "chainId": string(k.Chain), "address": k.Address,
		"webhookUrl": k.WebhookURL, "status": string(k.Status),
	})
}
