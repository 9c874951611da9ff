package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
)

// contractCheck runs "contract check": the registration is proven on chain
// again (code, and signer() the merchant's own signer) and the signer is
// recorded, so a contract registered before merchant signers is signed
// with the merchant's key from then on. A failed proof changes nothing.
func contractCheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var id string
	st, cfg, err := provisionFlags(ctx, "contract check", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "id", "", "contract id (required)")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if id == "" {
		return fmt.Errorf("contract check: --id is required")
	}
	chains, err := dialServed(ctx, cfg)
	if err != nil {
		return err
	}
	k, err := app.CheckContract(ctx, st, chains, id, cashier.SystemClock{})
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{
		"contractId": k.ID, "merchantId": k.MerchantID, "chainId": string(k.Chain), "address": k.Address, "signer": k.Signer, "status": string(k.Status),
	})
}

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
