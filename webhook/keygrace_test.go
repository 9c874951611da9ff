package webhook

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// TestWebhookKeyGrace: after a rotation with a grace, an event queued
// before it and one queued after are both signed at delivery with the
// previous key in the headers receivers read and with the new key in the
// -Next headers; after the grace, or once the previous key is revoked,
// the main headers carry the new key and no -Next header is sent.
func TestWebhookKeyGrace(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	h := sign.HeaderNames("")
	d := e.dispatcher(sandbox)
	ctx := context.Background()
	rotate := func(newKey string, grace time.Duration) {
		t.Helper()
		err := e.db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
			m, err := tx.Merchant(ctx, e.m.ID)
			if err != nil {
				return err
			}
			m.APIKey, m.SecretKey, m.WebhookKey = "pk_"+newKey, "sk_"+newKey, newKey
			m.PrevKeyUntil = time.Time{}
			if grace > 0 {
				m.PrevKeyUntil = e.clock.Now().Add(grace)
			}
			return tx.ReplaceMerchantKeys(ctx, m)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// check delivers every due event and checks the last request's
	// signatures: main under key, -Next under next ("" : absent).
	check := func(key, next string) {
		t.Helper()
		before := len(rc.requests())
		if n := e.deliverDue(d); n != 1 || len(rc.requests()) != before+1 {
			t.Fatalf("%d attempts", n)
		}
		r := rc.requests()[before]
		ts := strconv.FormatInt(e.clock.Now().UnixMilli(), 10)
		if err := sign.VerifyWebhook(sign.WebhookRaw, key, r.Body, ts, r.Header.Get(h.SignatureV2)); err != nil {
			t.Errorf("%s under %q: %v", h.SignatureV2, key, err)
		}
		if err := sign.VerifyWebhookBody(key, r.Body, r.Header.Get(h.Signature)); err != nil {
			t.Errorf("%s under %q: %v", h.Signature, key, err)
		}
		v2n, pn := r.Header.Get(h.SignatureV2Next), r.Header.Get(h.SignatureNext)
		if next == "" {
			if v2n != "" || pn != "" {
				t.Errorf("-Next headers sent outside a grace: %q %q", v2n, pn)
			}
			return
		}
		if err := sign.VerifyWebhook(sign.WebhookRaw, next, r.Body, ts, v2n); err != nil {
			t.Errorf("%s under %q: %v", h.SignatureV2Next, next, err)
		}
		if err := sign.VerifyWebhookBody(next, r.Body, pn); err != nil {
			t.Errorf("%s under %q: %v", h.SignatureNext, next, err)
		}
		if sign.VerifyWebhook(sign.WebhookRaw, key, r.Body, ts, v2n) == nil {
			t.Errorf("%s verifies under the main key too", h.SignatureV2Next)
		}
	}

	e.addEvent(e.m, "co_before", cashier.CollectionSuccess, rc.URL) // queued before the rotation
	rotate("whk_second", time.Hour)
	check(testWebhookKey, "whk_second")
	e.addEvent(e.m, "co_during", cashier.CollectionSuccess, rc.URL)
	e.clock.Set(t0.Add(59 * time.Minute))
	check(testWebhookKey, "whk_second")

	// The grace ends: the new key alone, in the main headers.
	e.addEvent(e.m, "co_after", cashier.CollectionSuccess, rc.URL)
	e.clock.Set(t0.Add(time.Hour))
	check("whk_second", "")

	// A second rotation, then the previous key revoked during its grace.
	rotate("whk_third", time.Hour)
	e.addEvent(e.m, "co_third", cashier.CollectionSuccess, rc.URL)
	check("whk_second", "whk_third")
	if err := e.db.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.EndPreviousKey(ctx, e.m.ID) }); err != nil {
		t.Fatal(err)
	}
	e.addEvent(e.m, "co_revoked", cashier.CollectionSuccess, rc.URL)
	check("whk_third", "")

	// A rotation without a grace switches at once.
	rotate("whk_fourth", 0)
	e.addEvent(e.m, "co_nograce", cashier.CollectionSuccess, rc.URL)
	check("whk_fourth", "")
}
