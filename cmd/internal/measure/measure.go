// Package measure holds what the measuring commands (loadgen, paylatency,
// payoute2e) share: the way they run and fail, their run ids, their
// flags for a sandbox's data directory, and a local receiver for the
// webhooks their requests cause. It speaks to the service only through
// the client package, so that the load generator stays light.
package measure

import (
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// Main runs a measuring command on the process's arguments and standard
// output; an error is printed as "NAME: error" and exits with status 1.
func Main(name string, run func(args []string, out io.Writer) error) {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// RandomHex is n random bytes in hex: a run's id, so that the order
// numbers of two runs on one sandbox never meet.
func RandomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// SandboxFlags are the flags of a command that measures a running sandbox
// and receives its webhooks.
type SandboxFlags struct {
	Data    string        // the sandbox's data directory
	Listen  string        // the webhook receiver's address
	Timeout time.Duration // the whole run's bound
}

// Define adds --data, --listen (default listen) and --timeout to fs.
func (f *SandboxFlags) Define(fs *flag.FlagSet, listen string) {
	fs.StringVar(&f.Data, "data", ".sandbox", "the sandbox's data directory")
	fs.StringVar(&f.Listen, "listen", listen, "address of the webhook receiver (the sandbox's webhook URL is http://ADDR/hook)")
	fs.DurationVar(&f.Timeout, "timeout", 10*time.Minute, "give up after this long")
}

// Serve serves h on addr in the background until the returned server is
// closed.
func Serve(addr string, h http.Handler) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return srv, nil
}
