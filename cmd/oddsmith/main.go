package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stuckGrace is how long a cancelled command may take to stop before the
// process exits without it.
const stuckGrace = 2 * time.Second

func main() {
	// The first SIGINT or SIGTERM cancels the work (the cause records which,
	// for the exit status); a second one kills the process as usual.
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		if s, ok := <-sigs; ok {
			signal.Stop(sigs)
			cancel(signalled{s})
			// Work stops within a fraction of a second of the cancel; a read
			// blocked in the kernel (a FIFO no one writes) never looks at
			// it, so after a grace period the process exits anyway.
			time.Sleep(stuckGrace)
			fmt.Fprintln(os.Stderr, "oddsmith: interrupted")
			os.Exit(exitCode(ctx, context.Canceled))
		}
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}
