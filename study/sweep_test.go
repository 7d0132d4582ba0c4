package study

import (
	"context"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/chartcheck"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/systems"
)

// TestSweepMetricsAndDeltas: a sweep's metrics at every point of the grid
// equal those read from a separate exact run at that point, and its
// differences along either axis equal the differences of those runs,
// divided by the step.
func TestSweepMetricsAndDeltas(t *testing.T) {
	t.Parallel()
	m, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		t.Fatal(err)
	}
	metrics := []string{"event:success", "p:total<=7", "quantile:total:0.75", "sd:mos"}
	for k, delta := range []string{"skill", "tn"} {
		sk, _ := ParseAxis("skill=0..3")
		tn, _ := ParseAxis("tn=3,5,8")
		s := &Sweep{Mechanic: m, Base: m.DefaultConfig(), Axes: []Axis{sk, tn}, Engine: Engine{Kind: engine.Exact}, Metrics: metrics, Delta: delta}
		pts, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		// The whole grid, point by point, from separate runs.
		direct := func(skill, tn float64) []float64 {
			c := m.DefaultConfig()
			c.Params["skill"], c.Params["tn"] = skill, tn
			r, err := Engine{Kind: engine.Exact}.Run(context.Background(), m, c)
			if err != nil {
				t.Fatal(err)
			}
			var out []float64
			for _, text := range metrics {
				v, err := metricValue(r, text)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, v)
			}
			return out
		}
		for _, p := range pts {
			if p.Result.Vars[0].P != nil {
				t.Fatal("a sweep point kept its distributions")
			}
			here := direct(p.Values[0], p.Values[1])
			for j := range metrics {
				if math.Abs(p.Metrics[j].V-here[j]) > 1e-12 {
					t.Errorf("%v %s = %v, direct run %v", p.Values, metrics[j], p.Metrics[j].V, here[j])
				}
			}
			axis := s.Axes[k].Values
			i := slices.Index(axis, p.Values[k])
			if i == len(axis)-1 {
				if p.Deltas != nil {
					t.Errorf("%v: the last %s has differences %v", p.Values, delta, p.Deltas)
				}
				continue
			}
			nextAt := slices.Clone(p.Values)
			nextAt[k] = axis[i+1]
			next := direct(nextAt[0], nextAt[1])
			for j := range metrics {
				want := (next[j] - here[j]) / (axis[i+1] - axis[i])
				if d := p.Deltas[j]; math.Abs(d.V-want) > 1e-12 || d.Lo != d.V || d.Hi != d.V {
					t.Errorf("%v Δ%s/Δ%s = %+v, by hand %v", p.Values, metrics[j], delta, d, want)
				}
			}
		}
	}
}

// TestSweepSimDeltaInterval: a simulated difference's interval joins the
// ends of the two points' intervals.
func TestSweepSimDeltaInterval(t *testing.T) {
	t.Parallel()
	m, _ := systems.Default.Lookup("ag.skill_test")
	a, _ := ParseAxis("modifier=0..2")
	s := &Sweep{Mechanic: m, Base: m.DefaultConfig(), Axes: []Axis{a}, Engine: Engine{Kind: engine.Sim, Trials: 4000, Seed: 5, Workers: 2},
		Metrics: []string{"event:success"}, Delta: "modifier"}
	pts, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		h, n, d := pts[i].Metrics[0], pts[i+1].Metrics[0], pts[i].Deltas[0]
		if d.V != n.V-h.V || d.Lo != n.Lo-h.Hi || d.Hi != n.Hi-h.Lo || !(d.Lo < d.V && d.V < d.Hi) {
			t.Errorf("modifier %d: Δ %+v from %+v and %+v", i, d, h, n)
		}
	}
}

// TestPlanListsOptionsDelta: a plan varies an option over its words and a
// parameter over a list, reports two metrics and the change per +1 of the
// parameter; the CSV shows the words and the differences, and the bundle
// has the plot of the differences.
func TestPlanListsOptionsDelta(t *testing.T) {
	t.Parallel()
	src := `title = "lists"
[[analysis]]
name = "ties"
mechanic = "ag.skill_test"
vary = { "opt.tie" = ["band", "success"], tn = [4, 6, 8] }
order = ["tn", "opt.tie"]
metric = ["event:success", "p:mos>=1"]
delta = "tn"
plot = "lines"

[[analysis]]
name = "surface"
mechanic = "ag.fall_damage"
vary = { surface = "concrete,deep_water", height = "3..9:3" }
metric = "mean:damage"
`
	p, err := ParsePlan(systems.Default, "lists.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	files, err := RunPlan(context.Background(), p, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			b, _ := os.ReadFile(f)
			pngtest.Check(t, filepath.Base(f), b)
			chartcheck.Check(t, filepath.Base(f), b)
		}
	}
	if !slices.Contains(files, filepath.Join(dir, "ties_delta.png")) {
		t.Errorf("no ties_delta.png in %v", files)
	}
	b, err := os.ReadFile(filepath.Join(dir, "ties.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var body []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "# ") {
			body = append(body, l)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	want := []string{"tn", "opt.tie", "event:success", "p:mos>=1", "Δevent:success/Δtn", "Δp:mos>=1/Δtn"}
	if !slices.Equal(head[:len(want)], want) {
		t.Fatalf("CSV columns %v; want them to start %v", head, want)
	}
	m, _ := systems.Default.Lookup("ag.skill_test")
	at := func(tie string, tn float64) float64 {
		c, err := m.Configure([]string{"opt.tie=" + tie, "tn=" + strconv.FormatFloat(tn, 'f', -1, 64)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Engine{Kind: engine.Exact}.Run(context.Background(), m, c)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := metricValue(r, "event:success")
		return v
	}
	if len(recs) != 1+6 {
		t.Fatalf("%d rows", len(recs)-1)
	}
	for _, r := range recs[1:] {
		tn, _ := strconv.ParseFloat(r[0], 64)
		if r[1] != "band" && r[1] != "success" {
			t.Errorf("opt.tie column holds %q", r[1])
		}
		if tn == 8 {
			if r[4] != "" {
				t.Errorf("tn 8 has a difference %q", r[4])
			}
			continue
		}
		got, _ := strconv.ParseFloat(r[4], 64)
		if want := (at(r[1], tn+2) - at(r[1], tn)) / 2; math.Abs(got-want) > 1e-9 {
			t.Errorf("%s tn %v: Δ %v, by hand %v", r[1], tn, got, want)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	for _, w := range []string{"a +1 step of tn changes P(success) by between", "(ties_delta.png)"} {
		if !strings.Contains(string(index), w) {
			t.Errorf("index.md lacks %q:\n%s", w, index)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "surface.csv")); !strings.Contains(string(b), "\n3,deep_water,") {
		t.Errorf("surface.csv does not name the surfaces:\n%s", b)
	}
}

// TestPlanVaryErrors: a plan's bad lists, metrics and deltas are one line
// naming the file and the analysis.
func TestPlanVaryErrors(t *testing.T) {
	t.Parallel()
	head := "[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n"
	for _, c := range []struct{ src, want string }{
		{"vary = { tn = [4, true] }\n", "vary tn: true is neither a number nor a quoted word"},
		{"vary = { tn = [] }\n", "vary tn: the list is empty"},
		{"vary = { tn = [4, 4] }\n", "twice"},
		{"vary = { tn = true }\n", "vary tn must be a range"},
		{"vary = { \"opt.tie\" = [\"band\", \"maybe\"] }\n", `option ag.core.opt.tie="maybe" is not one of`},
		{"vary = { tn = \"4,6\" }\ndelta = \"skill\"\n", "--delta skill: not a varied parameter"},
		{"vary = { \"opt.tie\" = \"band,success\" }\ndelta = \"opt.tie\"\n", "is varied over words"},
		{"delta = \"tn\"\n", "delta tn: the analysis varies nothing"},
		{"vary = { tn = \"4,6\" }\nmetric = [\"event:success\", \"median:total\"]\n", `unknown kind "median"`},
		{"metric = [\"quantile:nope:0.5\"]\n", `has no variable "nope"`},
		{"metric = 3\n", "give a metric or a list of metrics"},
		{"vary = { tn = \"4,6\" }\norder = [\"skill\"]\n", "order names skill"},
	} {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			_, err := ParsePlan(systems.Default, "bad.toml", []byte(head+c.src))
			var pe *PlanError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v; want one line containing %q", c.src, err, c.want)
			}
		})
	}
}
