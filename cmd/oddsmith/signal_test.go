package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the command when ODDSMITH_AS_COMMAND is set,
// so signal handling is tested on a real process without building one.
func TestMain(m *testing.M) {
	if os.Getenv("ODDSMITH_AS_COMMAND") == "1" {
		os.Args = append([]string{"oddsmith"}, strings.Fields(os.Getenv("ODDSMITH_ARGS"))...)
		childHooks()
		main()
	}
	os.Exit(m.Run())
}

// signalAttempts bounds how often interruptCommand starts a command whose
// signal came before its handler was installed.
const signalAttempts = 5

// interruptCommand runs the command with args as its own process, sends it
// sig once it runs, waits for it to exit and reports an exit status other
// than code. A process that the signal itself killed had not installed
// its handler yet (a slow start on a busy machine): it is started again
// and signalled later, signalAttempts times at most. Nothing times the
// command: only the go test timeout stops one that never ends (it is
// killed just before, and the test fails).
func interruptCommand(t *testing.T, args []string, sig syscall.Signal, code int) (stdout, stderr string) {
	t.Helper()
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-5*time.Second))
		defer cancel()
	}
	delay := 300 * time.Millisecond
	for attempt := 1; ; attempt++ {
		cmd := exec.CommandContext(ctx, os.Args[0])
		cmd.Env = append(os.Environ(), "ODDSMITH_AS_COMMAND=1", "ODDSMITH_ARGS="+strings.Join(args, " "))
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return "", ""
		}
		time.Sleep(delay)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) && ctx.Err() == nil && attempt < signalAttempts {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == sig {
				delay *= 2
				continue
			}
		}
		switch {
		case ctx.Err() != nil:
			t.Errorf("%q after %v: still running at the test deadline (killed)", args, sig)
		case !errors.As(err, &ee) || ee.ExitCode() != code:
			t.Errorf("%q after %v: %v (stderr %q); want exit %d", args, sig, err, errOut.String(), code)
		}
		return out.String(), errOut.String()
	}
}

// atOnce runs f(t, i) as a subtest named names[i], for every i at once:
// each mostly waits for a process, so together they hold the one parallel
// slot of their test (t.Run from several goroutines; the subtests do not
// call t.Parallel).
func atOnce(t *testing.T, names []string, f func(t *testing.T, i int)) {
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { t.Run(name, func(t *testing.T) { f(t, i) }) })
	}
	wg.Wait()
}

// A long exact computation and a long simulation stop on SIGINT (exit
// 130) and SIGTERM (exit 143), leaving no output file.
func TestSignalsStopLongRuns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		sig  syscall.Signal
		code int
		args string
	}{
		// A keep DP of 250 dice of 250 faces: seconds of work.
		{syscall.SIGINT, 130, "exact --expr 250d250kh125"},
		{syscall.SIGTERM, 143, "exact --expr 250d250kh125"},
		{syscall.SIGTERM, 143, "sim ag.radiation -n 100000000000 -q"},
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.sig.String()+" "+c.args)
	}
	atOnce(t, names, func(t *testing.T, i int) {
		c := cases[i]
		dir := t.TempDir()
		out := filepath.Join(dir, "out.csv")
		stdout, stderr := interruptCommand(t, strings.Fields(c.args+" --format csv -o "+out), c.sig, c.code)
		if stdout != "" || !strings.Contains(stderr, "interrupted") {
			t.Errorf("stdout %q, stderr %q", stdout, stderr)
		}
		if es, _ := os.ReadDir(dir); len(es) != 0 {
			t.Errorf("left %v", es)
		}
	})
}
