package main

import (
	"crypto/rand"
	"os"
	"os/exec"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

// payOrder pays orderNo from the sandbox's customer (`sandbox pay`,
// extra flags after it), against the tests' database.
func payOrder(t *testing.T, data, orderNo string, extra ...string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"sandbox", "pay", "--data", data, "--order", orderNo}, extra...)...)
	cmd.Env = append(os.Environ(), databaseEnv()...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pay %s: %v\n%s", orderNo, err, out)
	}
}

// randomRecipient is a fresh address on chain c, in its own notation.
func randomRecipient(c cashier.Chain) string {
	var a [20]byte
	rand.Read(a[:])
	if c == cashier.ChainTRON {
		return tron.AddressFromEVM(common.BytesToAddress(a[:])).String()
	}
	return common.BytesToAddress(a[:]).Hex()
}
