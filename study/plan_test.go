package study

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/internal/chartcheck"
	"github.com/oddsmith/oddsmith/internal/pngtest"
)

// TestExamplePlan runs the shipped example plan: every file is complete,
// CSVs parse, PNGs decode and are not blank, the index links them all.
func TestExamplePlan(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../examples/tour.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(systems.Default, "../examples/tour.toml", src)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		// The bundle's plumbing, not the simulator's precision, is tested
		// here: fewer simulated trials (the exact analyses are unchanged).
		p.Trials = 20_000
		for i := range p.Analyses {
			if a := &p.Analyses[i]; a.Trials > p.Trials {
				a.Trials = p.Trials
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	files, err := RunPlan(context.Background(), p, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		switch filepath.Ext(f) {
		case ".png":
			pngtest.Check(t, strings.TrimSuffix(name, ".png"), b)
			chartcheck.Check(t, name, b)
		case ".csv":
			if !bytes.HasPrefix(b, []byte("# oddsmith: ")) {
				t.Errorf("%s lacks the metadata header", name)
			}
		}
		if name != "index.md" && !bytes.Contains(index, []byte("("+name+")")) {
			t.Errorf("index.md does not link %s", name)
		}
	}
	for _, want := range []string{"P(success) = 0.7778", "crosses 50%", "## falls_ag_vs_grim_vs_gm", "## bd_damage", "bd_damage_tail.png", "gm_chronic_by_strength_survival.png", "Fingerprint: `sha256:"} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("index.md lacks %q", want)
		}
	}
	// Only the bundle is left: no temporary directory beside it.
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("left beside the bundle: %v", entries)
	}
	tourDesignCharts(t, dir)
}

// tourDesignCharts checks the tour's comparison charts are design charts:
// the falls of three systems on one scale (each mean divided by what
// takes the reference character out, so no value is in one system's
// unit); the house rule against the book rule at each skill (not a
// built-in drawn over its own restatement), each pair in one colour, the
// house rule dashed; a one-liner's caption gives its rule.
func tourDesignCharts(t *testing.T, dir string) {
	t.Helper()
	spec := func(name string) *reports.ChartSpec {
		b, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := reports.ReadChartSpec(b)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	falls := spec("falls_ag_vs_grim_vs_gm")
	if strings.Contains(falls.Title, "wounds") || !strings.Contains(falls.Title, "÷") {
		t.Errorf("falls: the title %q should say the damage is divided by the character's limit, in no system's unit", falls.Title)
	}
	if !strings.Contains(falls.Caption, "values ÷ 20") || !strings.Contains(falls.Caption, "values ÷ 15") {
		t.Errorf("falls: the caption %q should say each series' divisor", falls.Caption)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "house_rule_exploding_six.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(csv, []byte("my.ag.skill")) || !bytes.Contains(csv, []byte("house.ag.skill_exploding_six")) || !bytes.Contains(csv, []byte("ag.skill_test")) {
		t.Error("house_rule_exploding_six should set the house rule against the book rule, not against its restatement")
	}
	colours := map[string][]string{}
	for _, s := range spec("house_rule_exploding_six").Panels[0].Series {
		if s.Asked == nil {
			t.Errorf("house rule: series %q has no style of the plan's", s.Name)
			continue
		}
		colours[s.Color] = append(colours[s.Color], s.Name+" "+s.Asked.Dash)
	}
	for c, names := range colours {
		if len(names) != 2 || !strings.HasSuffix(names[0], "solid") || !strings.HasSuffix(names[1], "dashed") {
			t.Errorf("house rule: colour %s holds %v; want a book rule solid and its house rule dashed", c, names)
		}
	}
	if c := spec("one_liners_d20_vs_3d6").Caption; !strings.Contains(c, "rule d20 + bonus >= tn") || !strings.Contains(c, "rule 3d6 + bonus >= tn") {
		t.Errorf("one-liners: the caption %q should give the rules' text", c)
	}
}

// TestOverlaySeriesInOtherUnits: a series with its own range and scale
// (feet against an axis in metres) sits on the axis at value × scale, and
// the CSV keeps the setting that produced each point.
func TestOverlaySeriesInOtherUnits(t *testing.T) {
	t.Parallel()
	src := `
[[overlay]]
name = "falls"
xlabel = "metres fallen"
range = "0..12:6"
metric = "mean:damage"
series = [
  { label = "ag", mechanic = "ag.fall_damage", x = "height" },
  { label = "ag in feet", mechanic = "ag.fall_damage", x = "height", range = "0..40:20", scale = 0.3, marks = [10, 30] },
]
`
	p, err := ParsePlan(systems.Default, "o.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Points(); got != 6 {
		t.Errorf("Points = %d, want 6", got)
	}
	dir := filepath.Join(t.TempDir(), "b")
	if _, err := RunPlan(context.Background(), p, dir, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "falls.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Split(l, ",")
		if len(f) == 6 && f[1] == "ag.fall_damage" {
			rows[f[0]+" "+f[2]+" "+f[3]] = f[4]
		}
	}
	// "ag" at height 6 and "ag in feet" at height 20 both sit at 6 on the
	// axis (20 × 0.3); the setting column tells them apart.
	a, ok1 := rows["ag 6 height=6"]
	f, ok2 := rows["ag in feet 6 height=20"]
	if !ok1 || !ok2 || rows["ag in feet 12 height=40"] == "" {
		t.Fatalf("overlay rows %v lack the scaled points", rows)
	}
	if a == f {
		t.Errorf("height 6 and 20 gave the same mean damage %s", a)
	}
}

func TestPlanErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{"title = \"x\"\n[[analysis]\nname = \"a\"\n", "bad.toml:3: expected end of table array name"},
		{"title = \"x\"\n", "no [[analysis]]"},
		{"colour = 3\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n", "unknown key \"colour\""},
		{"\n\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.nope\"\n", "bad.toml:3: analysis 1 (a): unknown mechanic"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nset = { skill = 99 }\n", "bad.toml:1: analysis 1 (a): ag.skill_test: parameter skill=99 out of range"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"5..1\" }\n", "end below start"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nengine = \"gpu\"\n", "unknown engine"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n", "bad.toml:4: analysis 2 (a): duplicate name"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.fall_damage\"\nset = { surface = \"lava\" }\n", "is not one of"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..3\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"heigth\" } ]\n", "unknown parameter or option \"heigth\""},
		// Hostile values, each refused before anything runs.
		{"seed = -5\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n", "bad.toml:1: seed must be a whole number ≥ 0"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nseed = -1\n", "seed must be a whole number ≥ 0"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nplot = \"pie\"\n", "plot \"pie\" is not one of heatmap, lines"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nset = { skill = true }\n", "skill = true: give a number"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\ncolour = \"red\"\n", "bad.toml:4: unknown key \"analysis.colour\""},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nmetric = \"event:nope\"\n", "has no event \"nope\""},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..3\" }\nmetric = \"mean:nope\"\n", "has no variable \"nope\""},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.attack\"\nset = { skill = 2, aiming = 5 }\n", "aiming=5 exceeds the skill 2"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.attack\"\nvary = { aiming = \"0..4\" }\nset = { skill = 2 }\n", "at aiming=3"},
		{"[[analysis]]\nname = \"b\"\nmechanic = \"ag.skill_test\"\n[[analysis]]\nname = \"b_pmf\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"1..3\" }\n", "would both write b_pmf.png"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"NaN..5\" }\n", "not a finite number"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..Inf\" }\n", "not a finite number"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..5:NaN\" }\n", "not a finite number"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0...3\" }\n", "is not a..b"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..1e300:1e-300\" }\n", "out of range"},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..9999\", tn = \"0..9999\" }\n", "more than"},
		{"trials = 1000000000000000000\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nengine = \"sim\"\n", "trials must be between 1 and"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..3\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"height\", scale = -1.0 } ]\n", "scale = -1: give a positive finite factor"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..3\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"height\", scale = nan } ]\n", "scale = NaN"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..3\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"height\", range = \"3..1\" } ]\n", "end below start"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..3\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"height\", marks = [1.0, inf] } ]\n", "marks: +Inf is not a finite number"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..NaN\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"height\" } ]\n", "not a finite number"},
		{"[[overlay]]\nname = \"o\"\nrange = \"0..3\"\nmetric = \"event:nope\"\nseries = [ { label = \"x\", mechanic = \"ag.fall_damage\", x = \"height\" } ]\n", "has no event \"nope\""},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			_, err := ParsePlan(systems.Default, "bad.toml", []byte(c.src))
			var pe *PlanError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ParsePlan(systems.Default, %q) = %v; want one line containing %q", c.src, err, c.want)
			}
		})
	}
}

// FuzzParsePlan: any input gives a plan or a PlanError naming the file,
// never a panic. Seeds are in testdata/fuzz/FuzzParsePlan.
func FuzzParsePlan(f *testing.F) {
	if src, err := os.ReadFile("../examples/tour.toml"); err == nil {
		f.Add(src)
	}
	f.Add([]byte("[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..3:0.5\" }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ParsePlan(systems.Default, "f.toml", src)
		if err != nil {
			var pe *PlanError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "f.toml") {
				t.Fatalf("error %v is not a PlanError naming the file", err)
			}
			return
		}
		if p.Points() < 1 {
			t.Fatalf("a valid plan with no work")
		}
	})
}

// TestPlanRules: a plan defines a rule inline and loads a rule file, and
// uses both in analyses and an overlay; a rule id that is taken is refused.
func TestPlanRules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "more.toml"), []byte("[[rule]]\nid = \"more.roll\"\n[rule.params]\nn = { default = 3, min = 1, max = 10 }\n[rule.vars]\ntotal = \"(n)d6\"\n"), 0o644)
	src := `
title = "rules in a plan"
rules = ["more.toml"]

[[rule]]
id = "inline.check"
[rule.params]
tn = { default = 11, min = 1, max = 30 }
[rule.let]
nat = "d20"
[rule.events]
success = "nat + 2 >= tn"

[[analysis]]
name = "check"
mechanic = "inline.check"
vary = { tn = "5..20" }

[[analysis]]
name = "roll"
mechanic = "more.roll"
set = { n = 4 }

[[overlay]]
name = "both"
range = "1..20"
metric = "event:success"
series = [ { label = "inline", mechanic = "inline.check", x = "tn" } ]
`
	file := filepath.Join(dir, "plan.toml")
	os.WriteFile(file, []byte(src), 0o644)
	p, err := ParsePlan(systems.Default, file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "b")
	if _, err := RunPlan(context.Background(), p, out, nil); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.md"))
	for _, want := range []string{"## check — `inline.check`", "## roll — `more.roll`", "## both — overlay"} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("index lacks %q", want)
		}
	}
	// The plan's rules are its own: nothing is left registered.
	if _, err := systems.Default.Lookup("inline.check"); err == nil {
		t.Error("the plan's rule leaked into the registry")
	}
	bad := "[[rule]]\nid = \"ag.skill_test\"\n[rule.vars]\nv = \"d6\"\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n"
	if _, err := ParsePlan(systems.Default, "bad.toml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "id is taken") {
		t.Errorf("a rule with a built-in's id: %v", err)
	}
}

// TestJointFinalStates: a duel over two hit-point tracks (169 final
// states) gets a heat map of its final states, not a stacked bar with a
// 169-entry legend, alone and swept; its at-least curve, which is its
// survival curve again, is left out with a line in the index; every
// chart keeps the drawing rules.
func TestJointFinalStates(t *testing.T) {
	t.Parallel()
	src := `
[[rule]]
id = "duel.hp"
[rule.params]
hp = { default = 12, min = 1, max = 20 }
[rule.process]
state = { a = { start = "hp", min = 0, max = "hp" }, b = { start = "hp", min = 0, max = "hp" } }
until = "a == 0 or b == 0"
horizon = 40
unit = "round"
[rule.let]
hit_a = "1d20 >= 9"
hit_b = "1d20 >= 11"
[rule.next]
a = "max(0, a - (if hit_b then 1d6 else 0))"
b = "max(0, b - (if hit_a then 1d4 else 0))"

[[analysis]]
name = "duel"
mechanic = "duel.hp"

[[analysis]]
name = "duels"
mechanic = "duel.hp"
vary = { hp = "4..6" }
`
	p, err := ParsePlan(systems.Default, "duel.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "b")
	files, err := RunPlan(context.Background(), p, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".png") {
			continue
		}
		b, _ := os.ReadFile(f)
		chartcheck.Check(t, filepath.Base(f), b)
		if strings.HasSuffix(f, "_bands.png") {
			spec, err := reports.ReadChartSpec(b)
			if err != nil || spec.Panels[0].Kind != "states" || len(spec.Panels[0].Legend) != 0 {
				t.Errorf("%s: %+v %v", filepath.Base(f), spec, err)
			}
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	for _, want := range []string{"(duel_bands.png)", "(duels_bands.png)", "- not drawn: duel_atleast.png — "} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("index.md lacks %q", want)
		}
	}
}
