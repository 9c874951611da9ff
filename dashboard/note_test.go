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

// The Integration page sets a cashier's allowed origins, canonical and
// checked; a bad origin changes nothing.
func TestCashierAllowedOrigins(t *testing.T) {
	e := newEnv(t, nil)
	u := e.signIn("owner@one.example")
	if st, _ := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"allowedOrigins": "https://Shop.example, http://127.0.0.1:8081"}, u.csrf); st != 200 {
		t.Fatalf("set origins: %d", st)
	}
	if st, _ := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"allowedOrigins": "javascript:alert(1)"}, u.csrf); st != 400 {
		t.Fatalf("bad origin: %d", st)
	}
	c := e.cashier(e.c1)
	if strings.Join(c.AllowedOrigins, ",") != "https://shop.example,http://127.0.0.1:8081" {
		t.Fatalf("allowed origins %v", c.AllowedOrigins)
	}
	res, err := u.c.Get(e.srv.URL + "/dashboard/integration")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `name="allowedOrigins" value="https://shop.example,http://127.0.0.1:8081"`) {
		t.Fatalf("integration page without the origins:\n%s", body)
	}
}
