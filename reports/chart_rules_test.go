package reports

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// specOf draws a chart and reads back the spec its PNG carries.
func specOf(t *testing.T, draw func(*bytes.Buffer) error) *ChartSpec {
	t.Helper()
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, t.Name(), b.Bytes())
	s, err := ReadChartSpec(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestProbLabel: a cell or a bar segment never reads as a certainty it is
// not; exact certainties read 1 and 0.
func TestProbLabel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		want string
	}{{0.9954, "≥.995"}, {0.0046, "<.005"}, {1, "1"}, {0, "0"}, {0.5, "0.50"}, {0.994, "0.99"}, {0.006, "0.01"}, {1e-14, "<.005"}} {
		if got := probLabel(c.v); got != c.want {
			t.Errorf("probLabel(%v) = %q; want %q", c.v, got, c.want)
		}
	}
	if got := probLabel3(0.99996); got != "≥.9995" {
		t.Errorf("probLabel3(0.99996) = %q", got)
	}
	s := specOf(t, func(b *bytes.Buffer) error {
		return WriteHeatmap(b, &Heatmap{Title: "heat", XLabel: "skill", YLabel: "TN", Metric: "event:success",
			Xs: []float64{1, 2, 3}, Ys: []float64{4}, Z: [][]float64{{0.9954, 0.0046, 1}}})
	})
	if got := s.Panels[0].Cells; !slices.Equal(got, []string{"≥.995", "<.005", "1"}) {
		t.Errorf("cells %q", got)
	}
}

// TestLinesRule: an overlay over whole-number settings is drawn as
// markers joined by guides, in the order of x, each series in its own
// Okabe–Ito colour with no dash up to eight series; simulated points
// carry intervals.
func TestLinesRule(t *testing.T) {
	t.Parallel()
	series := func(n int, sim bool) []Series {
		var out []Series
		for i := range n {
			s := Series{Name: fmt.Sprintf("s%d", i)}
			// Deliberately out of order (x from a metric, say).
			for _, x := range []float64{5, 1, 3, 2, 4} {
				s.XY = append(s.XY, XY{X: x, Y: x / 10})
				if sim {
					s.Err = append(s.Err, [2]float64{x/10 - 0.01, x/10 + 0.01})
				}
			}
			out = append(out, s)
		}
		return out
	}
	s := specOf(t, func(b *bytes.Buffer) error {
		return WriteLines(b, &Lines{Title: "t", XLabel: "TN", Metric: "event:success", Series: series(8, true)})
	})
	colours := map[string]bool{}
	for _, ss := range s.Panels[0].Series {
		if ss.Draw != "markers" || !ss.Markers || !ss.Sorted || ss.Dashed || !ss.Intervals || ss.Points != 5 {
			t.Errorf("series %+v", ss)
		}
		colours[ss.Color] = true
	}
	if len(colours) != 8 {
		t.Errorf("eight series in %d colours", len(colours))
	}
	s = specOf(t, func(b *bytes.Buffer) error {
		return WriteLines(b, &Lines{Title: "t", XLabel: "TN", Metric: "event:success", Series: series(11, false)})
	})
	dashed := 0
	for _, ss := range s.Panels[0].Series {
		if ss.Dashed {
			dashed++
		}
	}
	if dashed != 3 {
		t.Errorf("eleven series: %d dashed; want the three past eight", dashed)
	}
}

// TestCumulativeAsSteps: P(X ≥ x), P(X > x) and S(t) are drawn as steps
// with markers; simulated ones with their intervals; a simulated PMF
// with whiskers.
func TestCumulativeAsSteps(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		r := sample(kind)
		r.Process = &engine.ProcessResult{TimeUnit: "round", Horizon: 4, Survival: []float64{1, 0.8, 0.4, 0.1, 0.02}}
		sim := kind == engine.Sim
		for name, draw := range map[string]func(*bytes.Buffer) error{
			"pmf":      func(b *bytes.Buffer) error { return WritePMF(b, r, &r.Vars[0]) },
			"atleast":  func(b *bytes.Buffer) error { return WriteAtLeast(b, r, &r.Vars[0]) },
			"survival": func(b *bytes.Buffer) error { return WriteSurvival(b, r) },
			"family": func(b *bytes.Buffer) error {
				return WriteSurvivalFamily(b, "f", "", []string{"a", "b"}, []*engine.Result{r, r})
			},
		} {
			s := specOf(t, draw)
			for _, ss := range s.Panels[0].Series {
				want := "steps"
				if name == "pmf" {
					want = "bars"
				}
				if ss.Draw != want || (want == "steps" && !ss.Markers) || ss.Simulated != sim || ss.Intervals != sim {
					t.Errorf("%s %s: %+v", kind, name, ss)
				}
			}
		}
	}
}

// TestTailFloor: a tail plot stops at 1e-6, not at 1e-14; a bounded
// variable whose tail is one or two steps has none.
func TestTailFloor(t *testing.T) {
	t.Parallel()
	v := engine.VarResult{Name: "damage", Unit: "wounds", Lo: 1, Den: 1}
	for x := 1; x <= 150; x++ {
		p := 0.0
		if x%10 != 0 {
			p = math.Pow(0.1, float64(x/10+1))
		}
		v.P = append(v.P, p)
	}
	r := &engine.Result{Mechanic: "x.burst", Engine: engine.Exact, Vars: []engine.VarResult{v}}
	s := specOf(t, func(b *bytes.Buffer) error { return WriteTail(b, r, &r.Vars[0]) })
	p := s.Panels[0]
	if !p.LogY || p.YMin < TailFloor || p.Series[0].MinY < TailFloor || p.Series[0].Draw != "steps" {
		t.Errorf("tail panel %+v", p)
	}
	// 3d6-like: its top value has P = 1/216, then nothing.
	short := engine.VarResult{Name: "x", Lo: 1, Den: 1, P: []float64{0.3, 0.3, 0.39, 0.00999, 0.00001}}
	if HasLongTail(&short) {
		t.Error("a bounded variable whose tail ends in a step has a long tail?")
	}
	if bad, why := Degenerate("tail", "", &engine.Result{Vars: []engine.VarResult{short}}); !bad || why == "" {
		t.Error("its tail is not degenerate?")
	}
}

// TestBandsLegend: a category with no mass in any bar is not in the
// legend (the caption names it); more categories than a legend can tell
// apart keep the largest and lump the rest.
func TestBandsLegend(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	r.Bands[0].Labels = []string{"resisted", "cured", "still ill"}
	r.Bands[0].P = []float64{0.55, 0.45, 0}
	s := specOf(t, func(b *bytes.Buffer) error {
		return WriteBands(b, "bands", "", []string{"s0=1"}, []*engine.Result{r}, "mos_band")
	})
	var names []string
	for _, l := range s.Panels[0].Legend {
		names = append(names, l.Name)
		if l.Mass == nil || *l.Mass <= 0 {
			t.Errorf("legend entry %q with mass %v", l.Name, l.Mass)
		}
	}
	if !slices.Equal(names, []string{"cured", "resisted"}) {
		t.Errorf("legend %q", names)
	}
	many := sample(engine.Exact)
	many.Bands[0].Labels, many.Bands[0].P = nil, nil
	for i := range 30 {
		many.Bands[0].Labels = append(many.Bands[0].Labels, fmt.Sprintf("state %d", i))
		many.Bands[0].P = append(many.Bands[0].P, 1.0/30)
	}
	s = specOf(t, func(b *bytes.Buffer) error {
		return WriteBands(b, "bands", "", []string{"x"}, []*engine.Result{many}, "mos_band")
	})
	if n := len(s.Panels[0].Legend); n > maxLayers {
		t.Errorf("%d legend entries", n)
	}
}

// TestJointStates: the final states of a process over two variables
// (169 of them) are a heat map over the two, not a stacked bar with a
// 169-entry legend; one per point of a sweep.
func TestJointStates(t *testing.T) {
	t.Parallel()
	duel := func(hp int) *engine.Result {
		r := sample(engine.Exact)
		b := engine.BandResult{Name: "final_state"}
		for a := 0; a <= hp; a++ {
			for d := 0; d <= hp; d++ {
				b.Labels = append(b.Labels, fmt.Sprintf("a=%d b=%d", a, d))
				p := 0.0
				if (a == 0) != (d == 0) {
					p = 1 / float64(2*hp)
				}
				b.P = append(b.P, p)
			}
		}
		r.Bands = []engine.BandResult{b}
		r.Process = &engine.ProcessResult{Horizon: 10, Survival: []float64{1, 0.5, 0}}
		return r
	}
	s := specOf(t, func(b *bytes.Buffer) error {
		return WriteBands(b, "duel", "", []string{"duel"}, []*engine.Result{duel(12)}, "final_state")
	})
	if p := s.Panels[0]; p.Kind != "states" || len(p.Legend) != 0 || p.Series[0].Points != 24 {
		t.Errorf("one duel: %+v", p)
	}
	s = specOf(t, func(b *bytes.Buffer) error {
		return WriteBands(b, "duels", "", []string{"hp=10", "hp=12"}, []*engine.Result{duel(10), duel(12)}, "final_state")
	})
	if len(s.Panels) != 2 || s.Panels[1].Kind != "states" {
		t.Errorf("two duels: %+v", s.Panels)
	}
}

// TestDegenerate: the charts a bundle leaves out, each with its reason.
func TestDegenerate(t *testing.T) {
	t.Parallel()
	sure := sample(engine.Exact)
	sure.Bands[0].P = []float64{1 - 1e-14, 1e-14}
	if bad, why := Degenerate("bands", "mos_band", sure); !bad || !strings.Contains(why, `"lo, with comma"`) {
		t.Errorf("a band at 1 − 1e-14: %v %q", bad, why)
	}
	if bad, _ := Degenerate("bands", "mos_band", sample(engine.Exact)); bad {
		t.Error("a band at 0.75/0.25 is degenerate?")
	}
	other := sample(engine.Exact)
	other.Bands[0].P = []float64{0, 1}
	if bad, _ := Degenerate("bands", "mos_band", sure, other); bad {
		t.Error("two bars certain of different categories say nothing?")
	}
	one := sample(engine.Exact)
	one.Vars[0].P = []float64{0, 0.9995, 0.0005, 0}
	if bad, _ := Degenerate("pmf", "", one); !bad {
		t.Error("a PMF at one value with P 0.9995 is not degenerate?")
	}
	never := sample(engine.Exact)
	never.Process = &engine.ProcessResult{Survival: []float64{1, 1, 0.9995}}
	if bad, _ := Degenerate("survival", "", never); !bad {
		t.Error("a survival that never ends is not degenerate?")
	}
	// The time of a process: its at-least curve is its survival curve.
	pr := sample(engine.Exact)
	pr.Vars[0] = engine.VarResult{Name: "time", Lo: 1, Den: 1, P: []float64{0.5, 0.3}, Undefined: 0.2}
	pr.Process = &engine.ProcessResult{Survival: []float64{1, 0.5, 0.2}}
	if !DuplicatesSurvival(pr, &pr.Vars[0]) {
		t.Error("the time's at-least curve does not duplicate S(t)?")
	}
	if DuplicatesSurvival(sample(engine.Exact), &sample(engine.Exact).Vars[0]) {
		t.Error("a variable of no process duplicates a survival curve?")
	}
}

// TestBundleSkips: a bundle leaves the degenerate charts out and says
// why.
func TestBundleSkips(t *testing.T) {
	t.Parallel()
	b, err := NewBundle(t.TempDir() + "/b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := sample(engine.Exact)
	r.Bands[0].P = []float64{1, 0}
	links, skipped, err := b.WriteResultFiles("x", r)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(links, "x_bands.png") || len(skipped) != 1 || !strings.HasPrefix(skipped[0], "x_bands.png: ") {
		t.Errorf("links %q, skipped %q", links, skipped)
	}
	if md := SkippedList(skipped); !strings.Contains(md, "- not drawn: x_bands.png — ") {
		t.Errorf("index lines %q", md)
	}
}

// TestAtlasChartRules: a chart of panels keeps the rule: markers and
// guides for lines, steps for cumulative probabilities, a tail cut at
// 1e-6, a series' colour kept from panel to panel, zero-mass categories
// out of the legend.
func TestAtlasChartRules(t *testing.T) {
	t.Parallel()
	ccdf := []XY{{0, 1}, {1, 0.1}, {2, 1e-3}, {3, 1e-5}, {4, 1e-9}, {5, 1e-13}}
	c := &Chart{Title: "t", Panels: []ChartPanel{
		{Kind: "lines", Title: "a", Series: []ChartSeries{
			{Label: "x", XY: []XY{{3, 0.3}, {1, 0.1}, {2, 0.2}}, Err: [][2]float64{{0.2, 0.4}, {0, 0.2}, {0.1, 0.3}}},
			{Label: "y", XY: []XY{{1, 0.5}, {2, 0.6}}}}},
		{Kind: "lines", Title: "b", LogY: true, Prob: true, Series: []ChartSeries{
			{Label: "y", XY: ccdf, Step: "pre"}, {Label: "x", XY: ccdf, Step: "pre"}}},
		{Kind: "stacked", Title: "c", Categories: []string{"win", "tie", "loss"}, Series: []ChartSeries{
			{Label: "p", Values: []float64{0.5, 0, 0.5}}}},
	}}
	s := specOf(t, func(b *bytes.Buffer) error { return WriteChart(b, c) })
	a, tail, st := s.Panels[0], s.Panels[1], s.Panels[2]
	if a.Series[0].Draw != "markers" || !a.Series[0].Sorted || !a.Series[0].Intervals {
		t.Errorf("lines: %+v", a.Series[0])
	}
	if tail.Kind != "tail" || tail.YMin < TailFloor || tail.Series[0].MinY < TailFloor || tail.Series[0].Draw != "steps" {
		t.Errorf("tail: %+v", tail)
	}
	if a.Series[0].Color != tail.Series[1].Color || a.Series[1].Color != tail.Series[0].Color || a.Series[0].Color == a.Series[1].Color {
		t.Errorf("colours by label: %s %s / %s %s", a.Series[0].Color, a.Series[1].Color, tail.Series[1].Color, tail.Series[0].Color)
	}
	for _, l := range st.Legend {
		if l.Name == "tie" {
			t.Error("the legend lists a category of no mass")
		}
	}
}
