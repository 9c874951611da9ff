package ledger

import (
	"context"
	"testing"

	"github.com/stablecashier/cashier"
)

// recordingHistory answers no transfers and records the ranges asked.
type recordingHistory struct{ ranges [][2]uint64 }

func (h *recordingHistory) AccountTransfers(_ context.Context, _, _ string, from, to uint64) ([]cashier.Transfer, error) {
	h.ranges = append(h.ranges, [2]uint64{from, to})
	return nil, nil
}

// A ledger's first read starts at its network's From block (genesis for a
// network without one), and later reads go on from where it stopped: no
// block below From is ever asked for.
func TestLedgerReadsFromItsNetworksFirstBlock(t *testing.T) {
	ctx := context.Background()
	reg := &cashier.Registry{Networks: []cashier.Network{{Chain: cashier.ChainETH, Confirmations: 1}, {Chain: cashier.ChainTRON, Confirmations: 1}}}
	s := &Service{Registry: reg, From: map[cashier.Chain]uint64{cashier.ChainETH: 19_000_000}}
	tok := cashier.Token{Symbol: "USDT", ContractAddress: "0x00000000000000000000000000000000000000a1"}
	eth := cashier.Contract{Chain: cashier.ChainETH, Address: "0x00000000000000000000000000000000000000c0"}
	tron := cashier.Contract{Chain: cashier.ChainTRON, Address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"}

	h := &recordingHistory{}
	if _, err := s.transfers(ctx, h, eth, tok, 19_000_500); err != nil {
		t.Fatal(err)
	}
	if _, err := s.transfers(ctx, h, eth, tok, 19_000_600); err != nil {
		t.Fatal(err)
	}
	// Each read takes what is deep enough to keep, then the head's block.
	want := [][2]uint64{{19_000_000, 19_000_499}, {19_000_500, 19_000_500}, {19_000_500, 19_000_599}, {19_000_600, 19_000_600}}
	if len(h.ranges) != len(want) {
		t.Fatalf("ETH ranges read %v, want %v", h.ranges, want)
	}
	for i := range want {
		if h.ranges[i] != want[i] {
			t.Fatalf("ETH ranges read %v, want %v", h.ranges, want)
		}
	}
	h.ranges = nil
	if _, err := s.transfers(ctx, h, tron, tok, 50); err != nil {
		t.Fatal(err)
	}
	if len(h.ranges) != 2 || h.ranges[0] != [2]uint64{0, 49} {
		t.Fatalf("TRON (no From) ranges read %v", h.ranges)
	}
}
