package app

import (
	"log/slog"
	"net"
	stdhttp "net/http"
	"net/http/pprof"
	"time"
)

// startProfiling serves net/http/pprof on its own listener at addr, never
// on the public one: profiles reveal internals and cost CPU, so they are
// for an operator who reaches a private address (the default, off, serves
// nothing). It returns the address it listens on and a function that stops
// it.
func startProfiling(addr string, logger *slog.Logger) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	mux := stdhttp.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &stdhttp.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	logger.Info("profiling endpoint", "addr", ln.Addr().String())
	return ln.Addr().String(), func() { srv.Close() }, nil
}
