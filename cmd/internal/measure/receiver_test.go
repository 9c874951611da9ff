package measure

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sign"
)

// signedHook is a delivery of body signed with key as the service signs
// it (only the headers the receiver checks).
func signedHook(t *testing.T, key string, body []byte) *http.Request {
	t.Helper()
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	v2, _, err := sign.Webhook(sign.WebhookRaw, key, body, ts)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
	h := sign.HeaderNames("")
	r.Header.Set(h.RequestTime, ts)
	r.Header.Set(h.SignatureV2, v2)
	return r
}

// The receiver hands on only verified webhooks and counts the refused
// ones: a wrong signature (401) and one its accept refuses (400).
func TestReceiverVerifiesAndCountsBad(t *testing.T) {
	body := []byte(`{"eventId":"evt_1","event":"payment","eventType":"payment.success","orderNo":"C1","status":"SUCCESS"}`)
	var got []string
	refuse := false
	rc := &Receiver{key: "wk", accept: func(ev *client.WebhookEvent, raw []byte, at time.Time) error {
		if refuse {
			return errors.New("no")
		}
		if !bytes.Equal(raw, body) || at.IsZero() {
			t.Errorf("accept got body %q at %v", raw, at)
		}
		got = append(got, ev.EventType+" "+ev.OrderNo)
		return nil
	}}

	for _, c := range []struct {
		name   string
		key    string
		refuse bool
		code   int
		bad    int64
	}{
		{"verified", "wk", false, http.StatusOK, 0},
		{"wrong key", "other", false, http.StatusUnauthorized, 1},
		{"refused by accept", "wk", true, http.StatusBadRequest, 2},
	} {
		refuse = c.refuse
		w := httptest.NewRecorder()
		rc.ServeHTTP(w, signedHook(t, c.key, body))
		if w.Code != c.code || rc.Bad() != c.bad {
			t.Errorf("%s: status %d, bad %d; want %d, %d", c.name, w.Code, rc.Bad(), c.code, c.bad)
		}
	}
	if len(got) != 1 || got[0] != "payment.success C1" {
		t.Fatalf("accepted %q, want the one verified webhook", got)
	}
}
