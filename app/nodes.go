package app

import (
	"context"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// nodeChecker is a chain client that can check each of its node URLs
// against the network's registry entry (evm: eth_chainId; tron: block 0).
type nodeChecker interface {
	CheckNodes(ctx context.Context) []nodes.Check
}

// checkNodes checks every node URL of every network before the service
// starts. A node on another chain is refused by its client from then on
// (and logged once); a network whose every node is on another chain is
// not active (NetworkHealth): its orders are refused, the other networks
// keep working.
func (s *Service) checkNodes(ctx context.Context) {
	for _, n := range s.Registry.Networks {
		nc, ok := s.Chains[n.Chain].(nodeChecker)
		if !ok {
			continue
		}
		for _, r := range nc.CheckNodes(ctx) {
			if r.Err != nil && !strings.Contains(r.Err.Error(), "another chain") {
				s.Logger.Warn("chain node not checked yet: unreachable at start", "chain", string(n.Chain), "node", r.URL, "err", r.Err)
			}
		}
	}
}

// networkChains lists the registry's networks, in its order.
func (s *Service) networkChains() []cashier.Chain {
	out := make([]cashier.Chain, 0, len(s.Registry.Networks))
	for _, n := range s.Registry.Networks {
		out = append(out, n.Chain)
	}
	return out
}
