package http

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stablecashier/cashier/api"
)

// TestErrorTableIsDocumented keeps docs/api.md's table equal to errorTable.
func TestErrorTableIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for code, w := range errorTable {
		row := fmt.Sprintf("| %s | %s | %s | %d |", code, w.order, w.config, w.status)
		norm := strings.ReplaceAll(doc, "*", "")
		if !strings.Contains(norm, row) {
			t.Errorf("docs/api.md lacks the row %q", row)
		}
	}
}

// TestAPIDocListsEveryField: each endpoint's section of docs/api.md names
// every JSON field of the structures its request and response are
// encoded from, so the reference cannot fall behind the server.
func TestAPIDocListsEveryField(t *testing.T) {
	b, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	section := func(heading string) string {
		_, rest, ok := strings.Cut(doc, "\n### "+heading)
		if !ok {
			t.Fatalf("docs/api.md has no section %q", heading)
		}
		body, _, _ := strings.Cut(rest, "\n#")
		return body
	}
	for _, c := range []struct {
		heading string
		types   []any
		extra   []string
	}{
		{"POST " + api.PathCreatePayout, []any{api.PayoutRequest{}, api.PayoutCreated{}}, []string{"sign"}},
		{"GET " + api.PathPayoutDetail, []any{api.Payout{}}, nil},
		{"POST " + api.PathBatchPayout, []any{api.BatchRequest{}, api.BatchOrder{}, api.BatchResult{}, api.BatchOrderResult{}}, []string{"sign"}},
		{"POST " + api.PathCreateCollection, []any{api.CollectionRequest{}, api.CollectionCreated{}}, []string{"sign"}},
		{"GET " + api.PathCollectionDetail, []any{api.Collection{}, api.CollectionPayment{}}, nil},
		{"GET " + api.PathCollectionList, []any{api.CollectionList{}}, []string{"startTime", "endTime", "status"}},
		{"GET " + api.PathCashierInfo, []any{api.CashierInfo{}, api.CashierNetwork{}, api.CashierCoin{}, api.PaymentMethod{}}, nil},
		{"GET " + api.PathCoins, []any{api.Coin{}, api.CoinNetwork{}}, nil},
		{"GET " + api.PathNetworks, []any{api.Network{}}, nil},
		{"POST /sdk/v2/order", nil, append(append([]string{}, sdkOrderFields...), "orderId", "payUrl", "embedUrl", "status", "txId", "expireTime")},
	} {
		body := section(c.heading)
		names := append([]string(nil), c.extra...)
		for _, v := range c.types {
			rt := reflect.TypeOf(v)
			for i := range rt.NumField() {
				if n, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); n != "" && n != "-" {
					names = append(names, n)
				}
			}
		}
		for _, n := range names {
			// A field is named as `field`, or inside a `{a, b}` list.
			if !strings.Contains(body, "`"+n+"`") && !regexp.MustCompile(`[{\s]`+n+`[,}\s]`).MatchString(body) {
				t.Errorf("docs/api.md, %s: field %s is not listed", c.heading, n)
			}
		}
	}
}
