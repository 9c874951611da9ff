package main

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// sustainedShare is the share of requests a sustained rate gets created:
// the service refuses what it cannot serve within its own wait bound
// (--max-wait), so a rate it refuses more of is beyond what it sustains.
const sustainedShare = 0.99

// overloadPlan measures graceful overload: find the highest rate the
// service sustains (stepping up from the first step), offer that rate for
// duration, then factor times it for duration, and compare the latency of
// the accepted creates in both from settle on (the service adapts its
// in-flight limit during the first moments of an overload).
type overloadPlan struct {
	factor   float64
	step     float64       // the search starts here and climbs by as much
	stepMax  float64       // the search ends here; 0: only when a rate is not sustained
	stepFor  time.Duration // each search step lasts this long
	duration time.Duration
	settle   time.Duration
	pause    time.Duration // between offers, for the service to drain
	every    time.Duration
}

func (p overloadPlan) run(out io.Writer, g *generator) error {
	fmt.Fprintf(out, "finding the sustainable rate: steps of %.0f/s, %s each; sustained means at least %.0f%% created\n",
		p.step, p.stepFor, 100*sustainedShare)
	var s search
	for rate := p.step; !s.done; {
		r := g.offer(rate, max(1, int(rate*p.stepFor.Seconds())))
		if n := r.failed(); n > 0 {
			r.report(out, 0, 0)
			return fmt.Errorf("%d requests failed", n)
		}
		share := float64(len(r.created)) / float64(r.total)
		c := latencies(r.created, 0, 0)
		fmt.Fprintf(out, "  %.0f/s: %.1f%% created, p50 %s, p99 %s\n", rate, 100*share, pct(c, 0.5), pct(c, 0.99))
		time.Sleep(p.pause)
		rate = s.next(rate, share, p)
	}
	sustained := s.sustained
	if sustained == 0 {
		return errors.New("the service did not sustain even the first step; try a smaller --step")
	}
	var runs [2]*result
	for i, rate := range []float64{sustained, p.factor * sustained} {
		if i == 0 {
			fmt.Fprintf(out, "\n== the sustainable rate, %.0f/s for %s\n", rate, p.duration)
		} else {
			fmt.Fprintf(out, "\n== %g× that, %.0f/s for %s\n", p.factor, rate, p.duration)
		}
		runs[i] = g.offer(rate, int(rate*p.duration.Seconds()))
		// The refusals at the overload are costed at the creates' cost at
		// the sustainable rate (when nothing was refused there).
		createUS := g.createUS
		if r := runs[0]; i == 1 && createUS == 0 && r.measured && len(r.refused) == 0 && len(r.created) > 0 {
			createUS = float64(r.service.Microseconds()) / float64(len(r.created))
		}
		runs[i].report(out, p.every, createUS)
		if n := runs[i].failed(); n > 0 {
			return fmt.Errorf("%d requests failed", n)
		}
		time.Sleep(p.pause)
	}
	base, over := latencies(runs[0].created, p.settle, 0), latencies(runs[1].created, p.settle, 0)
	refused := latencies(runs[1].refused, p.settle, 0)
	span := (p.duration - p.settle).Seconds()
	fmt.Fprintf(out, "\n== from %s on in each\n", p.settle)
	fmt.Fprintf(out, "accepted at %.0f/s: %.0f created/s, p50 %s, p99 %s\n", runs[0].rate, float64(len(base))/span, pct(base, 0.5), pct(base, 0.99))
	fmt.Fprintf(out, "accepted at %.0f/s: %.0f created/s, p50 %s, p99 %s\n", runs[1].rate, float64(len(over))/span, pct(over, 0.5), pct(over, 0.99))
	fmt.Fprintf(out, "refused  at %.0f/s: %.0f/s, p50 %s, p99 %s\n", runs[1].rate, float64(len(refused))/span, pct(refused, 0.5), pct(refused, 0.99))
	return nil
}

// search is the state of the search for the sustainable rate.
type search struct {
	sustained float64 // the highest rate sustained so far
	retried   bool    // the current rate failed once
	done      bool
}

// next records that rate got share of its requests created and returns
// the rate to offer next. A rate not sustained is offered once more
// before the search ends: a moment's stall of the machine (another
// process, the disk) must not end it early.
func (s *search) next(rate, share float64, p overloadPlan) float64 {
	switch {
	case share >= sustainedShare:
		s.sustained, s.retried = rate, false
		rate += p.step
		if (p.stepMax > 0 && rate > p.stepMax) || rate*p.factor > maxRate {
			s.done = true
		}
	case !s.retried:
		s.retried = true
	default:
		s.done = true
	}
	return rate
}
