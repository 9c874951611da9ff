package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/watch"
)

// NewWatchers builds one chain watcher per network that has a node, with
// the network's confirmation depth from the registry and all its tokens.
func NewWatchers(cfg config.Config, reg *cashier.Registry, chains map[cashier.Chain]cashier.ChainClient, svc *orders.Service, log *slog.Logger) ([]*watch.Watcher, error) {
	var out []*watch.Watcher
	for _, c := range cashier.Chains {
		cl, ok := chains[c]
		if !ok {
			continue
		}
		sc, ok := cl.(watch.Scanner)
		if !ok {
			return nil, fmt.Errorf("%s: the chain client cannot scan transfers", c)
		}
		n, ok := reg.Network(c)
		if !ok {
			continue
		}
		if _, ok := cl.(watch.FinalityReader); cfg.Finalized(c) && !ok {
			return nil, fmt.Errorf("%s: the chain client cannot read the finalized block", c)
		}
		var tokens []string
		for _, t := range reg.Tokens {
			if t.Chain == c {
				tokens = append(tokens, t.ContractAddress)
			}
		}
		out = append(out, watch.New(watch.Config{
			Chain: c, Tokens: tokens, Confirmations: uint64(max(n.Confirmations, 1)),
			Finalized: cfg.Finalized(c),
			Chunk:     uint64(cfg.ScanChunk), Interval: cfg.WatchInterval, Approvals: true,
			BlockTime: time.Duration(n.AvgBlockTime) * time.Second,
			Native:    cfg.WatchNative == "on",
		}, sc, svc, log.With("component", "watch")))
	}
	return out, nil
}

// runWatchers runs the chain watchers and the expirer until ctx ends, each
// under its lease (ops.go); the channel closes when all have stopped.
func (s *Service) runWatchers(ctx context.Context) <-chan struct{} {
	return s.Ops.runWatchers(ctx)
}
