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
	for _, e := range []struct {
		chain cashier.Chain
		urls  string
	}{{cashier.ChainETH, cfg.ETHRPC}, {cashier.ChainARB, cfg.ARBRPC}} {
		urls := splitList(e.urls)
		if len(urls) == 0 {
			continue
		}
		n, ok := reg.Network(e.chain)
		if !ok || n.EVMChainID <= 0 {
			return nil, fmt.Errorf("%s: the registry has no EVM chain id", e.chain)
		}
		c, err := evm.New(evm.Config{Chain: e.chain, ChainID: uint64(n.EVMChainID), URLs: urls, Clock: clock})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.chain, err)
		}
		out[e.chain] = c
	}
	if urls := splitList(cfg.TRONAPI); len(urls) > 0 {
		n, _ := reg.Network(cashier.ChainTRON)
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
