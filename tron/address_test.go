package tron

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

func TestParseAddressRejects(t *testing.T) {
	usdt := "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
	// One changed character keeps the alphabet but breaks the checksum.
	flipped := usdt[:10] + "y" + usdt[11:]
	// A valid base58check payload with the Bitcoin version byte 0x00.
	btc := base58CheckEncode(append([]byte{0x00}, MustParseAddress(usdt).EVM().Bytes()...))
	// A valid base58check of 22 bytes starting with 0x41.
	long := base58CheckEncode(append(MustParseAddress(usdt).Bytes21(), 0x01))
	for _, s := range []string{
		"",
		flipped,
		btc,
		long,
		usdt[:33],
		usdt + "1",
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6O", // O is not base58
		"42a614f803b6fd780986a42c78ec9c7f77e6ded13c",
		"41a614f803b6fd780986a42c78ec9c7f77e6ded1",
		"41a614f803b6fd780986a42c78ec9c7f77e6ded13z",
		"0xa614f803b6fd780986a42c78ec9c7f77e6ded13c",
	} {
		if _, err := ParseAddress(s); err == nil {
			t.Errorf("ParseAddress(%q) accepted", s)
		}
	}
}

func TestValidateAddress(t *testing.T) {
	got, err := ValidateAddress(" TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ")
	if err != nil || got != "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" {
		t.Fatalf("ValidateAddress = %q, %v", got, err)
	}
	for _, s := range []string{
		"41a614f803b6fd780986a42c78ec9c7f77e6ded13c", // hex has no checksum: not for users
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T",
		"0xdAC17F958D2ee523a2206206994597C13D831ec7",
	} {
		_, err := ValidateAddress(s)
		if cashier.ErrorCode(err) != cashier.EInvalidAddress {
			t.Errorf("ValidateAddress(%q) = %v, want %s", s, err, cashier.EInvalidAddress)
		}
	}
}

func TestAddressFromLog(t *testing.T) {
	a, err := AddressFromLog("a614f803b6fd780986a42c78ec9c7f77e6ded13c")
	if err != nil || a.String() != "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" {
		t.Fatalf("AddressFromLog = %s, %v", a, err)
	}
	if _, err := AddressFromLog("41a614f803b6fd780986a42c78ec9c7f77e6ded13c"); err == nil {
		t.Error("21-byte log address accepted")
	}
}

func TestBase58LeadingZeros(t *testing.T) {
	in := []byte{0, 0, 1, 2, 3}
	s := base58Encode(in)
	if !strings.HasPrefix(s, "11") {
		t.Fatalf("leading zero bytes not encoded as '1': %q", s)
	}
	out, err := base58Decode(s)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("round trip = %x, %v", out, err)
	}
}

// FuzzBase58CheckDecode checks that decoding never panics, that whatever
// decodes re-encodes to the same string (one text form per payload), and
// that ParseAddress accepts only 21-byte 0x41 payloads.
func FuzzBase58CheckDecode(f *testing.F) {
	for _, p := range addressPairs {
		f.Add(p.base58)
	}
	for _, s := range []string{"", "1", "111111", "T", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T", "3MNQE1X", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "0OIl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		payload, err := base58CheckDecode(s)
		if err == nil {
			if got := base58CheckEncode(payload); got != s {
				t.Fatalf("decode(%q) re-encodes to %q", s, got)
			}
		}
		a, err := ParseAddress(s)
		if err != nil {
			return
		}
		if a.String() != s && a.Hex() != strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")) {
			t.Fatalf("ParseAddress(%q) = %s / %s", s, a, a.Hex())
		}
		if len(s) == 34 && (payload == nil || len(payload) != 21 || payload[0] != AddressPrefix) {
			t.Fatalf("ParseAddress accepted %q with payload %x", s, payload)
		}
	})
}
