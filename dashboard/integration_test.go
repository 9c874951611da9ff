package dashboard_test

import (
	"context"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
)

func TestRotateRevokeKeys(t *testing.T) {
	clock := cashier.NewManualClock(time.Now())
	e := newEnvClock(t, func(c *config.Config) { c.KeyGrace = time.Hour; c.CacheTTL = 0 }, clock)
	ctx := context.Background()
	dev := e.signIn("developer@one.example")
	st, out := dev.post("/dashboard/api/keys/rotate", map[string]any{}, dev.csrf)
	if st != 200 {
		t.Fatalf("rotate: %d %v", st, out)
	}
	k := out["data"].(map[string]any)
	if want := clock.Now().Add(time.Hour).UnixMilli(); int64(k["previousKeyUntil"].(float64)) != want {
		t.Fatalf("previousKeyUntil %v, want %d", k["previousKeyUntil"], want)
	}
	old := client.New(e.srv.URL, e.m1.APIKey, e.m1.SecretKey, client.WithClock(clock))
	fresh := client.New(e.srv.URL, k["apiKey"].(string), k["secretKey"].(string), client.WithClock(clock))
	// Within the grace both keys work, each signing with its own secret.
	for name, c := range map[string]*client.Client{"old": old, "new": fresh} {
		if info, err := c.CashierInfo(ctx, e.c1); err != nil || info.MerchantID != e.m1.ID {
			t.Fatalf("%s key within the grace: %v %+v", name, err, info)
		}
		if _, err := c.ListCollections(ctx, client.ListRequest{}); err != nil {
			t.Fatalf("signed call with the %s secret: %v", name, err)
		}
	}
	// The old key does not sign with the new secret, nor the reverse.
	if _, err := client.New(e.srv.URL, e.m1.APIKey, k["secretKey"].(string), client.WithClock(clock)).ListCollections(ctx, client.ListRequest{}); err == nil {
		t.Fatal("the old key signed with the new secret was accepted")
	}
	// The integration page shows both keys with the old one's end.
	page := dev.getPage("/dashboard/integration")
	if !strings.Contains(page, `id="key-previous"`) || !strings.Contains(page, clock.Now().Add(time.Hour).Format(time.RFC3339)) ||
		!strings.Contains(page, `id="keys-revoke-old"`) {
		t.Fatal("the integration page does not show the previous key and its end")
	}
	clock.Advance(time.Hour)
	if _, err := old.CashierInfo(ctx, e.c1); !client.IsCode(err, "ERROR_000401") {
		t.Fatalf("old key after its grace: %v", err)
	}
	if page := dev.getPage("/dashboard/integration"); strings.Contains(page, `id="key-previous"`) || strings.Contains(page, `id="keys-revoke-old"`) {
		t.Fatal("the integration page still shows a previous key whose grace is over")
	}
	if _, err := fresh.CashierInfo(ctx, e.c1); err != nil {
		t.Fatalf("new key after the grace: %v", err)
	}
	// The secret is shown once: nothing in the API reads it back.
	var sess map[string]any
	dev.getJSON("/dashboard/api/merchants", &sess)
	if s := fmtAny(sess); contains(s, k["secretKey"].(string)) || contains(s, k["apiKey"].(string)) {
		t.Fatal("a key is readable after creation")
	}

	// Revoke now: a second rotation's old key stops before its grace ends.
	_, out = dev.post("/dashboard/api/keys/rotate", map[string]any{}, dev.csrf)
	k2 := out["data"].(map[string]any)
	if _, err := fresh.CashierInfo(ctx, e.c1); err != nil {
		t.Fatalf("previous key within its grace: %v", err)
	}
	if st, _ := dev.post("/dashboard/api/keys/revoke-old", map[string]any{}, dev.csrf); st != 200 {
		t.Fatalf("revoke old: %d", st)
	}
	if _, err := fresh.CashierInfo(ctx, e.c1); !client.IsCode(err, "ERROR_000401") {
		t.Fatalf("previous key after revoke-old: %v", err)
	}
	newest := client.New(e.srv.URL, k2["apiKey"].(string), k2["secretKey"].(string), client.WithClock(clock))
	if _, err := newest.CashierInfo(ctx, e.c1); err != nil {
		t.Fatalf("current key after revoke-old: %v", err)
	}
	if st, out := dev.post("/dashboard/api/keys/revoke-old", map[string]any{}, dev.csrf); st != 400 {
		t.Fatalf("revoke old with none left: %d %v", st, out)
	}

	// Revoking the keys stops the current one and any previous one.
	_, out = dev.post("/dashboard/api/keys/rotate", map[string]any{}, dev.csrf)
	k3 := out["data"].(map[string]any)
	if st, _ := dev.post("/dashboard/api/keys/revoke", map[string]any{}, dev.csrf); st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	for name, c := range map[string]*client.Client{"previous": newest, "current": client.New(e.srv.URL, k3["apiKey"].(string), k3["secretKey"].(string), client.WithClock(clock))} {
		if _, err := c.CashierInfo(ctx, e.c1); err == nil {
			t.Fatalf("revoked %s key still works", name)
		}
	}
	// Rotating after a revoke issues working keys and no grace for the
	// revoked ones.
	_, out = dev.post("/dashboard/api/keys/rotate", map[string]any{}, dev.csrf)
	k = out["data"].(map[string]any)
	if k["previousKeyUntil"].(float64) != 0 {
		t.Fatalf("a revoked key got a grace: %v", k["previousKeyUntil"])
	}
	if _, err := client.New(e.srv.URL, k["apiKey"].(string), k["secretKey"].(string), client.WithClock(clock)).CashierInfo(ctx, e.c1); err != nil {
		t.Fatalf("keys after revoke and rotate: %v", err)
	}
	var audit struct{ Data []map[string]any }
	e.signIn("owner@one.example").getJSON("/dashboard/api/audit", &audit)
	actions := map[string]int{}
	for _, a := range audit.Data {
		actions[a["action"].(string)]++
		if contains(fmtAny(a), k["secretKey"].(string)) {
			t.Fatal("audit entry holds a secret")
		}
	}
	if actions["keys.rotate"] != 4 || actions["keys.revoke"] != 2 {
		t.Fatalf("audit actions %v", actions)
	}
}

// rotateByForm signs merchant one's developer in, posts the rotate form
// and returns the user (not following redirects) and where the answer
// sends the browser: the one-time view.
func (e *env) rotateByForm() (*user, string) {
	e.t.Helper()
	dev := e.signIn("developer@one.example")
	dev.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := dev.c.PostForm(e.srv.URL+"/dashboard/api/keys/rotate", url.Values{"csrf": {dev.csrf}, "merchantId": {e.m1.ID}})
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/dashboard/keys?view=") {
		e.t.Fatalf("rotate form: %d to %q", res.StatusCode, loc)
	}
	return dev, loc
}

// TestRotationResultShownOnce: the rotate form redirects to a one-time
// view; a refresh of it rotates nothing and shows no keys.
func TestRotationResultShownOnce(t *testing.T) {
	e := newEnv(t, nil)
	dev, loc := e.rotateByForm()
	first := dev.getPage(loc)
	apiKey := between(first, `id="key-api">`, "<")
	if apiKey == "" || !strings.Contains(first, `id="old-key-until"`) {
		t.Fatalf("the result page shows no keys:\n%s", first)
	}
	// The page says what happens to webhooks during the grace, with the
	// header names receivers read.
	grace := between(first, `id="webhook-key-grace">`, "</p>")
	for _, want := range []string{"previous webhook key", "<code>Service-Signature-V2</code> and <code>Service-Signature</code>",
		"<code>Service-Signature-V2-Next</code> and <code>Service-Signature-Next</code>", "revoked"} {
		if !strings.Contains(grace, want) {
			t.Errorf("the rotation page's webhook paragraph lacks %q:\n%s", want, grace)
		}
	}
	again := dev.getPage(loc) // the refresh
	if strings.Contains(again, apiKey) || !strings.Contains(again, `id="keys-gone"`) {
		t.Fatal("a refresh showed the keys again")
	}
	// Another session cannot take a result either.
	other := e.signIn("developer@one.example")
	if strings.Contains(other.getPage(loc), `id="key-api"`) {
		t.Fatal("another session saw a rotation result")
	}
	rotations := 0
	for _, a := range e.audit(e.m1.ID) {
		if a.Action == "keys.rotate" {
			rotations++
		}
	}
	if rotations != 1 {
		t.Fatalf("%d rotations after one post and two views", rotations)
	}
	secret := between(first, `id="key-secret">`, "<")
	if _, err := client.New(e.srv.URL, apiKey, secret).CashierInfo(context.Background(), e.c1); err != nil {
		t.Fatalf("the shown key does not work: %v", err)
	}
}

// Behind a load balancer without sticky sessions the view after the
// rotate form's redirect may reach another instance: the result waits in
// the store, so an instance that did not rotate shows it, and only once.
func TestRotationResultOnAnotherInstance(t *testing.T) {
	e := newEnv(t, nil)
	other, err := app.New(context.Background(), e.cfg, app.Options{Chains: map[cashier.Chain]cashier.ChainClient{}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	srv2 := httptest.NewServer(other.Handler)
	t.Cleanup(srv2.Close)
	dev, loc := e.rotateByForm()
	view := func(base string) string {
		t.Helper()
		res, err := dev.c.Get(base + loc) // the session cookie goes to either instance
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	first := view(srv2.URL)
	apiKey := between(first, `id="key-api">`, "<")
	if apiKey == "" {
		t.Fatalf("the other instance shows no keys:\n%s", first)
	}
	if again := view(e.srv.URL); strings.Contains(again, apiKey) || !strings.Contains(again, `id="keys-gone"`) {
		t.Fatal("the rotating instance showed the keys a second time")
	}
}

func TestCloseCashierAndWebhookTest(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	var (
		mu  sync.Mutex
		got []http.Header
	)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
	}))
	defer recv.Close()
	u := e.signIn("owner@one.example")
	if st, out := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"webhookUrl": "ftp://x"}, u.csrf); st != 400 {
		t.Fatalf("bad webhook URL: %d %v", st, out)
	}
	if st, out := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"webhookUrl": recv.URL + "/hook"}, u.csrf); st != 200 {
		t.Fatalf("set webhook URL: %d %v", st, out)
	}
	st, out := u.post("/dashboard/api/cashiers/"+e.c1+"/test", nil, u.csrf)
	if st != 200 || out["data"].(map[string]any)["ok"] != true {
		t.Fatalf("test event: %d %v", st, out)
	}
	mu.Lock()
	if len(got) != 1 || got[0].Get("Service-Signature-V2") == "" {
		t.Fatalf("receiver got %v", got)
	}
	mu.Unlock()

	cli := client.New(e.srv.URL, e.m1.APIKey, e.m1.SecretKey)
	if st, _ := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"status": "inactive"}, u.csrf); st != 200 {
		t.Fatal("close")
	}
	if _, err := cli.CashierInfo(ctx, e.c1); !client.IsCode(err, "ERROR_000102") {
		t.Fatalf("cashier info of a closed cashier: %v", err)
	}
	_, err := cli.CreateCollection(ctx, client.CollectionRequest{CashierID: e.c1, OrderNo: "after-close", Amount: "5.00", Symbol: "USDT", ChainID: "ETH"})
	if err == nil {
		t.Fatal("a closed cashier took a new order")
	}
	if st, _ := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"status": "active"}, u.csrf); st != 200 {
		t.Fatal("open")
	}
	if _, err := cli.CashierInfo(ctx, e.c1); err != nil {
		t.Fatalf("reopened cashier: %v", err)
	}
	if st, _ := u.post("/dashboard/api/cashiers/"+e.c1, map[string]any{"status": "paused"}, u.csrf); st != 400 {
		t.Fatal("unknown status accepted")
	}
}

func TestNetworkMaintenance(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	cli := client.New(e.srv.URL, "", "")
	owner := e.signIn("owner@one.example")
	if st, _ := owner.post("/dashboard/api/networks/ETH", map[string]any{"status": "maintenance"}, owner.csrf); st != 403 {
		t.Fatalf("owner set network status: %d", st)
	}
	op := e.signIn("ops@service.example")
	if st, _ := op.post("/dashboard/api/networks/ETH", map[string]any{"status": "broken"}, op.csrf); st != 400 {
		t.Fatalf("bad status: %d", st)
	}
	if st, _ := op.post("/dashboard/api/networks/ETH", map[string]any{"status": "maintenance"}, op.csrf); st != 200 {
		t.Fatalf("maintenance: %d", st)
	}
	status := func() map[string]string {
		ns, err := cli.Networks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, n := range ns {
			out[n.ChainID] = n.Status
		}
		return out
	}
	if s := status(); s["1"] != "maintenance" || s["TRON"] != "active" {
		t.Fatalf("network list: %v", s)
	}
	op.post("/dashboard/api/networks/ETH", map[string]any{"status": "active"}, op.csrf)
	if s := status(); s["1"] != "active" {
		t.Fatalf("network list after: %v", s)
	}
}

func TestResendEvent(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	now := time.Now()
	ev := &cashier.Event{ID: "ev_test_1", MerchantID: e.m1.ID, Type: cashier.EventPayment, OrderID: e.o1, OrderNo: "ORD-One",
		Status: "SUCCESS", URL: "http://127.0.0.1:1/hook", Body: []byte(`{"orderNo":"ORD-One"}`), CreatedAt: now}
	if err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error { return tx.AddEvent(ctx, ev) }); err != nil {
		t.Fatal(err)
	}
	var detail struct{ Data map[string]any }
	u := e.signIn("developer@one.example")
	u.getJSON("/dashboard/api/collections/"+e.o1, &detail)
	if evs := detail.Data["events"].([]any); len(evs) != 1 || evs[0].(map[string]any)["eventId"] != ev.ID {
		t.Fatalf("events of the order: %v", detail.Data["events"])
	}
	other := e.signIn("owner@two.example")
	if st, _ := other.post("/dashboard/api/events/"+ev.ID+"/resend", nil, other.csrf); st != 404 {
		t.Fatalf("another merchant resent the event: %d", st)
	}
	if st, out := u.post("/dashboard/api/events/"+ev.ID+"/resend", nil, u.csrf); st != 200 {
		t.Fatalf("resend: %d %v", st, out)
	}
}

func TestOrderSearch(t *testing.T) {
	e := newEnv(t, nil)
	u := e.signIn("viewer@one.example")
	o, _ := e.svc.Store.Collection(context.Background(), e.o1)
	var list struct {
		Data struct{ Total int } `json:"data"`
	}
	for q, want := range map[string]int{
		"txId=" + o.TxID: 1, "txId=0xnothing": 0, "orderNo=ORD-One": 1, "chainId=ETH": 1, "chainId=TRON": 0,
		"txId=" + strings.ToUpper(o.TxID): 1, "orderNo=ORD-O": 1, "orderNo=ORD": 1, "orderNo=ord-one": 0, "orderNo=ORD-One-2": 0,
		"symbol=USDC": 0, "status=PENDING": 1, "status=SUCCESS": 0, "address=" + o.DepositAddress: 1,
		"from=2000-01-01&to=2000-01-02": 0,
	} {
		if st := u.getJSON("/dashboard/api/collections?"+q, &list); st != 200 || list.Data.Total != want {
			t.Errorf("%s: %d total %d, want %d", q, st, list.Data.Total, want)
		}
	}
	for _, q := range []string{"chainId=SOL", "from=yesterday", "pageSize=1000", "page=0"} {
		if st := u.getJSON("/dashboard/api/collections?"+q, nil); st != 400 {
			t.Errorf("%s: %d, want 400", q, st)
		}
	}
	// The list page: paid against due with the token; status a choice of
	// the collection statuses.
	res, err := u.c.Get(e.srv.URL + "/dashboard/collections?status=PENDING")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(body)
	if !strings.Contains(page, `<td class="num paid-due">0.00 / 12.50 USDT</td>`) ||
		!strings.Contains(page, `<option value="PENDING" selected>`) || !strings.Contains(page, `<option value="EXPIRED">`) ||
		strings.Contains(page, `<option value="PROCESSING">`) {
		t.Fatalf("collections page:\n%s", between(page, "<main>", "</main>"))
	}
}

func TestCollectionDetailShowsPayments(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	o, _ := e.svc.Store.Collection(ctx, e.o1)
	p := &cashier.Payment{Chain: o.Chain, TxHash: o.TxID, LogIndex: 3, OrderID: o.ID, MerchantID: o.MerchantID,
		Token: "0x00000000000000000000000000000000000000c1", Symbol: "USDT", Decimals: 6,
		From: "0x00000000000000000000000000000000000000f1", To: o.DepositAddress, Amount: big.NewInt(12_500_000),
		BlockNumber: 42, BlockHash: "0xb10c", BlockTime: time.Now(), Status: cashier.PaymentConfirmed,
		Effect: cashier.EffectCredited, SeenAt: time.Now(), ConfirmedAt: time.Now(), UpdatedAt: time.Now()}
	f := &cashier.Refund{ID: "rf_1", MerchantID: o.MerchantID, RefundNo: "R-77", OrderID: o.ID, OrderNo: o.OrderNo, Chain: o.Chain,
		Symbol: "USDT", Decimals: 6, Amount: big.NewInt(2_250_000), Address: "0x00000000000000000000000000000000000000f2",
		Status: cashier.RefundSuccess, TxID: "0xfeed", SentAt: time.Now(), CreatedAt: time.Now()}
	if err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreatePayment(ctx, p); err != nil {
			return err
		}
		return tx.CreateRefund(ctx, f)
	}); err != nil {
		t.Fatal(err)
	}
	u := e.signIn("viewer@one.example")
	var d struct{ Data map[string]any }
	u.getJSON("/dashboard/api/collections/"+o.ID, &d)
	ps, _ := d.Data["payments"].([]any)
	if len(ps) != 1 || ps[0].(map[string]any)["amount"] != "12.50" || ps[0].(map[string]any)["txId"] != o.TxID {
		t.Fatalf("payments: %v", d.Data["payments"])
	}
	if rs, _ := d.Data["refunds"].([]any); len(rs) != 1 || rs[0].(map[string]any)["amount"] != "2.25" || rs[0].(map[string]any)["txId"] != "0xfeed" {
		t.Fatalf("refunds: %v", d.Data["refunds"])
	}
	res, err := u.c.Get(e.srv.URL + "/dashboard/collections/" + o.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), "12.50 USDT") || !strings.Contains(string(body), "CREDITED") {
		t.Fatalf("detail page lacks the payment")
	}
	if !strings.Contains(string(body), "R-77") || !strings.Contains(string(body), "2.25 USDT") || !strings.Contains(string(body), "status-SUCCESS") {
		t.Fatalf("detail page lacks the refund")
	}
}

func TestReviewPolicy(t *testing.T) {
	e := newEnv(t, nil)
	rev := e.signIn("reviewer@one.example")
	if st, _ := rev.post("/dashboard/api/review/policy", map[string]any{"mode": "never"}, rev.csrf); st != 403 {
		t.Fatalf("reviewer set the policy: %d", st)
	}
	owner := e.signIn("owner@one.example")
	for _, bad := range []map[string]any{{"mode": "sometimes"}, {"mode": "above"}, {"mode": "always", "above": "5"}, {"mode": "above", "above": "-1"}} {
		if st, _ := owner.post("/dashboard/api/review/policy", bad, owner.csrf); st != 400 {
			t.Errorf("%v: %d, want 400", bad, st)
		}
	}
	if st, out := owner.post("/dashboard/api/review/policy", map[string]any{"mode": "above", "above": "500"}, owner.csrf); st != 200 {
		t.Fatalf("set: %d %v", st, out)
	}
	var p struct{ Data map[string]any }
	rev.getJSON("/dashboard/api/review/policy", &p)
	if p.Data["mode"] != "above" || p.Data["above"] != "500" {
		t.Fatalf("policy %v", p.Data)
	}
	other := e.signIn("owner@two.example")
	other.getJSON("/dashboard/api/review/policy", &p)
	if p.Data["mode"] != "default" {
		t.Fatalf("another merchant's policy changed: %v", p.Data)
	}
}
