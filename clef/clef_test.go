package clef_test

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
)

// The rules file names what the service signs: the payout contract's
// EIP-712 domain and the selectors of its two payout calls. A change of
// either in the contract fails here before a Clef refuses every batch.
// (A real Clef runs the rules in cmd/cashier TestClefSignsPayoutsOnTheBinary.)
func TestRulesNameTheContract(t *testing.T) {
	b, err := os.ReadFile("rules.js")
	if err != nil {
		t.Fatal(err)
	}
	rules := string(b)
	abi := bindings.NewCashierPayout()
	one := []*big.Int{big.NewInt(1)}
	to := []common.Address{{1}}
	calls := map[string][]byte{
		"payoutWithBalance":   abi.PackPayoutWithBalance(common.Address{}, to, one, big.NewInt(0), nil, big.NewInt(0), big.NewInt(0)),
		"payoutWithAllowance": abi.PackPayoutWithAllowance(common.Address{}, common.Address{}, to, one, big.NewInt(0), nil, big.NewInt(0), big.NewInt(0)),
	}
	fourByte := map[string]string{}
	if b, err := os.ReadFile("4byte.json"); err != nil || json.Unmarshal(b, &fourByte) != nil {
		t.Fatalf("4byte.json: %v", err)
	}
	for name, data := range calls {
		id := hex.EncodeToString(data[:4])
		if sel := `"0x` + id + `": true`; !strings.Contains(rules, sel) {
			t.Errorf("rules.js does not allow %s (%s)", name, sel)
		}
		if sig := fourByte[id]; !strings.HasPrefix(sig, name+"(") || hex.EncodeToString(crypto.Keccak256([]byte(sig))[:4]) != id {
			t.Errorf("4byte.json names %s %q", id, sig)
		}
	}
	if len(fourByte) != len(calls) {
		t.Errorf("4byte.json has %d entries", len(fourByte))
	}
	for _, want := range []string{`DOMAIN_NAME = "` + payoutcontract.DomainName + `"`, `DOMAIN_VERSION = "` + payoutcontract.DomainVersion + `"`,
		`"PayoutWithBalance": true`, `"PayoutWithAllowance": true`} {
		if !strings.Contains(rules, want) {
			t.Errorf("rules.js lacks %s", want)
		}
	}
}
