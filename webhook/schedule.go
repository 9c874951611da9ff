package webhook

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Schedule says when a failed event is tried again. Retry n (1-based) is due
// Offsets[n-1] after the cycle's first attempt, moved by up to ±Jitter of
// that offset so many events failing together do not return together, but
// never later than Window after the first attempt. After len(Offsets)
// retries the event is failed.
type Schedule struct {
	Offsets []time.Duration
	Jitter  float64 // fraction, 0.1 = ±10%
	Window  time.Duration
}

// DefaultSchedule is the documented one: retries 1 min, 5 min, 30 min and
// 2 h after the first attempt, and a last one before 24 h have passed.
var DefaultSchedule = Schedule{
	Offsets: []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 24 * time.Hour},
	Jitter:  0.1,
	Window:  24 * time.Hour,
}

// Validate reports a schedule that cannot be followed.
func (s Schedule) Validate() error {
	if s.Jitter < 0 || s.Jitter >= 1 {
		return fmt.Errorf("webhook: schedule jitter %v is outside [0, 1)", s.Jitter)
	}
	var prev time.Duration
	for i, o := range s.Offsets {
		if o <= prev {
			return fmt.Errorf("webhook: schedule offset %d (%s) is not after the previous one", i+1, o)
		}
		prev = o
	}
	if s.Window > 0 && prev > s.Window {
		return fmt.Errorf("webhook: schedule offset %s is beyond the window %s", prev, s.Window)
	}
	return nil
}

// Next returns when retry n is due for a cycle whose first attempt was at
// first, no earlier than now; ok is false once the schedule is used up.
func (s Schedule) Next(first, now time.Time, n int) (due time.Time, ok bool) {
	if n < 1 || n > len(s.Offsets) {
		return time.Time{}, false
	}
	o := float64(s.Offsets[n-1])
	lo, hi := o*(1-s.Jitter), o*(1+s.Jitter)
	if s.Window > 0 && hi > float64(s.Window) {
		hi = float64(s.Window)
	}
	due = first.Add(time.Duration(lo + rand.Float64()*(hi-lo)))
	if due.Before(now) {
		due = now // the dispatcher was away: try as soon as possible
	}
	return due, true
}

// ParseOffsets reads a comma-separated list of durations ("1m,5m,30m,2h,24h")
// into a schedule with DefaultSchedule's jitter and window.
func ParseOffsets(s string) (Schedule, error) {
	sch := Schedule{Jitter: DefaultSchedule.Jitter, Window: DefaultSchedule.Window}
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil {
			return Schedule{}, fmt.Errorf("webhook: retry schedule %q: %w", s, err)
		}
		sch.Offsets = append(sch.Offsets, d)
	}
	return sch, sch.Validate()
}
