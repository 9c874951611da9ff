package evm

import (
	"testing"

	cashier "github.com/stablecashier/cashier"
)

func TestValidateAddress(t *testing.T) {
	// The test vectors of EIP-55.
	vectors := []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
		"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
		"0x52908400098527886E0F7030069857D2E4169EE7",
		"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
		"0xde709f2102306220921060314715629080e2fb77",
		"0x27b1fdb04752bbc536007a920d24acb045561c26",
	}
	for _, v := range vectors {
		got, err := ValidateAddress(v)
		if err != nil {
			t.Errorf("%s: %v", v, err)
			continue
		}
		if lower(got) != lower(v) {
			t.Errorf("%s: canonical %s is another address", v, got)
		}
	}
	// Without a checksum (one case throughout) the checksummed form comes back.
	for in, want := range map[string]string{
		"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x52908400098527886e0f7030069857d2e4169ee7": "0x52908400098527886E0F7030069857D2E4169EE7",
	} {
		if got, err := ValidateAddress(in); err != nil || got != want {
			t.Errorf("%s = %q, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", // last letter's case flipped
		"0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", // second letter's case flipped
		"5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",   // no 0x
		"0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", // 0X
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",  // 39 digits
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",
		" 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
		"TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", // a TRON address
		"0x0000000000000000000000000000000000000000",
		"",
	} {
		if got, err := ValidateAddress(bad); err == nil {
			t.Errorf("%q accepted as %s", bad, got)
		} else if cashier.ErrorCode(err) != cashier.EInvalidAddress {
			t.Errorf("%q: error code %s, want %s", bad, cashier.ErrorCode(err), cashier.EInvalidAddress)
		}
	}
}
