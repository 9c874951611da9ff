package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sandbox"
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

// randomPayout is a payout createRandomPayout created.
type randomPayout struct {
	ID, To, Amount string   // the order id, the recipient, the amount sent
	Value          *big.Int // the amount in base units
}

// createRandomPayout creates payout no from the demo merchant's contract
// on chain c: a random USDT amount from 1.00 to upTo.99 to a fresh
// address.
func createRandomPayout(t *testing.T, ctx context.Context, api *client.Client, info *sandbox.Info, c cashier.Chain, no string, upTo int) randomPayout {
	t.Helper()
	to := randomRecipient(c)
	amt := fmt.Sprintf("%d.%02d", 1+mrand.IntN(upTo), mrand.IntN(100))
	r, err := api.CreatePayout(ctx, client.PayoutRequest{ContractID: info.ContractIDs[string(c)], OrderNo: no, Recipient: to, Amount: amt, Symbol: "USDT"})
	if err != nil {
		t.Fatalf("create %s: %v", no, err)
	}
	v, _ := cashier.ParseAmount(amt, 6)
	return randomPayout{ID: r.OrderID, To: to, Amount: amt, Value: v}
}
