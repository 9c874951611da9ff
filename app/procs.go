package app

import (
	"log/slog"
	"os"
	"runtime"
	"sync"
)

var (
	spareOnce sync.Once
	spareFrom int // GOMAXPROCS before spareProc raised it; 0: not raised
)

// spareProc gives the Go scheduler one more P than the CPUs the process may
// use, unless the operator set GOMAXPROCS. While every P runs requests the
// runtime polls the network only from its monitor thread, every 10 ms, so
// under overload each new request waits up to 10 ms before it is even read
// — the ones it is about to refuse included — and then queues behind the
// work already running. A spare P is mostly idle, blocked in the network
// poller: it reads new requests as they arrive and answers the refusals at
// once. Its thread competes for the CPUs only while it has work.
func spareProc(log *slog.Logger) {
	spareOnce.Do(func() {
		if os.Getenv("GOMAXPROCS") != "" {
			return
		}
		spareFrom = runtime.GOMAXPROCS(0)
		n := spareFrom + 1
		runtime.GOMAXPROCS(n)
		log.Info("scheduler", "gomaxprocs", n)
	})
}
