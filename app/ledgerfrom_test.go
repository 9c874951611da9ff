package app

import (
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// --ledger-from takes a block per network; anything else stops the start
// with the setting named.
func TestParseLedgerFrom(t *testing.T) {
	got, err := parseLedgerFrom("ETH=21000000, TRON=68000000")
	if err != nil || len(got) != 2 || got[cashier.ChainETH] != 21_000_000 || got[cashier.ChainTRON] != 68_000_000 {
		t.Fatalf("parsed %v, %v", got, err)
	}
	if got, err := parseLedgerFrom(""); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v, %v", got, err)
	}
	for _, bad := range []string{"ETH=-1", "ETH=0x10", "ETH=", "BTC=5", "ETH=1,ETH=2", "21000000"} {
		if _, err := parseLedgerFrom(bad); err == nil || !strings.Contains(err.Error(), "ledger from") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
