package tron

import (
	"encoding/hex"
	"math"
	"math/big"
	"strings"
	"testing"
)

func TestRevertReason(t *testing.T) {
	encode := func(length *big.Int, msg string) string {
		b, _ := hex.DecodeString("08c379a0")
		b = append(b, make([]byte, 31)...)
		b = append(b, 0x20)
		l := make([]byte, 32)
		length.FillBytes(l)
		b = append(b, l...)
		b = append(b, msg...)
		b = append(b, make([]byte, (32-len(msg)%32)%32)...)
		return hex.EncodeToString(b)
	}
	if got := revertReason(encode(big.NewInt(12), "not allowed!")); got != `"not allowed!"` {
		t.Errorf("reason = %s", got)
	}
	// Lengths from a hostile contract: beyond the data, and so large that
	// adding the header offset overflows int64.
	for _, n := range []*big.Int{big.NewInt(33), big.NewInt(math.MaxInt64 - 10), new(big.Int).Lsh(big.NewInt(1), 200)} {
		h := encode(n, "short")
		if got := revertReason(h); !strings.HasPrefix(got, "data 0x") {
			t.Errorf("length %s: reason = %s, want the raw data", n, got)
		}
	}
	if got := revertReason(""); got != "" {
		t.Errorf("empty data: %q", got)
	}
}
