// Package metrics exposes the service's Prometheus metrics: request counts
// and latencies per route pattern and status code, counted as requests
// are served, and the state every instance shares (orders, payouts, the
// webhook outbox, chain heads, lease ownership), read when scraped.
package metrics

import (
	"context"
	"log/slog"
	"math/big"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// ChainState is one network as seen at scrape time.
type ChainState struct {
	Chain     cashier.Chain
	Up        bool   // the node answered
	Head      uint64 // the node's newest block
	Watched   uint64 // newest block the watcher has processed (its cursor's head)
	Confirmed uint64 // newest block whose transfers are final
	// The executor's coin balance (what pays gas) and the balance below
	// which payouts wait, in the coin's base units; nil when unknown (no
	// executor key, or the node did not answer).
	ExecutorBalance, ExecutorMinimum *big.Int
	CoinDecimals                     int
	// ReorgedOrders are the network's orders flagged after a reorg deeper
	// than the confirmations; MissingPayments its credited payments not
	// on the chain now.
	ReorgedOrders, MissingPayments int
}

// LeaseState is one lease as seen at scrape time.
type LeaseState struct {
	Name   string
	Holder string // "" when nobody holds it
	Mine   bool   // held by this instance
}

// Snapshot is the shared state read at scrape time.
type Snapshot struct {
	Now       time.Time // the scrape's instant, for ages
	Stats     cashier.OpsStats
	Chains    []ChainState
	Leases    []LeaseState
	Instances int
	Nodes     []nodes.State // every node URL of the service's networks
	// Networks is whether each network of the registry is watched.
	Networks []cashier.NetworkHealth
	// TokenAlerts are the token contracts' switches holding up payouts.
	TokenAlerts []cashier.TokenAlert
}

// Metrics holds the registry and the request instruments.
type Metrics struct {
	Registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// New registers the Go runtime and process collectors, the request
// instruments and, when source is set, the state read from it on each
// scrape (bounded by timeout).
func New(source func(context.Context) (Snapshot, error), timeout time.Duration, log *slog.Logger) *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cashier_http_requests_total",
			Help: "HTTP requests served, by route pattern and status code.",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "cashier_http_request_duration_seconds",
			Help:    "Time to serve an HTTP request, by route pattern and status code.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "code"}),
	}
	m.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency)
	if source != nil {
		if log == nil {
			log = slog.New(slog.DiscardHandler)
		}
		m.Registry.MustRegister(&stateCollector{source: source, timeout: timeout, log: log})
	}
	return m
}

// Observe counts one served request. route is the route pattern (never
// the raw path, which would make a series per order id).
func (m *Metrics) Observe(route string, status int, d time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, code).Inc()
	m.latency.WithLabelValues(route, code).Observe(d.Seconds())
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}

var (
	descUp          = prometheus.NewDesc("cashier_state_up", "1 when the shared state could be read at this scrape, else 0.", nil, nil)
	descCollections = prometheus.NewDesc("cashier_collection_orders", "Collection orders by status.", []string{"status"}, nil)
	descOpen        = prometheus.NewDesc("cashier_open_collection_orders", "Collection orders waiting for payment (PENDING).", nil, nil)
	descPayouts     = prometheus.NewDesc("cashier_payout_orders", "Payout orders by status.", []string{"status"}, nil)
	descEvents      = prometheus.NewDesc("cashier_webhook_events", "Webhook events in the outbox by state.", []string{"state"}, nil)
	descBacklog     = prometheus.NewDesc("cashier_webhook_backlog", "Webhook events not yet delivered (pending).", nil, nil)
	descAttempts    = prometheus.NewDesc("cashier_webhook_attempts_total", "Webhook delivery attempts by outcome (ok: the receiver acknowledged).", []string{"outcome"}, nil)
	descQueue       = prometheus.NewDesc("cashier_payout_queue", "Payout orders ready for the executor and not yet in a batch, by network.", []string{"chain"}, nil)
	descExecs       = prometheus.NewDesc("cashier_payout_executions", "Open payout batch executions by network and state.", []string{"chain", "state"}, nil)
	descChainUp     = prometheus.NewDesc("cashier_chain_up", "1 when the network's node answered at this scrape.", []string{"chain"}, nil)
	descHead        = prometheus.NewDesc("cashier_chain_head", "The node's newest block.", []string{"chain"}, nil)
	descConfirmed   = prometheus.NewDesc("cashier_chain_confirmed", "Newest block whose transfers the watcher has made final.", []string{"chain"}, nil)
	descReorged     = prometheus.NewDesc("cashier_collections_reorged", "Collection orders flagged because a payment they counted went missing in a reorg deeper than the confirmations (never reversed: the operator must look).", []string{"chain"}, nil)
	descMissing     = prometheus.NewDesc("cashier_payments_missing", "Credited payments whose block a deep reorg replaced and that are not on the chain now.", []string{"chain"}, nil)
	descLag         = prometheus.NewDesc("cashier_chain_lag_blocks", "Blocks between the node's head and the newest block the watcher has processed.", []string{"chain"}, nil)
	descNetActive   = prometheus.NewDesc("cashier_network_active", "1 when the network can be watched (a node configured that serves its chain); 0: its orders and payouts are refused (no node, or every node on another chain).", []string{"chain"}, nil)
	descNetState    = prometheus.NewDesc("cashier_network_state", "1 for the network's current state: active, unreachable (active, no node answers now), no node, wrong chain.", []string{"chain", "state"}, nil)
	descNodeUp      = prometheus.NewDesc("cashier_chain_node_up", "1 when the node URL answers and serves the network's chain (3 failures in a row: 0).", []string{"chain", "node"}, nil)
	descNodeWrong   = prometheus.NewDesc("cashier_chain_node_wrong_chain", "1 when the node URL serves another chain than the registry's and is refused.", []string{"chain", "node"}, nil)
	descTokenAlert  = prometheus.NewDesc("cashier_token_alert", "1 while a token contract holds up payouts: kind paused (the token is paused), or blacklisted (account, the paying contract or wallet, is on its blacklist).", []string{"chain", "symbol", "kind", "account"}, nil)
	descNodePaused  = prometheus.NewDesc("cashier_chain_node_paused", "1 while the node's provider asked to wait (Retry-After, rate limit).", []string{"chain", "node"}, nil)
	descNodeReqs    = prometheus.NewDesc("cashier_chain_node_requests_total", "Requests to the node URL by this instance.", []string{"chain", "node"}, nil)
	descNodeErrs    = prometheus.NewDesc("cashier_chain_node_errors_total", "Requests to the node URL that failed on the way (transport, 5xx, timeout).", []string{"chain", "node"}, nil)
	descNodeLimits  = prometheus.NewDesc("cashier_chain_node_rate_limited_total", "Rate-limit answers from the node URL (429, -32005, TronGrid 403).", []string{"chain", "node"}, nil)
	descQueueAge    = prometheus.NewDesc("cashier_payout_queue_age_seconds", "How long the ready payout that has waited longest has waited since its creation or approval (0 when none wait), by network.", []string{"chain"}, nil)
	descExecBalance = prometheus.NewDesc("cashier_executor_balance", "The payout executor's balance of the network's coin (what pays gas), in coin units.", []string{"chain"}, nil)
	descExecMinimum = prometheus.NewDesc("cashier_executor_min_balance", "The executor balance below which payouts wait (CASHIER_PAYOUT_MIN_GAS), in coin units.", []string{"chain"}, nil)
	descLease       = prometheus.NewDesc("cashier_lease_held", "1 when this instance holds the lease.", []string{"lease"}, nil)
	descLeaseOwner  = prometheus.NewDesc("cashier_lease_owner", "1 for the instance holding each unexpired lease.", []string{"lease", "holder"}, nil)
	descInstances   = prometheus.NewDesc("cashier_instances", "Instances with a current heartbeat on the database.", nil, nil)
)

type stateCollector struct {
	source  func(context.Context) (Snapshot, error)
	timeout time.Duration
	log     *slog.Logger
}

// Describe sends nothing: the series depend on the state (an unchecked
// collector).
func (c *stateCollector) Describe(chan<- *prometheus.Desc) {}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	s, err := c.source(ctx)
	up := 1.0
	if err != nil {
		up = 0
		c.log.Warn("metrics: reading the shared state", "err", err)
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(descUp, up)
	if err != nil {
		return
	}
	for k, n := range s.Stats.Collections {
		gauge(descCollections, float64(n), k)
	}
	gauge(descOpen, float64(s.Stats.Collections[string(cashier.CollectionPending)]))
	for k, n := range s.Stats.Payouts {
		gauge(descPayouts, float64(n), k)
	}
	for k, n := range s.Stats.Events {
		gauge(descEvents, float64(n), k)
	}
	gauge(descBacklog, float64(s.Stats.Events["pending"]))
	for _, k := range []string{"ok", "error"} {
		ch <- prometheus.MustNewConstMetric(descAttempts, prometheus.CounterValue, float64(s.Stats.Attempts[k]), k)
	}
	for _, cs := range s.Chains {
		gauge(descQueue, float64(s.Stats.Queued[cs.Chain]), string(cs.Chain))
	}
	for _, cs := range s.Chains {
		age := 0.0
		if t, ok := s.Stats.QueuedSince[cs.Chain]; ok {
			age = max(0, s.Now.Sub(t).Seconds())
		}
		gauge(descQueueAge, age, string(cs.Chain))
		if cs.ExecutorBalance != nil {
			gauge(descExecBalance, coins(cs.ExecutorBalance, cs.CoinDecimals), string(cs.Chain))
		}
		if cs.ExecutorMinimum != nil {
			gauge(descExecMinimum, coins(cs.ExecutorMinimum, cs.CoinDecimals), string(cs.Chain))
		}
	}
	// Every open state of every network, zeros included, so a graph has
	// no gaps and an alert no missing series.
	for _, cs := range s.Chains {
		for _, state := range []string{"created", "sending", "sent"} {
			gauge(descExecs, float64(s.Stats.Execs[string(cs.Chain)+"/"+state]), string(cs.Chain), state)
		}
	}
	for _, cs := range s.Chains {
		c := string(cs.Chain)
		gauge(descChainUp, b2f(cs.Up), c)
		gauge(descConfirmed, float64(cs.Confirmed), c)
		gauge(descReorged, float64(cs.ReorgedOrders), c)
		gauge(descMissing, float64(cs.MissingPayments), c)
		if cs.Up {
			gauge(descHead, float64(cs.Head), c)
			gauge(descLag, float64(cs.Head-min(cs.Watched, cs.Head)), c)
		}
	}
	for _, h := range s.Networks {
		gauge(descNetActive, b2f(h.Active), string(h.Chain))
		// Every state, zeros included, so an alert has its series.
		for _, st := range []string{cashier.NetworkWatched, cashier.NetworkUnreachable, cashier.NetworkNoNode, cashier.NetworkWrongChain} {
			gauge(descNetState, b2f(h.State == st), string(h.Chain), st)
		}
	}
	for _, n := range s.Nodes {
		c := string(n.Chain)
		gauge(descNodeUp, b2f(n.Up), c, n.URL)
		gauge(descNodeWrong, b2f(n.WrongChain != ""), c, n.URL)
		gauge(descNodePaused, b2f(n.PausedFor != ""), c, n.URL)
		ch <- prometheus.MustNewConstMetric(descNodeReqs, prometheus.CounterValue, float64(n.Requests), c, n.URL)
		ch <- prometheus.MustNewConstMetric(descNodeErrs, prometheus.CounterValue, float64(n.Errors), c, n.URL)
		ch <- prometheus.MustNewConstMetric(descNodeLimits, prometheus.CounterValue, float64(n.RateLimits), c, n.URL)
	}
	for _, a := range s.TokenAlerts {
		gauge(descTokenAlert, 1, string(a.Chain), a.Symbol, a.Kind, a.Account)
	}
	for _, l := range s.Leases {
		gauge(descLease, b2f(l.Mine), l.Name)
		if l.Holder != "" {
			gauge(descLeaseOwner, 1, l.Name, l.Holder)
		}
	}
	gauge(descInstances, float64(s.Instances))
}

// coins is v base units in coin units, for a gauge: monitoring compares
// it with thresholds, it never moves money.
func coins(v *big.Int, decimals int) float64 {
	f, _ := new(big.Rat).SetFrac(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)).Float64()
	return f
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
