package http

import (
	"context"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
)

// shortFunds: every contract holds 7.00 of each token.
type shortFunds struct{ testFunds }

func (shortFunds) ContractBalance(ctx context.Context, c cashier.Chain, token, contract string) (*big.Int, error) {
	return units("7"), nil
}

// The refund link's page never tells its holder the merchant's funds: an
// address the contract cannot pay yet gets "this refund cannot be sent
// yet", on the page and in the JSON answer; the merchant reads the detail
// in the refund's failReason. The TRON and Ethereum zero addresses are
// refused on the page.
func TestRefundPageKeepsTheMerchantsFunds(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	po := e.pageOrder(t, "RF-1", "10", "")
	r := po.transfer("USDT", "10")
	e.seen(t, r, 1)
	e.confirmed(t, r)
	link, err := e.cli.CreateRefund(ctx, client.RefundRequest{OrderNo: "RF-1", RefundNo: "L-1", Amount: "10"})
	if err != nil || link.RefundURL == "" {
		t.Fatalf("refund link %+v %v", link, err)
	}
	post := func(contentType, body string) (int, string) {
		t.Helper()
		res, err := http.Post(link.RefundURL, contentType, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if st, page := post("application/x-www-form-urlencoded", "address="+url.QueryEscape("0x0000000000000000000000000000000000000000")); st != 400 || !strings.Contains(page, "zero address") {
		t.Fatalf("the zero address on the page: %d\n%s", st, page)
	}
	e.svc.Funds = shortFunds{}
	const to = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	for _, c := range []struct{ contentType, body string }{
		{"application/x-www-form-urlencoded", "address=" + to},
		{"application/json", `{"address":"` + to + `"}`},
	} {
		st, out := post(c.contentType, c.body)
		if st < 400 || !strings.Contains(out, "this refund cannot be sent yet") || strings.Contains(out, "7.00") ||
			strings.Contains(out, "11.00") || strings.Contains(out, "available") {
			t.Fatalf("%s: %d\n%s", c.contentType, st, out)
		}
	}
	f, err := e.cli.RefundDetail(ctx, "L-1")
	if err != nil || f.Status != "AWAITING_ADDRESS" || !strings.Contains(f.FailReason, "7.00") || !strings.Contains(f.FailReason, to) {
		t.Fatalf("the merchant's view: %+v %v", f, err)
	}
}
