// Command oddsmith is the command line of the oddsmith toolkit, which
// computes how tabletop dice mechanics behave, exactly and by simulation.
//
// It parses the arguments and flags, wires the packages that do the work
// (the registry of systems with the --rules files laid over it, study to
// run the engines, sweeps, plans and shards, reports to write the results)
// and maps their errors to exit statuses: 0 ok, 1 failure, 2 bad input,
// 130 and 143 interrupted (SIGINT, SIGTERM). It has no logic of its own
// beyond the command line's (flag values, bounded reads of input files,
// the arguments and input checksums a shard records for merge): models,
// engines, output formats and shard files live in those packages.
//
//	oddsmith list
//	oddsmith describe ag.skill_test
//	oddsmith exact ag.skill_test --set skill=2 --set attribute=2 --set tn=5
//	oddsmith sim ag.skill_test --set skill=2 -n 1000000 -s 42 --workers 2
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
