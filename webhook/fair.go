package webhook

import (
	"context"
	"slices"
	"time"

	"github.com/stablecashier/cashier"
)

// Fairness. Delivery capacity is shared per merchant first, then per host:
// at most MerchantConcurrency deliveries of one merchant and
// HostConcurrency to one host run at once, and free workers go to the
// merchants with queued events in turn, each merchant's next event from
// its hosts in turn. Claims are fair the same way (ClaimEventsFair), and a
// merchant or host already holding its share of events in memory gets no
// more until they drain. A merchant that points its URL at many hanging
// hosts thus ties up only its own share of the workers, and a hanging host
// only its share of its merchant's.

// FairClaimer is an outbox that can claim in turns across merchants and
// their receiving hosts (sqlstore.DB does). With one, the dispatcher holds
// at most about merchantShare events of one merchant and hostShare of one
// host in memory; an outbox without it is claimed oldest first.
type FairClaimer interface {
	ClaimEventsFair(ctx context.Context, owner string, now time.Time, lease time.Duration, f cashier.FairClaim) ([]cashier.Event, error)
}

// merchantQueue holds the claimed events of one merchant, by host.
type merchantQueue struct {
	id      string
	running int
	held    int                        // queued or running (not recording)
	queues  map[string][]cashier.Event // by host key
	turn    []string                   // hosts with queued events, next in turn first
}

// hostLoad counts one receiving host's events across merchants.
type hostLoad struct {
	key     string
	running int
	held    int // queued or running (not recording)
}

// hostShare is how many events of one host the dispatcher holds at most
// (running and queued) before claims skip the host: eight rounds of its
// concurrent deliveries. A busy fast receiver so never idles between
// claims, which come when it has drained to half of this, and each claim
// serves many deliveries (a claim ranks the whole backlog). A hanging
// receiver's share drains in 8 timeouts (80 s by default), within the
// 2-minute lease, so its queued events rarely expire and go back.
func (d *Dispatcher) hostShare() int { return 8 * d.cfg.HostConcurrency }

// merchantShare is hostShare for one merchant.
func (d *Dispatcher) merchantShare() int { return 8 * d.cfg.MerchantConcurrency }

func (d *Dispatcher) fair() bool {
	_, ok := d.outbox.(FairClaimer)
	return ok
}

// claim leases up to n due events: in turns across merchants and hosts,
// skipping those whose share is full, when the outbox can; else oldest
// first.
func (d *Dispatcher) claim(ctx context.Context, n int) ([]cashier.Event, error) {
	fc, ok := d.outbox.(FairClaimer)
	if !ok {
		return d.outbox.ClaimEvents(ctx, d.cfg.Owner, d.clock.Now(), d.cfg.Lease, n)
	}
	f := cashier.FairClaim{N: n, PerMerchant: d.merchantShare(), PerHost: d.hostShare()}
	d.mu.Lock()
	for _, m := range d.byMerchant {
		if m.held >= d.merchantShare() {
			f.SkipMerchants = append(f.SkipMerchants, m.id)
		}
	}
	for _, h := range d.hosts {
		if h.held >= d.hostShare() {
			f.SkipHosts = append(f.SkipHosts, h.key)
		}
	}
	d.mu.Unlock()
	return fc.ClaimEventsFair(ctx, d.cfg.Owner, d.clock.Now(), d.cfg.Lease, f)
}

// queueLocked adds a claimed event to its merchant's queue for its host.
func (d *Dispatcher) queueLocked(e cashier.Event) {
	key := hostKey(e.URL)
	m := d.byMerchant[e.MerchantID]
	if m == nil {
		m = &merchantQueue{id: e.MerchantID, queues: map[string][]cashier.Event{}}
		d.byMerchant[e.MerchantID] = m
	}
	h := d.hosts[key]
	if h == nil {
		h = &hostLoad{key: key}
		d.hosts[key] = h
	}
	if len(m.turn) == 0 {
		d.turn = append(d.turn, m.id) // the merchant's only queued event
	}
	if len(m.queues[key]) == 0 {
		m.turn = append(m.turn, key)
	}
	m.queues[key] = append(m.queues[key], e)
	m.held++
	h.held++
	d.held++
}

// startLocked starts queued events while workers are free and some
// merchant and host have room.
func (d *Dispatcher) startLocked() {
	for d.running < d.cfg.Workers && d.startNextLocked() {
	}
	if d.held == 0 {
		d.idle.Broadcast()
	}
}

// startNextLocked starts (or drops, when its lease is too short) the next
// event in turn and reports whether there was one: the first merchant in
// turn below its limit, its first host in turn below the host limit. Both
// then go to the back of their turns.
func (d *Dispatcher) startNextLocked() bool {
	for i, mid := range d.turn {
		m := d.byMerchant[mid]
		if m.running >= d.cfg.MerchantConcurrency {
			continue
		}
		for j, key := range m.turn {
			h := d.hosts[key]
			if h.running >= d.cfg.HostConcurrency {
				continue
			}
			q := m.queues[key]
			e := q[0]
			q[0] = cashier.Event{}
			m.turn = slices.Delete(m.turn, j, j+1)
			if q = q[1:]; len(q) > 0 {
				m.queues[key] = q
				m.turn = append(m.turn, key)
			} else {
				delete(m.queues, key)
			}
			d.turn = slices.Delete(d.turn, i, i+1)
			if len(m.turn) > 0 {
				d.turn = append(d.turn, mid)
			}
			if d.leaseTooShort(&e) {
				d.forgetLocked(m, h)
				return true
			}
			m.running++
			h.running++
			d.running++
			d.wg.Add(1)
			go d.work(d.ctx, m, h, e)
			return true
		}
	}
	return false
}

// sentLocked frees the delivery slot of an event whose request is over,
// and takes it off its merchant's and host's counts: only its recording
// remains, which is no concern of theirs. It reports whether a claim could
// now take more: the last one was cut short by capacity, or the host holds
// less than half its share. Refilling
// at half, not after every delivery, lets one claim serve many deliveries
// to a busy host, and not waiting for the recording keeps the host busy
// while the store's writer is.
func (d *Dispatcher) sentLocked(m *merchantQueue, h *hostLoad) bool {
	m.running--
	h.running--
	d.running--
	d.releaseLocked(m, h)
	return d.starved || h.held < d.hostShare()/2
}

// finishedLocked accounts for a delivery recorded (or abandoned) and
// reports whether a claim could now take more: the last one was cut short
// by capacity, or the event's host holds less than half its share (the
// order's next event may now be due).
func (d *Dispatcher) finishedLocked(host string) bool {
	d.held--
	if d.held == 0 {
		d.idle.Broadcast()
	}
	h := d.hosts[host]
	return d.starved || h == nil || h.held < d.hostShare()/2
}

// forgetLocked removes a dropped event from the counts.
func (d *Dispatcher) forgetLocked(m *merchantQueue, h *hostLoad) {
	d.releaseLocked(m, h)
	d.held--
	if d.held == 0 {
		d.idle.Broadcast()
	}
}

// releaseLocked takes one event off its merchant's and host's counts.
func (d *Dispatcher) releaseLocked(m *merchantQueue, h *hostLoad) {
	m.held--
	h.held--
	if m.held == 0 {
		delete(d.byMerchant, m.id)
	}
	if h.held == 0 {
		delete(d.hosts, h.key)
	}
}

// dropQueuedLocked drops the queued (not running) events for which drop
// is true: their leases run out and a later claim takes them again.
func (d *Dispatcher) dropQueuedLocked(drop func(*cashier.Event) bool) {
	for _, m := range d.byMerchant {
		for key, q := range m.queues {
			h := d.hosts[key]
			kept := q[:0]
			for i := range q {
				if drop(&q[i]) {
					d.forgetLocked(m, h)
					continue
				}
				kept = append(kept, q[i])
			}
			clear(q[len(kept):])
			if len(kept) > 0 {
				m.queues[key] = kept
			} else {
				delete(m.queues, key)
				m.turn = slices.DeleteFunc(m.turn, func(k string) bool { return k == key })
			}
		}
	}
	d.turn = slices.DeleteFunc(d.turn, func(id string) bool {
		m := d.byMerchant[id]
		return m == nil || len(m.turn) == 0
	})
	if d.held == 0 {
		d.idle.Broadcast()
	}
}
