package watch

import (
	"testing"
	"time"
)

func TestPacerFollowsTheBlockTime(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		p     pacer
		steps []struct {
			advanced, feedUp bool
			want             time.Duration
		}
	}{
		{"TRON's 3 s blocks: one block time after a new head, then growing steps up to the interval",
			pacer{block: 3 * time.Second, interval: time.Second, feedPoll: 4 * time.Second},
			[]struct {
				advanced, feedUp bool
				want             time.Duration
			}{
				{true, false, 3*time.Second - 50*ms},
				{false, false, 100 * ms},
				{false, false, 200 * ms},
				{false, false, 400 * ms},
				{false, false, 800 * ms},
				{false, false, time.Second},
				{false, false, time.Second},
				{true, false, 3*time.Second - 50*ms},
			}},
		{"a head feed in place: the watcher's own reads only every feed poll",
			pacer{block: 12 * time.Second, interval: time.Second, feedPoll: 4 * time.Second},
			[]struct {
				advanced, feedUp bool
				want             time.Duration
			}{
				{true, true, 4 * time.Second},
				{false, true, 4 * time.Second},
				{false, false, 200 * ms}, // the feed broke: paced polling again
			}},
		{"blocks faster than half the interval: every interval, as before",
			pacer{block: 250 * ms, interval: time.Second},
			[]struct {
				advanced, feedUp bool
				want             time.Duration
			}{
				{true, false, time.Second},
				{false, false, time.Second},
			}},
		{"no block time known: every interval",
			pacer{interval: time.Second},
			[]struct {
				advanced, feedUp bool
				want             time.Duration
			}{
				{true, false, time.Second},
				{false, false, time.Second},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			for i, s := range tc.steps {
				if got := p.next(s.advanced, s.feedUp, 0); got != s.want {
					t.Fatalf("step %d (advanced %v, feed %v): pause %s, want %s", i, s.advanced, s.feedUp, got, s.want)
				}
			}
		})
	}
}

// A round's own length comes off the pause to the next block, so rounds
// stay in step with the blocks however long they take.
func TestPacerCountsFromTheRoundsStart(t *testing.T) {
	p := pacer{block: 3 * time.Second, interval: time.Second}
	if got, want := p.next(true, false, 400*time.Millisecond), 3*time.Second-50*time.Millisecond-400*time.Millisecond; got != want {
		t.Fatalf("pause %s, want %s", got, want)
	}
	if got := p.next(true, false, 5*time.Second); got != 0 {
		t.Fatalf("a round longer than a block: pause %s, want none", got)
	}
}
