package reports

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

// TestMetricWordsKinds: every kind of metric is said in words, with the
// unit of the variables it reads.
func TestMetricWordsKinds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ metric, unit, want string }{
		{"p:damage<=5", "wounds", "P(damage ≤ 5)"},
		{"p:damage>=2.5", "", "P(damage ≥ 2.5)"},
		{"p:mos>0", "", "P(mos > 0)"},
		{"p:mos=0", "", "P(mos = 0)"},
		{"quantile:damage:0.9", "wounds", "90th percentile of damage (wounds)"},
		{"quantile:damage:0.5", "", "median damage"},
		{"quantile:damage:0.01", "", "1st percentile of damage"},
		{"quantile:damage:0.22", "", "22nd percentile of damage"},
		{"quantile:damage:0.13", "", "13th percentile of damage"},
		{"quantile:damage:0.975", "", "97.5th percentile of damage"},
		{"sd:time_ill", "rounds", "SD of time ill (rounds)"},
		{"band:mos_band:yes", "", "P(mos band = yes)"},
		{"event:hit+event:crit", "", "P(hit) + P(crit)"},
		{"mean:damage+sd:damage", "wounds", "mean damage + SD of damage (wounds)"},
		{"event:absorbed:level 4 (dying)", "", "P(absorbed:level 4 (dying))"},
	} {
		if got := MetricLabelOf(c.metric, c.unit); got != c.want {
			t.Errorf("MetricLabelOf(%q, %q) = %q; want %q", c.metric, c.unit, got, c.want)
		}
	}
	r := withVar(binomialVar("damage", "wounds", 3, 0.5, 0, 1))
	for metric, want := range map[string]string{
		"quantile:damage:0.9": "90th percentile of damage (wounds)",
		"p:damage<=5":         "P(damage ≤ 5)",
		"sd:damage":           "SD of damage (wounds)",
	} {
		if got := MetricLabel(r, metric); got != want {
			t.Errorf("MetricLabel(%s) = %q; want %q", metric, got, want)
		}
	}
	if u := MetricUnit(r, "mean:damage+p:damage<=2"); u != "wounds" {
		t.Errorf("MetricUnit of a mean plus a probability = %q", u)
	}
	if _, prob, _ := metricWords("p:damage<=5", ""); !prob {
		t.Error("p:damage<=5 is not a probability")
	}
	if _, prob, _ := metricWords("event:a+event:b", ""); prob {
		t.Error("a sum of two probabilities is drawn on [0, 1]")
	}
}

// TestCategoryFindings: nothing is interpolated between two options — no
// "crosses 50% between" along an axis of words.
func TestCategoryFindings(t *testing.T) {
	t.Parallel()
	ax := SweepAxis{Name: "opt.tie", Values: []float64{0, 1, 2}, Labels: []string{"band", "success", "failure"}}
	xy := []XY{{0, 0.42}, {1, 0.61}, {2, 0.42}}
	want := "Finding: P(success) is highest at opt.tie = success (0.610) and lowest at opt.tie = band (0.420)."
	if got := categoryFinding("P(success)", ax, xy); got != want {
		t.Errorf("categoryFinding\n got %q\nwant %q", got, want)
	}
	if got := categoryFinding("P(x)", ax, []XY{{0, 0.5}, {1, 0.5}, {2, 0.5}}); got != "Finding: P(x) is 0.500 for every opt.tie (band, success, failure)." {
		t.Errorf("categoryFinding of a constant: %q", got)
	}
	z := [][]float64{{0.2, 0.7, 0.9}, {0.3, 0.6, 0.8}}
	got := heatFindingAxes("event:success", []SweepAxis{ax, {Name: "tn", Values: []float64{4, 6}}}, z)
	if strings.Contains(got, "between") || strings.Contains(got, "crosses") {
		t.Errorf("a heat map over options interpolates: %q", got)
	}
	// Along numbers the crossing is still found, the row named by its word.
	got = heatFindingAxes("event:success", []SweepAxis{{Name: "tn", Values: []float64{4, 6, 8}}, ax}, z)
	if !strings.Contains(got, "at opt.tie = success, P(success) crosses 50% between tn = 4 (0.300) and 6 (0.600)") {
		t.Errorf("heatFindingAxes: %q", got)
	}
	if got := deltaFinding("modifier", "P(success)", []XY{{-1, 0.25}, {0, 0.139}, {1, -0.05}}); got !=
		"Finding: a +1 step of modifier changes P(success) by between -0.050 (from modifier = 1) and +0.250 (from modifier = -1)." {
		t.Errorf("deltaFinding: %q", got)
	}
}

// toySweep is a sweep of a made-up mechanic over axes, its metric at every
// point f(x, y), simulated when sim is set (intervals ±0.02).
func toySweep(sim bool, delta string, axes []SweepAxis, f func(x, y float64) float64) *Sweep {
	s := &Sweep{Mechanic: "toy.check", Axes: axes, Metrics: []string{"event:success"}, Asked: true, Delta: delta}
	ys := []float64{0}
	if len(axes) > 1 {
		ys = axes[1].Values
	}
	kind := engine.Exact
	if sim {
		kind = engine.Sim
	}
	for _, y := range ys {
		for _, x := range axes[0].Values {
			r := &engine.Result{Mechanic: "toy.check", Engine: kind, Version: "test", Fingerprint: "sha256:x", Trials: 1000, Seed: 1,
				Params:  []mechanics.NamedValue{{Name: "tn", Value: 5}, {Name: "skill", Value: 2}},
				Options: []mechanics.NamedString{{Name: "toy.opt.tie", Value: "band"}}}
			v := f(x, y)
			r.Events = []engine.EventResult{{Name: "success", P: v, CI: [2]float64{v - 0.02, v + 0.02}}}
			e := engine.Estimate{V: v, Lo: v, Hi: v}
			if sim {
				e.Lo, e.Hi = v-0.02, v+0.02
			}
			vals := []float64{x}
			if len(axes) > 1 {
				vals = append(vals, y)
			}
			s.Points = append(s.Points, SweepPoint{Values: vals, Result: r, Metrics: []engine.Estimate{e}})
		}
	}
	if k := s.deltaAxis(); k >= 0 {
		nx := len(axes[0].Values)
		for i := range s.Points {
			pos, next := i%nx, i+1
			if k == 1 {
				pos, next = i/nx, i+nx
			}
			if pos+1 < len(axes[k].Values) {
				h, n := s.Points[i].Metrics[0], s.Points[next].Metrics[0]
				st := axes[k].Values[pos+1] - axes[k].Values[pos]
				s.Points[i].Deltas = []engine.Estimate{{V: (n.V - h.V) / st, Lo: (n.Lo - h.Hi) / st, Hi: (n.Hi - h.Lo) / st}}
			}
		}
	}
	return s
}

// TestSweepPlotKinds draws every kind of sweep plot, categorical axes and
// differences included (ODDSMITH_PLOT_DIR keeps them to be looked at).
func TestSweepPlotKinds(t *testing.T) {
	t.Parallel()
	ties := SweepAxis{Name: "opt.tie", Values: []float64{0, 1, 2}, Labels: []string{"band", "cost_accepted", "failure"}}
	mod := SweepAxis{Name: "modifier", Values: []float64{-3, -2, -1, 0, 1, 2, 3}}
	tn := SweepAxis{Name: "tn", Values: []float64{4, 6, 8}}
	p := func(x, y float64) float64 {
		return math.Max(0.02, math.Min(0.98, 0.5+0.12*x-0.05*y+0.04*math.Sin(3*y)))
	}
	cases := []struct {
		name  string
		s     *Sweep
		delta bool
	}{
		{"sweep_numeric_sim", toySweep(true, "", []SweepAxis{mod}, p), false},
		{"sweep_category", toySweep(false, "", []SweepAxis{ties}, p), false},
		{"sweep_category_sim", toySweep(true, "", []SweepAxis{ties}, p), false},
		{"sweep_category_lines", toySweep(true, "", []SweepAxis{ties, tn}, p), false},
		{"sweep_lines_category_legend", toySweep(false, "", []SweepAxis{mod, ties}, p), false},
		{"sweep_heat_category_x", toySweep(false, "", []SweepAxis{ties, mod}, p), false},
		{"sweep_heat_category_y", toySweep(true, "", []SweepAxis{mod, ties}, p), false},
		{"sweep_delta_line", toySweep(false, "modifier", []SweepAxis{mod}, p), true},
		{"sweep_delta_line_sim", toySweep(true, "modifier", []SweepAxis{mod}, p), true},
		{"sweep_delta_heat_x", toySweep(false, "modifier", []SweepAxis{mod, ties}, p), true},
		{"sweep_delta_heat_y", toySweep(false, "tn", []SweepAxis{ties, tn}, p), true},
		{"sweep_delta_lines_y", toySweep(false, "tn", []SweepAxis{mod, tn}, p), true},
	}
	for _, c := range cases {
		if strings.Contains(c.name, "lines") {
			c.s.Kind = "lines"
		}
		var b bytes.Buffer
		var finding string
		var err error
		if c.delta {
			finding, err = WriteSweepDeltaPlot(&b, c.s)
		} else {
			finding, err = WriteSweepPlot(&b, c.s)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pngtest.Check(t, c.name, b.Bytes())
		if c.s.Axes[0].Categorical() && strings.Contains(finding, "between") {
			t.Errorf("%s: the finding interpolates between options: %q", c.name, finding)
		}
	}
}

// TestSweepTables: the text table aligns without trailing spaces, signs
// the differences and marks the last value's missing one; the CSV and the
// JSON show the words of a categorical axis; JSON writes NaN as null.
func TestSweepTables(t *testing.T) {
	t.Parallel()
	ties := SweepAxis{Name: "opt.tie", Values: []float64{0, 1}, Labels: []string{"band", "success"}}
	mod := SweepAxis{Name: "modifier", Values: []float64{0, 1, 2}}
	s := toySweep(true, "modifier", []SweepAxis{mod, ties}, func(x, y float64) float64 { return 0.3 + 0.2*x + 0.1*y })
	s.Points[5].Metrics[0].V = math.NaN()
	var text, csvb, js bytes.Buffer
	for f, b := range map[string]*bytes.Buffer{"text": &text, "csv": &csvb, "json": &js} {
		if err := WriteSweep(b, s, f); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"params:    tn=5 skill=2\noptions:\n",
		"varied:    opt.tie = band, success\n",
		"modifier  opt.tie  event:success  95% CI            Δevent:success/Δmodifier  95% CI\n",
		"0         band     0.3000         [0.2800, 0.3200]  +0.2000                   [+0.1600, +0.2400]\n",
		"2         band     0.7000         [0.6800, 0.7200]  -\n",
		"2         success  NaN ",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text table lacks %q:\n%s", want, text.String())
		}
	}
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line ends in a space: %q", l)
		}
	}
	if !strings.Contains(csvb.String(), "\n1,success,0.6,") || !strings.Contains(csvb.String(), "# options: \n") {
		t.Errorf("CSV:\n%s", csvb.String())
	}
	var j map[string]any
	if err := json.Unmarshal(js.Bytes(), &j); err != nil {
		t.Fatalf("JSON does not parse: %v\n%s", err, js.String())
	}
	if !strings.Contains(js.String(), `"settings":{"modifier":2,"opt.tie":"success"},"fingerprint":"sha256:x","metrics":{"event:success":{"value":null,`) {
		t.Errorf("JSON:\n%s", js.String())
	}
	if err := WriteSweep(&text, s, "xml"); err == nil {
		t.Error("an unknown format was accepted")
	}
}
