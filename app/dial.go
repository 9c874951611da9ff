package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/tron"
)

// DialChains builds read-only chain clients for every network with node
// URLs in cfg. A network without URLs has no client: its payouts are
// refused with a clear error rather than accepted unfunded.
func DialChains(_ context.Context, cfg config.Config, reg *cashier.Registry, clock cashier.Clock) (map[cashier.Chain]cashier.ChainClient, error) {
	out := map[cashier.Chain]cashier.ChainClient{}
	for _, n := range reg.Networks {
		urls := splitList(cfg.NodeURLs(n.Chain))
		if len(urls) == 0 || !n.Chain.IsEVM() {
			continue
		}
		if n.EVMChainID <= 0 {
			return nil, fmt.Errorf("%s: the registry has no EVM chain id", n.Chain)
		}
		c, err := evm.New(evm.Config{Chain: n.Chain, ChainID: uint64(n.EVMChainID), URLs: urls, Clock: clock})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Chain, err)
		}
		out[n.Chain] = c
	}
	// A network switched off in the registry is not dialled, even with
	// its node setting left in place.
	if n, on := reg.Network(cashier.ChainTRON); on && len(splitList(cfg.TRONAPI)) > 0 {
		urls := splitList(cfg.TRONAPI)
		c, err := tron.New(tron.Config{URLs: urls, APIKey: cfg.TRONAPIKey, Clock: clock, GenesisBlockID: n.GenesisBlockID})
		if err != nil {
			return nil, fmt.Errorf("TRON: %w", err)
		}
		out[cashier.ChainTRON] = c
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
