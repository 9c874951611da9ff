package cashier

import (
	"math/big"
	"strings"
)

// MaxAmountLength bounds the text form of an amount so a hostile request
// cannot make the parser or big.Int do unbounded work.
const MaxAmountLength = 40

// ParseAmount turns a decimal string such as "100.50" into integer base units
// of a token with the given number of decimals. It accepts only plain
// non-negative decimals: digits, at most one '.', no sign, exponent, spaces or
// superfluous leading zeros, and no more fractional digits than the token has.
// Money never passes through a float.
func ParseAmount(s string, decimals int) (*big.Int, error) {
	if s == "" {
		return nil, Errorf(EInvalidAmount, "amount is empty")
	}
	if len(s) > MaxAmountLength {
		return nil, Errorf(EInvalidAmount, "amount %.12q... is longer than %d characters", s, MaxAmountLength)
	}
	intPart, frac, hasPoint := strings.Cut(s, ".")
	if intPart == "" || !allDigits(intPart) {
		return nil, Errorf(EInvalidAmount, "amount %q is not a plain decimal number such as \"100.00\"", s)
	}
	if len(intPart) > 1 && intPart[0] == '0' {
		return nil, Errorf(EInvalidAmount, "amount %q has leading zeros", s)
	}
	if hasPoint && (frac == "" || !allDigits(frac)) {
		return nil, Errorf(EInvalidAmount, "amount %q is not a plain decimal number such as \"100.00\"", s)
	}
	if len(frac) > decimals {
		// Trailing zeros beyond the token's precision change nothing; accept them.
		trimmed := strings.TrimRight(frac[decimals:], "0")
		if trimmed != "" {
			return nil, Errorf(EInvalidAmount, "amount %q has more than %d decimal places", s, decimals)
		}
		frac = frac[:decimals]
	}
	digits := intPart + frac + strings.Repeat("0", decimals-len(frac))
	v, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, Errorf(EInvalidAmount, "amount %q is not a number", s)
	}
	return v, nil
}

// FormatAmount renders base units as a decimal string with at least two
// decimal places ("100.00", "0.123456"), the form the interface's samples use.
func FormatAmount(units *big.Int, decimals int) string {
	if units == nil {
		units = new(big.Int)
	}
	neg := units.Sign() < 0
	s := new(big.Int).Abs(units).String()
	if decimals > 0 {
		if len(s) <= decimals {
			s = strings.Repeat("0", decimals-len(s)+1) + s
		}
		ip, fp := s[:len(s)-decimals], strings.TrimRight(s[len(s)-decimals:], "0")
		for len(fp) < 2 && len(fp) < decimals {
			fp += "0"
		}
		s = ip
		if fp != "" {
			s += "." + fp
		}
	}
	if neg {
		s = "-" + s
	}
	return s
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
