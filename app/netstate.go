package app

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// nodeLister is a chain client that reports its node URLs' health (the
// evm and tron clients).
type nodeLister interface {
	Nodes() []nodes.State
}

// NetworkHealth is the state of every network of the registry, in its
// order, read from the chain clients' node records (no node is asked).
func (s *Service) NetworkHealth() []cashier.NetworkHealth {
	out := make([]cashier.NetworkHealth, 0, len(s.Registry.Networks))
	for _, n := range s.Registry.Networks {
		out = append(out, healthOf(n.Chain, s.Chains[n.Chain]))
	}
	return out
}

func healthOf(c cashier.Chain, cl cashier.ChainClient) cashier.NetworkHealth {
	h := cashier.NetworkHealth{Chain: c, State: cashier.NetworkWatched, Active: true}
	if cl == nil {
		h.State, h.Active = cashier.NetworkNoNode, false
		h.Reason = "no node URL is configured for " + string(c) + " (set its node URL setting, see docs/operations.md)"
		return h
	}
	nl, ok := cl.(nodeLister)
	if !ok {
		return h // a client without node records (an in-process chain): watched
	}
	ns := nl.Nodes()
	wrong, up := 0, 0
	var why []string
	for _, n := range ns {
		switch {
		case n.WrongChain != "":
			wrong++
			why = append(why, n.URL+": "+n.WrongChain)
		case n.Up:
			up++
		default:
			why = append(why, n.URL+": "+n.LastError)
		}
	}
	switch {
	case len(ns) > 0 && wrong == len(ns):
		h.State, h.Active = cashier.NetworkWrongChain, false
		h.Reason = "every node URL of " + string(c) + " serves another chain: " + strings.Join(why, "; ")
	case len(ns) > 0 && up == 0:
		h.State = cashier.NetworkUnreachable
		h.Reason = "no node of " + string(c) + " answers now (its payments are picked up when one does): " + strings.Join(why, "; ")
	}
	return h
}

// Inactive implements orders.Networks: a network nothing watches refuses
// new orders with network_maintenance, naming the network and why.
func (s *Service) Inactive(c cashier.Chain) error {
	if _, ok := s.Registry.Network(c); !ok {
		return nil // the registry's own error names it
	}
	h := healthOf(c, s.Chains[c])
	if h.Active {
		return nil
	}
	return cashier.Errorf(cashier.ENetworkMaintenance, "network %s is not active: %s", c, h.Reason)
}

// networkLog remembers each network's last state, so a change is logged
// once, not at every poll.
type networkLog struct {
	mu   sync.Mutex
	last map[cashier.Chain]string
}

// logChanges logs every network whose state changed since the last call
// (the first call logs the networks that are not fully active).
func (s *Service) logChanges(l *networkLog) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last = map[cashier.Chain]string{}
	}
	for _, h := range s.NetworkHealth() {
		prev, seen := l.last[h.Chain]
		l.last[h.Chain] = h.State
		if prev == h.State || (!seen && h.State == cashier.NetworkWatched) {
			continue
		}
		args := []any{"chain", string(h.Chain), "state", h.State, "active", h.Active}
		if seen {
			args = append(args, "was", prev)
		}
		switch {
		case h.State == cashier.NetworkWrongChain:
			s.Logger.Error("network not active: its orders and payouts are refused", append(args, "reason", h.Reason)...)
		case !h.Active: // no node: perhaps on purpose, still said once
			s.Logger.Warn("network not active: its orders and payouts are refused", append(args, "reason", h.Reason)...)
		case h.State == cashier.NetworkUnreachable:
			s.Logger.Warn("network unreachable: no node answers", append(args, "reason", h.Reason)...)
		default:
			s.Logger.Info("network watched again", args...)
		}
	}
}

// networkPoll is how often the networks' states are read for the log.
const networkPoll = 2 * time.Second

// watchNetworks logs the networks' state changes until ctx ends.
func (s *Service) watchNetworks(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var l networkLog
		t := time.NewTicker(networkPoll)
		defer t.Stop()
		for {
			s.logChanges(&l)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return done
}
