package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

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

// contractConfirm runs "contract confirm": the operator, having checked
// whose a registration made before ownership proofs is (its on-chain owner
// is printed), lets the network's service signer sign its batches
// (app.ConfirmContract). Until then, or until "contract check" proves it
// with the merchant's own signer, its payouts wait.
func contractConfirm(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var id string
	st, cfg, err := provisionFlags(ctx, "contract confirm", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "id", "", "contract id (required)")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if id == "" {
		return fmt.Errorf("contract confirm: --id is required")
	}
	keys := app.ServiceKeys{Store: st}
	if keys.Setting, err = app.ParseServiceKeys(cfg.ServiceKeys); err != nil {
		return err
	}
	chains, err := dialServed(ctx, cfg)
	if err != nil {
		return err
	}
	k, owner, err := app.ConfirmContract(ctx, st, chains, keys, id)
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{
		"contractId": k.ID, "merchantId": k.MerchantID, "chainId": string(k.Chain), "address": k.Address, "owner": owner,
		"signer": k.Signer, "proof": string(app.ProofConfirmed), "status": string(k.Status),
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

// contractDeploy runs "contract deploy": the merchant's payout contract and
// deposit factory are deployed from the executor key (or --key-file's),
// proven and registered like "contract create" (app.DeployContracts).
func contractDeploy(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var spec app.DeploySpec
	var rpc, keyFile string
	st, cfg, err := provisionFlags(ctx, "contract deploy", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&spec.MerchantID, "merchant", "", "merchant id (required)")
		fs.StringVar(&spec.Chain, "chain", "", "ETH or ARB (required; TRON is refused: deploy with a TRON wallet, then contract create)")
		fs.StringVar(&spec.Owner, "owner", "", "the contracts' owner, the merchant's account (required)")
		fs.StringVar(&rpc, "rpc", "", "the network's JSON-RPC URL (default: CASHIER_ETH_RPC / CASHIER_ARB_RPC)")
		fs.StringVar(&keyFile, "key-file", "", "the deploying account's key as 64 hex digits (default: the service's executor key)")
		fs.StringVar(&spec.FeeAddress, "fee-address", "", "where batch fees go (default: the executor's address)")
		fs.StringVar(&spec.WebhookURL, "webhook-url", "", "where payout webhooks go (default: the merchant's first cashier's URL)")
		fs.BoolVar(&spec.DryRun, "dry-run", false, "print the transactions and their gas cost; send and register nothing")
		fs.DurationVar(&spec.Wait, "wait", 0, "how long to wait for the service's work sending from the deploying account (its lease) to stop; 0: refuse at once")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if spec.MerchantID == "" || spec.Chain == "" {
		return fmt.Errorf("contract deploy: --merchant and --chain are required")
	}
	c, err := cashier.ParseChain(spec.Chain)
	if err != nil {
		return err
	}
	if rpc != "" && c.IsEVM() {
		cfg.SetNodeURLs(c, rpc)
	}
	if keyFile != "" {
		b, err := os.ReadFile(keyFile)
		if err != nil {
			return fmt.Errorf("contract deploy: %w", err)
		}
		if spec.Deployer, err = app.ParseKeyHex(strings.TrimSpace(string(b))); err != nil {
			return fmt.Errorf("contract deploy: --key-file: %w", err)
		}
	}
	spec.Sandbox = cfg.Mode == "sandbox"
	keys := app.ServiceKeys{Store: st}
	if keys.Setting, err = app.ParseServiceKeys(cfg.ServiceKeys); err != nil {
		return err
	}
	reg, err := servedRegistry(cfg)
	if err != nil {
		return err
	}
	chains, err := app.DialChains(ctx, cfg, reg, cashier.SystemClock{})
	if err != nil {
		return err
	}
	res, err := app.DeployContracts(ctx, st, keys, cfg, reg, chains, spec, cashier.SystemClock{})
	if err != nil {
		if res != nil && len(res.Transactions) > 0 {
			printJSON(stderr, res) // what was sent, so nothing is lost from sight
		}
		return err
	}
	return printJSON(stdout, res)
}
