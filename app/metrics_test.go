package app_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	stdhttp "net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stablecashier/cashier/api"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
)

var (
	seriesLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$`)
	metricName = regexp.MustCompile(`\bcashier_[a-z_]+[a-z]\b`)
	labelPair  = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)
)

type series struct {
	name   string
	labels map[string]string
	value  float64
}

func scrape(t *testing.T, url string) []series {
	t.Helper()
	res, err := stdhttp.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	var out []series
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := seriesLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("unparsable metrics line %q", line)
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		s := series{name: m[1], labels: map[string]string{}, value: v}
		for _, p := range labelPair.FindAllStringSubmatch(m[2], -1) {
			s.labels[p[1]] = p[2]
		}
		out = append(out, s)
	}
	return out
}

// value returns the one series named name whose labels include want.
func value(t *testing.T, all []series, name string, want ...string) (float64, bool) {
	t.Helper()
	var found []series
next:
	for _, s := range all {
		if s.name != name {
			continue
		}
		for i := 0; i+1 < len(want); i += 2 {
			if s.labels[want[i]] != want[i+1] {
				continue next
			}
		}
		found = append(found, s)
	}
	if len(found) > 1 {
		t.Fatalf("%s%v matches %d series", name, want, len(found))
	}
	if len(found) == 0 {
		return 0, false
	}
	return found[0].value, true
}

func must(t *testing.T, all []series, name string, want float64, labels ...string) {
	t.Helper()
	v, ok := value(t, all, name, labels...)
	if !ok || v != want {
		t.Errorf("%s%v = %v (present %v), want %v", name, labels, v, ok, want)
	}
}

// The /metrics scrape shows what really happened: requests per route
// pattern and code with their latencies, open orders, payouts by state,
// the webhook outbox and its delivery results, chain heads, and which
// leases this instance holds.
func TestMetricsReflectActivity(t *testing.T) {
	var failing atomic.Bool
	recv := httptest.NewServer(stdhttp.HandlerFunc(func(w stdhttp.ResponseWriter, r *stdhttp.Request) {
		b, _ := io.ReadAll(r.Body)
		if strings.Contains(string(b), "M-REFUSED") {
			failing.Store(true)
			stdhttp.Error(w, "no", stdhttp.StatusInternalServerError)
		}
	}))
	defer recv.Close()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.MetricsAddr = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	sb, err := sandbox.Start(ctx, sandbox.Options{Config: cfg, FreePorts: true, WebhookURL: recv.URL + "/hook", TRONBlockInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	served := make(chan error, 1)
	go func() { served <- sb.Serve(ctx) }()
	defer func() { cancel(); <-served }()
	ops := sb.Service.Ops
	for ops.MetricsAddr() == "" {
		time.Sleep(10 * time.Millisecond)
	}
	metricsURL := "http://" + ops.MetricsAddr() + "/metrics"

	c := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)
	for _, no := range []string{"M-1", "M-2", "M-REFUSED"} {
		if _, err := c.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: no, Amount: "5.00", Symbol: "USDT", ChainID: "ETH"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.CreatePayout(ctx, client.PayoutRequest{ContractID: sb.Info.ContractIDs["ETH"], OrderNo: "P-1",
		Recipient: "0x00000000000000000000000000000000000000b1", Amount: "3.00", Symbol: "USDT"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		res, err := stdhttp.Get(sb.Info.BaseURL + "/pay/no-such-order-" + strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	// A request naming its own id gets it back.
	req, _ := stdhttp.NewRequest("GET", sb.Info.BaseURL+api.PathNetworks, nil)
	req.Header.Set("X-Request-Id", "lb-4711")
	res, err := stdhttp.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("X-Request-Id"); got != "lb-4711" {
		t.Fatalf("X-Request-Id echoed %q", got)
	}

	var all []series
	deadline := time.Now().Add(60 * time.Second)
	for {
		all = scrape(t, metricsURL)
		ok, _ := value(t, all, "cashier_webhook_attempts_total", "outcome", "ok")
		bad, _ := value(t, all, "cashier_webhook_attempts_total", "outcome", "error")
		held, _ := value(t, all, "cashier_lease_held", "lease", "watch/ETH")
		// Three PENDING webhooks and the payout's: all but M-REFUSED's acknowledged.
		if ok >= 3 && bad >= 1 && held == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("webhooks ok=%v error=%v, watch lease %v: not within a minute", ok, bad, held)
		}
		time.Sleep(200 * time.Millisecond)
	}

	create := "POST " + api.PathCreateCollection
	must(t, all, "cashier_http_requests_total", 3, "route", create, "code", "200")
	must(t, all, "cashier_http_request_duration_seconds_count", 3, "route", create, "code", "200")
	must(t, all, "cashier_http_requests_total", 1, "route", "POST "+api.PathCreatePayout, "code", "200")
	must(t, all, "cashier_http_requests_total", 2, "route", "GET /pay/{orderId}", "code", "404")
	if v, _ := value(t, all, "cashier_http_request_duration_seconds_sum", "route", create, "code", "200"); v <= 0 {
		t.Errorf("latency sum of creates %v", v)
	}
	for _, s := range all {
		if strings.Contains(s.labels["route"], "no-such-order") {
			t.Errorf("a raw path became a label: %v", s.labels)
		}
	}
	must(t, all, "cashier_open_collection_orders", 3)
	must(t, all, "cashier_collection_orders", 3, "status", "PENDING")
	if v, _ := value(t, all, "cashier_payout_orders", "status", "PENDING"); v != 1 {
		t.Errorf("payouts PENDING = %v, want 1", v)
	}
	if v, _ := value(t, all, "cashier_webhook_backlog"); v < 1 {
		t.Errorf("webhook backlog %v, want the refused event pending", v)
	}
	if !failing.Load() {
		t.Error("the refusing receiver was never called")
	}
	for _, ch := range []string{"ETH", "ARB", "TRON"} {
		must(t, all, "cashier_chain_up", 1, "chain", ch)
		if v, ok := value(t, all, "cashier_chain_head", "chain", ch); !ok || v < 1 {
			t.Errorf("%s head %v", ch, v)
		}
		if _, ok := value(t, all, "cashier_chain_lag_blocks", "chain", ch); !ok {
			t.Errorf("%s lag missing", ch)
		}
		if _, ok := value(t, all, "cashier_payout_queue", "chain", ch); !ok {
			t.Errorf("%s payout queue missing", ch)
		}
		if _, ok := value(t, all, "cashier_payout_queue_age_seconds", "chain", ch); !ok {
			t.Errorf("%s payout queue age missing", ch)
		}
		// The sandbox funds every executor above its minimum.
		bal, ok := value(t, all, "cashier_executor_balance", "chain", ch)
		minimum, ok2 := value(t, all, "cashier_executor_min_balance", "chain", ch)
		if !ok || !ok2 || bal <= minimum {
			t.Errorf("%s executor balance %v (present %v), minimum %v (present %v)", ch, bal, ok, minimum, ok2)
		}
	}
	for _, l := range []string{"watch/ETH", "watch/ARB", "watch/TRON", "payouts/ETH", "expiry"} {
		must(t, all, "cashier_lease_held", 1, "lease", l)
		must(t, all, "cashier_lease_owner", 1, "lease", l, "holder", ops.Instance)
	}
	must(t, all, "cashier_instances", 1)
	must(t, all, "cashier_state_up", 1)
	must(t, all, "cashier_database_primary", 1) // SQLite: the file is its primary
	// Every series the shipped alerting rules and Grafana dashboard use
	// is one the service exports.
	exported := map[string]bool{}
	for _, s := range all {
		exported[s.name] = true
	}
	for _, f := range []string{"../deploy/prometheus/alerts.yml", "../deploy/grafana/cashier.json"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range metricName.FindAllString(string(b), -1) {
			if !exported[name] && !exported[name+"_count"] && !exported[strings.TrimSuffix(name, "_bucket")+"_count"] {
				t.Errorf("%s uses %s, which the service does not export", f, name)
			}
		}
	}
	if _, ok := value(t, all, "go_goroutines"); !ok {
		t.Error("Go runtime metrics missing")
	}
	if t.Failed() {
		var b strings.Builder
		for _, s := range all {
			if strings.HasPrefix(s.name, "cashier_") {
				fmt.Fprintln(&b, s.name, s.labels, s.value)
			}
		}
		t.Log(b.String())
	}
}

// The shipped alerting rules are valid and their unit tests pass: each
// alert fires on a series that should wake someone and stays quiet on a
// healthy one (deploy/prometheus/alerts_test.yml). ./test.sh requires
// promtool (Debian's prometheus package).
func TestAlertRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not installed (apt-get install prometheus); ./test.sh requires it")
	}
	for _, args := range [][]string{{"check", "rules", "alerts.yml"}, {"test", "rules", "alerts_test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = "../deploy/prometheus"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
