package study

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/chartcheck"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/systems"
)

// TestAtlasExampleIsTheBuiltIn requires examples/atlas.toml to be the plan
// `oddsmith atlas` runs, byte for byte.
func TestAtlasExampleIsTheBuiltIn(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../examples/atlas.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, AtlasPlan) {
		t.Fatal("examples/atlas.toml differs from study/atlas.toml (the plan built into oddsmith atlas): copy one onto the other")
	}
}

// atlasPlan parses the built-in atlas; in -short mode its simulations are
// cut down (fewer trials), every chart still drawn.
func atlasPlan(t *testing.T) *Plan {
	t.Helper()
	return builtInPlan(t, AtlasFile, AtlasPlan)
}

// builtInPlan parses a plan built into oddsmith; in -short mode its
// simulations are cut down (fewer trials, validation up to 10⁵), every
// chart still drawn.
func builtInPlan(t *testing.T, file string, src []byte) *Plan {
	t.Helper()
	p, err := ParsePlan(systems.Default, file, src)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		p.Trials = 20_000
		for i := range p.Charts {
			for j := range p.Charts[i].Panels {
				pn := &p.Charts[i].Panels[j]
				var keep []int64
				for _, n := range pn.Trials {
					if n <= 100_000 {
						keep = append(keep, n)
					}
				}
				pn.Trials = keep
			}
		}
	}
	return p
}

// readChartCSV reads a chart's rows past the "# " header.
func readChartCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	var body []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "#") {
			body = append(body, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || strings.Join(rows[0], ",") != "chart,panel,series,mechanic,quantity,x,y,setting,fingerprint" {
		t.Fatalf("unexpected CSV header %v", rows[0])
	}
	return rows[1:]
}

// TestAtlasBundle runs the atlas: eleven charts (the comparisons listed in
// docs/reports.md's atlas section), each a PNG that decodes and is not blank and
// a CSV; the index links them with findings; the CSVs agree with direct
// exact runs at a few points.
func TestAtlasBundle(t *testing.T) {
	t.Parallel()
	p := atlasPlan(t)
	if len(p.Charts) != 11 {
		t.Fatalf("the atlas has %d charts; want eleven", len(p.Charts))
	}
	dir := filepath.Join(t.TempDir(), "atlas")
	if _, err := RunPlan(context.Background(), p, dir, nil); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	csvs := map[string][][]string{}
	for _, c := range p.Charts {
		png, err := os.ReadFile(filepath.Join(dir, c.Name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		pngtest.Check(t, c.Name, png)
		chartcheck.Check(t, c.Name, png)
		b, err := os.ReadFile(filepath.Join(dir, c.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		csvs[c.Name] = readChartCSV(t, b)
		for _, want := range []string{"## " + c.Name, "(" + c.Name + ".csv)", "(" + c.Name + ".png)"} {
			if !bytes.Contains(index, []byte(want)) {
				t.Errorf("index.md lacks %q", want)
			}
		}
		if c.Caption == "" {
			t.Errorf("%s has no caption naming its reference characters and options", c.Name)
		}
	}
	if n := bytes.Count(index, []byte("- Finding")); n < 11 {
		t.Errorf("index.md has %d findings; want at least one per chart", n)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 11*2+2 { // charts, CSVs, index.md, the bundle marker
		t.Errorf("the bundle holds %d files; want 24", len(entries))
	}

	// Points of the CSVs against direct exact runs.
	cases := []struct {
		chart, series, quantity, setting string
		id                               string
		set                              []string
		metric                           string
	}{
		{"atlas01_success_vs_difficulty", "ag pool 2", "event:success", "tn=5", "ag.skill_test", []string{"skill=2", "attribute=2", "tn=5"}, "event:success"},
		{"atlas01_success_vs_difficulty", "bd d20 + 2d10!", "event:success", "vs=25", "bd.core.check", []string{"k=2", "vs=25"}, "event:success"},
		{"atlas05_falling", "grim Condition ≤ 0, break-fall", "event:down", "distance=45", "grim.fall", []string{"condition=15", "distance=45"}, "event:down"},
		{"atlas10_group_help", "gm group effort", "event:success", "group=8", "gm.core.roll", []string{"score=8", "group=8"}, "event:success"},
		{"atlas07_fire", "grim Condition 20, down", "event:down", "turns=4", "grim.burning", []string{"condition=20", "turns=4"}, "event:down"},
	}
	for _, tc := range cases {
		t.Run(tc.chart+"/"+tc.series, func(t *testing.T) {
			t.Parallel()
			m, c, err := systems.Default.Configure(tc.id, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			r, err := (Engine{Kind: engine.Exact}).Run(context.Background(), m, c)
			if err != nil {
				t.Fatal(err)
			}
			want := r.Event(strings.TrimPrefix(tc.metric, "event:")).P
			found := false
			for _, row := range csvs[tc.chart] {
				if row[2] == tc.series && row[4] == tc.quantity && row[7] == tc.setting {
					found = true
					got, _ := strconv.ParseFloat(row[6], 64)
					if math.Abs(got-want) > 1e-9 {
						t.Errorf("at %s: CSV has %v; exact %s %v gives %v", tc.setting, got, tc.id, tc.set, want)
					}
					if row[8] != r.Fingerprint {
						t.Errorf("at %s: fingerprint %s; exact run has %s", tc.setting, row[8], r.Fingerprint)
					}
				}
			}
			if !found {
				t.Errorf("no row at %s", tc.setting)
			}
		})
	}
	// The tail of bd damage: P(damage ≥ 30) against the exact distribution.
	m, c, _ := systems.Default.Configure("bd.damage", []string{"k_b=2"})
	r, err := (Engine{Kind: engine.Exact}).Run(context.Background(), m, c)
	if err != nil {
		t.Fatal(err)
	}
	v := r.Var("damage")
	tail := 0.0
	for i := range v.P {
		if v.Value(i) >= 30 {
			tail += v.P[i]
		}
	}
	for _, row := range csvs["atlas08_damage_tails"] {
		if row[2] == "bd 1d8 + 2d10!" && row[5] == "30" {
			got, _ := strconv.ParseFloat(row[6], 64)
			if math.Abs(got-tail) > 1e-12 {
				t.Errorf("bd P(damage ≥ 30): CSV %v, exact %v", got, tail)
			}
		}
	}
}

// TestAtlasDeterministic: the same seed gives the same CSVs (the simulated
// charts included) whatever the scheduling.
func TestAtlasDeterministic(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the atlas twice")
	}
	var got [2][]byte
	for i := range got {
		dir := filepath.Join(t.TempDir(), "atlas")
		if _, err := RunPlan(context.Background(), atlasPlan(t), dir, nil); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"atlas11_duel_length.csv"} {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				t.Fatal(err)
			}
			got[i] = append(got[i], b...)
		}
		vdir := filepath.Join(t.TempDir(), "validation")
		if _, err := RunPlan(context.Background(), builtInPlan(t, ValidationFile, ValidationPlan), vdir, nil); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(vdir, "validation_sim_vs_exact.csv"))
		if err != nil {
			t.Fatal(err)
		}
		got[i] = append(got[i], b...)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Error("two runs of the atlas with the same seed differ")
	}
}

// TestAtlasIsForDesigners: the atlas holds design comparisons only; the
// validation of the simulator (for oddsmith's developers) is a report of
// its own, ValidationPlan (oddsmith atlas --validation).
func TestAtlasIsForDesigners(t *testing.T) {
	t.Parallel()
	p, err := ParsePlan(systems.Default, AtlasFile, AtlasPlan)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Charts {
		for _, pn := range c.Panels {
			if pn.Kind == "validation" {
				t.Errorf("the atlas's %s has a validation panel: it belongs to ValidationPlan", c.Name)
			}
		}
	}
}

// TestValidationReport runs the validation report: one chart of the
// simulator's error against the exact engine for every core roll, each
// point within four 95% half-widths of zero (the seeds are fixed: this is
// the same draw every run), the PNG by the chart rules.
func TestValidationReport(t *testing.T) {
	t.Parallel()
	p := builtInPlan(t, ValidationFile, ValidationPlan)
	if len(p.Charts) != 1 || len(p.Charts[0].Panels) != 1 || p.Charts[0].Panels[0].Kind != "validation" {
		t.Fatalf("the validation plan should be one chart of one validation panel")
	}
	ch := p.Charts[0]
	dir := filepath.Join(t.TempDir(), "validation")
	if _, err := RunPlan(context.Background(), p, dir, nil); err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, ch.Name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	pngtest.Check(t, ch.Name, png)
	chartcheck.Check(t, ch.Name, png)
	b, err := os.ReadFile(filepath.Join(dir, ch.Name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	band := map[string]float64{}
	errs := map[string]float64{}
	for _, row := range readChartCSV(t, b) {
		y, _ := strconv.ParseFloat(row[6], 64)
		key := row[2] + "@" + row[5]
		switch row[4] {
		case "band95":
			band[key] = y
		case "|sim - exact|":
			errs[key] = y
		}
	}
	if want := len(ch.Panels[0].Series) * len(ch.Panels[0].Trials); len(errs) != want || len(band) != want {
		t.Fatalf("%d errors and %d bands; want %d of each (every series at every n)", len(errs), len(band), want)
	}
	for k, e := range errs {
		if e > 4*band[k] {
			t.Errorf("%s: |sim − exact| = %g, more than four 95%% half-widths (%g)", k, e, band[k])
		}
	}
}

// TestChartPlanErrors: malformed charts are refused before anything runs,
// with the line of the series, the panel or the [[chart]] table at fault.
func TestChartPlanErrors(t *testing.T) {
	t.Parallel()
	head := "seed = 1\n[[chart]]\nname = \"c\"\n"
	cases := []struct{ src, want string }{
		{head, "has no [[chart.panel]]"},
		{head + "[[chart.panel]]\nkind = \"pie\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\" }]\n", "kind \"pie\""},
		{head + "[[chart.panel]]\nkind = \"lines\"\nrange = \"1..5\"\nmetric = \"event:nope\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\", x = \"score\" }]\n", "no event \"nope\""},
		{head + "[[chart.panel]]\nkind = \"lines\"\nrange = \"1..5\"\nmetric = \"event:success\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\" }]\n", "needs x"},
		{head + "[[chart.panel]]\nkind = \"ccdf\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\", x = \"score\" }]\n", "belong to a lines panel"},
		{head + "[[chart.panel]]\nkind = \"survival\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\" }]\n", "not a process"},
		{head + "[[chart.panel]]\nkind = \"bars\"\ncategories = [\"x\", \"y\"]\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\", metrics = [\"event:success\"] }]\n", "one per category"},
		{head + "[[chart.panel]]\nkind = \"validation\"\nmetric = \"event:success\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\" }]\n", "needs trials"},
		{head + "[[chart.panel]]\nkind = \"bars\"\nmetric = \"event:success * 2\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\" }]\n", "no event \"success * 2\""},
		{head + "[[chart.panel]]\nkind = \"lines\"\nrange = \"1..5\"\nmetric = \"event:success\"\nseries = [{ label = \"a\", mechanic = \"gm.core.roll\", x = \"score\", diff = { nope = 1 } }]\n", "nope"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			_, err := ParsePlan(systems.Default, "p.toml", []byte(tc.src))
			var pe *PlanError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("plan\n%s\ngave %v; want a PlanError containing %q", tc.src, err, tc.want)
			}
			// The series' line for a series' error, the panel's for a
			// panel's, the chart's otherwise.
			want, where := 2, "the [[chart]] header"
			for i, l := range strings.Split(tc.src, "\n") {
				switch {
				case l == "[[chart.panel]]" && want == 2:
					want, where = i+1, "the [[chart.panel]] header"
				case strings.Contains(l, `label = "a"`) && strings.Contains(err.Error(), `series "a"`):
					want, where = i+1, "the series' line"
				}
			}
			if pe.Line != want {
				t.Errorf("%v: line %d; want %d (%s)", err, pe.Line, want, where)
			}
		})
	}
}

// TestMetricExpr evaluates sums of metrics.
func TestMetricExpr(t *testing.T) {
	t.Parallel()
	r := &engine.Result{Events: []engine.EventResult{{Name: "a", P: 0.5}, {Name: "b", P: 0.2}, {Name: "level 4 (dying)", P: 0.1}}}
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{"event:a", 0.5}, {"event:a - event:b", 0.3}, {"1 - event:a", 0.5}, {"event:a + event:b - 0.1", 0.6}, {"event:level 4 (dying)", 0.1},
	} {
		t.Run(c.metric, func(t *testing.T) {
			t.Parallel()
			got, err := evalMetric(r, c.metric)
			if err != nil || math.Abs(got-c.want) > 1e-12 {
				t.Errorf("evalMetric(%q) = %v, %v; want %v", c.metric, got, err, c.want)
			}
		})
	}
	for _, s := range []string{"", "event:a -", "x", "event:a * 2"} {
		t.Run("refused "+s, func(t *testing.T) {
			t.Parallel()
			if _, err := evalMetric(r, s); err == nil {
				t.Errorf("evalMetric(%q) gave no error", s)
			}
		})
	}
}

// TestChartFindingWholeSettings: a lines panel over a parameter of whole
// numbers finds where P crosses 50% between the two settings either
// side (the atlas said "reaches 50% at x ≈ 3.875" of a target number);
// over a real parameter (a height) it interpolates and says so.
func TestChartFindingWholeSettings(t *testing.T) {
	t.Parallel()
	src := `seed = 1
[[chart]]
name = "c"
[[chart.panel]]
kind = "lines"
metric = "event:success"
range = "2..9"
series = [{ label = "ag pool 0", mechanic = "ag.skill_test", x = "tn", set = { skill = 0, attribute = 2 } }]
[[chart.panel]]
kind = "lines"
metric = "event:deep_or_worse"
range = "0..20:0.5"
series = [{ label = "ag concrete", mechanic = "ag.fall_damage", x = "height", set = { surface = "concrete" } }]
`
	p, err := ParsePlan(systems.Default, "p.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := RunPlan(context.Background(), p, dir, nil); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ag pool 0 crosses 50% between x = 3 (0.694) and 4 (0.472)", "ag concrete reaches 50% at x ≈ 10.682 (interpolated between 10.5 and 11)"} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("index.md lacks %q:\n%s", want, index)
		}
	}
	if bytes.Contains(index, []byte("≈ 3.8")) {
		t.Errorf("index.md interpolates a target number:\n%s", index)
	}
}
