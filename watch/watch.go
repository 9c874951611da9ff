// Package watch follows each network's chain for payments to collection
// orders: one Watcher loop per network reads token Transfer events by block
// range, matches their recipients against the deposit-address index, and
// hands seen and confirmed transfers to the orders service, which records
// them and moves the orders in one transaction with the cursor (and the
// confirmed block's time). The Expirer expires unpaid orders on time, but
// only once their network has been scanned past their expiry. With Config.Approvals a watcher
// also records the tokens' confirmed Approval events to the payout
// contracts and refuses what a lowered allowance no longer covers
// (approvals.go).
package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// Scanner is the chain access a watcher needs: the head, block hashes, and
// every Transfer of some tokens in a block range (evm.Client and
// tron.Client provide it).
type Scanner interface {
	Head(ctx context.Context) (cashier.BlockRef, error)
	BlockByNumber(ctx context.Context, n uint64) (cashier.BlockRef, error)
	TokenTransfers(ctx context.Context, tokens []string, from, to uint64) ([]cashier.Transfer, error)
}

// FinalityReader is a chain that names its finalized block (evm.Client:
// the `finalized` block tag).
type FinalityReader interface {
	Finalized(ctx context.Context) (cashier.BlockRef, error)
}

// Config is one network's watcher configuration.
type Config struct {
	Chain         cashier.Chain
	Tokens        []string // token contracts watched, in the network's text form
	Confirmations uint64   // depth (block included) at which a transfer is final; at least 1
	// Finalized confirms transfers at the chain's finalized block (the
	// chain client must be a FinalityReader) instead of at Confirmations.
	Finalized bool
	// ReorgLookback is how far below the cursor the credited payments'
	// blocks are checked when a reorg deeper than the confirmations is
	// noticed; default 4096 blocks.
	ReorgLookback uint64
	Chunk         uint64 // blocks per scan; default 1000
	// Interval is the longest pause between rounds of a polled chain
	// (pace.go); default 1s.
	Interval time.Duration
	// BlockTime is the network's block time: a polled chain's rounds fall
	// in step with it (pace.go). 0 polls every Interval.
	BlockTime time.Duration
	// FeedPoll is the pause between the watcher's own head reads while
	// the chain announces new heads (HeadFeed); default 4×Interval.
	FeedPoll    time.Duration
	BackoffBase time.Duration // first pause after a failed round; default 500ms
	BackoffMax  time.Duration // longest pause; default 30s
	// StartBlock is where a watcher with no stored cursor begins; 0 starts
	// at the confirmed tip of the first head it reads.
	StartBlock uint64
	// Approvals also records the tokens' confirmed Approval events to the
	// network's payout contracts and refuses the pending orders a lowered
	// allowance no longer covers (approvals.go).
	Approvals bool
	// Native also records the network's coin (ETH, TRX) sent to deposit
	// addresses, when the chain client can read it (NativeScanner).
	Native bool
}

func (c *Config) defaults() {
	if c.Confirmations == 0 {
		c.Confirmations = 1
	}
	if c.Chunk == 0 {
		c.Chunk = 1000
	}
	if c.ReorgLookback == 0 {
		c.ReorgLookback = 4096
	}
	if c.Interval <= 0 {
		c.Interval = time.Second
	}
	if c.FeedPoll <= 0 {
		c.FeedPoll = 4 * c.Interval
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = 500 * time.Millisecond
	}
	if c.BackoffMax < c.BackoffBase {
		c.BackoffMax = max(30*time.Second, c.BackoffBase)
	}
}

// Watcher follows one network.
type Watcher struct {
	cfg    Config
	chain  Scanner
	store  cashier.Reader
	orders *orders.Service
	log    *slog.Logger

	lastHead uint64 // head of the last applied tail, to skip idle rounds
	lastHash string // its hash
}

// New returns a watcher of cfg.Chain reading chain and writing through svc
// (whose Store it also reads).
func New(cfg Config, chain Scanner, svc *orders.Service, log *slog.Logger) *Watcher {
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Watcher{cfg: cfg, chain: chain, store: svc.Store, orders: svc, log: log.With("chain", string(cfg.Chain))}
}

// Run follows the chain until ctx ends. A failed round (node errors that
// the client's own retries and failover across URLs did not overcome, a
// partial answer, a database error) is logged and retried after a
// jittered, growing pause; nothing of a failed range is applied, and the
// stored cursor makes the next round start where the last applied one
// ended, so no block is skipped.
//
// Rounds run on every head the chain announces (HeadFeed) and otherwise
// in step with the network's block time (pace.go).
func (w *Watcher) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f := w.startFeed(ctx)
	var heads <-chan cashier.BlockRef
	feedUp := func() bool { return false }
	if f != nil {
		heads, feedUp = f.heads, f.up.Load
	}
	p := pacer{block: w.cfg.BlockTime, interval: w.cfg.Interval, feedPoll: w.cfg.FeedPoll}
	fails := 0
	var announced *cashier.BlockRef
	for {
		before, began := w.lastHead, time.Now()
		err := w.round(ctx, announced)
		var wait time.Duration
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			fails++
			wait = backoff(w.cfg.BackoffBase, w.cfg.BackoffMax, fails)
			w.log.Warn("chain watch round failed", "err", err, "failures", fails, "retryIn", wait.String())
		default:
			if fails > 0 {
				w.log.Info("chain watch recovered", "after", fails)
			}
			fails = 0
			wait = p.next(w.lastHead > before, feedUp(), time.Since(began))
		}
		announced = nil
		next := heads
		if err != nil {
			next = nil // a failed round's pause is not cut short by new heads
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		case h := <-next:
			t.Stop()
			announced = &h
		}
	}
}

// backoff is a full-jitter exponential pause for the n-th failure in a row.
func backoff(base, maxWait time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	return d/2 + rand.N(d/2+1)
}

// Round brings the watcher up to the chain's current head: confirmed
// ranges first (crediting orders), then the unconfirmed tail (seen only).
func (w *Watcher) Round(ctx context.Context) error { return w.round(ctx, nil) }

// round is Round up to announced, the head a feed announced, when given;
// otherwise up to the head it reads.
func (w *Watcher) round(ctx context.Context, announced *cashier.BlockRef) error {
	var head cashier.BlockRef
	if announced != nil {
		head = *announced
	} else {
		var err error
		if head, err = w.chain.Head(ctx); err != nil {
			return fmt.Errorf("head: %w", err)
		}
	}
	cur, err := w.store.Cursor(ctx, w.cfg.Chain)
	if err != nil {
		return err
	}
	var safe uint64 // highest block with enough confirmations
	if head.Number+1 >= w.cfg.Confirmations {
		safe = head.Number + 1 - w.cfg.Confirmations
	}
	if w.cfg.Finalized {
		fr, ok := w.chain.(FinalityReader)
		if !ok {
			return fmt.Errorf("the %s chain client cannot read the finalized block", w.cfg.Chain)
		}
		f, err := fr.Finalized(ctx)
		if err != nil {
			return fmt.Errorf("finalized block: %w", err)
		}
		// Asked after the head, possibly of another node: never above it.
		safe = min(f.Number, head.Number)
	}
	if cur.UpdatedAt.IsZero() {
		if cur, err = w.firstCursor(ctx, safe); err != nil {
			return err
		}
		if cur.Confirmed > 0 {
			b, err := w.chain.BlockByNumber(ctx, cur.Confirmed)
			if err != nil {
				return fmt.Errorf("block %d: %w", cur.Confirmed, err)
			}
			cur.ConfirmedHash, cur.ConfirmedTime = b.Hash, b.Time
		}
		// Stored at once, so a restart resumes here rather than at genesis.
		cur.Head = head.Number
		if err := w.orders.ApplyConfirmed(ctx, w.cfg.Chain, cur.Confirmed+1, cur.Confirmed, nil, cur); err != nil {
			return err
		}
		w.log.Info("chain watch starts", "from", cur.Confirmed+1)
	} else if head.Number < cur.Head || head.Number < w.lastHead {
		// An older head than one applied already: the answer came from a
		// node behind the others (a provider's load balancer over nodes at
		// different heights). Nothing is scanned on it: the unconfirmed
		// tail above it would look emptied and its seen payments dropped.
		return nil
	} else if idle := announced == nil && head.Hash != "" && head.Hash == w.lastHash && head.Number == cur.Head && cur.Confirmed >= safe; !idle {
		// The confirmed block is checked against the chain on every new
		// head (a new hash: a reorg to a branch of the same height is one);
		// a poll that found the same head (a polled chain between blocks,
		// or the check beside a head feed) costs the node the head read
		// alone, as node providers count requests.
		if cur, err = w.checkCursor(ctx, cur, head); err != nil {
			return err
		}
	}
	for from := cur.Confirmed + 1; from <= safe; {
		to := min(safe, from+w.cfg.Chunk-1)
		got, approvals, err := w.scanConfirmed(ctx, from, to)
		if err != nil {
			return err
		}
		end, err := w.chain.BlockByNumber(ctx, to)
		if err != nil {
			return fmt.Errorf("block %d: %w", to, err)
		}
		if err := w.recordApprovals(ctx, from, to, approvals); err != nil {
			return err
		}
		// The block's time lets orders expire once the chain is scanned
		// past their expiry (orders.ExpiryBound).
		next := cashier.ChainCursor{Confirmed: to, ConfirmedHash: end.Hash, ConfirmedTime: end.Time, Head: head.Number}
		if err := w.orders.ApplyConfirmed(ctx, w.cfg.Chain, from, to, got, next); err != nil {
			return fmt.Errorf("apply blocks %d-%d: %w", from, to, err)
		}
		if len(got) > 0 {
			w.log.Info("confirmed transfers", "from", from, "to", to, "transfers", len(got))
		}
		from = to + 1
	}
	if err := w.flagMissing(ctx); err != nil {
		return err
	}
	w.holdToAllowances(ctx)
	// The unconfirmed tail is scanned whole every round: a reorg inside it
	// simply shows up as transfers that are no longer there (dropped) or
	// are in another block.
	if head.Number == w.lastHead {
		// Nothing new on top. Only seen transfers could still vanish in a
		// reorg at the same height; without any, the round is idle (no
		// rescan and no write: nodes are rate-limited, TRON's per block).
		seen, err := w.store.SeenPayments(ctx, w.cfg.Chain)
		if err != nil {
			return err
		}
		if len(seen) == 0 {
			w.lastHash = head.Hash
			return nil
		}
	}
	var got []orders.Received
	if safe < head.Number {
		if got, err = w.scan(ctx, safe+1, head.Number); err != nil {
			return err
		}
	}
	if err := w.orders.ApplySeen(ctx, w.cfg.Chain, safe+1, head.Number, got); err != nil {
		return err
	}
	w.lastHead, w.lastHash = head.Number, head.Hash
	return nil
}

// firstCursor is where a watcher with no stored cursor begins: StartBlock
// when set; otherwise the confirmed tip, or, when collection orders exist
// already (created while the node could not be reached), the last block
// before the oldest of them was created, found by bisecting block times.
func (w *Watcher) firstCursor(ctx context.Context, safe uint64) (cashier.ChainCursor, error) {
	c := cashier.ChainCursor{Chain: w.cfg.Chain, Confirmed: safe}
	if w.cfg.StartBlock > 0 {
		c.Confirmed = min(w.cfg.StartBlock-1, safe)
		return c, nil
	}
	_, total, err := w.store.Collections(ctx, cashier.CollectionFilter{Page: 1, PageSize: 1})
	if err != nil || total == 0 {
		return c, err
	}
	oldest, _, err := w.store.Collections(ctx, cashier.CollectionFilter{Page: total, PageSize: 1})
	if err != nil || len(oldest) == 0 {
		return c, err
	}
	since := oldest[0].CreatedAt.Add(-time.Minute) // clocks of node and service differ
	lo, hi := uint64(0), safe                      // invariant: block lo is before since, or lo is 0
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		b, err := w.chain.BlockByNumber(ctx, mid)
		if err != nil {
			return c, fmt.Errorf("block %d: %w", mid, err)
		}
		if b.Time.Before(since) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	c.Confirmed = lo
	return c, nil
}

// checkCursor notices a reorg deeper than the confirmation depth (or
// than finality): the block the cursor stands on is no longer canonical.
// The blocks of the payments credited in the last ReorgLookback blocks are
// then checked, newest first, down to the first one still canonical; the
// payments of replaced blocks are marked missing and the cursor rewinds
// below the lowest of them (at least twice the depth), in one transaction.
// The rescan finds every payment that is on the new chain again (by its
// key, or by its transaction when its log index moved) and unmarks it;
// none is credited twice, and one still missing once its block is
// confirmed again flags its order (flagMissing).
func (w *Watcher) checkCursor(ctx context.Context, cur cashier.ChainCursor, head cashier.BlockRef) (cashier.ChainCursor, error) {
	if cur.ConfirmedHash == "" || cur.Confirmed == 0 {
		return cur, nil
	}
	if cur.Confirmed <= head.Number {
		b, err := w.chain.BlockByNumber(ctx, cur.Confirmed)
		if err != nil {
			return cur, fmt.Errorf("block %d: %w", cur.Confirmed, err)
		}
		if strings.EqualFold(b.Hash, cur.ConfirmedHash) {
			return cur, nil
		}
	}
	depth := w.cfg.Confirmations
	if w.cfg.Finalized && head.Number >= cur.Confirmed {
		depth = max(depth, head.Number-cur.Confirmed+1)
	}
	old := cur.Confirmed
	rewind := old - min(2*depth, old)
	ps, err := w.store.ConfirmedPaymentsFrom(ctx, w.cfg.Chain, old-min(w.cfg.ReorgLookback, old))
	if err != nil {
		return cur, err
	}
	var missing []cashier.Payment
	canonical := map[uint64]bool{}
	for _, p := range ps { // newest block first
		ok, seen := canonical[p.BlockNumber]
		if !seen {
			if p.BlockNumber <= head.Number {
				b, err := w.chain.BlockByNumber(ctx, p.BlockNumber)
				if err != nil {
					return cur, fmt.Errorf("block %d: %w", p.BlockNumber, err)
				}
				ok = strings.EqualFold(b.Hash, p.BlockHash)
			}
			canonical[p.BlockNumber] = ok
			if ok {
				break // blocks below a canonical one are canonical too
			}
		}
		if !ok && p.BlockNumber > 0 {
			missing = append(missing, p)
			rewind = min(rewind, p.BlockNumber-1)
		}
	}
	next := cashier.ChainCursor{Chain: w.cfg.Chain, Confirmed: rewind, Head: head.Number}
	if rewind > 0 {
		b, err := w.chain.BlockByNumber(ctx, rewind)
		if err != nil {
			return cur, fmt.Errorf("block %d: %w", rewind, err)
		}
		next.ConfirmedHash, next.ConfirmedTime = b.Hash, b.Time
	}
	if err := w.orders.MarkReorged(ctx, w.cfg.Chain, missing, next); err != nil {
		return cur, err
	}
	w.log.Error("reorg deeper than the confirmation depth: rescanning", "block", old, "rewindTo", rewind,
		"creditedPaymentsInReplacedBlocks", len(missing))
	for _, p := range missing {
		w.log.Error("credited payment's block was replaced: looking for the transfer on the new chain",
			"txId", p.TxHash, "order", p.OrderID, "block", p.BlockNumber, "amount", p.Amount.String())
	}
	return next, nil
}

// flagMissing flags, loudly, the orders whose credited payment a deep
// reorg removed and the rescan did not find again (orders.FlagReorged):
// the order keeps its status and amount, the operator has to look.
func (w *Watcher) flagMissing(ctx context.Context) error {
	flagged, err := w.orders.FlagReorged(ctx, w.cfg.Chain)
	for _, f := range flagged {
		w.log.Error("credited payment missing after a reorg deeper than the confirmations: order flagged, not reversed",
			"order", f.Order.ID, "orderNo", f.Order.OrderNo, "status", string(f.Order.Status),
			"txId", f.Payment.TxHash, "block", f.Payment.BlockNumber, "amount", f.Payment.Amount.String())
	}
	return err
}

// Expirer moves PENDING collection orders to EXPIRED once their expiry has
// passed and their network's watcher has confirmed a block at or after it
// (orders.ExpireDue), reading only the expiry index.
type Expirer struct {
	Orders   *orders.Service
	Interval time.Duration // how often it looks; default 200ms
	Batch    int           // orders per transaction; default 500
	Log      *slog.Logger
}

// Run expires orders until ctx ends.
func (e *Expirer) Run(ctx context.Context) error {
	interval, batch := e.Interval, e.Batch
	if interval <= 0 {
		interval = 200 * time.Millisecond
	}
	if batch <= 0 {
		batch = 500
	}
	log := e.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for {
			n, err := e.Orders.ExpireDue(ctx, batch)
			if err != nil && !errors.Is(err, context.Canceled) {
				log.Warn("expiring collection orders failed", "err", err)
			}
			if n > 0 {
				log.Info("collection orders expired", "count", n)
			}
			if err != nil || n < batch {
				break
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
