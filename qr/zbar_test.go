package qr

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// zbarCases are payment texts of many lengths, so that the codes cover
// versions 1 to about 20 (both count widths of byte mode, one and two
// block groups, with and without version information): EIP-681 URIs with
// growing amounts and query tails, and TRON deposit addresses alone or
// padded.
func zbarCases(t *testing.T) []string {
	t.Helper()
	eth := cashier.Network{Chain: cashier.ChainETH, EVMChainID: 1}
	arb := cashier.Network{Chain: cashier.ChainARB, EVMChainID: 42161}
	usdt := cashier.Token{Symbol: "USDT", ContractAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7", Decimals: 6}
	usdc := cashier.Token{Symbol: "USDC", ContractAddress: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", Decimals: 6}
	var out []string
	amount := big.NewInt(1)
	for i := 0; i < 24; i++ {
		n, tok := eth, usdt
		if i%2 == 1 {
			n, tok = arb, usdc
		}
		deposit := fmt.Sprintf("0x%040x", new(big.Int).Lsh(big.NewInt(int64(7919*i+1)), uint(i*5)))
		text, err := PaymentText(n, tok, deposit, amount)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, text)
		amount.Mul(amount, big.NewInt(13))
	}
	tron := cashier.Network{Chain: cashier.ChainTRON}
	for _, addr := range []string{"TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8"} {
		text, err := PaymentText(tron, cashier.Token{Symbol: "USDT"}, addr, big.NewInt(1))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, text)
	}
	// Lengths from 1 to 400 bytes: every text is a prefix of a long URI.
	long := out[0] + "&memo=" + strings.Repeat("Order-7fQ2xZ/", 30)
	for n := 1; n <= 400; n += 7 {
		out = append(out, long[:n])
	}
	return out
}

// Every produced image decodes, with an independent decoder (zbar), back to
// the exact text.
func TestZbarDecodesEveryCode(t *testing.T) {
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Fatal("the tests need zbarimg: apt-get install -y zbar-tools")
	}
	dir := t.TempDir()
	cases := zbarCases(t)
	var files []string
	for i, text := range cases {
		size := DefaultSize
		if len(text) > 150 {
			size = 600 // larger versions need more pixels than the API's 256
		}
		raw, err := PNG(text, size)
		if err != nil {
			t.Fatalf("case %d (%d bytes): %v", i, len(text), err)
		}
		f := filepath.Join(dir, fmt.Sprintf("%03d.png", i))
		if err := os.WriteFile(f, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// One zbarimg run per image: its output does not say which file a
	// result came from when a file yields nothing.
	for i, f := range files {
		cmd := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", "-Sbinary", f)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Errorf("case %d (%d bytes): zbarimg: %v", i, len(cases[i]), err)
			continue
		}
		got := strings.TrimSuffix(out.String(), "\n")
		if got != cases[i] {
			t.Errorf("case %d (%d bytes): decoded\n%q\nwant\n%q", i, len(cases[i]), got, cases[i])
		}
	}
}
