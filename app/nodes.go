package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// nodeChecker is a chain client that can check each of its node URLs
// against the network's registry entry (evm: eth_chainId; tron: block 0).
type nodeChecker interface {
	CheckNodes(ctx context.Context) []nodes.Check
}

// checkNodes checks every node URL of every network. A node on another
// chain is refused by its client from then on (and logged once); a
// network whose every node is on another chain is an error, so the
// service does not start watching the wrong chain.
func (s *Service) checkNodes(ctx context.Context) error {
	var errs []error
	for _, c := range cashier.Chains {
		nc, ok := s.Chains[c].(nodeChecker)
		if !ok {
			continue
		}
		res := nc.CheckNodes(ctx)
		wrong := 0
		var msgs []string
		for _, r := range res {
			switch {
			case r.Err == nil:
				continue
			case strings.Contains(r.Err.Error(), "another chain"):
				wrong++
			default:
				s.Logger.Warn("chain node not checked yet: unreachable at start", "chain", string(c), "node", r.URL, "err", r.Err)
			}
			msgs = append(msgs, r.URL+": "+r.Err.Error())
		}
		if wrong > 0 && wrong == len(res) {
			errs = append(errs, fmt.Errorf("%s: every node URL serves another network than the registry's: %s", c, strings.Join(msgs, "; ")))
		}
	}
	return errors.Join(errs...)
}
