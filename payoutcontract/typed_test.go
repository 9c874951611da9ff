package payoutcontract

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// The typed data an outside signer receives hashes to the digest the
// contract checks, for both modes, after a round trip through JSON (as
// it travels to Clef), with amounts beyond 2^64.
func TestTypedDataHashesToDigest(t *testing.T) {
	big1, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	b := Batch{Token: common.HexToAddress("0x00000000000000000000000000000000000000aa"),
		Recipients: []common.Address{common.HexToAddress("0x00000000000000000000000000000000000000b1"), common.HexToAddress("0x00000000000000000000000000000000000000b2")},
		Amounts:    []*big.Int{big.NewInt(1_500_000), big1}, TotalFee: big.NewInt(2_000_000), Nonce: big.NewInt(77), Timestamp: 1_790_000_000}
	d := Domain{ChainID: big.NewInt(0xcd8690dc), Contract: common.HexToAddress("0x00000000000000000000000000000000000000cc")}
	cases := map[string]struct {
		td     apitypes.TypedData
		digest common.Hash
	}{
		"balance":   {BalancePayout{b}.TypedData(d), BalancePayout{b}.Digest(d)},
		"allowance": {AllowancePayout{b, common.HexToAddress("0x00000000000000000000000000000000000000dd")}.TypedData(d), AllowancePayout{b, common.HexToAddress("0x00000000000000000000000000000000000000dd")}.Digest(d)},
	}
	for name, c := range cases {
		raw, err := json.Marshal(c.td)
		if err != nil {
			t.Fatal(err)
		}
		var back apitypes.TypedData
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		got, err := TypedDigest(back)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != c.digest {
			t.Errorf("%s: typed data hashes to %s, the contract's digest is %s", name, got, c.digest)
		}
	}
	// A changed amount changes the hash: the typed data carries the batch.
	other := b
	other.Amounts = []*big.Int{big.NewInt(1_500_001), big1}
	if h, _ := TypedDigest(BalancePayout{other}.TypedData(d)); h == (BalancePayout{b}).Digest(d) {
		t.Error("the typed data hash ignores the amounts")
	}
}
