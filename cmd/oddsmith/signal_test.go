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

// interruptCommand starts the command with args, sends it sig after 300 ms
// and waits up to wait for it to exit, reporting an exit status other than
// code (label names the command in the message). stopped is false when it
// did not exit in time: it is then killed.
func interruptCommand(t *testing.T, label string, args []string, sig syscall.Signal, code int, wait time.Duration) (stdout, stderr *strings.Builder, stopped bool) {
	t.Helper()
	cmd, stdout, stderr := startCommand(t, args...)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != code {
			t.Errorf("%s after %v: %v (stderr %q); want exit %d", label, sig, err, stderr.String(), code)
		}
		return stdout, stderr, true
	case <-time.After(wait):
		cmd.Process.Kill()
		<-done
		return stdout, stderr, false
	}
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
		stdout, stderr, stopped := interruptCommand(t, c.args, strings.Fields(c.args+" --format csv -o "+out), c.sig, c.code, 10*time.Second)
		if !stopped {
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
