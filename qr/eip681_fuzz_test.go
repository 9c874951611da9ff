package qr

import (
	"math/big"
	"net/url"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// FuzzPaymentText6And18: the EIP-681 link of a payment carries the exact
// base units of the amount at the token's decimals: 10.50 on BSC is
// uint256=10500000000000000000, on a 6-decimal token 10500000.
func FuzzPaymentText6And18(f *testing.F) {
	f.Add("10.50", true)
	f.Add("1.000000000000000001", true)
	f.Add("10.50", false)
	f.Add("999999.999999", false)
	f.Fuzz(func(t *testing.T, amount string, eighteen bool) {
		dec, chain, id := 6, cashier.ChainPOLYGON, int64(137)
		if eighteen {
			dec, chain, id = 18, cashier.ChainBSC, 56
		}
		v, err := cashier.ParseAmount(amount, dec)
		if err != nil {
			return
		}
		n := cashier.Network{Chain: chain, EVMChainID: id}
		tok := cashier.Token{Symbol: "USDT", Chain: chain, ContractAddress: "0x55d398326f99059fF775485246999027B3197955", Decimals: dec}
		text, err := PaymentText(n, tok, "0x000000000000000000000000000000000000dEaD", v)
		if err != nil {
			t.Fatal(err)
		}
		_, query, ok := strings.Cut(text, "?")
		if !ok {
			t.Fatalf("no query in %s", text)
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := new(big.Int).SetString(q.Get("uint256"), 10)
		if !ok || got.Cmp(v) != 0 {
			t.Fatalf("%s at %d decimals: link carries %s, want %s", amount, dec, q.Get("uint256"), v)
		}
		if cashier.FormatAmount(got, dec) != cashier.FormatAmount(v, dec) {
			t.Fatal("shown amount differs")
		}
	})
}

func TestPaymentTextBSC(t *testing.T) {
	v, _ := cashier.ParseAmount("10.50", 18)
	text, err := PaymentText(cashier.Network{Chain: cashier.ChainBSC, EVMChainID: 56},
		cashier.Token{ContractAddress: "0x55d398326f99059fF775485246999027B3197955", Decimals: 18}, "0x000000000000000000000000000000000000dEaD", v)
	want := "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0x000000000000000000000000000000000000dEaD&uint256=10500000000000000000"
	if err != nil || text != want {
		t.Fatalf("%s %v", text, err)
	}
}
