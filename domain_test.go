package cashier

import (
	"errors"
	"fmt"
	"math/big"
	"testing"
)

func TestParseChain(t *testing.T) {
	for in, want := range map[string]Chain{"TRON": ChainTRON, "tron": ChainTRON, "ETH": ChainETH, "1": ChainETH, "Ethereum": ChainETH,
		"ARB": ChainARB, "42161": ChainARB, " arb ": ChainARB} {
		if got, err := ParseChain(in); err != nil || got != want {
			t.Errorf("ParseChain(%q) = %s, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "BSC", "56", "ETH2"} {
		if _, err := ParseChain(in); ErrorCode(err) != EUnsupported {
			t.Errorf("ParseChain(%q): %v", in, err)
		}
	}
	if ChainETH.ConfigID() != "1" || ChainARB.ConfigID() != "42161" || ChainTRON.ConfigID() != "TRON" {
		t.Error("ConfigID mapping")
	}
}

func TestCollectionTransitions(t *testing.T) {
	allowed := map[[2]CollectionStatus]bool{
		{CollectionPending, CollectionSuccess}:   true,
		{CollectionPending, CollectionExpired}:   true,
		{CollectionPending, CollectionCancelled}: true,
		{CollectionExpired, CollectionSuccess}:   true,
	}
	for _, from := range CollectionStatuses {
		for _, to := range CollectionStatuses {
			if got := from.CanTransition(to); got != allowed[[2]CollectionStatus{from, to}] {
				t.Errorf("%s -> %s: %v", from, to, got)
			}
		}
	}
	if CollectionStatus("PAID").Valid() || !CollectionExpired.Valid() {
		t.Error("Valid")
	}
}

func TestPayoutTransitions(t *testing.T) {
	allowed := map[[2]PayoutStatus]bool{
		{PayoutPending, PayoutProcessing}: true,
		{PayoutPending, PayoutRefuse}:     true,
		{PayoutProcessing, PayoutSuccess}: true,
		{PayoutProcessing, PayoutRefuse}:  true,
	}
	for _, from := range PayoutStatuses {
		for _, to := range PayoutStatuses {
			if got := from.CanTransition(to); got != allowed[[2]PayoutStatus{from, to}] {
				t.Errorf("%s -> %s: %v", from, to, got)
			}
		}
	}
	if !PayoutSuccess.Final() || !PayoutRefuse.Final() || PayoutPending.Final() {
		t.Error("Final")
	}
}

func TestRegistryLookup(t *testing.T) {
	r := &Registry{
		Networks: []Network{{Chain: ChainETH, Status: NetworkActive}, {Chain: ChainARB, Status: NetworkMaintenance}},
		Tokens: []Token{
			{Symbol: "USDT", Chain: ChainETH, ContractAddress: "0xAbC", Decimals: 6, MinAmount: big.NewInt(1_000_000), MaxAmount: big.NewInt(5_000_000)},
			{Symbol: "USDT", Chain: ChainARB, Decimals: 6},
		},
	}
	tok, err := r.LookupToken(ChainETH, "usdt")
	if err != nil || tok.Symbol != "USDT" {
		t.Fatalf("LookupToken: %v %v", tok, err)
	}
	if _, ok := r.TokenByAddress(ChainETH, "0xabc"); !ok {
		t.Error("TokenByAddress is not case-insensitive")
	}
	if _, err := r.LookupToken(ChainARB, "USDT"); ErrorCode(err) != ENetworkMaintenance {
		t.Errorf("maintenance: %v", err)
	}
	if _, err := r.LookupToken(ChainTRON, "USDT"); ErrorCode(err) != EUnsupported {
		t.Errorf("unknown network: %v", err)
	}
	if _, err := r.LookupToken(ChainETH, "DAI"); ErrorCode(err) != EUnsupported {
		t.Errorf("unknown token: %v", err)
	}
	for in, code := range map[string]Code{"0.5": EInvalidAmount, "5.000001": EInvalidAmount, "0": EInvalidAmount, "abc": EInvalidAmount, "1": "", "5": ""} {
		if _, err := tok.ParseOrderAmount(in); ErrorCode(err) != code {
			t.Errorf("ParseOrderAmount(%q): %v, want %q", in, err, code)
		}
	}
}

func TestErrors(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", Errorf(EDuplicate, "order %s exists", "A1"))
	if ErrorCode(err) != EDuplicate || ErrorMessage(err) != "order A1 exists" {
		t.Errorf("wrapped domain error: %s %q", ErrorCode(err), ErrorMessage(err))
	}
	if ErrorCode(errors.New("disk on fire")) != EInternal || ErrorMessage(errors.New("disk on fire")) != "internal error" {
		t.Error("foreign errors must be internal and hide their text")
	}
	if ErrorCode(nil) != "" {
		t.Error("nil")
	}
}
