package metrics

import (
	"context"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// The queue's age and the executor's balance are derived from the
// snapshot: the age from the scrape's instant, the balance in coin units.
func TestQueueAgeAndExecutorBalance(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	snap := Snapshot{
		Now: now,
		Stats: cashier.OpsStats{
			Queued:      map[cashier.Chain]int{cashier.ChainETH: 2},
			QueuedSince: map[cashier.Chain]time.Time{cashier.ChainETH: now.Add(-90 * time.Second)},
		},
		Chains: []ChainState{
			{Chain: cashier.ChainETH, Up: true, CoinDecimals: 18,
				ExecutorBalance: big.NewInt(1_500_000_000_000_000_000 / 1000), // 0.0015 ETH
				ExecutorMinimum: big.NewInt(5_000_000_000_000_000)},           // 0.005 ETH
			{Chain: cashier.ChainTRON, Up: true, CoinDecimals: 6}, // no executor key: no balance series
		},
	}
	m := New(func(context.Context) (Snapshot, error) { return snap, nil }, time.Second, slog.New(slog.DiscardHandler))
	got := map[string]float64{}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, mt := range f.GetMetric() {
			name := f.GetName()
			for _, l := range mt.GetLabel() {
				name += "/" + l.GetValue()
			}
			got[name] = mt.GetGauge().GetValue()
		}
	}
	for name, want := range map[string]float64{
		"cashier_executor_balance/ETH":          0.0015,
		"cashier_executor_min_balance/ETH":      0.005,
		"cashier_payout_queue_age_seconds/ETH":  90,
		"cashier_payout_queue_age_seconds/TRON": 0,
	} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", name, v, ok, want)
		}
	}
	for _, name := range []string{"cashier_executor_balance/TRON", "cashier_executor_min_balance/TRON"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s present without an executor key or minimum", name)
		}
	}
}
