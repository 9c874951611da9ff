package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/sandbox"
)

// merchantKeys rotates a merchant's keys (the old API key and secret keep
// working for --key-grace) or ends the old key's grace at once, with an
// audit entry like the dashboard's. A sandbox's sandbox.json is kept
// current when the demo merchant's keys change.
func merchantKeys(ctx context.Context, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var merchant string
	st, cfg, err := provisionFlags(ctx, cmd, args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&merchant, "merchant", "", "merchant id (required)")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if merchant == "" {
		return fmt.Errorf("%s: --merchant is required", cmd)
	}
	accounts, ok := st.(cashier.AccountStore)
	if !ok {
		return fmt.Errorf("%s: this store keeps no audit log", cmd)
	}
	clock := cashier.SystemClock{}
	audit := func(tx cashier.AccountTx, action, detail string) error {
		return tx.AddAudit(ctx, &cashier.AuditEntry{At: clock.Now(), Email: "cli", MerchantID: merchant, Action: action,
			Target: merchant, Detail: detail})
	}
	if cmd == "merchant revoke-old-key" {
		err := accounts.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
			if err := tx.EndPreviousKey(ctx, merchant); cashier.ErrorCode(err) == cashier.ENotFound {
				if _, err := tx.Merchant(ctx, merchant); err != nil {
					return err
				}
				return cashier.Errorf(cashier.EInvalid, "merchant %s has no previous API key to revoke", merchant)
			} else if err != nil {
				return err
			}
			return audit(tx, "keys.revoke", "previous API key revoked")
		})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"merchantId": merchant, "previousKeyUntil": 0})
	}
	fresh, err := app.NewMerchant("keys", clock)
	if err != nil {
		return err
	}
	var until time.Time
	err = accounts.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		m, err := tx.Merchant(ctx, merchant)
		if err != nil {
			return err
		}
		m.PrevKeyUntil, until = time.Time{}, time.Time{}
		if cfg.KeyGrace > 0 && m.Status == cashier.MerchantActive {
			m.PrevKeyUntil = clock.Now().Add(cfg.KeyGrace)
			until = m.PrevKeyUntil
		}
		m.APIKey, m.SecretKey, m.WebhookKey, m.Status = fresh.APIKey, fresh.SecretKey, fresh.WebhookKey, cashier.MerchantActive
		if err := tx.ReplaceMerchantKeys(ctx, m); err != nil {
			return err
		}
		return audit(tx, "keys.rotate", "new API, secret and webhook keys")
	})
	if err != nil {
		return err
	}
	out := map[string]any{"merchantId": merchant, "apiKey": fresh.APIKey, "secretKey": fresh.SecretKey,
		"webhookKey": fresh.WebhookKey, "previousKeyUntil": int64(0)}
	if !until.IsZero() {
		out["previousKeyUntil"] = until.UnixMilli()
	}
	// A sandbox directory: its file follows the demo merchant's keys.
	path := filepath.Join(cfg.Data, sandbox.InfoFile)
	if info, err := sandbox.ReadInfo(path); err == nil && info.MerchantID == merchant {
		info.APIKey, info.SecretKey, info.WebhookKey = fresh.APIKey, fresh.SecretKey, fresh.WebhookKey
		if err := sandbox.WriteJSON(path, info); err != nil {
			return fmt.Errorf("%s: keys rotated but %s not updated: %w", cmd, path, err)
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: keys rotated but %s unreadable: %w", cmd, path, err)
	}
	return printJSON(stdout, out)
}
