package app

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/lease"
	"github.com/stablecashier/cashier/metrics"
)

// Ops is what lets several instances share one database and be watched:
// the instance's id, the lease runner its one-owner workers run under, its
// heartbeat (the count of live instances the rate limits divide by), and
// the health checks and metrics.
type Ops struct {
	Instance    string
	Runner      *lease.Runner
	Metrics     *metrics.Metrics
	metricsAddr atomic.Pointer[string] // where /metrics listens, once started

	ready     readiness
	svc       *Service
	live      atomic.Int64 // live instances seen at the last heartbeat, at least 1
	mu        sync.Mutex
	sweepKeys map[cashier.Chain]*ecdsa.PrivateKey
	executors map[cashier.Chain]string // executor addresses, for the metrics
}

// instancePrefix names the heartbeat leases, one per running instance.
const instancePrefix = "instance/"

func newOps(s *Service) *Ops {
	o := &Ops{Instance: lease.InstanceID(), svc: s, sweepKeys: map[cashier.Chain]*ecdsa.PrivateKey{}}
	o.Runner = &lease.Runner{Leases: s.Store, Holder: o.Instance, TTL: s.Config.LeaseTTL, Clock: s.Clock,
		Log: s.Logger.With("component", "lease", "instance", o.Instance)}
	o.live.Store(1)
	data := s.Config.Data
	o.Runner.Dead = func(holder string) bool { return deadLocal(data, holder) }
	o.Runner.Live = o.LiveInstances
	if unlock, err := lockInstance(data, o.Instance); err != nil {
		s.Logger.Warn("instance lock file: other instances wait out this one's leases", "err", err)
	} else {
		s.closers = append(s.closers, unlock)
	}
	o.Metrics = metrics.New(o.snapshot, 10*time.Second, s.Logger.With("component", "metrics"))
	o.watchPrimary()
	return o
}

// MetricsAddr is the address /metrics listens on, "" before it started.
func (o *Ops) MetricsAddr() string {
	if a := o.metricsAddr.Load(); a != nil {
		return *a
	}
	return ""
}

// LiveInstances is the number of instances whose heartbeat was current at
// the last look, at least 1 (this one).
func (o *Ops) LiveInstances() int { return int(o.live.Load()) }

func (s *Service) setSweepKey(c cashier.Chain, key *ecdsa.PrivateKey) {
	s.Ops.mu.Lock()
	s.Ops.sweepKeys[c] = key
	s.Ops.mu.Unlock()
}

// start runs the heartbeat until ctx ends; the channel closes when it has
// stopped (its lease released).
func (o *Ops) start(ctx context.Context) <-chan struct{} {
	o.svc.Logger.Info("instance", "instance", o.Instance, "leaseTTL", o.Runner.TTL.String())
	done := make(chan struct{})
	go func() {
		defer close(done)
		o.Runner.Run(ctx, instancePrefix+o.Instance, o.heartbeat)
	}()
	return done
}

// heartbeat runs while this instance's own lease is held: it counts the
// live instances and forgets the heartbeats of instances gone for a day.
func (o *Ops) heartbeat(ctx context.Context) {
	for {
		o.countLive(ctx)
		if _, err := o.svc.Store.PruneLeases(ctx, instancePrefix, o.svc.Clock.Now().Add(-24*time.Hour)); err != nil && ctx.Err() == nil {
			o.svc.Logger.Warn("pruning instance heartbeats", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(o.Runner.Every()):
		}
	}
}

func (o *Ops) countLive(ctx context.Context) {
	list, err := o.svc.Store.ListLeases(ctx)
	if err != nil {
		return // keep the last count
	}
	now, n := o.svc.Clock.Now(), int64(0)
	for _, l := range list {
		if strings.HasPrefix(l.Name, instancePrefix) && l.Expires.After(now) {
			n++
		}
	}
	o.live.Store(max(n, 1))
}

// Lease names of the one-owner workers.
func watchLease(c cashier.Chain) string  { return "watch/" + string(c) }
func payoutLease(c cashier.Chain) string { return "payouts/" + string(c) }
func sweepLease(c cashier.Chain) string  { return "sweep/" + string(c) }

const expiryLease = "expiry"

// goLeased runs work under lease name on wg until ctx ends.
func (o *Ops) goLeased(ctx context.Context, wg *sync.WaitGroup, name string, work func(context.Context)) {
	wg.Add(1)
	go func() { defer wg.Done(); o.Runner.RunShared(ctx, name, work) }()
}

func closed(wg *sync.WaitGroup) <-chan struct{} {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}

// runWatchers runs each network's watcher and the expirer under their
// leases. A watcher is made afresh on every acquisition: what it kept in
// memory is stale once another instance has watched meanwhile.
func (o *Ops) runWatchers(ctx context.Context) <-chan struct{} {
	s := o.svc
	var wg sync.WaitGroup
	for _, c := range cashier.Chains {
		if s.Chains[c] == nil {
			continue
		}
		ws, err := NewWatchers(s.Config, s.Registry, map[cashier.Chain]cashier.ChainClient{c: s.Chains[c]}, s.Orders, s.Logger)
		if err != nil || len(ws) == 0 {
			continue // New already reported a configuration error
		}
		o.goLeased(ctx, &wg, watchLease(c), func(ctx context.Context) {
			ws, err := NewWatchers(s.Config, s.Registry, map[cashier.Chain]cashier.ChainClient{c: s.Chains[c]}, s.Orders, s.Logger)
			if err == nil && len(ws) == 1 {
				ws[0].Run(ctx)
			}
		})
	}
	if s.Expirer != nil {
		o.goLeased(ctx, &wg, expiryLease, func(ctx context.Context) { s.Expirer.Run(ctx) })
	}
	return closed(&wg)
}

// runPayouts runs each network's payout executor under its lease. The
// executor, its clients and their nonce journals are opened on every
// acquisition, so a takeover starts from what the last holder wrote.
func (o *Ops) runPayouts(ctx context.Context) <-chan struct{} {
	s := o.svc
	var wg sync.WaitGroup
	for _, n := range s.Registry.Networks {
		c := n.Chain
		if len(splitList(s.Config.NodeURLs(c))) == 0 {
			continue
		}
		o.goLeased(ctx, &wg, payoutLease(c), func(ctx context.Context) {
			x, closeAll, err := s.PayoutExecutor(ctx, c)
			if err != nil {
				s.Logger.Error("payout executor not started: payouts wait", "chain", c, "err", err)
				<-ctx.Done()
				return
			}
			defer closeAll()
			if len(x.Networks) == 0 {
				<-ctx.Done() // no keys: logged by PayoutExecutor; the lease stays held, idle
				return
			}
			if err := x.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				s.Logger.Error("payout executor stopped", "chain", c, "err", err)
			}
		})
	}
	return closed(&wg)
}

// runSweepers runs each sweeper under its lease, with a client and nonce
// journal of its own opened on every acquisition.
func (o *Ops) runSweepers(ctx context.Context) <-chan struct{} {
	s := o.svc
	var wg sync.WaitGroup
	for _, sw := range s.Sweepers {
		o.goLeased(ctx, &wg, sweepLease(sw.Chain), func(ctx context.Context) {
			o.mu.Lock()
			key := o.sweepKeys[sw.Chain]
			o.mu.Unlock()
			run := *sw
			if key != nil {
				client, closeClient, err := s.sweepClient(sw.Chain, key)
				if err != nil {
					s.Logger.Error("sweeper client", "chain", sw.Chain, "err", err)
					<-ctx.Done()
					return
				}
				defer closeClient()
				run.Client = client
			}
			run.Run(ctx)
		})
	}
	return closed(&wg)
}
