package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
)

// keyCmd manages the service's own keys, stored sealed: generate or import
// one per network and role, or list their addresses (never the keys).
func keyCmd(ctx context.Context, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var chainName, role, keyFile, merchant, clefAccount string
	st, cfg, err := provisionFlags(ctx, cmd, args, getenv, stderr, func(fs *flag.FlagSet) {
		if cmd != "key generate" {
			fs.StringVar(&merchant, "merchant", "", "merchant id: its own signer key")
		}
		if cmd == "key list" {
			return
		}
		fs.StringVar(&chainName, "chain", "", "TRON, ETH or ARB (required)")
		if cmd == "key signer" {
			return
		}
		fs.StringVar(&role, "role", "", "signer, executor or sweeper (required)")
		if cmd == "key import" {
			fs.StringVar(&keyFile, "key-file", "", "file holding the private key as 64 hex digits (this or --clef-account)")
			fs.StringVar(&clefAccount, "clef-account", "", "with --merchant: the signer is this account of the operator's Clef; the service keeps its address only (EVM networks)")
		}
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if cmd == "key signer" {
		if merchant == "" {
			return fmt.Errorf("%s: --merchant is required", cmd)
		}
		c, err := cashier.ParseChain(chainName)
		if err != nil {
			return err
		}
		k, err := app.MerchantSigner(ctx, st, merchant, c, cashier.SystemClock{})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]string{"merchantId": merchant, "chainId": string(c), "role": "signer", "address": k.Address})
	}
	if cmd == "key list" {
		out := []map[string]string{}
		for _, c := range cashier.Chains {
			for _, r := range cashier.KeyRoles {
				k, err := st.ServiceKey(ctx, c, r)
				if cashier.ErrorCode(err) == cashier.ENotFound {
					continue
				}
				if err != nil {
					return err
				}
				out = append(out, map[string]string{"chainId": string(c), "role": string(r), "address": k.Address})
			}
		}
		if merchant != "" {
			if _, err := st.Merchant(ctx, merchant); err != nil {
				return fmt.Errorf("merchant %s: %w", merchant, err)
			}
			for _, c := range cashier.Chains {
				k, err := st.MerchantSigner(ctx, merchant, c)
				if cashier.ErrorCode(err) == cashier.ENotFound {
					continue
				}
				if err != nil {
					return err
				}
				out = append(out, map[string]string{"merchantId": merchant, "chainId": string(c), "role": "signer", "address": k.Address})
			}
		}
		return printJSON(stdout, map[string]any{"keys": out})
	}
	c, err := cashier.ParseChain(chainName)
	if err != nil {
		return err
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		return err
	}
	if cmd == "key import" && clefAccount != "" {
		if merchant == "" || role != string(cashier.KeySigner) || keyFile != "" {
			return fmt.Errorf("%s: --clef-account names a merchant's signer held by Clef: give --merchant and --role signer, and no --key-file", cmd)
		}
		keys := app.ServiceKeys{Store: st}
		if keys.Setting, err = app.ParseServiceKeys(cfg.ServiceKeys); err != nil {
			return err
		}
		k, err := app.ImportClefSigner(ctx, st, keys, merchant, c, clefAccount, cashier.SystemClock{})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]string{"merchantId": merchant, "chainId": string(c), "role": role, "address": k.Address, "heldBy": "clef"})
	}
	if cmd == "key import" {
		if keyFile == "" {
			return fmt.Errorf("%s: --key-file or --clef-account is required", cmd)
		}
		b, err := os.ReadFile(keyFile)
		if err != nil {
			return err
		}
		if key, err = app.ParseKeyHex(string(b)); err != nil {
			return err
		}
	}
	if merchant != "" {
		if role != string(cashier.KeySigner) {
			return fmt.Errorf("%s: a merchant has only a signer key (--role signer)", cmd)
		}
		keys := app.ServiceKeys{Store: st}
		if keys.Setting, err = app.ParseServiceKeys(cfg.ServiceKeys); err != nil {
			return err
		}
		k, err := app.ImportMerchantSigner(ctx, st, keys, merchant, c, key, cashier.SystemClock{})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]string{"merchantId": merchant, "chainId": string(c), "role": role, "address": k.Address})
	}
	k, err := app.NewServiceKey(c, cashier.KeyRole(role), key, cashier.SystemClock{})
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.PutServiceKey(ctx, k) }); err != nil {
		return err
	}
	return printJSON(stdout, map[string]string{"chainId": string(c), "role": role, "address": k.Address})
}
