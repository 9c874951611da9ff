package app

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/nodes"
)

// fakeNodes is a chain client whose only part used here is its nodes'
// records.
type fakeNodes struct {
	cashier.ChainClient
	states []nodes.State
}

func (f *fakeNodes) Nodes() []nodes.State { return f.states }

// Each network of the registry gets its state from its client's nodes,
// whatever the registry lists; an inactive one refuses orders naming the
// network and why; each change is logged once however often it is read.
func TestNetworkHealthStatesAndLog(t *testing.T) {
	reg := config.DefaultRegistry()
	eth := &fakeNodes{states: []nodes.State{{Chain: cashier.ChainETH, URL: "https://a", Up: true}}}
	arb := &fakeNodes{states: []nodes.State{
		{Chain: cashier.ChainARB, URL: "https://b", WrongChain: "eth_chainId is 1, not 42161"},
		{Chain: cashier.ChainARB, URL: "https://c", WrongChain: "eth_chainId is 10, not 42161"}}}
	var logs bytes.Buffer
	s := &Service{Registry: reg, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Chains: map[cashier.Chain]cashier.ChainClient{cashier.ChainETH: eth, cashier.ChainARB: arb}}

	want := map[cashier.Chain]string{cashier.ChainTRON: cashier.NetworkNoNode, cashier.ChainETH: cashier.NetworkWatched, cashier.ChainARB: cashier.NetworkWrongChain,
		cashier.ChainBSC: cashier.NetworkNoNode, cashier.ChainPOLYGON: cashier.NetworkNoNode, cashier.ChainBASE: cashier.NetworkNoNode}
	hs := s.NetworkHealth()
	if len(hs) != len(reg.Networks) {
		t.Fatalf("%d states for %d networks", len(hs), len(reg.Networks))
	}
	for i, h := range hs {
		if h.Chain != reg.Networks[i].Chain || h.State != want[h.Chain] || h.Active != (h.State == cashier.NetworkWatched) {
			t.Errorf("%s: %+v, want %s", reg.Networks[i].Chain, h, want[h.Chain])
		}
	}
	for c, why := range map[cashier.Chain]string{cashier.ChainTRON: "no node URL is configured", cashier.ChainARB: "serves another chain"} {
		err := s.Inactive(c)
		if cashier.ErrorCode(err) != cashier.ENetworkMaintenance || !strings.Contains(err.Error(), "network "+string(c)+" is not active") || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v", c, err)
		}
	}
	if err := s.Inactive(cashier.ChainETH); err != nil {
		t.Fatal(err)
	}

	var l networkLog
	for range 3 {
		s.logChanges(&l)
	}
	out := logs.String()
	if strings.Count(out, "network not active") != len(reg.Networks)-1 || !strings.Contains(out, "chain=TRON") || !strings.Contains(out, "chain=ARB") || strings.Contains(out, "chain=ETH") {
		t.Fatalf("first reads logged:\n%s", out)
	}

	// ETH's only node stops answering: still active, reported once.
	logs.Reset()
	eth.states[0].Up, eth.states[0].LastError = false, "connection refused"
	for range 3 {
		s.logChanges(&l)
	}
	if h := s.NetworkHealth()[1]; h.State != cashier.NetworkUnreachable || !h.Active || s.Inactive(cashier.ChainETH) != nil {
		t.Fatalf("ETH down: %+v", h)
	}
	if out := logs.String(); strings.Count(out, "network unreachable") != 1 || !strings.Contains(out, "connection refused") || strings.Count(out, "\n") != 1 {
		t.Fatalf("ETH down logged:\n%s", out)
	}
	// It answers again: whole, logged once.
	logs.Reset()
	eth.states[0].Up = true
	for range 3 {
		s.logChanges(&l)
	}
	if out := logs.String(); strings.Count(out, "network watched again") != 1 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "was=unreachable") {
		t.Fatalf("ETH back logged:\n%s", out)
	}
}
