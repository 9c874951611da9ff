package payoutcontract

import (
	"testing"

	"github.com/stablecashier/cashier/contracts"
)

// The committed artifacts hold the immutables a registration must ignore:
// CashierPayout two (chain id, domain separator), DepositFactory three
// (implementation, proxy code hash, CREATE2 prefix), each maybe read in
// more than one place.
func TestImmutablePlaceholders(t *testing.T) {
	for name, least := range map[string]int{ArtifactPayout: 2, ArtifactFactory: 3} {
		code, err := contracts.DeployedCode(name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range immutableMask(code) {
			if m {
				n++
			}
		}
		if n%32 != 0 || n/32 < least {
			t.Fatalf("%s: %d masked bytes, want at least %d whole words", name, n, least)
		}
		t.Logf("%s: %d immutable references", name, n/32)
		if ok, err := MatchesArtifact(name, code); err != nil || !ok {
			t.Fatalf("%s does not match itself: %v %v", name, ok, err)
		}
		bad := append([]byte(nil), code...)
		bad[len(bad)/3] ^= 1
		if ok, _ := MatchesArtifact(name, bad); ok && !immutableMask(code)[len(bad)/3] {
			t.Fatalf("%s: a changed byte outside the immutables matched", name)
		}
	}
}
