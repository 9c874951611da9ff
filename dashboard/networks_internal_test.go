package dashboard

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
)

type statesOnly struct{ cashier.AccountStore }

func (statesOnly) NetworkStates(context.Context) ([]cashier.NetworkState, error) { return nil, nil }

// The Networks table shows a network nothing watches as inactive with its
// reason, and an unreachable one with why, from the service's states.
func TestNetworksTableShowsInactive(t *testing.T) {
	reg := config.DefaultRegistry()
	s := &Server{Deps: Deps{Registry: reg, Store: statesOnly{}, Clock: cashier.SystemClock{},
		Networks: func() []cashier.NetworkHealth {
			return []cashier.NetworkHealth{
				{Chain: cashier.ChainTRON, State: cashier.NetworkNoNode, Reason: "no node URL is configured for TRON"},
				{Chain: cashier.ChainETH, State: cashier.NetworkWrongChain, Reason: "every node URL of ETH serves another chain"},
				{Chain: cashier.ChainARB, State: cashier.NetworkNoNode, Reason: "no node URL is configured for ARB"},
			}
		}}}
	rows, err := s.networks(httptest.NewRequest("GET", "/dashboard/", nil))
	if err != nil {
		t.Fatal(err)
	}
	got := map[any]map[string]any{}
	for _, r := range rows {
		got[r["chainId"]] = r
	}
	if r := got[cashier.ChainTRON]; r["health"] != "inactive: no node" || !strings.Contains(r["reason"].(string), "TRON") {
		t.Fatalf("TRON row: %v", r)
	}
	if r := got[cashier.ChainETH]; r["health"] != "inactive: wrong chain" || !strings.Contains(r["reason"].(string), "another chain") {
		t.Fatalf("ETH row: %v", r)
	}
}
