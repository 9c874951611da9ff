package payoutexec

import (
	"math/big"
	"testing"
)

// GasCharge converts exactly and rounds up, never down: the operator is
// never short by a rounding.
func TestGasCharge(t *testing.T) {
	p, err := ParseFixedPrice("3000.5")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		coin string
		want int64
	}{
		{"1000000000000000000", 3_000_500_000}, // 1 ETH at 3000.5 → 3000.5 USDT
		{"1000000000000", 3001},                // 10^-6 ETH → 0.0030005 USDT, rounded up to 0.003001
		{"0", 0},
		{"1", 1}, // 1 wei costs a base unit
	} {
		coin, _ := new(big.Int).SetString(c.coin, 10)
		if got := GasCharge(coin, 18, 6, p.Num, p.Den); got.Cmp(big.NewInt(c.want)) != 0 {
			t.Errorf("GasCharge(%s wei) = %s, want %d", c.coin, got, c.want)
		}
	}
	// A feed's answer 3000 × 10^8 over 10^8 is the same price as "3000".
	if got := GasCharge(big.NewInt(2e15), 18, 6, big.NewInt(3000_00000000), big.NewInt(1e8)); got.Cmp(big.NewInt(6_000_000)) != 0 {
		t.Errorf("feed price: %s", got)
	}
	for _, bad := range []string{"", "0", "-1", "abc", "1/0"} {
		if _, err := ParseFixedPrice(bad); err == nil {
			t.Errorf("price %q accepted", bad)
		}
	}
}
