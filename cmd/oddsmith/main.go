package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stuckGrace is how long a cancelled command may take to stop before the
// process exits without it.
const stuckGrace = 2 * time.Second

// minFreeFiles is how many files oddsmith must be able to open when it
// starts: two for the Go runtime's poller (it stops the process with a
// goroutine dump when it cannot have them), and some for the work.
const minFreeFiles = 4

// errStdoutClosed is the write error of a standard output closed at start.
var errStdoutClosed = errors.New("the standard output is closed (give -o FILE, or >/dev/null to discard it)")

// closedWriter is the standard output when it was closed at start: every
// write fails, so a command whose output is lost exits 1.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, errStdoutClosed }

// startup prepares the process: it returns the standard output to write
// to, or a refusal to start (one line, exit 1).
func startup() (io.Writer, error) {
	// The Go runtime's own fatal errors (out of memory under a tight
	// ulimit -v, a poller without descriptors) always print every
	// goroutine's stack and exit 2, whatever GOTRACEBACK says (a runtime
	// throw forces it); what can be checked before is checked here (see
	// README, "Limits").
	if n := freeDescriptors(minFreeFiles); n < minFreeFiles {
		return nil, fmt.Errorf("too few files can be opened (ulimit -n %d, %d free): oddsmith needs %d; raise the limit", openFilesLimit(), n, minFreeFiles)
	}
	if stdoutClosed() {
		return closedWriter{}, nil
	}
	return os.Stdout, nil
}

func main() {
	stdout, err := startup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oddsmith:", err)
		os.Exit(exitFailure)
	}
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
	code := run(ctx, os.Args[1:], stdout, os.Stderr)
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}
