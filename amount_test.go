package cashier

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseAmount(t *testing.T) {
	ok := []struct {
		in       string
		decimals int
		want     string
	}{
		{"100.00", 6, "100000000"},
		{"100", 6, "100000000"},
		{"0.000001", 6, "1"},
		{"0.5", 6, "500000"},
		{"1.1234560000", 6, "1123456"}, // zeros beyond the precision change nothing
		{"0", 6, "0"},
		{"123456789012345678901234567890", 6, "123456789012345678901234567890000000"},
		{"7", 0, "7"},
		{"1.5", 18, "1500000000000000000"},
	}
	for _, c := range ok {
		got, err := ParseAmount(c.in, c.decimals)
		if err != nil || got.String() != c.want {
			t.Errorf("ParseAmount(%q, %d) = %v, %v; want %s", c.in, c.decimals, got, err, c.want)
		}
	}
	bad := []string{"", "-1", "+1", "1e6", "1E6", " 1", "1 ", ".5", "5.", "01", "00.5", "1.0000001", "1,5", "0x10", "NaN", "Inf",
		"1.2.3", "١", strings.Repeat("9", MaxAmountLength+1), "1_000"}
	for _, in := range bad {
		if v, err := ParseAmount(in, 6); err == nil {
			t.Errorf("ParseAmount(%q) = %v, want error", in, v)
		} else if ErrorCode(err) != EInvalidAmount {
			t.Errorf("ParseAmount(%q): code %s", in, ErrorCode(err))
		}
	}
}

func TestFormatAmount(t *testing.T) {
	cases := []struct {
		units    int64
		decimals int
		want     string
	}{
		{100_000_000, 6, "100.00"},
		{100_500_000, 6, "100.50"},
		{1, 6, "0.000001"},
		{0, 6, "0.00"},
		{1_234_567, 6, "1.234567"},
		{-1_500_000, 6, "-1.50"},
		{7, 0, "7"},
		{5, 1, "0.5"},
	}
	for _, c := range cases {
		if got := FormatAmount(big.NewInt(c.units), c.decimals); got != c.want {
			t.Errorf("FormatAmount(%d, %d) = %q, want %q", c.units, c.decimals, got, c.want)
		}
	}
	if got := FormatAmount(nil, 6); got != "0.00" {
		t.Errorf("FormatAmount(nil) = %q", got)
	}
}

// FuzzAmount: the parser never panics, accepts only plain decimals, and
// formatting a parsed amount parses back to the same base units.
func FuzzAmount(f *testing.F) {
	for _, s := range []string{"100.00", "0.000001", "1e6", "-1", "01", "1.0000001", "99999999999999999999.999999", ""} {
		f.Add(s, uint8(6))
	}
	f.Fuzz(func(t *testing.T, s string, d uint8) {
		decimals := int(d % 19)
		v, err := ParseAmount(s, decimals)
		if err != nil {
			return
		}
		if v.Sign() < 0 {
			t.Fatalf("negative amount from %q", s)
		}
		for _, r := range s {
			if (r < '0' || r > '9') && r != '.' {
				t.Fatalf("accepted %q with character %q", s, r)
			}
		}
		text := FormatAmount(v, decimals)
		if len(text) > MaxAmountLength {
			return // padding to two decimals can push a maximal input past the length limit
		}
		back, err := ParseAmount(text, decimals)
		if err != nil || back.Cmp(v) != 0 {
			t.Fatalf("round trip of %q (%s units): %v, %v", s, v, back, err)
		}
	})
}
