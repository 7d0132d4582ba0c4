package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/pngtest"
)

// TestSolveBadInput: each mistake exits 2 with one line naming it, and
// writes nothing to stdout.
func TestSolveBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "ag.skill_test", "--vary", "tn=1..14"}
	cases := []struct {
		args []string
		want string
	}{
		{append(base, "--target", "event:sucess=0.6"), `has no event "sucess"`},
		{append(base, "--target", "mean:nothing>=2"), `has no variable "nothing"`},
		{append(base, "--target", "evnt:success=0.6"), `unknown kind "evnt"`},
		{[]string{"solve", "ag.skill_test", "--vary", "tn=14..1", "--target", "event:success=0.6"}, "is empty"},
		{append(base, "--target", "event:success=1.5"), "outside what event:success can be"},
		{append(base, "--target", "event:success>=0.7", "--target", "event:success<=0.6"), "contradictory targets"},
		{append(base, "--target", "0.7<=event:success<=0.6"), "the range is empty"},
		{append(base, "--target", "event:success"), "no comparison"},
		{base, "needs a --target"},
		{append(base, "--target", "event:success=0.5", "--minimize", "event:crit", "--maximize", "event:crit"), "not both"},
		{append(base, "--target", "event:success=0.5", "--format", "xml"), `unknown format "xml"`},
		{append(base, "--target", "event:success=0.5", "--tolerance", "0"), "--tolerance must be a positive number"},
		{append(base, "--target", "event:success=0.5", "--engine", "quantum"), `unknown engine "quantum"`},
		{[]string{"solve", "ag.skill_test", "--target", "event:success=0.5"}, "needs --vary"},
		{[]string{"solve", "ag.nope", "--vary", "tn=1..14", "--target", "event:success=0.5"}, `unknown mechanic "ag.nope"`},
		{[]string{"solve", "--expr", "2d6 == x", "--vary", "x=2..100000", "--target", "event:success=0.1"}, "too many to scan"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t.Context(), c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q", out)
			}
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if !strings.HasPrefix(lines[0], "oddsmith: ") || !strings.Contains(lines[0], c.want) || len(lines) > 2 {
				t.Errorf("stderr %q; want one line containing %q", errOut, c.want)
			}
		})
	}
}

// TestSolveCLI: the answers of the examples in the help, in words, exit
// 0 — a target no setting reaches included.
func TestSolveCLI(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"solve", "ag.skill_test", "--set", "skill=3", "--vary", "tn=1..14", "--target", "event:success=0.6"},
			[]string{"tn=7 gives event:success = 0.5417, the nearest to 0.6.", "Bracket: tn=6 → 0.7963, tn=7 → 0.5417.", "monotone (decreasing) in tn over all 14 settings", "14 evaluations"}},
		// the same rule, written in the dice language
		{[]string{"solve", "--rules", "../../examples/rules/ag_skill.toml", "my.ag.skill", "--set", "skill=3", "--vary", "tn=1..14", "--target", "event:success=0.6"},
			[]string{"my.ag.skill (exact)", "tn=7 gives event:success = 0.5417, the nearest to 0.6."}},
		{[]string{"solve", "--expr", "d20 + bonus >= tn", "--set", "bonus=5", "--vary", "tn=-1000000..1000000", "--target", "event:success=0.5"},
			[]string{"tn=16 gives event:success = 0.5 exactly.", "found by bisection in"}},
		{[]string{"solve", "gm.fall", "--vary", "height=0..400", "--target", "event:damage_reaches_survival>=0.1"},
			[]string{"holds for height=40..400", "height=39.9 → 0.0926 is below 0.1", "searched to within 0.1 (the default tolerance"}},
		// unreachable: an answer, not an error
		{[]string{"solve", "ag.skill_test", "--set", "skill=1", "--vary", "tn=10..14", "--target", "event:success=0.5"},
			[]string{"never reaches 0.5", "the nearest is the closest it gets"}},
		{[]string{"solve", "ag.skill_test", "--set", "skill=1", "--vary", "tn=10..14", "--target", "event:success>=0.5"},
			[]string{"holds at no setting of tn", "The closest is tn=10"}},
		{[]string{"solve", "ag.skill_test", "--vary", "skill=0..8", "--vary", "tn=1..14", "--target", "0.55<=event:success<=0.65", "--maximize", "event:crit"},
			[]string{"of 126 settings meet 0.55 <= event:success <= 0.65", "maximizes event:crit", "Frontier (by skill):"}},
		{[]string{"solve", "ag.skill_test", "--vary", "opt.crit_count=extra_copies,repeated_faces,kept_only", "--set", "skill=4", "--target", "event:crit<=0.5"},
			[]string{"holds for opt.crit_count=kept_only (1 of 3 settings)"}},
		{[]string{"solve", "ag.skill_test", "--set", "skill=3", "--vary", "tn=1..14", "--target", "event:success=0.54", "--engine", "sim", "-n", "20000", "-s", "5"},
			[]string{"[0.", "Indistinguishable from the target at 20000 trials"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t.Context(), c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestSolveFormats: CSV and JSON parse; -o writes the CSV and a chart;
// a simulated solve gives the same bytes twice.
func TestSolveFormats(t *testing.T) {
	t.Parallel()
	args := []string{"solve", "ag.skill_test", "--vary", "skill=0..4", "--vary", "tn=3..8", "--target", "event:success>=0.5", "--minimize", "mean:mos"}
	out := mustRun(t, append(args, "--format", "csv")...)
	rows, err := csv.NewReader(strings.NewReader(stripComments(out))).ReadAll()
	if err != nil || len(rows) != 6 || rows[0][0] != "skill" {
		t.Errorf("frontier CSV (%v): %q", err, out)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, append(args, "--format", "json")...)), &j); err != nil {
		t.Fatal(err)
	}
	if j["mode"] != "grid" || len(j["points"].([]any)) != 30 || len(j["frontier"].([]any)) != 5 {
		t.Errorf("json: mode %v, %d points", j["mode"], len(j["points"].([]any)))
	}
	for _, c := range [][]string{args, {"solve", "gm.fall", "--vary", "height=0..100", "--target", "mean:damage=10", "--engine", "sim", "-n", "2000", "--tolerance", "0.5"}} {
		dir := filepath.Join(t.TempDir(), "out")
		code, text, errOut := runCLI(context.Background(), append(c, "-o", dir)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		stem := filepath.Join(dir, strings.ReplaceAll(c[1], ".", "_")+"_solve")
		b, err := os.ReadFile(stem + ".csv")
		if err != nil || !strings.HasPrefix(string(b), "# oddsmith: ") {
			t.Errorf("CSV: %v %q", err, b)
		}
		png, err := os.ReadFile(stem + ".png")
		if err != nil {
			t.Fatal(err)
		}
		pngtest.Check(t, c[1], png)
		if !strings.Contains(errOut, "solve: wrote") || !strings.Contains(text, c[1]) {
			t.Errorf("stdout %q stderr %q", text, errOut)
		}
		again := mustRun(t, c...)
		if again != text {
			t.Errorf("not the same answer twice:\n%s\n%s", text, again)
		}
	}
}

func stripComments(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestShardMergeSolve: 'solve --shard' and merge give the answer of one
// run, for a grid, a search and a simulated search; a plan with [[solve]]
// tables through 'run --shard' and merge gives the bundle of one run.
func TestShardMergeSolve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for n, args := range [][]string{
		{"solve", "ag.skill_test", "--vary", "skill=0..8", "--vary", "tn=1..14", "--target", "event:success=0.6"},
		{"solve", "--expr", "d20 + b >= tn", "--vary", "tn=-1000000..1000000", "--target", "0.2<=event:success<=0.7", "--format", "json"},
		{"solve", "ag.skill_test", "--set", "skill=3", "--vary", "tn=1..60", "--target", "event:success=0.55", "--engine", "sim", "-n", "3000"},
	} {
		single := mustRun(t, args...)
		files := shardAll(t, dir, fmt.Sprint("s", n), 3, args...)
		if got := mustRun(t, append([]string{"merge", "-q"}, files...)...); got != single {
			t.Errorf("%v: merged\n%s\nsingle\n%s", args, got, single)
		}
	}
	plan := "../../study/testdata/solve_plan.toml"
	single := filepath.Join(dir, "single")
	mustRun(t, "run", plan, "-o", single, "-q")
	files := shardAll(t, dir, "p", 3, "run", plan)
	out := filepath.Join(dir, "merged")
	mustRun(t, append(append([]string{"merge"}, files...), "-o", out)...)
	sameTree(t, single, out)
}

// TestSolveHelp: the help says what solve does, with examples.
func TestSolveHelp(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "solve", "--help")
	for _, w := range []string{"Usage: oddsmith solve", "bisected", "--tolerance", "indistinguishable from the", "Examples:", "--minimize"} {
		if !strings.Contains(out, w) {
			t.Errorf("help lacks %q", w)
		}
	}
}
