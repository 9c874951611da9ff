package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
)

// setWebhookURL points an existing sandbox's demo cashier at url (""
// stops its webhooks) and says so: a restart with --webhook-url must not
// leave the webhooks going where they went before.
func setWebhookURL(ctx context.Context, st cashier.Store, cashierID, url string, stderr io.Writer) error {
	url = strings.TrimSpace(url)
	if err := app.CheckWebhookURL(url, true); err != nil {
		return fmt.Errorf("sandbox: --webhook-url: %w", err)
	}
	as, ok := st.(cashier.AccountStore)
	if !ok {
		return errors.New("sandbox: this store cannot change cashiers")
	}
	var was string
	err := as.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		c, err := tx.Cashier(ctx, cashierID)
		if err != nil {
			return err
		}
		was, c.WebhookURL = c.WebhookURL, url
		return tx.UpdateCashier(ctx, c)
	})
	if err != nil {
		return fmt.Errorf("sandbox: set the demo cashier's webhook URL: %w", err)
	}
	fmt.Fprintf(stderr, "sandbox: the demo cashier %s now sends its webhooks to %s (before: %s)\n", cashierID, orNone(url), orNone(was))
	return nil
}

// orNone is a webhook URL for a person to read.
func orNone(url string) string {
	if url == "" {
		return "none"
	}
	return url
}

// DefaultConfirmations is what the sandbox's networks ask of a payment:
// one, so a payment counts in the block after it is sent and tests stay
// quick; --confirmations raises it to watch the confirming stage.
const DefaultConfirmations = 1

// Registry is the built-in registry pointed at the sandbox's chains and
// test tokens, asking confirmations of every payment. The built-in
// networks the sandbox has no chain for are switched off.
func Registry(info *Info, confirmations int) (*cashier.Registry, error) {
	reg := config.DefaultRegistry()
	ov := config.Override{}
	conf := confirmations
	off := false
	for _, c := range cashier.Chains {
		if info.Networks[string(c)] == nil {
			ov.Networks = append(ov.Networks, config.NetworkOverride{ChainID: string(c), Enabled: &off})
		}
	}
	for _, c := range info.Chains() {
		n := info.Networks[string(c)]
		name := c.DisplayName() + " (sandbox)"
		rpc, prefix := n.RPCURL, n.Create2Prefix
		// The sandbox's chains make a block a second (the EVM chains also
		// one as soon as a transaction arrives); the TRON watcher's rounds
		// fall in step with it.
		blockTime := 1
		no := config.NetworkOverride{ChainID: string(c), NetworkName: &name, RPCURL: &rpc, Confirmations: &conf, Create2Prefix: &prefix,
			AvgBlockTime: &blockTime}
		if c.IsEVM() {
			id := int64(n.ChainID)
			no.EVMChainID = &id
		} else {
			// The stand-in's genesis, not mainnet's ("" from a sandbox.json
			// written before it was recorded: not checked).
			g := n.GenesisBlockID
			no.GenesisBlockID = &g
		}
		ov.Networks = append(ov.Networks, no)
		for sym, addr := range n.Tokens {
			a := addr
			ov.Tokens = append(ov.Tokens, config.TokenOverride{ChainID: string(c), Symbol: sym, ContractAddress: &a})
		}
	}
	if err := config.Apply(reg, ov); err != nil {
		return nil, err
	}
	return reg, nil
}

// provision creates the demo merchant, its cashier and a payout contract
// with deposit factory on every network.
func provision(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, info *Info, webhookURL string) error {
	clock := cashier.SystemClock{}
	m, err := app.NewMerchant("Sandbox Merchant", clock)
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, m) }); err != nil {
		return err
	}
	c, err := app.NewCashier(ctx, st, m.ID, "Sandbox Cashier", webhookURL, true, clock)
	if err != nil {
		return err
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateCashier(ctx, c) }); err != nil {
		return err
	}
	info.MerchantID, info.APIKey, info.SecretKey, info.WebhookKey, info.CashierID = m.ID, m.APIKey, m.SecretKey, m.WebhookKey, c.ID
	return provisionMissing(ctx, st, chains, info)
}

// provisionMissing gives the demo merchant its signer and payout contract
// on every sandbox network it has none on yet (all on first start; a
// network that joined the sandbox later on a restart), and the service
// its keys there.
func provisionMissing(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, info *Info) error {
	clock := cashier.SystemClock{}
	// The sandbox's signer role is the demo merchant's own signer on every
	// network: its contracts were deployed naming it.
	signer, err := info.Roles[string(cashier.KeySigner)].Key()
	if err != nil {
		return err
	}
	added := false
	for _, ch := range info.Chains() {
		if info.ContractIDs[string(ch)] != "" {
			continue
		}
		if _, err := app.ImportMerchantSigner(ctx, st, app.ServiceKeys{Store: st}, info.MerchantID, ch, signer, clock); err != nil {
			return err
		}
		n := info.Networks[string(ch)]
		k, err := app.NewContract(ctx, st, chains, app.ContractSpec{MerchantID: info.MerchantID, Chain: string(ch), Address: n.PayoutContract,
			DepositFactory: n.DepositFactory, DepositImplementation: n.DepositImplementation}, clock)
		if err != nil {
			return err
		}
		if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }); err != nil {
			return err
		}
		info.ContractIDs[string(ch)] = k.ID
		added = true
	}
	if !added {
		return nil
	}
	return provisionKeys(ctx, st, info)
}
