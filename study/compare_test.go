package study

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems"
)

// withRules is the built-ins with the rules of an example file.
func withRules(t *testing.T, file string) *mechanics.Registry {
	t.Helper()
	rs, err := rules.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ms []*mechanics.Mechanic
	for _, r := range rs {
		ms = append(ms, r.Mechanic())
	}
	reg, err := systems.Default.Overlay(ms)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// sides configures one id of reg at settings on each side.
func sides(t *testing.T, reg *mechanics.Registry, a, b string, set []string) *Compare {
	t.Helper()
	ma, ca, err := reg.Configure(a, set)
	if err != nil {
		t.Fatal(err)
	}
	mb, cb, err := reg.Configure(b, set)
	if err != nil {
		t.Fatal(err)
	}
	return &Compare{A: CompareSide{ma, ca}, B: CompareSide{mb, cb}, Engine: Engine{Kind: engine.Exact}}
}

// zero fails unless the comparison changes nothing.
func zero(t *testing.T, what string, c *Compare) {
	t.Helper()
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(rep.Refused) > 0 || rep.Shared() < 3 {
		t.Errorf("%s: %d shared, refused %v", what, rep.Shared(), rep.Refused)
	}
	for _, r := range rep.Rows {
		if r.Delta.V != 0 || r.Significant {
			t.Errorf("%s: %s %s %s: Δ = %v", what, r.Output, r.Quantity, r.Label, r.Delta.V)
		}
	}
	for _, d := range rep.Dists {
		if d.TVD != 0 || (d.Kind == "variable" && d.KS != 0) || len(d.Crossings) > 0 || d.Swingier != "" {
			t.Errorf("%s: %s: TVD %v KS %v crossings %v swingier %q", what, d.Name, d.TVD, d.KS, d.Crossings, d.Swingier)
		}
	}
}

// A built-in compared with its restatement as a rule (examples/rules)
// changes nothing, over the whole grid of the settings the rules keep.
func TestCompareRestatements(t *testing.T) {
	t.Parallel()
	ag := withRules(t, "../examples/rules/ag_skill.toml")
	for skill := 0; skill <= 5; skill++ {
		for tn := 1; tn <= 12; tn += 2 {
			for _, attr := range []int{0, 3} {
				set := []string{fmt.Sprint("skill=", skill), fmt.Sprint("tn=", tn), fmt.Sprint("attribute=", attr)}
				zero(t, "ag "+strings.Join(set, " "), sides(t, ag, "ag.skill_test", "my.ag.skill", set))
			}
		}
	}
	bd := withRules(t, "../examples/rules/bd_d20w.toml")
	for k := 0; k <= 3; k++ {
		for guard := 5; guard <= 35; guard += 10 {
			set := []string{fmt.Sprint("k=", k), fmt.Sprint("guard=", guard)}
			zero(t, "bd "+strings.Join(set, " "), sides(t, bd, "bd.attack", "my.bd.attack", set))
		}
	}
}

// The same configuration on both sides changes nothing, simulated too:
// both sides run with the same seed.
func TestCompareIdenticalSim(t *testing.T) {
	t.Parallel()
	c := sides(t, systems.Default, "ag.skill_test", "ag.skill_test", []string{"skill=3"})
	c.Engine = Engine{Kind: engine.Sim, Trials: 20_000, Seed: 3, Workers: 2}
	zero(t, "sim", c)
}

// A change of one setting: exact values against a brute-force reading of
// the two results, and the labels name what differs.
func TestCompareSetting(t *testing.T) {
	t.Parallel()
	m, ca, err := systems.Default.Configure("ag.skill_test", []string{"skill=3"})
	if err != nil {
		t.Fatal(err)
	}
	cb := ca.Clone()
	if err := m.Set(cb, "tn=7"); err != nil {
		t.Fatal(err)
	}
	c := &Compare{A: CompareSide{m, ca}, B: CompareSide{m, cb}, Engine: Engine{Kind: engine.Exact}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.LabelA != "ag.skill_test tn=5" || rep.LabelB != "ag.skill_test tn=7" {
		t.Errorf("labels %q %q", rep.LabelA, rep.LabelB)
	}
	for _, r := range rep.Rows {
		if r.Kind == "event" && r.Delta.V != rep.B.Event(r.Output).P-rep.A.Event(r.Output).P {
			t.Errorf("%s: Δ %v", r.Output, r.Delta.V)
		}
	}
	// tn shifts mos down by 2: its mean by exactly −2, its shape not at all.
	for _, r := range rep.Rows {
		if r.Output == "mos" && r.Quantity == "mean" && (r.Delta.V+2) > 1e-12 {
			t.Errorf("Δ mean mos %v", r.Delta.V)
		}
	}
	if d := rep.Dist("mos"); d.Swingier != "" || len(d.Crossings) != 0 || d.KS == 0 {
		t.Errorf("mos: swingier %q crossings %v KS %v", d.Swingier, d.Crossings, d.KS)
	}
}

// Nothing shared is bad input, said in one line before anything runs.
func TestCompareNothingShared(t *testing.T) {
	t.Parallel()
	r, err := rules.FromExpr("d6")
	if err != nil {
		t.Fatal(err)
	}
	m := r.Mechanic()
	a, ca, _ := systems.Default.Configure("ag.skill_test", nil)
	c := &Compare{A: CompareSide{a, ca}, B: CompareSide{m, m.DefaultConfig()}, Engine: Engine{Kind: engine.Exact}}
	err = c.Validate()
	if !mechanics.IsInput(err) || !strings.Contains(err.Error(), "nothing to compare: A (ag.skill_test) and B (expr) share no output") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Validate = %v", err)
	}
	c.Engine.Kind = "quantum"
	if err := c.Validate(); !mechanics.IsInput(err) {
		t.Errorf("Validate with an unknown engine = %v", err)
	}
}

const comparePlan = `
[[compare]]
name = "tn5_vs_7"
var = "mos"
a = { mechanic = "ag.skill_test", set = { skill = 3 } }
b = { set = { tn = 7 } }

[[compare]]
name = "house"
engine = "sim"
trials = 20000
cdf = true
[compare.a]
mechanic = "ag.skill_test"
set = { skill = 3 }
[compare.b]
mechanic = "house.ag.skill_exploding_six"
set = { skill = 3 }
`

// [[compare]] tables run in plans: three files each, their finding in the
// index, both sides' points listed for shards.
func TestComparePlan(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "p.toml")
	src := "rules = [" + fmt.Sprintf("%q", mustAbs(t, "../examples/rules/ag_skill.toml")) + "]\n" + comparePlan
	p, err := ParsePlan(systems.Default, file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Points(); n != 4 {
		t.Errorf("Points = %d; want 4", n)
	}
	pts, err := p.ShardPoints()
	if err != nil || len(pts) != 4 {
		t.Fatalf("ShardPoints = %d points, %v", len(pts), err)
	}
	if pts[1].Config.Params["tn"] != 7 || pts[1].Config.Params["skill"] != 3 || pts[3].Mechanic.ID != "house.ag.skill_exploding_six" {
		t.Errorf("points %v", pts)
	}
	dir := filepath.Join(t.TempDir(), "b")
	files, err := RunPlan(context.Background(), p, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	for _, want := range []string{"tn5_vs_7.csv", "tn5_vs_7.png", "tn5_vs_7_diff.png", "house.csv", "house.png", "house_diff.png"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("no %s in %v", want, names)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	for _, want := range []string{"## tn5_vs_7 — compare (exact)", "- A: `ag.skill_test tn=5` — fingerprint `sha256:", "Finding: mean mos 2.421 → 0.4213",
		"## house — compare (sim)", "B is swingier"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index lacks %q:\n%s", want, index)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// A bad [[compare]] table names the file, the line and the problem.
func TestComparePlanErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{"[[compare]]\nname = \"x\"\nb = { set = { tn = 6 } }\n", "p.toml:1: compare 1 (x): a.mechanic is missing"},
		{"[[compare]]\nname = \"x\"\na = { mechanic = \"ag.nope\" }\n", `a: unknown mechanic "ag.nope"`},
		{"[[compare]]\nname = \"x\"\na = { mechanic = \"ag.skill_test\" }\nb = { set = { tn = 0 } }\n", "b: ag.skill_test: parameter tn=0 out of range"},
		{"[[compare]]\nname = \"x\"\nvar = \"success\"\na = { mechanic = \"ag.skill_test\" }\n", "var = success: not a variable or band both sides share (shared: mos, total, roll, mos_band)"},
		{"[[compare]]\nname = \"x\"\na = { mechanic = \"ag.skill_test\" }\nb = { mechanic = \"gm.ailment.chronic\" }\n", "nothing to compare"},
		{"[[compare]]\nname = \"x\"\nengine = \"quantum\"\na = { mechanic = \"ag.skill_test\" }\n", `unknown engine "quantum"`},
		{"[[compare]]\nname = \"x y\"\na = { mechanic = \"ag.skill_test\" }\n", "needs a name without spaces"},
		{"[[compare]]\nname = \"x\"\na = { mechanic = \"ag.skill_test\", sett = {} }\n", `unknown key "compare.a.sett"`},
		{"[[analysis]]\nname = \"x\"\nmechanic = \"ag.skill_test\"\n[[compare]]\nname = \"x\"\na = { mechanic = \"ag.skill_test\" }\n", "p.toml:4: compare 1 (x): duplicate name"},
	}
	for _, tc := range cases {
		_, err := ParsePlan(systems.Default, "p.toml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line with %q", tc.src, err, tc.want)
		}
	}
}

// A plan of [[compare]] tables cut into shards and merged writes the bytes
// of a single run; the points listed are exactly those the run asks for.
func TestComparePlanShards(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "p.toml")
	src := "rules = [" + fmt.Sprintf("%q", mustAbs(t, "../examples/rules/ag_skill.toml")) + "]\n" + comparePlan
	p, err := ParsePlan(systems.Default, file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pts, err := p.ShardPoints()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{keys: map[string]bool{}}
	dir := t.TempDir()
	single := filepath.Join(dir, "single")
	if _, err := RunPlan(context.Background(), p.withSource(rec), single, nil); err != nil {
		t.Fatal(err)
	}
	if len(rec.keys) != len(pts) {
		t.Errorf("the run asks for %d points, the shards list %d", len(rec.keys), len(pts))
	}
	for _, pt := range pts {
		if !rec.keys[pt.Key()] {
			t.Errorf("%s is listed but never asked for", pt.Key())
		}
	}
	for _, k := range []int{1, 3} {
		out := filepath.Join(dir, fmt.Sprint("merged", k))
		runSharded(t, p, k, out)
		sameBundle(t, single, out)
	}
}
