// Package lease runs one-owner work under a lease in the database, so that
// among several service instances sharing it each piece of work (a
// network's chain watcher, its payout executor, its sweeper, the expiry
// worker) has exactly one runner at a time, and another instance takes it
// over within seconds when the runner dies.
//
// A holder renews every TTL/3. When it cannot renew (the database is
// unreachable, or another holder took the lease), it stops the work one
// renewal period before the stored expiry, and waits for it to stop, so
// that two holders never overlap. The work itself stays idempotent (tx
// hash + log index, contract nonces stored before sending) so that even a
// step outliving its lease cannot count or pay twice.
package lease

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
)

// DefaultTTL is how long a lease lasts without renewal.
const DefaultTTL = 10 * time.Second

// InstanceID returns an id for this process: host name, process id and
// random bits, so two processes never share one even on one host.
func InstanceID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Status is what a Runner knows of one lease it runs for.
type Status struct {
	Name      string
	Held      bool
	Token     int64
	Holder    string    // last holder seen (this instance when Held)
	RenewedAt time.Time // last successful acquire or renewal by this instance
	Expires   time.Time // stored expiry of this instance's hold
	Err       error     // the last acquire or renew error, nil after a success
}

// Runner runs work under leases for one instance. It is safe for
// concurrent use; one Runner serves all the instance's leases.
type Runner struct {
	Leases cashier.Leases
	Holder string
	TTL    time.Duration // default DefaultTTL
	Clock  cashier.Clock
	Log    *slog.Logger
	// Dead, when set, reports a holder known for certain to have exited
	// (an instance on this host whose lock is free): its leases are
	// released and taken at once instead of after their expiry.
	Dead func(holder string) bool
	// Live, when set, is the number of live instances sharing the work
	// (at least 1). Each instance then holds at most its fair share of
	// the leases run with RunShared, ceil(shared/live), and gives one
	// back per renewal period while it holds more, so an instance that
	// joins gets work. A lease whose holder crashed (expired, not
	// released) is taken over at once whatever the share, and rebalanced
	// after: takeover time is not traded for balance.
	Live func() int

	mu       sync.Mutex
	status   map[string]*Status
	shared   map[string]bool
	gaveBack time.Time // the last give-back, at most one per renewal period
}

func (r *Runner) ttl() time.Duration {
	if r.TTL <= 0 {
		return DefaultTTL
	}
	return r.TTL
}

// Every is the pause between renewals and between acquire attempts.
func (r *Runner) Every() time.Duration { return r.ttl() / 3 }

func (r *Runner) log() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Log
}

func (r *Runner) set(name string, f func(*Status)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == nil {
		r.status = map[string]*Status{}
	}
	s := r.status[name]
	if s == nil {
		s = &Status{Name: name}
		r.status[name] = s
	}
	f(s)
}

// Statuses returns the state of every lease this runner runs for, by name.
func (r *Runner) Statuses() []Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Status, 0, len(r.status))
	for _, s := range r.status {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// RunShared is Run for work shared out among the live instances (see
// Runner.Live): a network's watcher, executor or sweeper, the expirer.
func (r *Runner) RunShared(ctx context.Context, name string, work func(context.Context)) {
	r.mu.Lock()
	if r.shared == nil {
		r.shared = map[string]bool{}
	}
	r.shared[name] = true
	r.mu.Unlock()
	r.Run(ctx, name, work)
}

// share is how many shared leases this instance may hold, and how many
// it holds.
func (r *Runner) share() (fair, held int, spread bool) {
	if r.Live == nil {
		return 0, 0, false
	}
	live := max(r.Live(), 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	for name := range r.shared {
		if s := r.status[name]; s != nil && s.Held {
			held++
		}
	}
	return (len(r.shared) + live - 1) / live, held, true
}

func (r *Runner) isShared(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.shared[name]
}

// mayTake reports whether an instance at its fair share may still try to
// take name: when its holder crashed (the lease expired without being
// released), or when it has been free for a whole TTL (nobody below its
// share took it: the live counts disagree for a moment).
func (r *Runner) mayTake(ctx context.Context, name string, now time.Time) bool {
	list, err := r.Leases.ListLeases(ctx)
	if err != nil {
		return true // the acquire will meet the same error and report it
	}
	for _, l := range list {
		if l.Name != name {
			continue
		}
		released := l.Expires.UnixMilli() == 0
		return (!released && !l.Expires.After(now)) || (released && now.Sub(l.RenewedAt) >= r.ttl())
	}
	return false // never taken yet: an instance below its share will
}

// giveBack reports whether the shared lease name should be given back now:
// this instance holds more than its share, and gave none back within the
// last renewal period.
func (r *Runner) giveBack(name string, now time.Time) bool {
	if !r.isShared(name) {
		return false
	}
	fair, held, spread := r.share()
	if !spread || held <= fair {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if now.Sub(r.gaveBack) < r.Every() {
		return false
	}
	r.gaveBack = now
	return true
}

// Run runs work under lease name until ctx ends: it waits until it holds
// the lease, runs work with a context that ends when the lease is lost,
// and starts over. On return the work has stopped and the lease is
// released. work should return when its context ends; if it returns
// earlier the lease is released and taken again after a pause.
func (r *Runner) Run(ctx context.Context, name string, work func(context.Context)) {
	every := r.Every()
	r.set(name, func(*Status) {})
	takeNow := false // a dead holder's lease, just released on its behalf
	for ctx.Err() == nil {
		now := r.Clock.Now()
		if fair, held, spread := r.share(); spread && r.isShared(name) && held >= fair && !takeNow && !r.mayTake(ctx, name, now) {
			sleep(ctx, every)
			continue
		}
		takeNow = false
		l, ok, err := r.Leases.AcquireLease(ctx, name, r.Holder, now, r.ttl())
		r.set(name, func(s *Status) {
			s.Err, s.Holder = err, l.Holder
			if ok {
				s.Held, s.Token, s.RenewedAt, s.Expires = true, l.Token, now, l.Expires
			}
		})
		if err != nil && ctx.Err() == nil {
			r.log().Warn("lease acquire failed", "lease", name, "err", err)
		}
		if !ok && err == nil && l.Holder != r.Holder && r.Dead != nil && r.Dead(l.Holder) {
			// Its holder is gone: release on its behalf (compare-and-set
			// on its token, so a live new holder is never touched) and
			// try again at once.
			if r.Leases.ReleaseLease(ctx, l) == nil {
				r.log().Info("lease of an exited instance released", "lease", name, "holder", l.Holder, "token", l.Token)
				takeNow = true
				continue
			}
		}
		if !ok {
			sleep(ctx, every)
			continue
		}
		r.log().Info("lease acquired", "lease", name, "token", l.Token)
		r.hold(ctx, l, now, work)
		r.set(name, func(s *Status) { s.Held = false })
		if ctx.Err() == nil {
			sleep(ctx, every) // give another instance a turn after a loss
		}
	}
}

// hold runs work while l is renewed; it returns once work has stopped.
func (r *Runner) hold(ctx context.Context, l cashier.Lease, at time.Time, work func(context.Context)) {
	every := r.Every()
	// The work must have stopped one renewal period before the stored
	// expiry: that period is left for it to wind down.
	deadline := at.Add(r.ttl() - every)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); work(wctx) }()
	defer func() {
		stop()
		<-done
		// Released at once so another instance need not wait for the
		// expiry; after a loss this fails harmlessly.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), every)
		defer cancel()
		if err := r.Leases.ReleaseLease(rctx, l); err == nil {
			r.log().Info("lease released", "lease", l.Name, "token", l.Token)
		}
	}()
	for {
		wait := min(every, max(deadline.Sub(r.Clock.Now()), 0))
		select {
		case <-ctx.Done():
			return
		case <-done:
			return
		case <-time.After(wait):
		}
		now := r.Clock.Now()
		if !now.Before(deadline) {
			r.log().Error("lease not renewed in time: work stopped", "lease", l.Name, "token", l.Token)
			return
		}
		rctx, cancel := context.WithTimeout(ctx, deadline.Sub(now))
		nl, err := r.Leases.RenewLease(rctx, l, now, r.ttl())
		cancel()
		r.set(l.Name, func(s *Status) {
			s.Err = err
			if err == nil {
				s.RenewedAt, s.Expires = now, nl.Expires
			}
		})
		switch {
		case errors.Is(err, cashier.ErrLeaseLost):
			r.log().Error("lease lost: work stopped", "lease", l.Name, "token", l.Token)
			return
		case err != nil:
			if ctx.Err() == nil {
				r.log().Warn("lease renewal failed", "lease", l.Name, "err", err, "stopBy", deadline)
			}
		default:
			l, deadline = nl, now.Add(r.ttl()-every)
			if r.giveBack(l.Name, now) {
				r.log().Info("lease given back: more than this instance's share of the work", "lease", l.Name, "token", l.Token)
				return
			}
		}
	}
}

// Healthy reports an error naming every lease this instance holds but has
// not renewed within two renewal periods, and every lease it cannot even
// try to take (the last attempt failed with an error).
func (r *Runner) Healthy(now time.Time) error {
	var errs []error
	for _, s := range r.Statuses() {
		switch {
		case s.Held && now.Sub(s.RenewedAt) > 2*r.Every():
			errs = append(errs, fmt.Errorf("lease %s not renewed since %s: %v", s.Name, s.RenewedAt.UTC().Format(time.RFC3339), s.Err))
		case !s.Held && s.Err != nil:
			errs = append(errs, fmt.Errorf("lease %s: %v", s.Name, s.Err))
		}
	}
	return errors.Join(errs...)
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
