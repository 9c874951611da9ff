package sandbox

import (
	"context"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
)

// provisionKeys stores the sandbox's executor and sweeper roles as the
// service's keys on every network, sealed like any operator's keys. The
// signer role is the demo merchant's own signer (provision), not a
// service key.
func provisionKeys(ctx context.Context, st cashier.Store, info *Info) error {
	return st.Update(ctx, func(tx cashier.Tx) error {
		for _, c := range info.Chains() {
			for _, r := range cashier.KeyRoles {
				if r == cashier.KeySigner {
					continue
				}
				w := info.Roles[string(r)]
				if w == nil {
					continue
				}
				key, err := w.Key()
				if err != nil {
					return err
				}
				k, err := app.NewServiceKey(c, r, key, cashier.SystemClock{})
				if err != nil {
					return err
				}
				if err := tx.PutServiceKey(ctx, k); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
