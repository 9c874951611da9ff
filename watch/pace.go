package watch

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// HeadFeed is a chain that can announce its new heads as they are made
// (evm.Client with a WebSocket URL: eth_subscribe newHeads). FollowsHeads
// reports whether it can (a client with only HTTP URLs cannot: the watcher
// polls); FollowHeads calls fn with each head and up with whether a
// subscription is in place, until ctx ends.
type HeadFeed interface {
	FollowsHeads() bool
	FollowHeads(ctx context.Context, fn func(cashier.BlockRef), up func(bool)) error
}

// Pacing of a polled chain. A watcher that follows a head feed runs a round
// on every announced head and reads the head itself only every FeedPoll
// (in case the feed stalls without breaking). A polled chain is read in
// step with its block time: a round is due one block time after the round
// that saw the last new head, a little early (paceLead), and when it finds
// none the next one follows after paceStep, doubling up to the interval.
// After a few blocks the rounds fall just after the blocks are made, at
// about one or two head reads a block, where a fixed one-second poll reads
// TRON's head three times a block and Ethereum's twelve and is up to a
// second late.
const (
	paceLead = 50 * time.Millisecond
	paceStep = 100 * time.Millisecond
)

// pacer chooses the pause before the next round.
type pacer struct {
	block    time.Duration // the network's block time; 0 polls every interval
	interval time.Duration // the longest pause of a polled chain
	feedPoll time.Duration // the pause while a head feed is up
	misses   int           // rounds since the last one that saw a new head
}

// next is the pause after a successful round that took took; advanced
// reports a new head seen by it, feedUp a head feed in place. The next
// block is due one block time after the round that saw this one began,
// not after it ended: else every round's own length would push the rounds
// later behind the blocks, block after block.
func (p *pacer) next(advanced, feedUp bool, took time.Duration) time.Duration {
	if advanced {
		p.misses = 0
	} else {
		p.misses++
	}
	switch {
	case feedUp:
		return p.feedPoll
	case p.block <= p.interval/2 || p.block <= paceStep:
		// Blocks come faster than the poll: every round finds one.
		return p.interval
	case p.misses == 0:
		return max(p.block-paceLead-took, 0)
	}
	d := paceStep << min(p.misses-1, 16)
	return min(d, p.interval)
}

// feed follows the chain's head feed, when it has one, for the watcher's
// Run: the latest announced head waits in heads (older ones are replaced,
// a round reads the chain up to the newest anyway), and up says whether a
// subscription is in place.
type feed struct {
	heads chan cashier.BlockRef
	up    atomic.Bool
}

func (w *Watcher) startFeed(ctx context.Context) *feed {
	hf, ok := w.chain.(HeadFeed)
	if !ok || !hf.FollowsHeads() {
		return nil
	}
	f := &feed{heads: make(chan cashier.BlockRef, 1)}
	go func() {
		_ = hf.FollowHeads(ctx, func(h cashier.BlockRef) {
			for {
				select {
				case f.heads <- h:
					return
				default:
				}
				select {
				case <-f.heads: // replaced by the newer head
				default:
				}
			}
		}, func(up bool) {
			f.up.Store(up)
			if up {
				w.log.Info("following new heads as they are made")
			} else if ctx.Err() == nil {
				w.log.Warn("the head feed broke; polling until it is back")
			}
		})
	}()
	return f
}
