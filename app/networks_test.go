package app

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
)

// A production start with nodes for them lists BNB Smart Chain, Polygon and
// Base in the public network and coin lists with their numeric chain ids,
// the issuers' contracts and decimals; the registry file switches one off.
func TestProductionListsBSCPolygonBase(t *testing.T) {
	get := func(t *testing.T, cfg config.Config, path string, out any) {
		// A node URL for every network (nothing answers there: the
		// networks are active, only unreachable for now, so they are
		// listed; a network with no node at all is left out of the coins).
		for _, c := range cashier.Chains {
			cfg.SetNodeURLs(c, "http://127.0.0.1:1")
		}
		svc, err := New(context.Background(), cfg, Options{}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		rec := httptest.NewRecorder()
		svc.Handler.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		var env struct {
			Code string          `json:"code"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != 200 || env.Code != "0" {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatal(err)
		}
	}
	type network struct {
		ChainID, NetworkName, Symbol, ExplorerURL string
		AvgBlockTime                              int
	}
	type coin struct {
		Symbol   string
		Networks []struct {
			ChainID, ContractAddress, MinAmount string
			Decimals                            int
		}
	}
	cfg := testConfig(t)
	if cfg.Mode != "production" {
		t.Fatalf("mode %s", cfg.Mode)
	}
	var nets []network
	get(t, cfg, "/admin/api/v2/pub/network/list", &nets)
	byID := map[string]network{}
	for _, n := range nets {
		byID[n.ChainID] = n
	}
	for id, sym := range map[string]string{"56": "BNB", "137": "POL", "8453": "ETH", "1": "ETH", "42161": "ETH", "TRON": "TRX"} {
		if n, ok := byID[id]; !ok || n.Symbol != sym || n.ExplorerURL == "" || n.AvgBlockTime <= 0 {
			t.Fatalf("network %s: %+v (list %+v)", id, n, nets)
		}
	}
	var coins []coin
	get(t, cfg, "/admin/api/v2/pub/coin/list", &coins)
	type key struct{ symbol, chain string }
	got := map[key]string{}
	dec := map[key]int{}
	for _, c := range coins {
		for _, n := range c.Networks {
			got[key{c.Symbol, n.ChainID}] = n.ContractAddress
			dec[key{c.Symbol, n.ChainID}] = n.Decimals
		}
	}
	for k, want := range map[key]struct {
		addr string
		dec  int
	}{
		{"USDT", "56"}:   {"0x55d398326f99059fF775485246999027B3197955", 18},
		{"USDC", "56"}:   {"0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18},
		{"USDT", "137"}:  {"0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6},
		{"USDC", "137"}:  {"0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6},
		{"USDC", "8453"}: {"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6},
	} {
		if got[k] != want.addr || dec[k] != want.dec {
			t.Fatalf("%v: %s %d, want %s %d", k, got[k], dec[k], want.addr, want.dec)
		}
	}

	// Switched off in the registry file: gone from both lists.
	path := filepath.Join(t.TempDir(), "registry.json")
	os.WriteFile(path, []byte(`{"networks":[{"chainId":"POLYGON","enabled":false}]}`), 0o600)
	cfg = testConfig(t)
	cfg.Registry = path
	nets, coins = nil, nil
	get(t, cfg, "/admin/api/v2/pub/network/list", &nets)
	get(t, cfg, "/admin/api/v2/pub/coin/list", &coins)
	for _, n := range nets {
		if n.ChainID == "137" {
			t.Fatal("Polygon switched off but listed")
		}
	}
	for _, c := range coins {
		for _, n := range c.Networks {
			if n.ChainID == "137" {
				t.Fatalf("%s on Polygon switched off but listed", c.Symbol)
			}
		}
	}
}

// A token whose contract reports other decimals than the registry's is
// refused at start; one that agrees is kept; one that cannot be read is
// kept and reported.
func TestTokenDecimalsCheckedAtStart(t *testing.T) {
	ch, err := devchain.Start(devchain.Options{ChainID: devchain.ChainIDBSC})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	ctx := context.Background()
	owner, _ := crypto.GenerateKey()
	if err := ch.Fund(ctx, crypto.PubkeyToAddress(owner.PublicKey), big18()); err != nil {
		t.Fatal(err)
	}
	peg, err := ch.Deploy(ctx, owner, append(common.FromHex(bindings.TestPegTokenMetaData.Bin), bindings.NewTestPegToken().PackConstructor("Tether USD", "USDT")...))
	if err != nil {
		t.Fatal(err)
	}
	six, err := ch.Deploy(ctx, owner, append(common.FromHex(bindings.TestUSDCMetaData.Bin), bindings.NewTestUSDC().PackConstructor("USD Coin", "USDC")...))
	if err != nil {
		t.Fatal(err)
	}
	reg := config.DefaultRegistry()
	id := int64(devchain.ChainIDBSC)
	pegAddr, sixAddr := peg.Hex(), six.Hex()
	if err := config.Apply(reg, config.Override{
		Networks: []config.NetworkOverride{{ChainID: "BSC", EVMChainID: &id}},
		// USDT: an 18-decimal contract, as the registry says; USDC: a
		// 6-decimal contract where the registry says 18.
		Tokens: []config.TokenOverride{{ChainID: "BSC", Symbol: "USDT", ContractAddress: &pegAddr}, {ChainID: "BSC", Symbol: "USDC", ContractAddress: &sixAddr}},
	}); err != nil {
		t.Fatal(err)
	}
	cl, err := evm.New(evm.Config{Chain: cashier.ChainBSC, ChainID: uint64(id), URLs: []string{ch.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	refused, unchecked := CheckTokenDecimals(ctx, reg, map[cashier.Chain]cashier.ChainClient{cashier.ChainBSC: cl})
	if len(refused) != 1 || refused[0].Symbol != "USDC" || refused[0].OnChain.Int64() != 6 || refused[0].Registry != 18 {
		t.Fatalf("refused %+v", refused)
	}
	if _, ok := reg.Token(cashier.ChainBSC, "USDC"); ok {
		t.Fatal("the mismatching token is still in the registry")
	}
	if _, err := reg.LookupToken(cashier.ChainBSC, "USDC"); cashier.ErrorCode(err) != cashier.EUnsupported {
		t.Fatalf("order on the refused token: %v", err)
	}
	if tk, ok := reg.Token(cashier.ChainBSC, "USDT"); !ok || tk.Decimals != 18 {
		t.Fatalf("the matching token: %+v %v", tk, ok)
	}
	if len(unchecked) != 0 {
		t.Fatalf("unchecked %v", unchecked)
	}
	// Other networks have no client here: their tokens stay.
	if _, ok := reg.Token(cashier.ChainETH, "USDC"); !ok {
		t.Fatal("a token of a network without a client was refused")
	}
}

func big18() *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil) }
