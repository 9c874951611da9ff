package address

import (
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

func TestValidate(t *testing.T) {
	ok := []struct {
		c         cashier.Chain
		in, canon string
	}{
		// EIP-55 test vectors.
		{cashier.ChainETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},
		{cashier.ChainARB, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"},
		{cashier.ChainETH, "0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"},
		{cashier.ChainTRON, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
	}
	for _, c := range ok {
		got, err := Validate(c.c, c.in)
		if err != nil || got != c.canon {
			t.Errorf("Validate(%s, %s) = %q, %v; want %q", c.c, c.in, got, err, c.canon)
		}
	}
	bad := []struct {
		c  cashier.Chain
		in string
	}{
		{cashier.ChainETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"}, // checksum broken
		{cashier.ChainETH, "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},   // no 0x
		{cashier.ChainETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"},   // short
		{cashier.ChainETH, "0x0000000000000000000000000000000000000000"},
		{cashier.ChainETH, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
		{cashier.ChainTRON, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"}, // checksum broken
		{cashier.ChainTRON, "0xdAC17F958D2ee523a2206206994597C13D831ec7"},
		{cashier.ChainTRON, ""},
		{cashier.ChainTRON, "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"}, // zero
		{cashier.ChainARB, "0x0000000000000000000000000000000000000000"},
		{"BTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"},
	}
	for _, c := range bad {
		if got, err := Validate(c.c, c.in); err == nil {
			t.Errorf("Validate(%s, %s) = %q, want error", c.c, c.in, got)
		} else if code := cashier.ErrorCode(err); code != cashier.EInvalidAddress && code != cashier.EUnsupported {
			t.Errorf("Validate(%s, %s): code %s", c.c, c.in, code)
		}
	}
}

func TestParseAndFormat(t *testing.T) {
	for _, c := range []struct {
		chain cashier.Chain
		text  string
	}{
		{cashier.ChainETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},
		{cashier.ChainARB, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"},
		{cashier.ChainTRON, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
	} {
		a, err := Parse(c.chain, c.text)
		if err != nil {
			t.Fatalf("Parse(%s, %s): %v", c.chain, c.text, err)
		}
		if got := Format(c.chain, a); got != c.text {
			t.Errorf("Format(Parse(%s)) = %s", c.text, got)
		}
	}
	// The same 20 bytes on TRON and on Ethereum (USDT's TRON contract).
	tronA, _ := Parse(cashier.ChainTRON, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
	if got := Format(cashier.ChainETH, tronA); got != "0xa614f803B6FD780986A42c78Ec9c7f77e6DeD13C" {
		t.Errorf("TRON address as hex: %s", got)
	}
	for _, bad := range []struct {
		chain cashier.Chain
		text  string
	}{
		{cashier.ChainETH, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
		{cashier.ChainETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"},
		{cashier.ChainTRON, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},
		{cashier.ChainTRON, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"},
	} {
		if _, err := Parse(bad.chain, bad.text); cashier.ErrorCode(err) != cashier.EInvalidAddress {
			t.Errorf("Parse(%s, %s) = %v, want an invalid-address error", bad.chain, bad.text, err)
		}
	}
}

// The zero address of every network is refused, in its own text form,
// naming it: the payout contract can never pay it.
func TestZeroAddressRefusedOnEveryNetwork(t *testing.T) {
	for _, c := range cashier.Chains {
		zero := Format(c, [20]byte{})
		if c == cashier.ChainTRON && zero != "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb" {
			t.Fatalf("TRON zero address formats as %s", zero)
		}
		_, err := Validate(c, zero)
		if cashier.ErrorCode(err) != cashier.EInvalidAddress || !strings.Contains(err.Error(), "zero address") {
			t.Errorf("Validate(%s, %s) = %v, want an invalid-address error naming the zero address", c, zero, err)
		}
		if _, err := (Validator{}).ValidateAddress(c, zero); err == nil {
			t.Errorf("Validator accepted %s's zero address", c)
		}
	}
}
