package sign

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Window is the rule for Service-Request-Time. A request signed at t is
// accepted at server time now when now-window <= t <= now+FutureSkew: the
// past side is the interface's validity window, the future side a small
// tolerance for clocks that run slightly ahead of the server's.
type Window struct {
	Default    time.Duration // used when Service-Rec_Window is absent (30 s)
	Max        time.Duration // largest window a client may ask for (60 s)
	FutureSkew time.Duration // how far ahead of the server a request may be
}

// DefaultWindow is the interface's 30000 ms default with the documented
// 60000 ms maximum and one second of tolerance for fast client clocks.
var DefaultWindow = Window{Default: 30 * time.Second, Max: 60 * time.Second, FutureSkew: time.Second}

// Time errors, distinct so the server can tell the client what to fix.
var (
	ErrTimeMissing   = errors.New("request time header is missing")
	ErrTimeFormat    = errors.New("request time must be Unix milliseconds as an integer")
	ErrTimeSeconds   = errors.New("request time looks like Unix seconds; send Unix milliseconds")
	ErrTimeStale     = errors.New("request time is outside the validity window")
	ErrTimeFuture    = errors.New("request time is ahead of the server clock")
	ErrWindowInvalid = errors.New("receive window must be a positive integer of milliseconds")
)

// MinPlausibleMillis is 2001-09-09 in milliseconds; any real millisecond
// timestamp is larger, while every seconds timestamp until the year 5138 is
// smaller, so a smaller value is almost certainly seconds.
const MinPlausibleMillis = 1_000_000_000_000

// CheckTime validates the request time and optional receive window headers.
func (w Window) CheckTime(now time.Time, requestTime, recvWindow string) error {
	if requestTime == "" {
		return ErrTimeMissing
	}
	t, err := strconv.ParseInt(requestTime, 10, 64)
	if err != nil || t <= 0 {
		return ErrTimeFormat
	}
	if t < MinPlausibleMillis {
		return ErrTimeSeconds
	}
	win := w.Default
	if recvWindow != "" {
		ms, err := strconv.ParseInt(recvWindow, 10, 64)
		if err != nil || ms <= 0 {
			return ErrWindowInvalid
		}
		// Compared in milliseconds: converting first would overflow a
		// Duration for huge values and let them through as a short window.
		if ms > w.Max.Milliseconds() {
			return fmt.Errorf("%w: at most %d", ErrWindowInvalid, w.Max.Milliseconds())
		}
		win = time.Duration(ms) * time.Millisecond
	}
	n := now.UnixMilli()
	switch {
	case n-t > win.Milliseconds():
		return fmt.Errorf("%w: %d ms old, window %d ms", ErrTimeStale, n-t, win.Milliseconds())
	case t-n > w.FutureSkew.Milliseconds():
		return fmt.Errorf("%w by %d ms", ErrTimeFuture, t-n)
	}
	return nil
}
