package shed

import (
	"time"
)

// InFlight is the number of requests in progress, counted from their
// arrival: it includes one still being decided, which may yet be refused.
func (a *Admission) InFlight() int64 { return a.n.Load() }

// Writes is the number of write requests admitted and not yet answered.
func (a *Admission) Writes() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.writes
}

// SetTimePerWrite sets the measured time per write, as a measurement
// would; callers' tests use it to set the wait a write meets.
func (a *Admission) SetTimePerWrite(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.perWrite = d
}

// Pin fixes the last reading for an hour with the demand outrunning the
// service or not, so callers' tests decide what the next requests meet.
func (c *CPUWait) Pin(outrun bool) {
	c.last.Store(time.Now().Add(time.Hour).UnixNano())
	c.outrun.Store(outrun)
}
