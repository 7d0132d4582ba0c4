package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// Hostile input on the newer surfaces (--expr, --rules, plans with charts,
// shards and merge), each case found by trying it: every run ends in one
// clear line and the documented exit status.

// endless is a pipe that yields zeros until closed, like /dev/zero, and
// counts what was read from it: a reader that reads it whole never stops.
func endless(t *testing.T) (name string, read *atomic.Int64) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	read = new(atomic.Int64)
	go func() {
		buf := make([]byte, 64<<10)
		for read.Load() < 64<<20 { // a cap, so that a reader without limits ends too
			n, err := w.Write(buf)
			read.Add(int64(n))
			if err != nil {
				return
			}
		}
		w.Close()
	}()
	t.Cleanup(func() { r.Close(); w.Close() })
	return fmt.Sprintf("/dev/fd/%d", r.Fd()), read
}

// A plan or a shard that never ends (a device, a pipe) is refused after a
// bounded read, not read until memory runs out; a directory given as a
// shard is bad input.
func TestHostileEndlessInputs(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.toml")
	f, _ := os.Create(big)
	f.Truncate(maxPlanBytes + 1)
	f.Close()
	_, errOut := hostile(t, 2, "run", big, "-o", filepath.Join(dir, "out"), "-q")
	if !strings.Contains(errOut, "at most") {
		t.Errorf("a plan over the limit: %q", errOut)
	}
	name, read := endless(t)
	hostile(t, 2, "merge", name, "-q")
	if n := read.Load(); n > 1<<20 {
		t.Errorf("merge read %d bytes of a stream that does not start like a shard", n)
	}
	hostile(t, 2, "merge", dir, "-q")
	hostile(t, 2, "run", dir, "-o", filepath.Join(dir, "out"), "-q")
}
