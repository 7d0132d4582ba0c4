package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
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
	t.Parallel()
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

// SIGINT and SIGTERM stop the atlas, a shard and a read that blocks in the
// kernel (a FIFO no one writes: --rules, a plan, a shard) with 130 or 143
// and no output.
func TestHostileSignalsNew(t *testing.T) {
	t.Parallel()
	in := t.TempDir()
	fifo := filepath.Join(in, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	plan := filepath.Join(in, "long.toml")
	os.WriteFile(plan, []byte("[[analysis]]\nname = \"a\"\nmechanic = \"ag.radiation\"\nengine = \"sim\"\ntrials = 100000000000\n"), 0o644)
	cases := []struct {
		sig  syscall.Signal
		code int
		args string
	}{
		{syscall.SIGTERM, 143, "list --rules " + fifo},
		{syscall.SIGTERM, 143, "merge " + fifo + " -o OUT"},
		{syscall.SIGINT, 130, "atlas -q -o OUT"},
		{syscall.SIGTERM, 143, "run " + plan + " -q --shard 0/1 -o OUT"},
		{syscall.SIGINT, 130, "sim ag.radiation -n 100000000000 -q --shard 1/2 -o OUT"},
	}
	var names []string
	for _, c := range cases {
		names = append(names, strings.Fields(c.args)[0])
	}
	atOnce(t, names, func(t *testing.T, i int) {
		c := cases[i]
		dir := t.TempDir()
		args := strings.Fields(strings.ReplaceAll(c.args, "OUT", filepath.Join(dir, "out")))
		stdout, stderr := interruptCommand(t, args, c.sig, c.code)
		if stdout != "" || strings.TrimSpace(stderr) != "oddsmith: interrupted" {
			t.Errorf("stdout %q, stderr %q", stdout, stderr)
		}
		if es, _ := os.ReadDir(dir); len(es) != 0 {
			t.Errorf("left %v", es)
		}
	})
	if es, _ := os.ReadDir(in); len(es) != 2 {
		t.Errorf("files left beside the inputs: %v", es)
	}
}

// An empty --shard (an unset variable in a job script) is refused, not
// taken as no shard: that ran the whole simulation and wrote its table
// where the shard file belonged. An empty --expr says so.
func TestHostileEmptyFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "s.shard")
	for _, args := range [][]string{
		{"sim", "ag.skill_test", "-n", "1000", "-q", "--shard", "", "-o", out},
		{"sim", "ag.skill_test", "-n", "1000", "-q", "--shard", " ", "-o", out},
		{"sweep", "ag.skill_test", "--vary", "skill=0..2", "-q", "--shard=", "-o", out},
		{"run", "../../examples/tour.toml", "-q", "--shard", "", "-o", out},
	} {
		_, errOut := hostile(t, 2, args...)
		if !strings.Contains(errOut, "--shard is empty") {
			t.Errorf("%q: %q", args, errOut)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("an empty --shard wrote", out)
	}
	for _, args := range [][]string{{"exact"}, {"sim", "-n", "10"}, {"sweep", "--vary", "b=0..1", "-o", filepath.Join(dir, "x")}} {
		cmd := args[0]
		_, errOut := hostile(t, 2, append(args, "--expr", "")...)
		if !strings.Contains(errOut, "--expr is empty") {
			t.Errorf("%s --expr '': %q", cmd, errOut)
		}
	}
}

// A plan's chart is validated at every point of a lines series' range
// (only its ends were: a value inside that the rule refuses was found
// after the earlier charts ran, with no file or line), and an inline
// rule's error names the file once.
func TestHostilePlanRulesAndCharts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(dir, "mid.toml")
	os.WriteFile(plan, []byte(`[[rule]]
id = "plan.half"
[rule.params]
n = { default = 1, min = 0, max = 10, real = true }
[rule.vars]
v = "(n)d6"

[[chart]]
name = "c"
[[chart.panel]]
range = "0..3:0.5"
metric = "mean:v"
[[chart.panel.series]]
label = "s"
mechanic = "plan.half"
x = "n"
`), 0o644)
	out := filepath.Join(dir, "out")
	_, errOut := hostile(t, 2, "run", plan, "-o", out, "-q")
	if !strings.Contains(errOut, "mid.toml:14: chart 1 (c)") || !strings.Contains(errOut, "at n = 0.5") { // the series' label
		t.Errorf("a chart point the rule refuses: %q", errOut)
	}
	inline := filepath.Join(dir, "inline.toml")
	os.WriteFile(inline, []byte("[[rule]]\nid = \"plan.bad\"\n[rule.vars]\nv = \"d6 +\"\n\n[[analysis]]\nname = \"a\"\nmechanic = \"plan.bad\"\n"), 0o644)
	_, errOut = hostile(t, 2, "run", inline, "-o", out, "-q")
	if strings.Count(errOut, "inline.toml") != 1 || !strings.Contains(errOut, "inline.toml:4:") {
		t.Errorf("an inline rule's error: %q", errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused plan wrote", out)
	}
}

// A metric a one-liner lacks names what it has: 'oddsmith describe expr'
// (the old hint) is an unknown mechanic, and describe takes no --expr.
func TestHostileExprMetric(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	_, errOut := hostile(t, 2, "sweep", "--expr", "d20 + b", "--vary", "b=0..3", "--metric", "mean:expr", "-o", out, "-q")
	if strings.Contains(errOut, "describe") || !strings.Contains(errOut, "its variables: value") {
		t.Errorf("%q", errOut)
	}
	_, errOut = hostile(t, 2, "sweep", "--expr", "d20 + b >= 4", "--vary", "b=0..3", "--metric", "event:hit", "-o", out, "-q")
	if !strings.Contains(errOut, "its events: success") {
		t.Errorf("%q", errOut)
	}
}
