package payoutexec

import (
	"math/big"
	"testing"

	"github.com/stablecashier/cashier"
)

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// FuzzGasCharge6And18: fee+gas prices gas in the token exactly at either
// scale. The charge is the coin's value rounded up to the token's base
// unit, never down; the 18-decimal charge is the 6-decimal one to within
// a 6-decimal base unit, and never above it.
func FuzzGasCharge6And18(f *testing.F) {
	f.Add(uint64(21_000*30_000_000_000), uint64(300_000_000_000), uint64(100_000_000)) // 21k gas at 30 gwei, 3,000 per coin
	f.Add(uint64(1), uint64(1), uint64(3))
	f.Add(uint64(1_000_000_000_000_000_000), uint64(600), uint64(1)) // 1 BNB at 600
	f.Fuzz(func(t *testing.T, coin, num, den uint64) {
		if num == 0 || den == 0 {
			return
		}
		c, n, d := new(big.Int).SetUint64(coin), new(big.Int).SetUint64(num), new(big.Int).SetUint64(den)
		g6, g18 := GasCharge(c, 18, 6, n, d), GasCharge(c, 18, 18, n, d)
		for _, x := range []struct {
			got *big.Int
			dec int
		}{{g6, 6}, {g18, 18}} {
			// exact value in token base units: coin × num × 10^dec / (den × 10^18)
			top := new(big.Int).Mul(c, n)
			top.Mul(top, pow10(x.dec))
			bottom := new(big.Int).Mul(d, pow10(18))
			if new(big.Int).Mul(x.got, bottom).Cmp(top) < 0 {
				t.Fatalf("%d decimals: charge %s below the gas's value", x.dec, x.got)
			}
			if x.got.Sign() > 0 && new(big.Int).Mul(new(big.Int).Sub(x.got, big.NewInt(1)), bottom).Cmp(top) >= 0 {
				t.Fatalf("%d decimals: charge %s rounds up by more than a base unit", x.dec, x.got)
			}
		}
		scaled := new(big.Int).Mul(g6, pow10(12))
		if g18.Cmp(scaled) > 0 || new(big.Int).Sub(scaled, g18).Cmp(pow10(12)) >= 0 {
			t.Fatalf("charge %s at 18 decimals against %s at 6", g18, g6)
		}
	})
}

// FuzzGasShares6And18: a transaction's gas split over its orders adds up
// to the fee exactly, at 6 and at 18 decimals; shares differ by at most
// one base unit.
func FuzzGasShares6And18(f *testing.F) {
	f.Add(uint64(1_000_000_000_000_000_001), uint8(3), true)
	f.Add(uint64(7), uint8(30), false)
	f.Fuzz(func(t *testing.T, fee uint64, n uint8, eighteen bool) {
		count := int(n%200) + 1
		dec := 6
		if eighteen {
			dec = 18
		}
		os := make([]cashier.PayoutOrder, count)
		for i := range os {
			os[i].ID = "po_" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		}
		total := new(big.Int).SetUint64(fee)
		shares := GasShares(total, os, dec)
		sum := new(big.Int)
		var lo, hi *big.Int
		for _, o := range os {
			v, err := cashier.ParseAmount(shares[o.ID], dec)
			if err != nil {
				t.Fatalf("share %q: %v", shares[o.ID], err)
			}
			sum.Add(sum, v)
			if lo == nil || v.Cmp(lo) < 0 {
				lo = v
			}
			if hi == nil || v.Cmp(hi) > 0 {
				hi = v
			}
		}
		if sum.Cmp(total) != 0 {
			t.Fatalf("%d shares of %s add up to %s", count, total, sum)
		}
		if new(big.Int).Sub(hi, lo).Cmp(big.NewInt(1)) > 0 {
			t.Fatalf("shares from %s to %s", lo, hi)
		}
	})
}
