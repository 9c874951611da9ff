// Package shed is the service's load shedding: what decides at the door,
// before any work, whether a request is served (the in-flight bound, the
// wait a write would meet, the places booked for refused writes), the CPU
// gate write requests compute behind, the watch on how long goroutines
// wait for a CPU, and the read-ahead of request bodies that keeps slow
// clients from holding places. Package http calls it on every request.
package shed
