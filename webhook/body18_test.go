package webhook

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/stablecashier/cashier"
)

// A BSC order's webhook carries its 18-decimal amounts exactly, the
// network's name and its numeric chain id.
func TestCollectionEventBodyBSC(t *testing.T) {
	m := &cashier.Merchant{ID: "m_alpha"}
	o := collection(m, "co_bsc", cashier.CollectionSuccess, t0)
	o.Chain, o.Decimals = cashier.ChainBSC, 18
	o.Amount, _ = new(big.Int).SetString("10500000000000000000", 10)
	o.PaidAmount, _ = new(big.Int).SetString("10500000000000000001", 10)
	ev, err := NewWriter(nil).CollectionEvent(o, &cashier.Cashier{ID: "c_1", Num: 7, WebhookURL: "https://hooks.example.com/pay"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(ev.Body, &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"amount": "10.50", "paidAmount": "10.500000000000000001", "network": "BNB Smart Chain", "chainId": "56"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %s (%s)", k, got[k], want, ev.Body)
		}
	}
}
