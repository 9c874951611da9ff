package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stablecashier/cashier"
)

func TestNotPublic(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1":        "loopback",
		"::1":              "loopback",
		"::ffff:127.0.0.1": "loopback",
		"10.1.2.3":         "private",
		"172.16.0.1":       "private",
		"192.168.1.1":      "private",
		"fd00::1":          "private",
		"169.254.169.254":  "link-local",
		"fe80::1":          "link-local",
		"224.0.0.1":        "multicast",
		"ff02::1":          "multicast",
		"0.0.0.0":          "unspecified",
		"::":               "unspecified",
		"100.64.0.1":       "shared (carrier NAT)",
		"0.1.2.3":          "this-network",
		"255.255.255.255":  "broadcast",
		"64:ff9b::a00:1":   "NAT64",
		"2002:a00:1::":     "6to4",
		"fec0::1":          "site-local",
		"::a00:1":          "IPv4-compatible",
		"::7f00:1":         "IPv4-compatible",
		"8.8.8.8":          "",
		"1.1.1.1":          "",
		"2606:4700::1111":  "",
	} {
		if got := notPublic(netip.MustParseAddr(addr)); got != want {
			t.Errorf("notPublic(%s) = %q, want %q", addr, got, want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, c := range []struct {
		url     string
		sandbox bool
		ok      bool
	}{
		{"https://hooks.example.com/cashier", false, true},
		{"http://hooks.example.com/cashier", false, false},
		{"http://hooks.example.com/cashier", true, true},
		{"https://127.0.0.1/hook", false, false},
		{"https://[::1]:8443/hook", false, false},
		{"https://10.0.0.5/hook", false, false},
		{"https://127.0.0.1/hook", true, true},
		{"ftp://hooks.example.com/", true, false},
		{"https:///nohost", false, false},
		{"hooks.example.com/cashier", false, false},
	} {
		err := CheckURL(c.url, c.sandbox)
		if (err == nil) != c.ok {
			t.Errorf("CheckURL(%q, sandbox=%v) = %v, want ok=%v", c.url, c.sandbox, err, c.ok)
		}
	}
}

func TestProductionRefusesInternalTargets(t *testing.T) {
	e := newEnv(t)
	plain := newReceiver(t, nil)
	var hits atomic.Int32
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer tlsSrv.Close()
	port := tlsSrv.URL[strings.LastIndex(tlsSrv.URL, ":"):]

	cases := []struct{ name, url, wantErr string }{
		{"http scheme", plain.URL, "must use https"},
		{"loopback literal", tlsSrv.URL, "loopback"},
		// A name is checked after resolution, where rebinding cannot reach.
		{"loopback by name", "https://localhost" + port, "loopback"},
	}
	d := e.dispatcher(Config{Owner: "prod"}) // production mode
	for _, c := range cases {
		ev := e.addEvent(e.m, "co_"+c.name, cashier.CollectionSuccess, c.url)
		if n := e.deliverDue(d); n != 1 {
			t.Fatalf("%s: %d attempts", c.name, n)
		}
		log := e.attempts(ev.ID)
		if len(log) != 1 || log[0].HTTPStatus != 0 || !strings.Contains(log[0].Error, c.wantErr) {
			t.Errorf("%s: log %+v, want error containing %q", c.name, log, c.wantErr)
		}
	}
	if len(plain.requests()) != 0 || hits.Load() != 0 {
		t.Errorf("a refused target was reached: http %d, https %d", len(plain.requests()), hits.Load())
	}
}

func TestSandboxAllowsLoopback(t *testing.T) {
	e := newEnv(t)
	var hits atomic.Int32
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer tlsSrv.Close()
	plain := newReceiver(t, nil)
	cfg := sandbox
	cfg.TLS = tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	d := e.dispatcher(cfg)
	a := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, tlsSrv.URL)
	b := e.addEvent(e.m, "co_2", cashier.CollectionSuccess, plain.URL)
	e.deliverDue(d)
	for _, ev := range []*cashier.Event{a, b} {
		if st := e.event(ev.ID); st.State != cashier.EventDelivered {
			t.Errorf("%s: %s %s", ev.URL, st.State, st.LastError)
		}
	}
	if hits.Load() != 1 || len(plain.requests()) != 1 {
		t.Errorf("hits https %d http %d", hits.Load(), len(plain.requests()))
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	e := newEnv(t)
	target := newReceiver(t, nil)
	redirector := newReceiver(t, func(_ int, r *http.Request, w http.ResponseWriter) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	})
	ev := e.addEvent(e.m, "co_1", cashier.CollectionSuccess, redirector.URL)
	e.deliverDue(e.dispatcher(sandbox))
	log := e.attempts(ev.ID)
	if len(log) != 1 || log[0].HTTPStatus != http.StatusTemporaryRedirect || !strings.Contains(log[0].Error, "not followed") {
		t.Errorf("log %+v", log)
	}
	if e.event(ev.ID).State != cashier.EventPending || len(target.requests()) != 0 {
		t.Error("redirect counted as delivery or followed")
	}
}

func TestSendTest(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, nil)
	d := e.dispatcher(sandbox)
	res, err := d.SendTest(context.Background(), e.m.ID, rc.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.HTTPStatus != 200 || res.Latency <= 0 {
		t.Fatalf("result %+v", res)
	}
	r := rc.requests()[0]
	if r.Header.Get("Service-Event") != "test" || r.Header.Get("Service-Event-Id") != res.EventID || string(r.Body) != string(res.Body) {
		t.Errorf("request %v %s", r.Header, r.Body)
	}
	if !strings.Contains(string(r.Body), `"eventType":"test"`) {
		t.Errorf("body %s", r.Body)
	}
	if evs, _ := e.db.Events(context.Background(), cashier.EventFilter{}); len(evs) != 0 {
		t.Errorf("test event stored in the outbox: %d", len(evs))
	}

	prod := e.dispatcher(Config{Owner: "prod"})
	res, err = prod.SendTest(context.Background(), e.m.ID, rc.URL)
	if err != nil || res.OK() || len(rc.requests()) != 1 {
		t.Errorf("production test send to http: %+v %v", res, err)
	}
	if _, err := d.SendTest(context.Background(), "m_nobody", rc.URL); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Errorf("unknown merchant: %v", err)
	}
}
