package webhook

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// A browser-created order's events say so (createdBy, origin); an API
// order's body has neither field.
func TestCollectionEventBrowserCreated(t *testing.T) {
	at := t0.Add(time.Minute)
	o := collection(&cashier.Merchant{ID: "m_alpha"}, "co_b1", cashier.CollectionPending, at)
	c := &cashier.Cashier{ID: "c_1", Num: 7, WebhookURL: "https://hooks.example.com/pay"}
	for _, origin := range []string{"https://shop.example", ""} {
		o.Origin = origin
		ev, err := NewWriter(nil).CollectionEvent(o, c, at)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(ev.Body, &m); err != nil {
			t.Fatal(err)
		}
		_, has := m["createdBy"]
		if origin != "" && (m["createdBy"] != "browser" || m["origin"] != origin) || origin == "" && has {
			t.Fatalf("origin %q: body %s", origin, ev.Body)
		}
	}
}
