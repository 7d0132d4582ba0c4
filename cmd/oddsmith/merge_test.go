package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/study"
)

// mustRun runs the command line and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(context.Background(), args...)
	if code != 0 {
		t.Fatalf("oddsmith %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// shardAll runs shards 0..k-1 of a command and returns the shard files.
func shardAll(t *testing.T, dir, name string, k int, args ...string) []string {
	t.Helper()
	var files []string
	for i := range k {
		f := filepath.Join(dir, fmt.Sprintf("%s.%d-of-%d", name, i, k))
		mustRun(t, append(slices.Clone(args), "--shard", fmt.Sprintf("%d/%d", i, k), "-o", f, "-q")...)
		files = append(files, f)
	}
	return files
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameTree fails unless two directories hold the same files with the same
// bytes.
func sameTree(t *testing.T, want, got string) {
	t.Helper()
	list := func(d string) []string {
		es, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range es {
			n = append(n, e.Name())
		}
		return n
	}
	wn, gn := list(want), list(got)
	if !slices.Equal(wn, gn) {
		t.Fatalf("merged bundle has files %v; the single run %v", gn, wn)
	}
	for _, n := range wn {
		if !bytes.Equal(readFile(t, filepath.Join(want, n)), readFile(t, filepath.Join(got, n))) {
			t.Errorf("%s differs between the single run and the merge", n)
		}
	}
}

// TestShardMergeSim: the merge of K shards has the bytes of one run, for
// every output format, K ∈ {1, 2, 3, 7} and chunk counts K does not divide
// (a table model, a process in two parts, a designer's expression).
func TestShardMergeSim(t *testing.T) {
	t.Parallel()
	n := 5*sim.ChunkSize + 1001 // 6 chunks
	if testing.Short() {
		n = 2*sim.ChunkSize + 17 // 3 chunks
	}
	cases := [][]string{
		{"ag.skill_test", "--set", "skill=2", "--set", "attribute=2", "--set", "tn=5"},
		{"grim.instability"},
		{"--expr", "4d6kh3 + d8! >= tn", "--set", "tn=14"},
	}
	for _, c := range cases {
		args := append([]string{"sim"}, c...)
		args = append(args, "-n", fmt.Sprint(n), "-s", "7")
		t.Run(strings.Join(c, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			single := map[string][]byte{}
			for _, f := range []string{"table", "csv", "json"} {
				out := filepath.Join(dir, "single."+f)
				mustRun(t, append(slices.Clone(args), "--workers", "2", "--format", f, "-o", out, "-q")...)
				single[f] = readFile(t, out)
			}
			for _, k := range []int{1, 2, 3, 7} {
				// The shards run with one worker, the single run with two.
				files := shardAll(t, dir, "s", k, append(slices.Clone(args), "--workers", "1", "--format", "csv")...)
				for _, f := range []string{"table", "csv", "json"} {
					out := filepath.Join(dir, fmt.Sprintf("merged%d.%s", k, f))
					mustRun(t, append(append([]string{"merge"}, files...), "--format", f, "-o", out)...)
					if got := readFile(t, out); !bytes.Equal(got, single[f]) {
						t.Errorf("K=%d, --format %s: the merge differs from the single run\nmerge:\n%s\nsingle:\n%s", k, f, got, single[f])
					}
				}
				// Without --format, merge writes the shards' format, to
				// stdout when there is no -o.
				if got := mustRun(t, append([]string{"merge", "-q"}, files...)...); got != string(single["csv"]) {
					t.Errorf("K=%d: merge to stdout is not the single run's CSV", k)
				}
			}
		})
	}
}

// TestShardRetrySameBytes: a retried task rewrites its shard with the
// same bytes, whatever its worker count.
func TestShardRetrySameBytes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := filepath.Join(dir, "s1")
	args := []string{"sim", "grim.instability", "-n", "200000", "-s", "3", "--shard", "1/3", "-o", f, "-q"}
	mustRun(t, append(args, "--workers", "1")...)
	first := readFile(t, f)
	mustRun(t, append(args, "--workers", "2")...)
	if !bytes.Equal(first, readFile(t, f)) {
		t.Error("rerunning a shard changed its bytes")
	}
}

const shardPlan = `title = "shards"
seed = 5
trials = 20000

[[rule]]
id = "house.fireball"
[rule.params]
dice = { default = 4, min = 1, max = 12 }
[rule.let]
dmg = "(dice)d6"
[rule.vars]
damage = "dmg"
[rule.events]
big = "dmg >= 15"

[[analysis]]
name = "skill"
mechanic = "ag.skill_test"
set = { skill = 2, attribute = 2, tn = 5 }

[[analysis]]
name = "skill_sim"
mechanic = "ag.skill_test"
engine = "sim"
set = { skill = 2, attribute = 2, tn = 5 }

[[analysis]]
name = "by_tn"
mechanic = "ag.skill_test"
set = { skill = 2 }
vary = { tn = "2..8" }

[[analysis]]
name = "instability_sim"
mechanic = "grim.instability"
engine = "sim"
trials = 5000
vary = { uses = "2..4" }

[[analysis]]
name = "fireball"
mechanic = "house.fireball"
vary = { dice = "1..6" }

[[overlay]]
name = "attacks"
range = "-2..6"
metric = "event:hit"
[[overlay.series]]
label = "grim"
mechanic = "grim.core.attack"
x = "attribute"
`

// TestShardMergePlan: a plan's merged bundle (CSV, PNG, index.md) has the
// bytes of a single run's, exact and simulated points, sweeps, overlays
// and the plan's own rules alike.
func TestShardMergePlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.toml")
	if err := os.WriteFile(plan, []byte(shardPlan), 0o666); err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(dir, "single")
	mustRun(t, "run", plan, "-o", single, "-q")
	ks := []int{1, 2, 3, 7}
	if testing.Short() {
		ks = []int{7}
	}
	for _, k := range ks {
		files := shardAll(t, dir, "p", k, "run", plan)
		out := filepath.Join(dir, fmt.Sprintf("merged%d", k))
		mustRun(t, append(append([]string{"merge"}, files...), "-o", out)...)
		sameTree(t, single, out)
	}
}

// TestShardMergeCharts: a plan with [[chart]] tables shards, and its merged
// bundle has the bytes of a single run's for K ∈ {1, 2, 3, 7}: a small plan
// with every panel kind (and an analysis and an overlay sharing its points)
// and the atlas as examples/atlas.toml gives it. Not under -short: study's
// TestChartShardMerge merges the small plan's shards for every K through
// the library, and TestShardMergePlan takes a plan through 'run --shard'
// and 'merge'.
func TestShardMergeCharts(t *testing.T) {
	if testing.Short() {
		t.Skip("the library's TestChartShardMerge and TestShardMergePlan cover it under -short")
	}
	t.Parallel()
	for _, plan := range []string{"../../study/testdata/charts_shard.toml", "../../examples/atlas.toml"} {
		t.Run(filepath.Base(plan), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			single := filepath.Join(dir, "single")
			mustRun(t, "run", plan, "-o", single, "-q")
			for _, k := range []int{1, 2, 3, 7} {
				files := shardAll(t, dir, "c", k, "run", plan)
				out := filepath.Join(dir, fmt.Sprintf("merged%d", k))
				mustRun(t, append(append([]string{"merge"}, files...), "-o", out)...)
				sameTree(t, single, out)
			}
		})
	}
}

// TestShardMergeSweep: the same for 'oddsmith sweep', exact and simulated.
func TestShardMergeSweep(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"exact", "sim"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"sweep", "ag.skill_test", "--vary", "skill=0..3", "--vary", "tn=3..5", "--engine", engine, "-n", "2000", "-s", "9"}
			single := filepath.Join(dir, "single")
			mustRun(t, append(slices.Clone(args), "-o", single, "-q")...)
			files := shardAll(t, dir, "w", 5, args...)
			out := filepath.Join(dir, "merged")
			mustRun(t, append(append([]string{"merge"}, files...), "-o", out)...)
			sameTree(t, single, out)
		})
	}
}

// mustRefuse runs merge and requires exit 2 with one line naming want.
func mustRefuse(t *testing.T, want string, args ...string) {
	t.Helper()
	code, out, errOut := runCLI(context.Background(), args...)
	if code != 2 || out != "" {
		t.Errorf("%v: exit %d, stdout %q; want exit 2 and no output (stderr %q)", args, code, out, errOut)
		return
	}
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) > 2 || !strings.Contains(lines[0], want) {
		t.Errorf("%v: stderr %q; want one line containing %q", args, errOut, want)
	}
}

// TestMergeRefuses: every way shards can fail to make one run is refused
// with one clear line and exit 2.
func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := []string{"sim", "ag.skill_test", "-n", fmt.Sprint(6 * sim.ChunkSize), "-s", "1"}
	k3 := shardAll(t, dir, "a", 3, base...)
	k2 := shardAll(t, dir, "b", 2, base...)
	seed2 := shardAll(t, dir, "c", 3, append(slices.Clone(base[:len(base)-1]), "2")...)
	other := shardAll(t, dir, "d", 3, "sim", "ag.opposed", "-n", fmt.Sprint(6*sim.ChunkSize), "-s", "1")
	m := []string{"merge", "-o", filepath.Join(dir, "out")}

	mustRefuse(t, "different runs (seed 1 and seed 2;", append(slices.Clone(m), k3[0], k3[1], seed2[2])...)
	mustRefuse(t, "different runs (ag.skill_test and ag.opposed;", append(slices.Clone(m), k3[0], k3[1], other[2])...)
	mustRefuse(t, "shard 1/3 is given twice", append(slices.Clone(m), k3[0], k3[1], k3[1], k3[2])...)
	mustRefuse(t, "overlaps", append(slices.Clone(m), k3[0], k2[0], k3[2])...)
	mustRefuse(t, "missing shard 1/3 (chunks 2–3)", append(slices.Clone(m), k3[0], k3[2])...)
	mustRefuse(t, "missing shards 0/3 (chunks 0–1), 2/3 (chunks 4–5)", append(slices.Clone(m), k3[1])...)
	mustRefuse(t, "merge needs the shard files", m...)
	mustRefuse(t, "no such file", append(slices.Clone(m), filepath.Join(dir, "nope"))...)

	data := readFile(t, k3[1])
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mustRefuse(t, "truncated.shard: truncated or damaged shard file", append(slices.Clone(m), k3[0], write("truncated.shard", data[:len(data)-200]), k3[2])...)
	mustRefuse(t, "tiny.shard: truncated shard file", append(slices.Clone(m), write("tiny.shard", data[:30]))...)
	tampered := slices.Clone(data)
	tampered[len(tampered)/2] ^= 1
	mustRefuse(t, "tampered.shard: checksum mismatch", append(slices.Clone(m), k3[0], write("tampered.shard", tampered), k3[2])...)
	mustRefuse(t, "text.shard: not an oddsmith shard file", append(slices.Clone(m), write("text.shard", []byte("hello\n")))...)
	future := bytes.Replace(data, []byte("oddsmith-shard 1\n"), []byte("oddsmith-shard 9\n"), 1)
	mustRefuse(t, "shard file format 9", append(slices.Clone(m), write("future.shard", future))...)

	// A shard of another oddsmith version, well formed (checksum and all).
	f, err := study.ReadShard(k3[1], data)
	if err != nil {
		t.Fatal(err)
	}
	f.Header.Version = "0.0.9"
	old, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, "was written by oddsmith 0.0.9", append(slices.Clone(m), k3[0], write("old.shard", old), k3[2])...)

	// A plan changed after its shards ran.
	plan := write("plan.toml", []byte(shardPlan))
	pk := shardAll(t, dir, "p", 2, "run", plan)
	write("plan.toml", []byte(strings.Replace(shardPlan, `title = "shards"`, `title = "changed"`, 1)))
	mustRefuse(t, "plan.toml changed since the shards ran", append([]string{"merge", "-o", filepath.Join(dir, "bundle")}, pk...)...)

	// Shard flags.
	mustRefuse(t, "--shard needs -o FILE", "sim", "ag.skill_test", "--shard", "0/2")
	mustRefuse(t, `--shard "2/2": i must be a whole number from 0 to 1`, "sim", "ag.skill_test", "--shard", "2/2", "-o", filepath.Join(dir, "x"))
	mustRefuse(t, `--shard "1"`, "sim", "ag.skill_test", "--shard", "1", "-o", filepath.Join(dir, "x"))
	mustRefuse(t, "--format is for simulations", append([]string{"merge", "--format", "csv", "-o", filepath.Join(dir, "bundle")}, pk...)...)
	mustRefuse(t, "needs an output directory", append([]string{"merge"}, pk...)...)
}

// TestShardAuto: --shard auto/K reads the index the way each scheduler
// gives it.
func TestShardAuto(t *testing.T) {
	for _, v := range append(slices.Clone(study.IndexVars), "SLURM_ARRAY_TASK_MIN") {
		t.Setenv(v, "")
	}
	dir := t.TempDir()
	index := func(env map[string]string) (int, string) {
		t.Helper()
		for k, v := range env {
			t.Setenv(k, v)
		}
		defer func() {
			for k := range env {
				t.Setenv(k, "")
			}
		}()
		f := filepath.Join(dir, "auto")
		os.Remove(f)
		code, _, errOut := runCLI(context.Background(), "sim", "ag.skill_test", "-n", "300000", "--shard", "auto/4", "-o", f, "-q")
		if code != 0 {
			return -1, errOut
		}
		sh, err := study.ReadShard(f, readFile(t, f))
		if err != nil {
			t.Fatal(err)
		}
		return sh.Header.Shard, ""
	}
	for _, c := range []struct {
		env  map[string]string
		want int
	}{
		{map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, 2},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1"}, 3}, // --array=1-4
		{map[string]string{"JOB_COMPLETION_INDEX": "1"}, 1},                             // Kubernetes Indexed Job
		{map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "3"}, 3},
		{map[string]string{"BATCH_TASK_INDEX": "0"}, 0}, // Google Cloud Batch
	} {
		if got, msg := index(c.env); got != c.want {
			t.Errorf("%v: shard %d (%s); want %d", c.env, got, msg, c.want)
		}
	}
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "no array index in the environment"},
		{map[string]string{"JOB_COMPLETION_INDEX": "4"}, "JOB_COMPLETION_INDEX gives index 4, outside 0..3"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, `SLURM_ARRAY_TASK_ID="x" is not a whole number`},
	} {
		if got, msg := index(c.env); got != -1 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: shard %d, stderr %q; want a refusal naming %q", c.env, got, msg, c.want)
		}
	}
}

// TestShardProgress: a shard says on stderr what it runs and when it is
// done; merge prints a summary of the shards.
func TestShardProgress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := filepath.Join(dir, "s")
	_, _, errOut := runCLI(context.Background(), "sim", "ag.skill_test", "-n", "300000", "--shard", "0/1", "-o", f)
	for _, want := range []string{"shard 0/1 of sim ag.skill_test: chunks 0–4 of 5 (300000 of 300000 trials), seed 1", "shard 0/1: done in"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("shard stderr %q; want %q", errOut, want)
		}
	}
	_, _, errOut = runCLI(context.Background(), "merge", f, "-o", filepath.Join(dir, "out"))
	for _, want := range []string{"merge: 1 shard of 'oddsmith sim' ag.skill_test, 5 chunks, 300000 trials, seed 1", "shard 0/1  chunks 0–4  300000 trials"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("merge stderr %q; want %q", errOut, want)
		}
	}
}

// TestShardMergeRules: a simulation of a rule file merges to the bytes of
// one run; a rule file changed after the shards ran is refused.
func TestShardMergeRules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rules := filepath.Join(dir, "house.toml")
	rule := "[[rule]]\nid = \"house.roll\"\n[rule.params]\nn = { default = 3, min = 1, max = 10 }\n[rule.vars]\ntotal = \"(n)d6!\"\n[rule.events]\nhigh = \"(n)d6 >= 12\"\n"
	if err := os.WriteFile(rules, []byte(rule), 0o666); err != nil {
		t.Fatal(err)
	}
	args := []string{"sim", "house.roll", "--rules", rules, "--set", "n=4", "-n", fmt.Sprint(3*sim.ChunkSize + 1), "-s", "2"}
	want := mustRun(t, append(slices.Clone(args), "-q")...)
	files := shardAll(t, dir, "r", 3, args...)
	if got := mustRun(t, append([]string{"merge", "-q"}, files...)...); got != want {
		t.Errorf("merged rule simulation differs from one run:\n%s\nwant:\n%s", got, want)
	}
	if err := os.WriteFile(rules, []byte(strings.Replace(rule, "max = 10", "max = 12", 1)), 0o666); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, "house.toml changed since the shards ran", append([]string{"merge"}, files...)...)
}

// TestShardMergePlanRuleFile: a plan's rule file (rules = [...], relative
// to the plan) is among the files a shard records: the merge has the bytes
// of one run, and a rule file changed after the shards ran is refused even
// when the plan's points are unchanged.
func TestShardMergePlanRuleFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rule := "[[rule]]\nid = \"house.roll\"\n[rule.params]\nn = { default = 3, min = 1, max = 10 }\n[rule.vars]\ntotal = \"(n)d6\"\n"
	rules := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(rules, []byte(rule), 0o666); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "plan.toml")
	src := "title = \"rule file\"\nrules = [\"house.toml\"]\n\n[[analysis]]\nname = \"roll\"\nmechanic = \"house.roll\"\nvary = { n = \"1..4\" }\nmetric = \"mean:total\"\n"
	if err := os.WriteFile(plan, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(dir, "single")
	mustRun(t, "run", plan, "-o", single, "-q")
	files := shardAll(t, dir, "f", 2, "run", plan)
	out := filepath.Join(dir, "merged")
	mustRun(t, append([]string{"merge", "-q", "-o", out}, files...)...)
	sameTree(t, single, out)
	if err := os.WriteFile(rules, []byte(strings.Replace(rule, "max = 10", "max = 12", 1)), 0o666); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, "house.toml changed since the shards ran", append([]string{"merge", "-o", filepath.Join(dir, "again")}, files...)...)
}
