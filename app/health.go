package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	stdhttp "net/http"
	"strings"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/metrics"
	"github.com/stablecashier/cashier/nodes"
)

// Health checks and metrics. /healthz and /readyz are served on the public
// listener ahead of the API (not signed, not rate limited, not logged per
// call: load balancers poll them every few seconds); /metrics on its own
// listener (CASHIER_METRICS_ADDR), which serves the two checks too.

// readyTimeout bounds each readiness probe (database, a network's nodes).
const readyTimeout = 3 * time.Second

// readyCache is how long one readiness answer is reused, so that frequent
// probes from several balancers cost the nodes one call each per second.
const readyCache = time.Second

type readiness struct {
	mu     sync.Mutex
	at     time.Time
	checks map[string]string
	failed map[string]string
}

// Ready probes the database (a read), every configured network's nodes
// (their head) and this instance's leases (renewing), each apart; it
// reports every check and the ones that failed.
func (o *Ops) Ready(ctx context.Context) (checks, failed map[string]string) {
	o.ready.mu.Lock()
	defer o.ready.mu.Unlock()
	if now := time.Now(); now.Sub(o.ready.at) < readyCache {
		return o.ready.checks, o.ready.failed
	}
	s := o.svc
	checks, failed = map[string]string{}, map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	probe := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pctx, cancel := context.WithTimeout(ctx, readyTimeout)
			defer cancel()
			err := f(pctx)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				checks[name], failed[name] = "failed", err.Error()
			} else {
				checks[name] = "ok"
			}
		}()
	}
	probe("database", func(ctx context.Context) error { _, err := s.Store.ListLeases(ctx); return err })
	for _, c := range s.networkChains() {
		cl := s.Chains[c]
		if cl == nil {
			continue
		}
		probe("chain "+string(c), func(ctx context.Context) error { _, err := cl.Head(ctx); return err })
		// Orders flagged after a deep reorg are reported, loudly, without
		// failing readiness: the service itself is fine, an operator has
		// to look at those orders (their ids are in the error logs).
		wg.Add(1)
		go func() {
			defer wg.Done()
			pctx, cancel := context.WithTimeout(ctx, readyTimeout)
			defer cancel()
			n, missing, err := s.Store.ReorgAlerts(pctx, c)
			mu.Lock()
			defer mu.Unlock()
			name := "reorg " + string(c)
			switch {
			case err != nil:
				checks[name] = "unknown"
			case n > 0 || missing > 0:
				checks[name] = fmt.Sprintf("ALERT: %d orders flagged after a reorg deeper than the confirmations, %d credited payments missing", n, missing)
			default:
				checks[name] = "ok"
			}
		}()
		if nc, ok := cl.(nodeChecker); ok {
			// Every node URL is asked which chain it serves: one on
			// another chain fails readiness (a configuration to fix);
			// one that is down is reported, its peers carry the load.
			wg.Add(1)
			go func() {
				defer wg.Done()
				pctx, cancel := context.WithTimeout(ctx, readyTimeout)
				defer cancel()
				res := nc.CheckNodes(pctx)
				mu.Lock()
				defer mu.Unlock()
				for _, r := range res {
					name := "node " + string(c) + " " + r.URL
					switch {
					case r.Err == nil:
						checks[name] = "ok"
					case strings.Contains(r.Err.Error(), "another chain"):
						checks[name], failed[name] = "failed", r.Err.Error()
					default:
						checks[name] = "down" // its error is in the nodes list
					}
				}
			}()
		}
	}
	probe("leases", func(context.Context) error { return o.Runner.Healthy(s.Clock.Now()) })
	wg.Wait()
	// Read after the probes above, which refresh the nodes' records: a
	// network nothing can watch is named with why; when none can be
	// watched the instance is not ready (no customer should be sent to
	// a service that cannot see their payments).
	active := 0
	var inactive []string
	for _, h := range s.NetworkHealth() {
		if h.Active {
			active++
		} else {
			inactive = append(inactive, h.Reason)
		}
	}
	if active == 0 {
		failed["networks"] = "no network can be watched: " + strings.Join(inactive, "; ")
	}
	o.ready.at, o.ready.checks, o.ready.failed = time.Now(), checks, failed
	return checks, failed
}

func (o *Ops) serveHealthz(w stdhttp.ResponseWriter, r *stdhttp.Request) {
	writeJSON(w, stdhttp.StatusOK, map[string]any{"status": "ok", "instance": o.Instance})
}

func (o *Ops) serveReadyz(w stdhttp.ResponseWriter, r *stdhttp.Request) {
	checks, failed := o.Ready(r.Context())
	body := map[string]any{"status": "ready", "instance": o.Instance, "checks": checks, "nodes": o.nodeStates(),
		"networks": o.svc.NetworkHealth()}
	if alerts := o.svc.TokenAlerts.List(); len(alerts) > 0 {
		// Reported, not failing: the instance works; the token's issuer
		// holds up its payouts.
		body["tokenAlerts"] = alerts
	}
	status := stdhttp.StatusOK
	if len(failed) > 0 {
		body["status"], body["failed"] = "unready", failed
		status = stdhttp.StatusServiceUnavailable
		o.svc.Logger.Warn("not ready", "failed", failed)
	}
	writeJSON(w, status, body)
}

func writeJSON(w stdhttp.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// wrap puts the health checks ahead of h (GET and HEAD only) and counts
// the dashboard's requests, which h's API server does not see.
func (o *Ops) wrap(h stdhttp.Handler) stdhttp.Handler {
	return stdhttp.HandlerFunc(func(w stdhttp.ResponseWriter, r *stdhttp.Request) {
		if r.Method == stdhttp.MethodGet || r.Method == stdhttp.MethodHead {
			switch r.URL.Path {
			case "/healthz":
				o.serveHealthz(w, r)
				return
			case "/readyz":
				o.serveReadyz(w, r)
				return
			}
		}
		if strings.HasPrefix(r.URL.Path, "/dashboard") {
			start, sw := time.Now(), &codeWriter{ResponseWriter: w}
			h.ServeHTTP(sw, r)
			o.Metrics.Observe("dashboard", sw.code(), time.Since(start))
			return
		}
		h.ServeHTTP(w, r)
	})
}

type codeWriter struct {
	stdhttp.ResponseWriter
	status int
}

func (w *codeWriter) WriteHeader(c int) {
	if w.status == 0 {
		w.status = c
	}
	w.ResponseWriter.WriteHeader(c)
}

func (w *codeWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = stdhttp.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *codeWriter) Unwrap() stdhttp.ResponseWriter { return w.ResponseWriter }

func (w *codeWriter) code() int {
	if w.status == 0 {
		return stdhttp.StatusOK
	}
	return w.status
}

// nodeStates is the health of the node URLs of the service's networks.
func (o *Ops) nodeStates() []nodes.State {
	var out []nodes.State
	for _, st := range nodes.All() {
		if o.svc.Chains[st.Chain] != nil {
			out = append(out, st)
		}
	}
	return out
}

// snapshot reads the shared state for a scrape.
func (o *Ops) snapshot(ctx context.Context) (metrics.Snapshot, error) {
	s := o.svc
	snap := metrics.Snapshot{Now: s.Clock.Now()}
	sr, ok := any(s.Store).(cashier.OpsStatsReader)
	if !ok {
		return snap, errors.New("the store cannot count for metrics")
	}
	var err error
	if snap.Stats, err = sr.OpsStats(ctx); err != nil {
		return snap, err
	}
	for _, c := range s.networkChains() {
		if s.Chains[c] == nil {
			continue
		}
		cur, err := s.Store.Cursor(ctx, c)
		if err != nil {
			return snap, err
		}
		st := metrics.ChainState{Chain: c, Watched: cur.Head, Confirmed: cur.Confirmed}
		if st.ReorgedOrders, st.MissingPayments, err = s.Store.ReorgAlerts(ctx, c); err != nil {
			return snap, err
		}
		snap.Chains = append(snap.Chains, st)
	}
	minGas, _ := parseMinGas(s.Config.PayoutMinGas, s.Registry) // checked when the executor starts
	// The nodes are asked at once; each answer goes to its own element of
	// the slice, complete before the first question (no append after).
	var wg sync.WaitGroup
	for i := range snap.Chains {
		st := &snap.Chains[i]
		cl := s.Chains[st.Chain]
		n, _ := s.Registry.Network(st.Chain)
		st.CoinDecimals, st.ExecutorMinimum = n.Decimals, minGas[st.Chain]
		executor := o.executorAddress(ctx, st.Chain)
		wg.Add(1)
		go func() {
			defer wg.Done()
			hctx, cancel := context.WithTimeout(ctx, readyTimeout)
			defer cancel()
			head, err := cl.Head(hctx)
			st.Up, st.Head = err == nil, head.Number
			if nb, ok := cl.(interface {
				NativeBalance(context.Context, string) (*big.Int, error)
			}); ok && executor != "" && err == nil {
				if b, err := nb.NativeBalance(hctx, executor); err == nil {
					st.ExecutorBalance = b
				}
			}
		}()
	}
	wg.Wait()
	snap.TokenAlerts = s.TokenAlerts.List()
	list, err := s.Store.ListLeases(ctx)
	if err != nil {
		return snap, err
	}
	now := s.Clock.Now()
	for _, l := range list {
		if strings.HasPrefix(l.Name, instancePrefix) {
			continue // counted below, not owned work
		}
		ls := metrics.LeaseState{Name: l.Name}
		if l.Expires.After(now) {
			ls.Holder, ls.Mine = l.Holder, l.Holder == o.Instance
		}
		snap.Leases = append(snap.Leases, ls)
	}
	snap.Instances = o.LiveInstances()
	snap.Nodes = o.nodeStates()
	snap.Networks = s.NetworkHealth()
	return snap, nil
}

// executorAddress is the address of c's executor key, "" when there is
// none; remembered, since keys change only with a restart.
func (o *Ops) executorAddress(ctx context.Context, c cashier.Chain) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a, ok := o.executors[c]; ok {
		return a
	}
	keys := ServiceKeys{Store: o.svc.Store}
	var err error
	if keys.Setting, err = ParseServiceKeys(o.svc.Config.ServiceKeys); err != nil {
		return ""
	}
	k, err := keys.Key(ctx, c, cashier.KeyExecutor)
	if err != nil && cashier.ErrorCode(err) != cashier.ENotFound {
		return "" // a store error: asked again at the next scrape
	}
	a := ""
	if k != nil {
		a = KeyAddress(c, k)
	}
	if o.executors == nil {
		o.executors = map[cashier.Chain]string{}
	}
	o.executors[c] = a
	return a
}

// startMetrics serves /metrics, /healthz and /readyz on their own listener
// at addr; it returns the address and a function that stops it.
func (o *Ops) startMetrics(addr string) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	mux := stdhttp.NewServeMux()
	mux.Handle("GET /metrics", o.Metrics.Handler())
	mux.HandleFunc("GET /healthz", o.serveHealthz)
	mux.HandleFunc("GET /readyz", o.serveReadyz)
	srv := &stdhttp.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(o.svc.Logger.Handler(), slog.LevelWarn)}
	go srv.Serve(ln)
	addr = ln.Addr().String()
	o.metricsAddr.Store(&addr)
	o.svc.Logger.Info("metrics endpoint", "addr", addr)
	return addr, func() { srv.Close() }, nil
}

// requestIDHandler adds the request id a context carries to every record
// logged with it.
type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := cashier.RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("requestId", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
