package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/systems"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func runCLI(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(ctx, args, &o, &e)
	return code, o.String(), e.String()
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string // in the one-line error
	}{
		{[]string{}, "Usage"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"exact"}, "missing mechanic id"},
		{[]string{"exact", "ag.nope"}, `unknown mechanic "ag.nope"`},
		{[]string{"exact", "ag.skill_test", "ag.opposed", "--format", "csv"}, "several mechanics print as tables one after another"},
		{[]string{"exact", "ag.skill_test", "--set", "skil=2"}, `unknown parameter or option "skil"`},
		{[]string{"exact", "ag.skill_test", "--set", "skill=two"}, `skill="two" is not a number`},
		{[]string{"exact", "ag.skill_test", "--set", "skill=41"}, "skill=41 out of range [0, 40]"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=1.5"}, "must be a whole number"},
		{[]string{"exact", "ag.skill_test", "--set", "tn=0"}, "tn=0 out of range"},
		{[]string{"exact", "ag.skill_test", "--set", "skill"}, "not of the form name=value"},
		{[]string{"exact", "ag.skill_test", "--set", "opt.tie=maybe"}, `option ag.core.opt.tie="maybe" is not one of`},
		{[]string{"exact", "ag.skill_test", "--format", "xml"}, `unknown format "xml"`},
		{[]string{"exact", "ag.skill_test", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"sim", "ag.skill_test", "-n", "0"}, "--trials must be between 1 and"},
		{[]string{"sim", "ag.skill_test", "-n", "many"}, `invalid argument "many"`},
		{[]string{"sim", "ag.skill_test", "--workers", "0"}, "--workers must be at least 1"},
		{[]string{"sim", "ag.skill_test", "-s", "-4"}, "invalid argument"},
		{[]string{"describe"}, "missing mechanic id"},
		{[]string{"describe", "gm.unknown"}, `unknown mechanic "gm.unknown"`},
		{[]string{"list", "extra"}, "list takes no arguments"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t.Context(), c.args...)
			if code != 2 {
				t.Errorf("exit %d; want 2 (stderr %q)", code, errOut)
			}
			if len(c.args) == 0 {
				return
			}
			if out != "" {
				t.Errorf("wrote data to stdout: %q", out)
			}
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if !strings.HasPrefix(lines[0], "oddsmith: ") || !strings.Contains(lines[0], c.want) {
				t.Errorf("stderr %q; want one line containing %q", errOut, c.want)
			}
			if len(lines) > 1 {
				t.Errorf("stderr is not one clear line: %q", errOut)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Error("stack trace on stderr")
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}, {"help", "sim"}, {"list", "--help"}, {"describe", "-h"}, {"exact", "--help"}, {"sim", "--help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t.Context(), args...)
			if code != 0 || !strings.Contains(out, "Usage") || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			if args[0] != "-h" && args[0] != "--help" && args[0] != "help" && !strings.Contains(out, "Example") {
				t.Error("help has no examples")
			}
		})
	}
}

func TestListAndDescribeEveryMechanic(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t.Context(), "list")
	if code != 0 {
		t.Fatalf("list exit %d", code)
	}
	for _, m := range systems.Default.All() {
		if !strings.Contains(out, m.ID) {
			t.Errorf("list lacks %s", m.ID)
		}
		t.Run(m.ID, func(t *testing.T) {
			t.Parallel()
			code, d, errOut := runCLI(t.Context(), "describe", m.ID)
			if code != 0 || errOut != "" {
				t.Errorf("describe: exit %d %s", code, errOut)
			}
			for _, p := range m.Params {
				if !strings.Contains(d, p.Name) {
					t.Errorf("describe lacks parameter %s", p.Name)
				}
			}
			for _, o := range m.Options {
				if !strings.Contains(d, o.Name) || !strings.Contains(d, o.Default()) {
					t.Errorf("describe lacks option %s", o.Name)
				}
			}
			// Every mechanic runs with its defaults in both engines, and
			// what describe lists is exactly what each engine's result
			// contains (whatever the number of trials: a few suffice).
			listed := describedOutputs(d)
			for _, eng := range [][]string{{"exact", m.ID}, {"sim", m.ID, "-n", "1000", "-q"}} {
				if eng[0] == "exact" && m.MCOnly {
					continue
				}
				code, js, errOut := runCLI(t.Context(), append(eng, "--format", "json")...)
				if code != 0 {
					t.Errorf("%s: exit %d: %s", eng[0], code, errOut)
					continue
				}
				if got := resultOutputs(t, js); !slices.Equal(got, listed) {
					t.Errorf("%s reports %v; describe lists %v", eng[0], got, listed)
				}
			}
		})
	}
}

// describedOutputs reads the names of the Outputs section of describe:
// "kind name" pairs, sorted.
func describedOutputs(d string) []string {
	_, section, _ := strings.Cut(d, "\nOutputs (")
	section, _, _ = strings.Cut(section, "\n\n")
	var out []string
	for _, line := range strings.Split(section, "\n")[1:] {
		// Columns are separated by two or more spaces (tabwriter); names
		// may hold single spaces ("absorbed:level 4 (dying)").
		f := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), -1)
		if len(f) < 2 {
			continue
		}
		if kind, primary, ok := strings.Cut(f[0], " "); ok && primary == "(primary)" {
			f[0] = kind
		}
		kind, ok := map[string]string{"distribution": "var", "event": "event", "band": "band"}[f[0]]
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(f[1], " [") // drop the unit
		out = append(out, kind+" "+name)
	}
	slices.Sort(out)
	return out
}

// resultOutputs lists the outputs of a JSON result the same way.
func resultOutputs(t *testing.T, js string) []string {
	var r struct {
		Distributions map[string]any
		Events        map[string]any
		Bands         map[string]any
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range r.Distributions {
		out = append(out, "var "+k)
	}
	for k := range r.Events {
		out = append(out, "event "+k)
	}
	for k := range r.Bands {
		out = append(out, "band "+k)
	}
	slices.Sort(out)
	return out
}

// TestGoldenOutputs pins the exact engine's output byte for byte (exact
// results do not depend on the machine beyond float formatting of 4 digits).
func TestGoldenOutputs(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"exact_skill_test": {"exact", "ag.skill_test", "--set", "skill=2", "--set", "attribute=2", "--set", "tn=5"},
		"exact_opposed":    {"exact", "ag.opposed", "--set", "skill=3", "--set", "opp_skill=2"},
		"describe_skill":   {"describe", "ag.skill_test"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t.Context(), args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			path := filepath.Join("testdata", name+".stdout")
			if *update {
				os.WriteFile(path, []byte(out), 0o644)
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				os.WriteFile(path+".got", []byte(out), 0o644)
				t.Errorf("output differs from %s (see %s.got; run go test -update to accept)", path, path)
			}
		})
	}
}

func TestIssueExample(t *testing.T) {
	t.Parallel()
	_, out, _ := runCLI(context.Background(), "exact", "ag.skill_test", "--set", "skill=2", "--set", "attribute=2", "--set", "tn=5")
	for _, want := range []string{"success             0.7778", "tie                 0.1389", "mos_band", "yes_advantage (MoS>=3)     0.3333"} {
		if !strings.Contains(out, want) {
			t.Errorf("exact output lacks %q:\n%s", want, out)
		}
	}
}

// TestSimDeterministicAcrossWorkers: byte-identical output for any worker
// count, in every format. Four chunks of trials: one worker runs them
// all, two share them, five leave one idle.
func TestSimDeterministicAcrossWorkers(t *testing.T) {
	t.Parallel()
	trials := fmt.Sprint(3*sim.ChunkSize + 17)
	// A table model, a time-dependent process and a model in two parts.
	for _, model := range [][]string{{"ag.opposed", "--set", "skill=3", "--set", "opp_skill=2"}, {"ag.radiation"}, {"grim.instability", "--set", "die=d6"}} {
		t.Run(model[0], func(t *testing.T) {
			t.Parallel()
			for _, format := range []string{"table", "csv", "json"} {
				var first string
				for _, w := range []string{"1", "2", "5"} {
					code, out, errOut := runCLI(t.Context(), append(append([]string{"sim"}, model...),
						"-n", trials, "-s", "42", "--workers", w, "--format", format, "-q")...)
					if code != 0 {
						t.Fatalf("exit %d: %s", code, errOut)
					}
					if first == "" {
						first = out
					} else if out != first {
						t.Errorf("%s: --workers %s output differs from --workers 1", format, w)
					}
				}
			}
		})
	}
}

func TestSimAgreesWithExactInCLI(t *testing.T) {
	t.Parallel()
	_, out, _ := runCLI(context.Background(), "sim", "ag.skill_test", "--set", "skill=2", "--set", "attribute=2", "--set", "tn=5", "-n", "400000", "-q")
	if !strings.Contains(out, "success") || !strings.Contains(out, "95% CI") {
		t.Fatalf("sim output lacks intervals:\n%s", out)
	}
	// The exact P(success) = 28/36 must lie in the printed interval.
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 4 && f[0] == "success" {
			var lo, hi float64
			if _, err := fmtSscan(f[2]+" "+f[3], &lo, &hi); err != nil {
				t.Fatal(err)
			}
			if p := 28.0 / 36; p < lo || p > hi {
				t.Errorf("exact %.4f outside simulated interval [%v, %v]", p, lo, hi)
			}
			return
		}
	}
	t.Fatalf("no success line in\n%s", out)
}

func TestOutputFileAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "r.csv")
	code, out, errOut := runCLI(context.Background(), "exact", "ag.skill_test", "--format", "csv", "-o", path)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "# oddsmith: ") || !strings.Contains(string(b), "kind,name,x,probability") {
		t.Fatalf("bad csv file: %v\n%s", err, b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// A bad input writes nothing at all.
	bad := filepath.Join(dir, "bad.csv")
	if code, _, _ := runCLI(context.Background(), "exact", "ag.skill_test", "--set", "tn=99", "-o", bad); code != 2 {
		t.Errorf("exit %d; want 2", code)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("bad input left an output file")
	}
	// An unwritable destination is a failure (1), not bad input.
	if code, _, errOut := runCLI(context.Background(), "exact", "ag.skill_test", "-o", filepath.Join(dir, "no", "such", "dir.csv")); code != 1 || !strings.HasPrefix(errOut, "oddsmith: ") {
		t.Errorf("unwritable output: exit %d, stderr %q", code, errOut)
	}
}

func TestInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	code, out, errOut := runCLI(ctx, "sim", "ag.skill_test", "-n", "100000000", "-o", filepath.Join(dir, "x.json"))
	if code != 130 || out != "" || !strings.Contains(errOut, "interrupted") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("interrupted run left files: %v", entries)
	}
}

func fmtSscan(s string, lo, hi *float64) (int, error) {
	s = strings.NewReplacer("[", "", "]", "", ",", " ").Replace(s)
	return fmt.Sscan(s, lo, hi)
}

func TestSweep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := runCLI(context.Background(), "sweep", "ag.skill_test", "--vary", "skill=0..4", "--vary", "tn=3..6", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"ag_skill_test_sweep.csv", "ag_skill_test_sweep.png"} {
		if !strings.Contains(out, f) {
			t.Errorf("stdout does not name %s: %q", f, out)
		}
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "ag_skill_test_sweep.csv"))
	if rows := strings.Count(string(b), "\n") - strings.Count(string(b), "# "); rows != 1+5*4 {
		t.Errorf("sweep CSV has %d data lines; want 20 points + header", rows)
	}
	// Golden point: skill 2, TN 5 (attribute 2) succeeds with 28/36.
	if !strings.Contains(string(b), "\n2,5,0.7777777778,") {
		t.Errorf("sweep CSV lacks the skill 2 / TN 5 golden row:\n%s", b)
	}
	// One varied parameter, simulated, a mean as the metric.
	if code, _, errOut := runCLI(context.Background(), "sweep", "grim.core.attack", "--vary", "attribute=-2..6:2", "--engine", "sim", "-n", "20000", "--metric", "mean:total", "-o", dir); code != 0 {
		t.Fatalf("sim sweep: exit %d: %s", code, errOut)
	}
	// A family of lines instead of a heat map.
	if code, out, errOut := runCLI(context.Background(), "sweep", "ag.skill_test", "--vary", "tn=1..10", "--vary", "skill=0..3", "--plot", "lines", "-q", "-o", filepath.Join(dir, "lines")); code != 0 || !strings.Contains(out, ".png") {
		t.Fatalf("lines sweep: exit %d: %s", code, errOut)
	}
	// Bad input writes nothing.
	bad := filepath.Join(dir, "bad")
	for _, args := range [][]string{
		{"sweep", "ag.skill_test", "--vary", "skill=0..50", "-o", bad},
		{"sweep", "ag.skill_test", "--vary", "skill=4..1", "-o", bad},
		{"sweep", "ag.skill_test", "--vary", "skill=a..b", "-o", bad},
		{"sweep", "ag.skill_test", "--vary", "skill=0..2", "--metric", "event:nope", "-o", bad},
		{"sweep", "ag.skill_test", "-o", bad},
		{"sweep", "ag.skill_test", "--vary", "skill=0..2", "--format", "csv", "-o", bad},
	} {
		if code, _, errOut := runCLI(context.Background(), args...); code != 2 || !strings.HasPrefix(errOut, "oddsmith: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Error("a bad sweep created its output directory")
	}
}

// TestRunPlan: 'oddsmith run' writes the bundle and lists its files on
// stdout; a bad plan is one line naming the file, the line and the
// analysis, and writes nothing. (study's TestExamplePlan runs
// examples/tour.toml and checks every file of its bundle.)
func TestRunPlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("[[analysis]]\nname = \"x\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"4..6\" }\n"), 0o644)
	report := filepath.Join(dir, "report")
	code, out, errOut := runCLI(t.Context(), "run", good, "-o", report, "-q")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	files := strings.Fields(out)
	if !slices.Contains(files, filepath.Join(report, "index.md")) || !slices.Contains(files, filepath.Join(report, "x.csv")) {
		t.Errorf("stdout does not list index.md and x.csv: %q", out)
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("listed but not written: %v", err)
		}
	}
	bad := filepath.Join(dir, "plan.toml")
	os.WriteFile(bad, []byte("[[analysis]]\nname = \"x\"\nmechanic = \"ag.skill_test\"\nset = { tn = 0 }\n"), 0o644)
	badDir := filepath.Join(dir, "never")
	code, out, errOut = runCLI(t.Context(), "run", bad, "-o", badDir)
	if code != 2 || out != "" || !strings.Contains(errOut, "plan.toml:1: analysis 1 (x):") {
		t.Errorf("bad plan: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(badDir); !os.IsNotExist(err) {
		t.Error("a bad plan created its output directory")
	}
	if code, _, _ := runCLI(t.Context(), "run", "no-such-plan.toml", "-o", badDir); code != 2 {
		t.Errorf("missing plan: exit %d", code)
	}
}

// exitCode: only bad input is 2; a failure of the engine or of a write is 1;
// signals give 130 and 143.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	bg := context.Background()
	term, cancel := context.WithCancelCause(bg)
	cancel(signalled{syscall.SIGTERM})
	intr, cancel2 := context.WithCancelCause(bg)
	cancel2(signalled{os.Interrupt})
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want int
	}{
		{bg, nil, 0},
		{bg, mechanics.Invalid("bad %s", "x"), 2},
		{bg, fmt.Errorf("at skill=3: %w", mechanics.Invalid("nope")), 2},
		{bg, errors.New("support too wide"), 1},
		{bg, &os.PathError{Op: "open", Path: "/x", Err: os.ErrPermission}, 1},
		{term, context.Canceled, 143},
		{intr, context.Canceled, 130},
	} {
		if got := exitCode(c.ctx, c.err); got != c.want {
			t.Errorf("exitCode(%v) = %d; want %d", c.err, got, c.want)
		}
	}
}

// Every output form carries the model's fingerprint; it is the same for
// both engines and changes with a parameter.
func TestFingerprintInOutputs(t *testing.T) {
	t.Parallel()
	fp := func(args ...string) string {
		_, js, errOut := runCLI(context.Background(), append(args, "--format", "json")...)
		var r struct{ Fingerprint string }
		if err := json.Unmarshal([]byte(js), &r); err != nil || r.Fingerprint == "" {
			t.Fatalf("%v: %v %s", args, err, errOut)
		}
		return r.Fingerprint
	}
	e := fp("exact", "ag.skill_test", "--set", "skill=3")
	if s := fp("sim", "ag.skill_test", "--set", "skill=3", "-n", "1000", "-q"); s != e {
		t.Errorf("exact %s, sim %s", e, s)
	}
	if o := fp("exact", "ag.skill_test", "--set", "skill=4"); o == e {
		t.Error("skill 3 and 4 share a fingerprint")
	}
	for _, f := range []string{"csv", "table"} {
		_, out, _ := runCLI(context.Background(), "exact", "ag.skill_test", "--set", "skill=3", "--format", f)
		if !strings.Contains(out, e) {
			t.Errorf("%s output lacks the fingerprint %s", f, e)
		}
	}
}

// TestBuiltinsFromContext: a command starts from the registry its context
// carries (withBuiltins), with its --rules laid over it, and from
// systems.Default when the context carries none.
func TestBuiltinsFromContext(t *testing.T) {
	t.Parallel()
	r, err := rules.FromExpr("d6 + 1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := withBuiltins(t.Context(), mechanics.NewRegistry(r.Mechanic()))
	code, out, errOut := runCLI(ctx, "list", "--rules", houseRules)
	if code != 0 || !strings.Contains(out, "\n"+rules.ExprID+" ") || !strings.Contains(out, "house.check") || strings.Contains(out, "ag.skill_test") {
		t.Errorf("list: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	if code, out, errOut := runCLI(ctx, "exact", rules.ExprID); code != 0 || !strings.Contains(out, "value     4.5000") {
		t.Errorf("exact %s: exit %d, stderr %q:\n%s", rules.ExprID, code, errOut, out)
	}
	for _, c := range []struct {
		ctx context.Context
		id  string
	}{{ctx, "ag.skill_test"}, {t.Context(), rules.ExprID}} {
		if code, _, errOut := runCLI(c.ctx, "exact", c.id); code != 2 || !strings.Contains(errOut, "unknown mechanic") {
			t.Errorf("exact %s: exit %d, stderr %q; want an unknown mechanic", c.id, code, errOut)
		}
	}
}
