package webhook

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// Config tunes the Dispatcher. Zero fields take the defaults below.
type Config struct {
	// Sandbox allows http:// URLs and private and loopback addresses, for
	// development receivers. Production (false) allows only https to
	// public addresses.
	Sandbox bool
	// HeaderPrefix replaces "Service" in the header names.
	HeaderPrefix string
	// Timeout bounds one attempt: connecting, the request and the response
	// head and capped body. Default 10s.
	Timeout time.Duration
	// Schedule of retries. Default DefaultSchedule.
	Schedule Schedule
	// Workers bounds concurrent deliveries. Default 32.
	Workers int
	// MerchantConcurrency bounds concurrent deliveries of one merchant's
	// events, whatever its hosts: a merchant whose receivers hang (any
	// number of them: the URL is the merchant's to change) ties up at most
	// this many workers, and the rest serve the other merchants. Default
	// twice HostConcurrency, at most a quarter of the workers when that is
	// more (8 of 32): one hanging host of a merchant leaves room for its
	// other hosts, and it takes four misbehaving merchants to fill the pool.
	MerchantConcurrency int
	// HostConcurrency bounds concurrent deliveries to one host (host:port of
	// the URL), so a slow receiver ties up at most this many workers; its
	// other due events wait in memory while other hosts' events go ahead.
	// Default 4.
	HostConcurrency int
	// PollInterval is how often the outbox is checked for due events when
	// nothing wakes the dispatcher. Default 1s.
	PollInterval time.Duration
	// ClaimGap is the least time between two claims woken by newly
	// committed events or freed workers: events committed meanwhile wait
	// for the next claim, so under load one claim leases many events
	// instead of one claim each. Default 2ms; negative: no gap.
	ClaimGap time.Duration
	// Lease is how long a claimed event is reserved for this instance.
	// After it runs out another instance may deliver the event again, so it
	// must comfortably exceed Timeout. Default 2m.
	Lease time.Duration
	// ShutdownGrace is how long Run lets in-flight deliveries finish after
	// its context ends before cancelling them. Default Timeout.
	ShutdownGrace time.Duration
	// MaxResponseBytes caps how much of a response body is read and kept
	// in the delivery log. Default 4096.
	MaxResponseBytes int64
	// Owner identifies this instance in leases. Default host name, process
	// id and a random suffix.
	Owner string
	// UserAgent of the requests. Default "cashier-webhook/1".
	UserAgent string
	// TLS configures the client side of TLS, e.g. a private CA in sandbox
	// setups. nil uses the system roots.
	TLS *tls.Config
	// Scheme computes Signature-V2: sign.WebhookRaw (default, raw body +
	// "&time=") or sign.WebhookSorted (sorted key=value + "&time=").
	Scheme sign.WebhookScheme
	// Strings makes test events all-strings bodies, like Writer.Strings.
	Strings bool
}

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.Schedule.Offsets == nil {
		c.Schedule = DefaultSchedule
	}
	if c.Workers <= 0 {
		c.Workers = 32
	}
	if c.HostConcurrency <= 0 {
		c.HostConcurrency = 4
	}
	if c.HostConcurrency > c.Workers {
		c.HostConcurrency = c.Workers
	}
	if c.MerchantConcurrency <= 0 {
		c.MerchantConcurrency = max(2*c.HostConcurrency, c.Workers/4)
	}
	if c.MerchantConcurrency > c.Workers {
		c.MerchantConcurrency = c.Workers
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.ClaimGap == 0 {
		c.ClaimGap = 2 * time.Millisecond
	}
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = c.Timeout
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = 4096
	}
	if c.Owner == "" {
		c.Owner = defaultOwner()
	}
	if c.UserAgent == "" {
		c.UserAgent = "cashier-webhook/1"
	}
	if c.Scheme == "" {
		c.Scheme = sign.WebhookRaw
	}
	return c
}

func defaultOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Merchants looks up a merchant, for its webhook key.
type Merchants interface {
	Merchant(ctx context.Context, id string) (*cashier.Merchant, error)
}

// Dispatcher delivers outbox events. Use either Run (the service) or
// DeliverDue (tests, one-shot tools) on one Dispatcher, not both at once;
// several Dispatchers, in one process or many, may share an outbox.
type Dispatcher struct {
	cfg       Config
	outbox    cashier.Outbox
	merchants Merchants
	clock     cashier.Clock
	log       *slog.Logger
	client    *http.Client
	headers   sign.Headers

	wake  chan struct{} // Notify: events were written
	freed chan struct{} // a delivery asks for a claim (claimAgain)

	mu         sync.Mutex
	idle       *sync.Cond // broadcast when held drops to 0
	byMerchant map[string]*merchantQueue
	hosts      map[string]*hostLoad
	turn       []string // merchants with queued events, next in turn first
	held       int      // events in memory: queued or running
	running    int      // deliveries in progress
	starved    bool     // the last claim was cut short by capacity
	ctx        context.Context
	wg         sync.WaitGroup

	attempted atomic.Int64
	records   recorder
}

// NewDispatcher returns a dispatcher delivering from outbox with the keys
// of merchants; logger may be nil.
func NewDispatcher(cfg Config, outbox cashier.Outbox, merchants Merchants, clock cashier.Clock, logger *slog.Logger) (*Dispatcher, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Schedule.Validate(); err != nil {
		return nil, err
	}
	if cfg.Lease < 2*cfg.Timeout {
		return nil, fmt.Errorf("webhook: lease %s must be at least twice the timeout %s", cfg.Lease, cfg.Timeout)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	d := &Dispatcher{
		cfg:        cfg,
		outbox:     outbox,
		merchants:  merchants,
		clock:      clock,
		log:        logger.With("component", "webhook", "owner", cfg.Owner),
		client:     newClient(cfg),
		headers:    sign.HeaderNames(cfg.HeaderPrefix),
		wake:       make(chan struct{}, 1),
		freed:      make(chan struct{}, 1),
		byMerchant: map[string]*merchantQueue{},
		hosts:      map[string]*hostLoad{},
	}
	d.idle = sync.NewCond(&d.mu)
	return d, nil
}

// Owner is the lease owner id of this dispatcher.
func (d *Dispatcher) Owner() string { return d.cfg.Owner }

// Notify tells the dispatcher that events were just committed, so they go
// out without waiting for the next poll. It never blocks.
func (d *Dispatcher) Notify() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// maxHeld bounds the events kept in memory, running or queued behind a
// busy host.
func (d *Dispatcher) maxHeld() int { return 64 * d.cfg.Workers }

// Run delivers events until ctx ends. Then it stops claiming, lets
// in-flight deliveries finish for up to ShutdownGrace and cancels the rest;
// a cancelled delivery is not recorded, so its lease runs out and the event
// is delivered again, by this or another instance. It returns nil after a
// shutdown.
func (d *Dispatcher) Run(ctx context.Context) error {
	deliverCtx, cancelDeliveries := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelDeliveries()
	d.mu.Lock()
	d.ctx = deliverCtx
	d.mu.Unlock()

	tick := time.NewTicker(d.cfg.PollInterval)
	defer tick.Stop()
	gap := time.NewTimer(0)
	defer gap.Stop()
	for {
		if _, err := d.fill(ctx); err != nil && ctx.Err() == nil {
			d.log.Error("claiming events failed", "err", err)
		}
		claimed := time.Now()
		select {
		case <-ctx.Done():
			d.shutdown(cancelDeliveries)
			return nil
		case <-d.wake:
		case <-d.freed:
		case <-tick.C:
			continue
		}
		// Woken by new work: let more of it gather before the next claim.
		if wait := d.cfg.ClaimGap - time.Since(claimed); wait > 0 {
			gap.Reset(wait)
			select {
			case <-ctx.Done():
				d.shutdown(cancelDeliveries)
				return nil
			case <-gap.C:
			}
		}
	}
}

func (d *Dispatcher) shutdown(cancelDeliveries context.CancelFunc) {
	d.mu.Lock()
	// Claimed but not started: they wait for their leases to run out.
	d.dropQueuedLocked(func(*cashier.Event) bool { return true })
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	t := time.NewTimer(d.cfg.ShutdownGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		cancelDeliveries()
		<-done
	}
}

// DeliverDue makes one pass: it claims every event due now, delivers them
// (an order's next event as soon as the previous one is settled) and
// returns when all attempts are recorded, with the number of attempts made.
func (d *Dispatcher) DeliverDue(ctx context.Context) (int, error) {
	d.mu.Lock()
	d.ctx = ctx
	d.mu.Unlock()
	before := d.attempted.Load()
	for {
		claimed, err := d.fill(ctx)
		d.mu.Lock()
		for d.held > 0 {
			d.idle.Wait()
		}
		d.mu.Unlock()
		if err != nil || claimed == 0 {
			return int(d.attempted.Load() - before), err
		}
	}
}

// fill claims events while there is room and starts what the worker,
// merchant and host limits allow. Events of a merchant or host at its limit
// queue in memory, so claiming goes on past them to other merchants'
// events; a worker is never idle while a due event of an idle merchant and
// host waits. It returns how many events it claimed.
func (d *Dispatcher) fill(ctx context.Context) (int, error) {
	total := 0
	d.mu.Lock()
	d.dropQueuedLocked(d.leaseTooShort)
	d.mu.Unlock()
	for {
		d.mu.Lock()
		n := d.maxHeld() - d.held
		if d.running >= d.cfg.Workers {
			// Nothing claimed now could start: the next answered
			// delivery asks again (starved).
			n = 0
		}
		if !d.fair() {
			// startLocked has run: any queued event is behind a busy
			// merchant or host, so every free worker may take a newly
			// claimed one, and no more are claimed than can start.
			n = min(n, d.cfg.Workers-d.running)
		}
		d.starved = n <= 0
		d.mu.Unlock()
		if n <= 0 {
			return total, nil
		}
		evs, err := d.claim(ctx, n)
		if err != nil {
			return total, err
		}
		total += len(evs)
		d.mu.Lock()
		for _, e := range evs {
			d.queueLocked(e)
		}
		d.startLocked()
		d.mu.Unlock()
		if len(evs) < n {
			return total, nil
		}
	}
}

// leaseTooShort reports whether e's lease could run out during an attempt
// started now; such an event is dropped and claimed afresh, rather than
// risk two instances delivering it at once.
func (d *Dispatcher) leaseTooShort(e *cashier.Event) bool {
	return d.clock.Now().Add(d.cfg.Timeout).After(e.LeaseUntil)
}

func (d *Dispatcher) work(ctx context.Context, m *merchantQueue, h *hostLoad, e cashier.Event) {
	defer d.wg.Done()
	d.deliver(ctx, e, func() {
		// The receiver has answered: its slot goes to the next event
		// while this attempt is recorded.
		d.mu.Lock()
		wake := d.sentLocked(m, h)
		d.startLocked()
		d.mu.Unlock()
		if wake {
			d.claimAgain()
		}
	})
	d.mu.Lock()
	wake := d.finishedLocked(h.key)
	d.mu.Unlock()
	if wake {
		d.claimAgain()
	}
}

// claimAgain asks Run for another claim; it never blocks.
func (d *Dispatcher) claimAgain() {
	select {
	case d.freed <- struct{}{}:
	default:
	}
}

// recordTimeout bounds writing an attempt's outcome, which happens even
// when the delivery context has just ended: a finished delivery should be
// recorded, not repeated.
const recordTimeout = 10 * time.Second

// deliver makes one attempt at e and records it, calling sent once the
// request is over (before the recording, which waits for a commit shared
// with other writes: the delivery slot is free meanwhile).
func (d *Dispatcher) deliver(ctx context.Context, e cashier.Event, sent func()) {
	released := false
	release := func() {
		if !released {
			released = true
			sent()
		}
	}
	defer release()
	m, err := d.merchants.Merchant(ctx, e.MerchantID)
	if err != nil && cashier.ErrorCode(err) != cashier.ENotFound {
		// Not the receiver's fault: leave the event to a later claim
		// without spending one of its attempts.
		if ctx.Err() == nil {
			d.eventLog(ctx, slog.LevelError, &e, "loading merchant failed", "err", err)
		}
		return
	}
	var a attempt
	if err != nil {
		a = attempt{At: d.clock.Now(), Err: "merchant not found"}
	} else {
		a = d.post(ctx, e.URL, e.Type, e.ID, e.Body, m)
		release()
		d.attempted.Add(1)
		if !a.ok() && ctx.Err() != nil {
			d.eventLog(ctx, slog.LevelInfo, &e, "delivery interrupted by shutdown; the lease will run out and the event go again")
			return
		}
	}

	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	rec := cashier.DeliveryAttempt{
		EventID:    e.ID,
		Attempt:    e.Attempts + 1,
		At:         a.At,
		HTTPStatus: a.HTTPStatus,
		Latency:    a.Latency,
		Error:      a.Err,
	}
	state := cashier.EventDelivered
	if !a.ok() {
		state = cashier.EventFailed
		if m != nil {
			first := a.At
			if rec.Attempt > 1 {
				first = d.cycleStart(rctx, e)
			}
			if due, ok := d.cfg.Schedule.Next(first, d.clock.Now(), rec.Attempt); ok {
				state, rec.NextAttemptAt = cashier.EventPending, due
			}
		}
	}
	if err := d.records.record(rctx, d.outbox, d.cfg.Owner, cashier.AttemptOutcome{Attempt: rec, State: state}); err != nil {
		if cashier.ErrorCode(err) == cashier.EInvalidStatus {
			d.eventLog(rctx, slog.LevelWarn, &e, "lease lost before the attempt was recorded; another claim delivers the event", "err", err)
		} else {
			d.eventLog(rctx, slog.LevelError, &e, "recording attempt failed", "err", err)
		}
		return
	}
	d.eventLog(rctx, slog.LevelInfo, &e, "webhook attempt", "attempt", rec.Attempt, "status", a.HTTPStatus,
		"latency", a.Latency, "state", state, "err", a.Err, "next", rec.NextAttemptAt)
}

// eventLog logs msg about e at level with e's identity. Nothing is built
// when the level is off: a busy dispatcher makes thousands of attempts a
// second, and binding a logger to each event's attributes took about 2 %
// of the service's CPU under a creation load whatever the log level.
func (d *Dispatcher) eventLog(ctx context.Context, level slog.Level, e *cashier.Event, msg string, args ...any) {
	if !d.log.Enabled(ctx, level) {
		return
	}
	d.log.Log(ctx, level, msg, append([]any{"event", e.ID, "merchant", e.MerchantID, "order", e.OrderID}, args...)...)
}

// cycleStart is the time of the first attempt of e's current retry cycle
// (the store renumbers attempts from 1 after an operator's resend).
func (d *Dispatcher) cycleStart(ctx context.Context, e cashier.Event) time.Time {
	log, err := d.outbox.Attempts(ctx, e.ID)
	if err == nil {
		for i := len(log) - 1; i >= 0; i-- {
			if log[i].Attempt == 1 {
				return log[i].At
			}
		}
	}
	return e.CreatedAt
}

// hostKey groups URLs by the receiver they reach.
func hostKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}
