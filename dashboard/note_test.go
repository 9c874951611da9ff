package dashboard_test

import (
	"context"
	"io"
	"math/big"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
)

// An order paid more than it asked carries a badge in the collections list
// and its detail, and paymentNote in the API's JSON.
func TestCollectionNoteBadge(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		o, err := tx.Collection(ctx, e.o1)
		if err != nil {
			return err
		}
		o.PaidAmount = new(big.Int).Add(o.Amount, big.NewInt(1))
		return tx.UpdateCollection(ctx, o)
	})
	if err != nil {
		t.Fatal(err)
	}
	u := e.signIn("viewer@one.example")
	var d struct{ Data map[string]any }
	u.getJSON("/dashboard/api/collections/"+e.o1, &d)
	if d.Data["paymentNote"] != "overpaid" {
		t.Fatalf("paymentNote %v", d.Data["paymentNote"])
	}
	for _, p := range []string{"/dashboard/collections", "/dashboard/collections/" + e.o1} {
		res, err := u.c.Get(e.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Count(string(body), `<span class="badge note-overpaid">overpaid</span>`) != 1 {
			t.Fatalf("%s without exactly one overpaid badge:\n%s", p, body)
		}
	}
}
