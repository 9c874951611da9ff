package app

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
)

// The executor's Clef settings: each EVM network named in both, with an
// address; anything else is refused with what to fix.
func TestParseExecutorClef(t *testing.T) {
	got, err := ParseExecutorClef("ETH=/run/clef/eth.ipc, ARB=http://127.0.0.1:8550", "ARB=0x00000000000000000000000000000000000000a2,ETH=0x00000000000000000000000000000000000000e1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[cashier.ChainETH].Endpoint != "/run/clef/eth.ipc" || got[cashier.ChainARB].Endpoint != "http://127.0.0.1:8550" ||
		got[cashier.ChainETH].Account != common.HexToAddress("0x00000000000000000000000000000000000000e1") {
		t.Fatalf("parsed %+v", got)
	}
	if got, err := ParseExecutorClef("", ""); err != nil || len(got) != 0 {
		t.Fatalf("unset: %v %v", got, err)
	}
	for _, c := range []struct{ endpoints, accounts, want string }{
		{"TRON=/x.ipc", "TRON=0x00000000000000000000000000000000000000e1", "EVM networks only"},
		{"ETH=/x.ipc", "", "executor-clef-account does not"},
		{"", "ETH=0x00000000000000000000000000000000000000e1", "executor-clef does not"},
		{"ETH=/x.ipc", "ETH=0x1234", "not an address"},
		{"ETH=/x.ipc,ETH=/y.ipc", "ETH=0x00000000000000000000000000000000000000e1", "given twice"},
		{"/x.ipc", "ETH=0x00000000000000000000000000000000000000e1", "want CHAIN=VALUE"},
	} {
		if _, err := ParseExecutorClef(c.endpoints, c.accounts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: %v, want %q", c.endpoints, c.accounts, err, c.want)
		}
	}
}
