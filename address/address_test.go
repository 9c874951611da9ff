package address

import (
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
