package config

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// The built-in registry has BNB Smart Chain, Polygon PoS and Base with the
// issuers' contracts and decimals; BSC's USDT and USDC have 18.
func TestDefaultRegistryHasBSCPolygonBase(t *testing.T) {
	r := DefaultRegistry()
	if err := Validate(r); err != nil {
		t.Fatal(err)
	}
	nets := []struct {
		chain    cashier.Chain
		configID string
		evmID    int64
	}{{cashier.ChainBSC, "56", 56}, {cashier.ChainPOLYGON, "137", 137}, {cashier.ChainBASE, "8453", 8453}}
	for _, w := range nets {
		n, ok := r.Network(w.chain)
		if !ok || n.EVMChainID != w.evmID || n.Chain.ConfigID() != w.configID || n.Status != cashier.NetworkActive ||
			n.Confirmations <= 0 || n.AvgBlockTime <= 0 || n.ExplorerURL == "" || n.AvgGasFee == "" || n.Create2Prefix != 0xff {
			t.Fatalf("%s: %+v", w.chain, n)
		}
	}
	toks := []struct {
		chain    cashier.Chain
		symbol   string
		addr     string
		decimals int
	}{
		{cashier.ChainBSC, "USDT", "0x55d398326f99059fF775485246999027B3197955", 18},
		{cashier.ChainBSC, "USDC", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18},
		{cashier.ChainPOLYGON, "USDT", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6},
		{cashier.ChainPOLYGON, "USDC", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6},
		{cashier.ChainBASE, "USDC", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6},
	}
	for _, w := range toks {
		tk, ok := r.Token(w.chain, w.symbol)
		if !ok || tk.ContractAddress != w.addr || tk.Decimals != w.decimals {
			t.Fatalf("%s %s: %+v", w.chain, w.symbol, tk)
		}
		// Bounds and fee are whole tokens at the token's own scale.
		if got := cashier.FormatAmount(tk.MinAmount, tk.Decimals); got != "1.00" {
			t.Fatalf("%s %s minAmount %s", w.chain, w.symbol, got)
		}
		if got := cashier.FormatAmount(tk.WithdrawFee, tk.Decimals); got != "1.00" {
			t.Fatalf("%s %s withdrawFee %s", w.chain, w.symbol, got)
		}
	}
	if _, ok := r.Token(cashier.ChainBASE, "USDT"); ok {
		t.Fatal("Base has no USDT from its issuer, yet one is built in")
	}
	usdt, _ := r.Token(cashier.ChainBSC, "USDT")
	v, err := usdt.ParseOrderAmount("10.50")
	if err != nil || v.String() != "10500000000000000000" {
		t.Fatalf("10.50 on BSC: %v %v", v, err)
	}
	if v, err := usdt.ParseOrderAmount("1.000000000000000001"); err != nil || v.String() != "1000000000000000001" {
		t.Fatalf("18 places on BSC: %v %v", v, err)
	}
	if _, err := usdt.ParseOrderAmount("1.0000000000000000001"); err == nil {
		t.Fatal("19 places accepted on an 18-decimal token")
	}
	pu, _ := r.Token(cashier.ChainPOLYGON, "USDT")
	if _, err := pu.ParseOrderAmount("1.0000001"); err == nil {
		t.Fatal("7 places accepted on a 6-decimal token")
	}
}

func TestParseChainNewNetworks(t *testing.T) {
	for in, want := range map[string]cashier.Chain{"BSC": cashier.ChainBSC, "56": cashier.ChainBSC, "bnb": cashier.ChainBSC,
		"POLYGON": cashier.ChainPOLYGON, "137": cashier.ChainPOLYGON, "matic": cashier.ChainPOLYGON,
		"BASE": cashier.ChainBASE, "8453": cashier.ChainBASE, "eth": cashier.ChainETH, "42161": cashier.ChainARB, "trx": cashier.ChainTRON} {
		c, err := cashier.ParseChain(in)
		if err != nil || c != want {
			t.Fatalf("ParseChain(%q) = %q %v", in, c, err)
		}
	}
	for _, bad := range []string{"", "97", "BSC-TESTNET", "10"} {
		if _, err := cashier.ParseChain(bad); cashier.ErrorCode(err) != cashier.EUnsupported {
			t.Fatalf("ParseChain(%q): %v", bad, err)
		}
	}
	for _, c := range []cashier.Chain{cashier.ChainBSC, cashier.ChainPOLYGON, cashier.ChainBASE} {
		if !c.IsEVM() {
			t.Fatalf("%s is not EVM", c)
		}
	}
}

// "enabled": false in the registry file switches a network off: it and
// its tokens leave the registry; a token override on it is refused.
func TestOverrideSwitchesNetworkOff(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "registry.json")
	os.WriteFile(p, []byte(`{"networks":[{"chainId":"137","enabled":false},{"chainId":"BASE","enabled":true,"confirmations":30}]}`), 0o600)
	r, err := LoadRegistry(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Network(cashier.ChainPOLYGON); ok {
		t.Fatal("Polygon still in the registry")
	}
	for _, tk := range r.Tokens {
		if tk.Chain == cashier.ChainPOLYGON {
			t.Fatalf("Polygon token left: %+v", tk)
		}
	}
	if n, ok := r.Network(cashier.ChainBASE); !ok || n.Confirmations != 30 {
		t.Fatalf("Base: %+v", n)
	}
	if _, err := r.LookupToken(cashier.ChainPOLYGON, "USDT"); cashier.ErrorCode(err) != cashier.EUnsupported {
		t.Fatalf("order on a switched-off network: %v", err)
	}
	os.WriteFile(p, []byte(`{"networks":[{"chainId":"BSC","enabled":false}],"tokens":[{"chainId":"BSC","symbol":"USDT","name":"x"}]}`), 0o600)
	if _, err := LoadRegistry(p); err == nil || !strings.Contains(err.Error(), "switched off") {
		t.Fatalf("token on a switched-off network: %v", err)
	}
}

// Each EVM network has its own node and finality settings; the existing
// ones keep their names.
func TestPerNetworkNodeSettings(t *testing.T) {
	c := Default()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	env := map[string]string{"CASHIER_POLYGON_RPC": "http://p", "CASHIER_ARB_RPC": "http://a", "CASHIER_TRON_API": "http://t", "CASHIER_BASE_FINALITY": "finalized"}
	if _, err := c.Load(fs, []string{"--bsc-rpc", "http://b1,http://b2", "--eth-rpc", "http://e", "--base-rpc", "http://base"},
		func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	for ch, want := range map[cashier.Chain]string{cashier.ChainBSC: "http://b1,http://b2", cashier.ChainETH: "http://e", cashier.ChainPOLYGON: "http://p",
		cashier.ChainARB: "http://a", cashier.ChainTRON: "http://t", cashier.ChainBASE: "http://base"} {
		if got := c.NodeURLs(ch); got != want {
			t.Fatalf("%s: %q, want %q", ch, got, want)
		}
	}
	if !c.Finalized(cashier.ChainBASE) || c.Finalized(cashier.ChainBSC) {
		t.Fatalf("finality %v", c.EVMFinality)
	}
	// A copy keeps its own node settings.
	d := c
	d.SetNodeURLs(cashier.ChainBSC, "http://other")
	if c.NodeURLs(cashier.ChainBSC) != "http://b1,http://b2" {
		t.Fatal("SetNodeURLs on a copy changed the original")
	}
	if NodeSetting(cashier.ChainPOLYGON) != "CASHIER_POLYGON_RPC" || NodeSetting(cashier.ChainTRON) != "CASHIER_TRON_API" {
		t.Fatal("NodeSetting")
	}
	c = Default()
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := c.Load(fs, []string{"--bsc-finality", "safe"}, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "bsc-finality") {
		t.Fatalf("bsc-finality safe: %v", err)
	}
}
