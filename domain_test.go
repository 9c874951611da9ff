package cashier

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

func TestParseChain(t *testing.T) {
	for in, want := range map[string]Chain{"TRON": ChainTRON, "tron": ChainTRON, "ETH": ChainETH, "1": ChainETH, "Ethereum": ChainETH,
		"ARB": ChainARB, "42161": ChainARB, " arb ": ChainARB} {
		if got, err := ParseChain(in); err != nil || got != want {
			t.Errorf("ParseChain(%q) = %s, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "SOL", "97", "ETH2"} {
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

func TestKeepRecipients(t *testing.T) {
	ts := []Transfer{{To: "a", TxHash: "1"}, {To: "b", TxHash: "2"}, {To: "a", TxHash: "3"}, {To: "c", TxHash: "4"}}
	var asked []string
	got, err := KeepRecipients(ts, func(addrs []string) (map[string]bool, error) {
		asked = append(asked, addrs...)
		return map[string]bool{"a": true, "c": true}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(asked, ",") != "a,b,c" {
		t.Errorf("asked %v, want each recipient once in order", asked)
	}
	var hashes []string
	for _, t := range got {
		hashes = append(hashes, t.TxHash)
	}
	if strings.Join(hashes, ",") != "1,3,4" {
		t.Errorf("kept %v, want 1,3,4 in order", hashes)
	}
	if _, err := KeepRecipients(ts, func([]string) (map[string]bool, error) { return nil, errors.New("down") }); err == nil {
		t.Error("keep's error was dropped")
	}
	if got, err := KeepRecipients(nil, func([]string) (map[string]bool, error) {
		t.Error("keep asked for no transfers")
		return nil, nil
	}); got != nil || err != nil {
		t.Errorf("no transfers: %v, %v", got, err)
	}
}
