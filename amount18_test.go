package cashier

import (
	"math/big"
	"testing"
)

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// stable is a USDT-like token at decimals places: 1 to 1,000,000 per order.
func stable(decimals int) Token {
	return Token{Symbol: "USDT", Chain: ChainBSC, Decimals: decimals,
		MinAmount: pow10(decimals), MaxAmount: new(big.Int).Mul(big.NewInt(1_000_000), pow10(decimals)), WithdrawFee: pow10(decimals)}
}

// FuzzOrderAmount6And18: an order amount means the same at 6 and at 18
// decimals. Whatever a 6-decimal token accepts, an 18-decimal one accepts
// as exactly 10^12 times the base units; what the 18-decimal token accepts
// lies within its bounds, is never rounded (formatting and parsing again
// gives the same base units), and is refused at 6 only when it has more
// than 6 places or breaks the same bounds.
func FuzzOrderAmount6And18(f *testing.F) {
	for _, s := range []string{"10.50", "1.25", "1", "1.000000000000000001", "0.999999999999999999", "1000000", "1000000.000000000000000001",
		"999999.999999999999999999", "12.345678901234567890", "1.0000000", "0.5", "01", "1e3", ""} {
		f.Add(s)
	}
	t6, t18 := stable(6), stable(18)
	f.Fuzz(func(t *testing.T, s string) {
		v6, err6 := t6.ParseOrderAmount(s)
		v18, err18 := t18.ParseOrderAmount(s)
		if err6 == nil {
			if err18 != nil {
				t.Fatalf("%q: accepted at 6 decimals (%s), refused at 18: %v", s, v6, err18)
			}
			if want := new(big.Int).Mul(v6, pow10(12)); v18.Cmp(want) != 0 {
				t.Fatalf("%q: %s at 18 decimals, want %s", s, v18, want)
			}
			if FormatAmount(v6, 6) != FormatAmount(v18, 18) {
				t.Fatalf("%q: shown as %s at 6 and %s at 18", s, FormatAmount(v6, 6), FormatAmount(v18, 18))
			}
		}
		if err18 != nil {
			return
		}
		if v18.Cmp(t18.MinAmount) < 0 || v18.Cmp(t18.MaxAmount) > 0 {
			t.Fatalf("%q: %s outside the bounds", s, v18)
		}
		text := FormatAmount(v18, 18)
		back, err := ParseAmount(text, 18)
		if err != nil || back.Cmp(v18) != 0 {
			t.Fatalf("%q: %s shown as %s, read back as %v (%v)", s, v18, text, back, err)
		}
		if err6 != nil {
			// Refused at 6 only for places 6 cannot hold.
			if new(big.Int).Rem(v18, pow10(12)).Sign() == 0 {
				t.Fatalf("%q: %s is whole at 6 decimals, yet refused: %v", s, v18, err6)
			}
		}
	})
}

// FuzzAmountSums: amounts added in base units and shown once are the sum
// of the amounts shown one by one, at 6 and at 18 decimals (partial
// payments, batch totals, running locks add base units, never text).
func FuzzAmountSums(f *testing.F) {
	f.Add("10.499999999999999999", "0.000000000000000001", uint8(18))
	f.Add("10.49", "0.01", uint8(6))
	f.Add("1.25", "1.25", uint8(18))
	f.Fuzz(func(t *testing.T, a, b string, d uint8) {
		decimals := 6
		if d%2 == 1 {
			decimals = 18
		}
		va, err := ParseAmount(a, decimals)
		if err != nil {
			return
		}
		vb, err := ParseAmount(b, decimals)
		if err != nil {
			return
		}
		sum := new(big.Int).Add(va, vb)
		// Through the text the wire carries: each part, then the sum.
		pa, _ := ParseAmount(FormatAmount(va, decimals), decimals)
		pb, _ := ParseAmount(FormatAmount(vb, decimals), decimals)
		if got := new(big.Int).Add(pa, pb); got.Cmp(sum) != 0 {
			t.Fatalf("%s + %s at %d: %s through text, %s in base units", a, b, decimals, got, sum)
		}
		if text := FormatAmount(sum, decimals); len(text) <= MaxAmountLength {
			if back, err := ParseAmount(text, decimals); err != nil || back.Cmp(sum) != 0 {
				t.Fatalf("sum %s shown as %s read back as %v (%v)", sum, text, back, err)
			}
		}
	})
}
