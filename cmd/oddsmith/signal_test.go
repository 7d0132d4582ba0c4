package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the command when ODDSMITH_AS_COMMAND is set,
// so signal handling is tested on a real process without building one.
func TestMain(m *testing.M) {
	if os.Getenv("ODDSMITH_AS_COMMAND") == "1" {
		os.Args = append([]string{"oddsmith"}, strings.Fields(os.Getenv("ODDSMITH_ARGS"))...)
		main()
	}
	os.Exit(m.Run())
}

// startCommand starts the command as its own process.
func startCommand(t *testing.T, args ...string) (*exec.Cmd, *strings.Builder, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ODDSMITH_AS_COMMAND=1", "ODDSMITH_ARGS="+strings.Join(args, " "))
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errOut
}

// A long exact computation and a long simulation stop promptly on SIGINT
// (exit 130) and SIGTERM (exit 143), leaving no output file.
func TestSignalsStopLongRuns(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		args string
	}{
		{syscall.SIGINT, 130, "exact ag.wound_degeneration --set boxes=12 --set hours=168"},
		{syscall.SIGTERM, 143, "exact ag.wound_degeneration --set boxes=12 --set hours=168"},
		{syscall.SIGTERM, 143, "sim ag.radiation -n 100000000000 -q"},
	} {
		out := filepath.Join(dir, "out.csv")
		cmd, stdout, stderr := startCommand(t, strings.Fields(c.args+" --format csv -o "+out)...)
		time.Sleep(300 * time.Millisecond)
		cmd.Process.Signal(c.sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Errorf("%s after %v: %v (stderr %q); want exit %d", c.args, c.sig, err, stderr.String(), c.code)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s did not stop within 10 s of %v", c.args, c.sig)
		}
		if stdout.Len() != 0 || !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%s: stdout %q, stderr %q", c.args, stdout.String(), stderr.String())
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s left %s", c.args, out)
		}
	}
}
