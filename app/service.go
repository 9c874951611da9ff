package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	stdhttp "net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
	cashierhttp "github.com/stablecashier/cashier/http"
	"github.com/stablecashier/cashier/ledger"
	"github.com/stablecashier/cashier/nodes"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/sign"
	"github.com/stablecashier/cashier/sqlite"
	"github.com/stablecashier/cashier/sweep"
	"github.com/stablecashier/cashier/watch"
	"github.com/stablecashier/cashier/webhook"
)

// Options are what a caller may supply beyond the configuration.
type Options struct {
	Clock    cashier.Clock                         // default: the system clock
	Logger   *slog.Logger                          // default: JSON to stderr at the configured level
	Chains   map[cashier.Chain]cashier.ChainClient // default: dialled from the configuration
	Registry *cashier.Registry                     // default: loaded from the configuration
}

// Service is the assembled, runnable service.
type Service struct {
	Config     config.Config
	Store      *sqlite.DB
	Registry   *cashier.Registry
	Orders     *orders.Service
	Dispatcher *webhook.Dispatcher
	Handler    stdhttp.Handler
	Chains     map[cashier.Chain]cashier.ChainClient
	Clock      cashier.Clock
	Logger     *slog.Logger
	Dashboard  *dashboard.Server
	Watchers   []*watch.Watcher // one per network with a node
	// TokenAlerts are the token contracts' switches holding up this
	// instance's payouts (paused, blacklisted payer): in metrics and /readyz.
	TokenAlerts cashier.TokenAlerts
	Expirer     *watch.Expirer
	Sweepers    []*sweep.Sweeper // one per network with a node and a sweeper key
	closers     []func()
	Ops         *Ops // instance id, leases, health and metrics (ops.go)
	Ledger      *ledger.Service
}

// New assembles the service from cfg. The caller closes it.
func New(ctx context.Context, cfg config.Config, opts Options, stderr io.Writer) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Service{Config: cfg, Clock: opts.Clock, Logger: opts.Logger, Chains: opts.Chains, Registry: opts.Registry}
	if s.Clock == nil {
		s.Clock = cashier.SystemClock{}
	}
	if s.Logger == nil {
		s.Logger = NewLogger(stderr, cfg.LogLevel)
	}
	nodes.SetLogger(s.Logger.With("component", "nodes"))
	var err error
	if s.Registry == nil {
		if s.Registry, err = cfg.Networks(); err != nil {
			return nil, err
		}
	}
	for i := range s.Registry.Networks {
		n := &s.Registry.Networks[i]
		n.Finalized = cfg.Finalized(n.Chain)
	}
	if s.Chains == nil {
		if s.Chains, err = DialChains(ctx, cfg, s.Registry, s.Clock); err != nil {
			return nil, err
		}
	}
	if s.Store, err = OpenStore(ctx, cfg); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			s.Store.Close()
		}
	}()
	s.Ops = newOps(s)

	schedule, err := webhook.ParseOffsets(cfg.WebhookSchedule)
	if err != nil {
		return nil, err
	}
	s.Dispatcher, err = webhook.NewDispatcher(webhook.Config{
		Sandbox:      cfg.Mode == "sandbox",
		HeaderPrefix: cfg.HeaderPrefix,
		Timeout:      cfg.WebhookTimeout,
		Schedule:     schedule,
		Workers:      cfg.WebhookWorkers,
		Lease:        cfg.WebhookLease,
		Scheme:       sign.WebhookScheme(cfg.WebhookSignature),
		Strings:      cfg.WebhookBody == "strings",
	}, s.Store, s.Store, s.Clock, s.Logger) // the dispatcher names its component itself
	if err != nil {
		return nil, err
	}

	s.Orders = &orders.Service{
		Store:     webhook.NotifyOnCommit(s.Store, s.Dispatcher),
		Registry:  s.Registry,
		Clock:     s.Clock,
		Addresses: address.Validator{},
		Deposits:  Deposits{Store: s.Store, Registry: s.Registry},
		Funds:     Funds{Clients: s.Chains},
		Events:    EventWriter(cfg, s.Registry, s.Store),
		Config:    orders.DefaultConfig,
	}
	s.Orders.Networks = s // a network nothing watches takes no orders
	s.Orders.Config.CollectionTTL = cfg.CollectionTTL
	s.Orders.Config.LateWindow = cfg.LateWindow
	if s.Watchers, err = NewWatchers(cfg, s.Registry, s.Chains, s.Orders, s.Logger); err != nil {
		return nil, err
	}
	s.Expirer = &watch.Expirer{Orders: s.Orders, Log: s.Logger.With("component", "expiry")}
	if err := s.NewSweepers(ctx); err != nil {
		return nil, err
	}

	httpCfg, err := HTTPConfig(cfg)
	if err != nil {
		return nil, err
	}
	httpCfg.Instances, httpCfg.Observe, httpCfg.Inactive = s.Ops.LiveInstances, s.Ops.Metrics.Observe, s.Inactive
	ledgerFrom, err := parseLedgerFrom(cfg.LedgerFrom)
	if err != nil {
		return nil, err
	}
	s.Ledger = &ledger.Service{Store: s.Store, Registry: s.Registry, Chains: s.Chains, Refunds: refundRecords{s.Store}, From: ledgerFrom}
	httpCfg.Ledger = s.Ledger
	s.Handler, err = cashierhttp.NewServer(httpCfg, s.Orders, s.Store, s.Registry, s.Clock, s.Logger.With("component", "http"))
	if err != nil {
		return nil, err
	}
	if err := s.mountDashboard(httpCfg.TrustedProxies); err != nil {
		return nil, err
	}
	s.Handler = s.Ops.wrap(s.Handler)
	ok = true
	return s, nil
}

// HTTPConfig maps the process configuration onto the HTTP server's.
func HTTPConfig(cfg config.Config) (cashierhttp.Config, error) {
	c := cashierhttp.DefaultConfig()
	c.HeaderPrefix = cfg.HeaderPrefix
	c.Window = sign.Window{Default: cfg.RecvWindow, Max: cfg.RecvWindowMax, FutureSkew: cfg.FutureSkew}
	c.Encodings = nil
	for _, e := range strings.Split(cfg.SignEncodings, ",") {
		enc, err := sign.ParseEncoding(strings.TrimSpace(e))
		if err != nil {
			return c, err
		}
		c.Encodings = append(c.Encodings, enc)
	}
	c.SignField = cashierhttp.SignFieldPolicy(cfg.SignField)
	c.UnknownFields = cashierhttp.UnknownFieldPolicy(cfg.UnknownFields)
	c.RejectIntegerStrings = cfg.IntegerStrings == "reject"
	c.ErrorStatus = cashierhttp.ErrorStatusMode(cfg.ErrorStatus)
	c.RateLimits.PerKey, c.RateLimits.PerIP, c.RateLimits.PerEndpoint = cfg.RateKey, cfg.RateIP, cfg.RateEndpoint
	c.RateLimits.IPv6Prefix = cfg.IPv6Prefix
	c.PublicBaseURL = strings.TrimRight(cfg.PublicURL, "/")
	c.MaxInFlight = cfg.MaxInFlight
	c.MaxWait = cacheTTL(cfg.MaxWait)
	c.MaxCPUWait = cacheTTL(cfg.MaxCPUWait)
	for _, p := range strings.Split(cfg.TrustedProxies, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			return c, fmt.Errorf("trusted proxies: %w", err)
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix)
	}
	return c, nil
}

// Close releases the store.
func (s *Service) Close() error {
	for _, c := range s.closers {
		c()
	}
	return s.Store.Close()
}

// Serve runs the HTTP server on ln and the webhook dispatcher until ctx
// ends, then shuts down gracefully: the listener closes, in-flight requests
// finish (up to 15 s), in-flight deliveries get their grace period.
func (s *Service) Serve(ctx context.Context, ln net.Listener) error {
	spareProc(s.Logger)
	srv := &stdhttp.Server{
		Handler:           s.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.Logger.Handler(), slog.LevelWarn),
	}
	if s.Config.PprofAddr != "" {
		_, stopProfiling, err := startProfiling(s.Config.PprofAddr, s.Logger)
		if err != nil {
			return fmt.Errorf("pprof-addr: %w", err)
		}
		defer stopProfiling()
	}
	if s.Config.MetricsAddr != "" {
		_, stopMetrics, err := s.Ops.startMetrics(s.Config.MetricsAddr)
		if err != nil {
			return fmt.Errorf("metrics-addr: %w", err)
		}
		defer stopMetrics()
	}
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	s.checkNodes(cctx)
	// Before anything serves: a token whose contract has other decimals
	// than the registry's is refused, not mispriced.
	s.checkDecimals(cctx)
	cancel()
	var err error
	dispatchDone := make(chan error, 1)
	dctx, stopDispatch := context.WithCancel(context.WithoutCancel(ctx))
	go func() { dispatchDone <- s.Dispatcher.Run(dctx) }()
	opsDone := s.Ops.start(dctx)
	watchDone := s.runWatchers(dctx)
	payoutsDone := s.runPayouts(dctx)
	sweepDone := s.runSweepers(dctx)
	networksDone := s.watchNetworks(dctx)

	serveDone := make(chan error, 1)
	go func() { serveDone <- srv.Serve(ln) }()
	s.Logger.Info("serving", "addr", ln.Addr().String(), "mode", s.Config.Mode)

	select {
	case <-ctx.Done():
	case err = <-serveDone:
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shutdownCtx); serr != nil && err == nil {
		err = serr
	}
	stopDispatch()
	<-watchDone
	<-payoutsDone
	<-sweepDone
	<-networksDone
	<-opsDone
	if derr := <-dispatchDone; derr != nil && !errors.Is(derr, context.Canceled) && err == nil {
		err = derr
	}
	if errors.Is(err, stdhttp.ErrServerClosed) {
		err = nil
	}
	s.Logger.Info("stopped")
	return err
}

// NewLogger returns the service's JSON logger at level.
func NewLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(requestIDHandler{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})})
}
