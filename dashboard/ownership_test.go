package dashboard_test

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// The contract form registers a contract only when the chain proves it is
// the merchant's: another party's CashierPayout (the service's executor,
// 500 tokens) and an address without code are refused; the form shows the
// merchant's signer, and a contract naming it is registered.
func TestContractFormProvesOwnership(t *testing.T) {
	ctx := context.Background()
	sb, e := newSandboxEnv(t)
	info := sb.Info
	thief, _ := app.NewMerchant("Other Shop", cashier.SystemClock{})
	if err := sb.Service.Store.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, thief) }); err != nil {
		t.Fatal(err)
	}
	e.addUser("owner@other.example", thief.ID, "owner", false)
	u := e.signIn("owner@other.example")

	owner := info.Roles["owner"].MustKey()
	deploy := func(signer common.Address) string {
		code := append(common.FromHex(bindings.CashierPayoutMetaData.Bin), bindings.NewCashierPayout().PackConstructor(
			crypto.PubkeyToAddress(owner.PublicKey), common.HexToAddress(info.Roles["executor"].EVMAddress), signer,
			common.HexToAddress(info.Roles["fee"].EVMAddress))...)
		a, err := sb.ETH.Deploy(ctx, owner, code)
		if err != nil {
			t.Fatal(err)
		}
		return a.Hex()
	}
	// Someone else's contract, trusting the service's executor, funded.
	victim := deploy(common.HexToAddress(info.Roles["signer"].EVMAddress))
	token := common.HexToAddress(info.Networks["ETH"].Tokens["USDT"])
	if _, err := sb.ETH.Transact(ctx, owner, &token, nil, bindings.NewTestUSDC().PackMint(common.HexToAddress(victim), big.NewInt(500_000_000)), 0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ addr, want string }{
		{victim, "names signer"},
		{"0x000000000000000000000000000000000000dEaD", "no contract at this address"},
		{info.Networks["ETH"].Tokens["USDT"], "its code is not the CashierPayout"},
	} {
		st, out := u.post("/dashboard/api/contracts", map[string]any{"chainId": "ETH", "address": c.addr}, u.csrf)
		if st == http.StatusOK || !strings.Contains(fmt.Sprint(out), c.want) {
			t.Fatalf("registering %s: %d %v, want refused with %q", c.addr, st, out, c.want)
		}
	}
	if ks, _ := sb.Service.Store.ContractsByMerchant(ctx, thief.ID); len(ks) != 0 {
		t.Fatalf("refused registrations stored %v", ks)
	}

	// The integration page shows the merchant's signer per network.
	res, err := u.c.Get(e.srv.URL + "/dashboard/integration")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`<td>ETH</td><td><code class="signer">(0x[0-9a-fA-F]{40})</code>`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the integration page shows no ETH signer:\n%s", page)
	}
	signer := common.HexToAddress(string(m[1]))
	if s, err := sb.Service.Store.MerchantSigner(ctx, thief.ID, cashier.ChainETH); err != nil || s.Address != signer.Hex() {
		t.Fatalf("page shows %s, store has %v %v", signer.Hex(), s, err)
	}
	mine := deploy(signer)
	if st, out := u.post("/dashboard/api/contracts", map[string]any{"chainId": "ETH", "address": mine}, u.csrf); st != http.StatusOK {
		t.Fatalf("registering the merchant's own contract: %d %v", st, out)
	}
	ks, _ := sb.Service.Store.ContractsByMerchant(ctx, thief.ID)
	if len(ks) != 1 || ks[0].Address != mine || ks[0].Signer != signer.Hex() {
		t.Fatalf("registered %+v", ks)
	}

	// A registration from before ownership proofs (no recorded signer) is
	// flagged on the page with what to run; the proven one is not.
	old := &cashier.Contract{ID: "k_legacy", MerchantID: thief.ID, Chain: cashier.ChainETH, Address: victim, Status: cashier.ContractActive, CreatedAt: ks[0].CreatedAt}
	if err := sb.Service.Store.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, old) }); err != nil {
		t.Fatal(err)
	}
	res, err = u.c.Get(e.srv.URL + "/dashboard/integration")
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if n := strings.Count(string(page), `data-proof="unproven"`); n != 1 || !strings.Contains(string(page), "cashier contract confirm --id k_legacy") ||
		strings.Contains(string(page), "contract confirm --id "+ks[0].ID) {
		t.Fatalf("the page flags %d registrations as unproven:\n%s", n, page)
	}
}
