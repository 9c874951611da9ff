package webhook

import (
	"testing"
	"time"
)

func TestScheduleNext(t *testing.T) {
	s := DefaultSchedule
	first := t0
	for range 200 { // jitter is random: sample it
		for n, off := range s.Offsets {
			due, ok := s.Next(first, first, n+1)
			if !ok {
				t.Fatalf("retry %d not scheduled", n+1)
			}
			d := due.Sub(first)
			lo, hi := time.Duration(float64(off)*0.9), min(time.Duration(float64(off)*1.1), s.Window)
			if d < lo || d > hi {
				t.Fatalf("retry %d after %s, want within [%s, %s]", n+1, d, lo, hi)
			}
		}
	}
	if _, ok := s.Next(first, first, len(s.Offsets)+1); ok {
		t.Error("a retry beyond the schedule")
	}
	// A dispatcher that was down past the due time retries at once.
	late := first.Add(10 * time.Minute)
	if due, _ := s.Next(first, late, 1); !due.Equal(late) {
		t.Errorf("overdue retry at %s, want now", due.Sub(first))
	}
	noJitter := Schedule{Offsets: []time.Duration{time.Minute}, Window: time.Hour}
	if due, _ := noJitter.Next(first, first, 1); !due.Equal(first.Add(time.Minute)) {
		t.Errorf("unjittered retry at %s", due.Sub(first))
	}
}

func TestScheduleValidate(t *testing.T) {
	if err := DefaultSchedule.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []Schedule{
		{Offsets: []time.Duration{time.Minute, time.Minute}},
		{Offsets: []time.Duration{5 * time.Minute, time.Minute}},
		{Offsets: []time.Duration{25 * time.Hour}, Window: 24 * time.Hour},
		{Offsets: []time.Duration{time.Minute}, Jitter: 1},
		{Offsets: []time.Duration{0}},
	} {
		if s.Validate() == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if _, err := NewDispatcher(Config{Schedule: Schedule{Offsets: []time.Duration{time.Hour, time.Minute}}}, nil, nil, nil, nil); err == nil {
		t.Error("NewDispatcher accepted a bad schedule")
	}
	if _, err := NewDispatcher(Config{Timeout: time.Minute, Lease: time.Minute}, nil, nil, nil, nil); err == nil {
		t.Error("NewDispatcher accepted a lease shorter than two timeouts")
	}
}

func TestParseOffsets(t *testing.T) {
	s, err := ParseOffsets("1m, 5m,30m,2h,24h")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Offsets) != 5 || s.Offsets[3] != 2*time.Hour || s.Jitter != 0.1 || s.Window != 24*time.Hour {
		t.Errorf("%+v", s)
	}
	for _, bad := range []string{"", "1m,x", "5m,1m", "1m,25h"} {
		if _, err := ParseOffsets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
