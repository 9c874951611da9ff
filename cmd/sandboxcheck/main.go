// Command sandboxcheck is the acceptance check of a running sandbox: it
// reads DIR/sandbox.json and exercises the sandbox over the network (see
// package sandbox/check). With -resumed it checks instead that a restarted
// sandbox kept what an earlier full check left.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/sandbox/check"
)

func main() {
	data := flag.String("data", ".sandbox", "the sandbox's data directory")
	resumed := flag.Bool("resumed", false, "check that a restarted sandbox kept the state of an earlier full check")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *data, *resumed); err != nil {
		fmt.Fprintln(os.Stderr, "sandboxcheck:", err)
		os.Exit(1)
	}
	fmt.Println("sandbox check passed")
}

func run(ctx context.Context, data string, resumed bool) error {
	info, err := sandbox.ReadInfo(filepath.Join(data, sandbox.InfoFile))
	if err != nil {
		return err
	}
	if resumed {
		return check.Resumed(ctx, info, data, os.Stdout)
	}
	return check.Run(ctx, info, data, os.Stdout)
}
