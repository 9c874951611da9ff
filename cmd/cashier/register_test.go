package main

import (
	"context"
	"flag"
	"io"
	"os"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
)

// registerUnchecked stores a contract registration directly, as one made
// before registrations were proven on chain: for tests whose contract
// exists on no chain (deposit addresses are computed off chain). `contract
// create` itself refuses such an address (TestContractCreateProvesOwnership).
func registerUnchecked(t *testing.T, data, merchant, chain, addr, factory, impl string) string {
	t.Helper()
	ctx := context.Background()
	cfg := config.Default()
	fs := flag.NewFlagSet("register", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := cfg.Load(fs, []string{"--data", data}, os.Getenv); err != nil {
		t.Fatal(err)
	}
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := cashier.ParseChain(chain)
	if err != nil {
		t.Fatal(err)
	}
	k := &cashier.Contract{ID: orders.NewID("k_"), MerchantID: merchant, Chain: c, Address: addr, Status: cashier.ContractActive,
		DepositFactory: factory, DepositImplementation: impl, CreatedAt: time.Now()}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }); err != nil {
		t.Fatal(err)
	}
	return k.ID
}
