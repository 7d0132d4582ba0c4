package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/chartcheck"
)

const agRules = "../../examples/rules/ag_skill.toml"

// compareJSON runs compare with --format json and decodes it.
type compareOut struct {
	A, B struct {
		Mechanic    string
		Fingerprint string
		Params      map[string]float64
		Trials      int64
	}
	Rows []struct {
		Output, Quantity string
		A, B, Delta      float64
		CI95             map[string][2]float64
		Significant      bool
	}
	Distributions []struct {
		Output    string
		TVD       float64
		KS        *float64
		Crossings []struct{ X float64 }
		Swingier  string
	}
	OnlyA   []map[string]string `json:"only_a"`
	OnlyB   []map[string]string `json:"only_b"`
	Refused []map[string]string
}

func compareJSON(t *testing.T, args ...string) compareOut {
	t.Helper()
	code, out, errOut := runCLI(t.Context(), append([]string{"compare", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("compare %v: exit %d: %s", args, code, errOut)
	}
	var c compareOut
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("compare %v: %v\n%s", args, err, out)
	}
	return c
}

func (c compareOut) unchanged(t *testing.T, what string) {
	t.Helper()
	if len(c.Rows) == 0 {
		t.Fatalf("%s: no rows", what)
	}
	for _, r := range c.Rows {
		if r.Delta != 0 || r.Significant {
			t.Errorf("%s: %s %s: Δ = %v", what, r.Output, r.Quantity, r.Delta)
		}
	}
	for _, d := range c.Distributions {
		if d.TVD != 0 || (d.KS != nil && *d.KS != 0) || len(d.Crossings) > 0 || (d.Swingier != "neither" && d.Swingier != "") {
			t.Errorf("%s: %s: %+v", what, d.Output, d)
		}
	}
}

// The ways to name the two sides, each as the help says.
func TestCompareSides(t *testing.T) {
	t.Parallel()
	// B with only --set: A's mechanic at A's settings, B's on top.
	c := compareJSON(t, "ag.skill_test", "--set", "skill=3", "--", "--set", "tn=6")
	if c.A.Params["tn"] != 5 || c.B.Params["tn"] != 6 || c.B.Params["skill"] != 3 || c.A.Fingerprint == c.B.Fingerprint {
		t.Errorf("sides %+v %+v", c.A, c.B)
	}
	// Identical configurations: nothing changes.
	compareJSON(t, "ag.skill_test", "--set", "skill=3", "--").unchanged(t, "identical")
	compareJSON(t, "ag.skill_test", "--engine", "sim", "-n", "20000", "--", "--workers", "1").unchanged(t, "identical, simulated")
	// A built-in against its restatement as a rule: two ids, one --set.
	c = compareJSON(t, "ag.skill_test", "my.ag.skill", "--rules", agRules, "--set", "skill=3", "--set", "tn=7")
	c.unchanged(t, "restatement")
	if c.B.Mechanic != "my.ag.skill" || c.B.Params["tn"] != 7 || len(c.Refused) > 0 {
		t.Errorf("restatement: %+v, refused %v", c.B, c.Refused)
	}
	// The same with the rule on B's side only, and the rule file's one
	// rule picked by id.
	compareJSON(t, "ag.skill_test", "--set", "skill=2", "--", "--rules", agRules, "my.ag.skill", "--set", "skill=2").unchanged(t, "B's rules")
	// One-liners on both sides; 2d6 against d12 crosses once and d12 is
	// swingier.
	c = compareJSON(t, "--expr", "2d6", "--", "--expr", "d12")
	d := c.Distributions[0]
	if len(d.Crossings) != 1 || d.Crossings[0].X != 7 || d.Swingier != "B" {
		t.Errorf("2d6 vs d12: %+v", d)
	}
	// Simulated: every row carries its intervals.
	c = compareJSON(t, "--expr", "2d6", "--", "--expr", "d12", "--engine", "sim", "-n", "50000", "-s", "9")
	if c.A.Trials != 50000 || c.Rows[0].CI95["delta"] == [2]float64{} {
		t.Errorf("simulated: %+v %+v", c.A, c.Rows[0])
	}
}

// Text: Δ, the distances and the one-side outputs; sim adds intervals and
// says what is not significant.
func TestCompareText(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t.Context(), "compare", "ag.skill_test", "--set", "skill=3", "--", "--rules", agRules, "house.ag.skill_exploding_six", "--set", "skill=3")
	for _, want := range []string{"A mechanic:     ag.skill_test", "B rule:         ../../examples/rules/ag_skill.toml", "Δ = B − A",
		"mos      mean      2.4213  3.9052  +1.4839", "distribution  TVD", "B (sd 2.8657 vs 1.1276)", "only in A: variable total",
		"summary: mean mos 2.421 → 3.905"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; output lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runCLI(t.Context(), "compare", "ag.skill_test", "--engine", "sim", "-n", "5000", "--", "--set", "tn=5")
	if code != 0 || !strings.Contains(out, "Δ 95% CI") || !strings.Contains(out, "not significant at n=5000") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// -o writes the CSV and both PNGs, all at once, and says so on stderr.
func TestCompareFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t.Context(), "compare", "ag.skill_test", "--", "--set", "tn=6", "-o", dir, "--cdf", "--format", "csv")
	if code != 0 || !strings.HasPrefix(out, "# oddsmith: ") || !strings.Contains(errOut, "ag_skill_test_compare_diff.png") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, f := range []string{"ag_skill_test_compare.csv", "ag_skill_test_compare.png", "ag_skill_test_compare_diff.png"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) < 100 {
			t.Errorf("%s: %v", f, err)
		}
		if strings.HasSuffix(f, ".csv") && string(b) != out {
			t.Error("the CSV file differs from --format csv")
		}
		if strings.HasSuffix(f, ".png") {
			chartcheck.Check(t, f, b)
		}
	}
	code, _, errOut = runCLI(t.Context(), "compare", "ag.skill_test", "my.ag.skill", "--rules", agRules, "-o", dir, "-q", "--var", "mos_band")
	if code != 0 || errOut != "" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "ag_skill_test_vs_my_ag_skill.png")); err != nil {
		t.Error(err)
	}
}

// Bad input: one line, exit 2, nothing on stdout.
func TestCompareBadInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"ag.skill_test"}, "compare needs two configurations: A -- B"},
		{[]string{}, "compare needs two configurations"},
		{[]string{"a", "b", "c"}, "compare needs two configurations"},
		{[]string{"ag.skill_test", "ag.nope"}, `B: unknown mechanic "ag.nope"`},
		{[]string{"ag.nope", "--", "--set", "tn=5"}, `unknown mechanic "ag.nope"`},
		{[]string{"ag.skill_test", "--", "ag.opposed", "ag.skill_test"}, "B: expected one mechanic id, got 2"},
		{[]string{"ag.skill_test", "--", "--set", "tn=0"}, "B: ag.skill_test: parameter tn=0 out of range"},
		{[]string{"ag.skill_test", "--", "--set", "nope=1"}, `unknown parameter or option "nope"`},
		{[]string{"--", "--set", "tn=6"}, "A: missing mechanic"},
		{[]string{"ag.skill_test", "--", "--expr", "d6", "ag.opposed"}, "B: give a mechanic id or --expr, not both"},
		{[]string{"ag.skill_test", "--", "--rules", agRules}, "B: the rule files define 2 mechanics (house.ag.skill_exploding_six, my.ag.skill): name one"},
		{[]string{"ag.skill_test", "--", "--expr", "d6"}, "nothing to compare: A (ag.skill_test) and B (expr) share no output with the same meaning"},
		{[]string{"ag.skill_test", "gm.ailment.chronic"}, "nothing to compare"},
		{[]string{"ag.skill_test", "--engine", "sim", "--", "--engine", "exact"}, "--engine is given on both sides"},
		{[]string{"ag.skill_test", "--engine", "quantum", "--"}, `unknown engine "quantum"`},
		{[]string{"ag.skill_test", "--", "-n", "0", "--engine", "sim"}, "--trials must be between 1 and"},
		{[]string{"ag.skill_test", "--", "--workers", "0"}, "--workers must be at least 1"},
		{[]string{"ag.skill_test", "--", "--format", "xml"}, `unknown format "xml"`},
		{[]string{"ag.skill_test", "--", "--var", "success"}, "--var success: not a variable or band both sides share (shared: mos, total, roll, mos_band)"},
		{[]string{"ag.skill_test", "--", "--memory", "1"}, "--memory"},
		{[]string{"ag.skill_test", "--", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"ag.skill_test", "--", "--expr", ""}, "--expr is empty"},
		{[]string{"ag.skill_test", "--", "--set", "tn=6", "-o", "compare_test.go"}, "exists and is not a directory"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t.Context(), append([]string{"compare"}, tc.args...)...)
			if code != 2 {
				t.Errorf("exit %d; want 2 (stderr %q)", code, errOut)
			}
			if out != "" {
				t.Errorf("wrote to stdout: %q", out)
			}
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if !strings.HasPrefix(lines[0], "oddsmith: ") || !strings.Contains(lines[0], tc.want) {
				t.Errorf("stderr %q; want one line containing %q", errOut, tc.want)
			}
			if len(lines) > 1 {
				t.Errorf("stderr is not one line: %q", errOut)
			}
		})
	}
}

// --help shows the usage, the sides and the examples; exit 0.
func TestCompareHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t.Context(), "compare", "--help")
	for _, want := range []string{"Usage: oddsmith compare A [-- B]", "A is what comes before --", "--engine", "--cdf", "oddsmith compare ag.skill_test --set skill=3 -- --set tn=6"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; help lacks %q", code, want)
		}
	}
}
