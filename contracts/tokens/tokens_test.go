package tokens_test

import (
	"bytes"
	"context"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier/contracts/tokens"
	"github.com/stablecashier/cashier/devchain"
)

var erc20, _ = abi.JSON(stringsReader(`[
 {"name":"balanceOf","type":"function","stateMutability":"view","inputs":[{"name":"a","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
 {"name":"transfer","type":"function","inputs":[{"name":"to","type":"address"},{"name":"v","type":"uint256"}],"outputs":[]}]`))

// The real contracts deploy and keep their own rules on a dev chain (the
// TetherToken deployed is mainnet's code):
// Tether's fee takes its cut, its pause and blacklist stop transfers and
// deprecation forwards them; Circle's blacklist refuses a recipient.
func TestRealTokensOnADevChain(t *testing.T) {
	ctx := context.Background()
	c, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	admin, _ := crypto.GenerateKey()
	proxyAdmin, _ := crypto.GenerateKey()
	holder, _ := crypto.GenerateKey()
	for _, k := range []common.Address{crypto.PubkeyToAddress(admin.PublicKey), crypto.PubkeyToAddress(proxyAdmin.PublicKey), crypto.PubkeyToAddress(holder.PublicKey)} {
		if err := c.Fund(ctx, k, big.NewInt(params.Ether)); err != nil {
			t.Fatal(err)
		}
	}
	from := crypto.PubkeyToAddress(holder.PublicKey)
	to := common.HexToAddress("0x1111111111111111111111111111111111111111")
	balance := func(token common.Address, who common.Address) *big.Int {
		out, err := c.Client.CallContract(ctx, callMsg(token, erc20.Methods["balanceOf"].ID, who), nil)
		if err != nil {
			t.Fatal(err)
		}
		return new(big.Int).SetBytes(out)
	}
	send := func(token common.Address, amount int64) error {
		data, _ := erc20.Pack("transfer", to, big.NewInt(amount))
		_, err := c.Transact(ctx, holder, &token, nil, data, 200_000)
		return err
	}

	usdt, err := tokens.DeployTether(ctx, c, admin)
	if err != nil {
		t.Fatal(err)
	}
	// What the tests run is mainnet's code: all of it but the 43-byte
	// metadata section (a hash of Tether's own source file names).
	deployed, err := c.Client.CodeAt(ctx, usdt.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := os.ReadFile("../../testdata/tokens/usdt/mainnet-runtime.hex")
	if err != nil {
		t.Fatal(err)
	}
	mainnet := common.FromHex(strings.TrimSpace(string(ref)))
	const metadata = 43
	if len(mainnet) != 11_075 || len(deployed) != len(mainnet) || !bytes.Equal(deployed[:len(deployed)-metadata], mainnet[:len(mainnet)-metadata]) {
		t.Fatalf("deployed TetherToken (%d bytes) is not mainnet's code (%d bytes)", len(deployed), len(mainnet))
	}
	if err := usdt.Mint(ctx, from, big.NewInt(100_000_000)); err != nil {
		t.Fatal(err)
	}
	if err := usdt.SetFee(ctx, 10, 1); err != nil { // 0.1%, at most 1 USDT
		t.Fatal(err)
	}
	if err := send(usdt.Address, 10_000_000); err != nil {
		t.Fatal(err)
	}
	if got := balance(usdt.Address, to); got.Int64() != 9_990_000 {
		t.Fatalf("USDT with a 0.1%% fee: recipient got %s of 10,000,000", got)
	}
	if err := usdt.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	if send(usdt.Address, 1) == nil {
		t.Fatal("USDT paused, a transfer went through")
	}
	if err := usdt.Unpause(ctx); err != nil {
		t.Fatal(err)
	}
	if err := usdt.Blacklist(ctx, from); err != nil {
		t.Fatal(err)
	}
	if send(usdt.Address, 1) == nil {
		t.Fatal("USDT sender blacklisted, a transfer went through")
	}
	if err := usdt.Unblacklist(ctx, from); err != nil {
		t.Fatal(err)
	}
	upgraded := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
	if err := usdt.Deprecate(ctx, upgraded); err != nil {
		t.Fatal(err)
	}
	if send(usdt.Address, 1) == nil {
		t.Fatal("USDT deprecated to an address without code, a transfer went through")
	}

	usdc, err := tokens.DeployUSDC(ctx, c, admin, proxyAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if err := usdc.Mint(ctx, from, big.NewInt(5_000_000)); err != nil {
		t.Fatal(err)
	}
	if err := send(usdc.Address, 2_000_000); err != nil {
		t.Fatal(err)
	}
	if err := usdc.Blacklist(ctx, to); err != nil {
		t.Fatal(err)
	}
	if send(usdc.Address, 1) == nil {
		t.Fatal("USDC recipient blacklisted, a transfer went through")
	}
	if got := balance(usdc.Address, to); got.Int64() != 2_000_000 {
		t.Fatalf("USDC recipient holds %s", got)
	}
}
