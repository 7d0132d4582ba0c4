package reports_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/chartcheck"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// dice is a literal result of a one-liner: the sum of n d6 (exact), or
// its counts over trials (sim).
func dice(rule string, n int, kind engine.Kind, trials int64) *engine.Result {
	p := []float64{1}
	for range n {
		q := make([]float64, len(p)+5)
		for i, x := range p {
			for f := range 6 {
				q[i+f] += x / 6
			}
		}
		p = q
	}
	r := &engine.Result{Mechanic: "expr", Rule: rule, Engine: kind, Version: "test",
		Vars:  []engine.VarResult{{Name: "value", Lo: n, Den: 1, P: p, Stats: engine.Stats{Mean: 3.5 * float64(n), SD: math.Sqrt(35.0 / 12 * float64(n))}}},
		Bands: []engine.BandResult{{Name: "outcome", Labels: []string{"low", "high"}, P: []float64{0.5, 0.5}, CI: [][2]float64{{0.45, 0.55}, {0.45, 0.55}}}},
	}
	if kind == engine.Sim {
		r.Seed, r.Trials, r.Workers = 1, trials, 1
		v := &r.Vars[0]
		v.Counts = make([]int64, len(p))
		for i, x := range p {
			v.Counts[i] = int64(math.Round(x * float64(trials)))
			v.P[i] = float64(v.Counts[i]) / float64(trials)
		}
	}
	return r
}

// process is a literal process result: S(t) of a geometric time.
func process(kind engine.Kind, q float64) *engine.Result {
	r := dice("2d6", 2, kind, 1000)
	r.Mechanic, r.Rule = "grim.burning", ""
	s := []float64{1}
	for range 8 {
		s = append(s, s[len(s)-1]*q)
	}
	r.Process = &engine.ProcessResult{TimeUnit: "turn", Horizon: 8, Survival: s}
	return r
}

// TestResultChartsEveryFormat draws every kind of chart of results — one
// exact result, two, one simulated, two simulated — as a PNG that decodes,
// an SVG that parses with an <svg> root and a PDF with its header.
func TestResultChartsEveryFormat(t *testing.T) {
	t.Parallel()
	sets := map[string][]reports.ResultSeries{
		"exact1": {{"3d6", dice("3d6", 3, engine.Exact, 0)}},
		"exact2": {{"3d6", dice("3d6", 3, engine.Exact, 0)}, {"4d6", dice("4d6", 4, engine.Exact, 0)}},
		"sim1":   {{"3d6", dice("3d6", 3, engine.Sim, 20000)}},
		"sim2":   {{"3d6", dice("3d6", 3, engine.Sim, 20000)}, {"4d6", dice("4d6", 4, engine.Sim, 20000)}},
	}
	for name, ss := range sets {
		for _, kind := range reports.ChartKinds {
			series := ss
			if kind == "survival" {
				series = nil
				for i, s := range ss {
					series = append(series, reports.ResultSeries{s.Label, process(s.Result.Engine, 0.5+0.2*float64(i))})
				}
			}
			for _, format := range reports.PictureFormats {
				t.Run(name+"_"+kind+"_"+format, func(t *testing.T) {
					t.Parallel()
					c := &reports.ResultChart{Kind: kind, Series: series}
					b, err := reports.DrawPicture(format, func(w io.Writer) error { return reports.WriteResultChart(w, c) })
					if err != nil {
						t.Fatal(err)
					}
					pngtest.CheckPicture(t, "result_chart_"+name+"_"+kind, format, b)
				})
			}
		}
	}
}

// TestResultChartSeries: a chart of several results has a series per
// result, labelled as asked, and a simulated one carries the 95% interval
// of every point — as the spec each PNG and SVG carries records it — and
// every chart keeps the drawing rule (chartcheck).
func TestResultChartSeries(t *testing.T) {
	t.Parallel()
	for _, kind := range []engine.Kind{engine.Exact, engine.Sim} {
		for _, plot := range []string{"pmf", "cdf", "atleast", "tail", "survival"} {
			a, b := dice("4d6kh3", 3, kind, 5000), dice("3d6", 3, kind, 5000)
			if plot == "tail" {
				a, b = dice("8d6", 8, kind, 1000000), dice("7d6", 7, kind, 1000000)
			}
			if plot == "survival" {
				a, b = process(kind, 0.6), process(kind, 0.8)
			}
			c := &reports.ResultChart{Kind: plot, Series: []reports.ResultSeries{{"4d6kh3", a}, {"3d6", b}}}
			for _, format := range []string{"png", "svg"} {
				pic, err := reports.DrawPicture(format, func(w io.Writer) error { return reports.WriteResultChart(w, c) })
				if err != nil {
					t.Fatalf("%s %s: %v", kind, plot, err)
				}
				if format == "png" {
					for _, e := range chartcheck.Problems(pic) {
						t.Errorf("%s %s: %s", kind, plot, e)
					}
				}
				spec, err := reports.ReadPictureSpec(pic)
				if err != nil {
					t.Fatalf("%s %s %s: %v", kind, plot, format, err)
				}
				var names []string
				for _, s := range spec.Panels[0].Series {
					names = append(names, s.Name)
					if kind == engine.Sim && (!s.Simulated || !s.Intervals) {
						t.Errorf("%s %s %s: series %q is drawn without its intervals", kind, plot, format, s.Name)
					}
				}
				if !slices.Equal(names, []string{"4d6kh3", "3d6"}) {
					t.Errorf("%s %s %s: series %q; want 4d6kh3 and 3d6", kind, plot, format, names)
				}
				var legend []string
				for _, l := range spec.Panels[0].Legend {
					legend = append(legend, l.Name)
				}
				if !slices.Equal(legend, []string{"4d6kh3", "3d6"}) {
					t.Errorf("%s %s %s: legend %q; want 4d6kh3 and 3d6", kind, plot, format, legend)
				}
			}
		}
	}
	// Drawn, the legend names both (an SVG keeps its texts).
	for _, kind := range []engine.Kind{engine.Exact, engine.Sim} {
		c := &reports.ResultChart{Series: []reports.ResultSeries{{"4d6kh3", dice("4d6kh3", 3, kind, 5000)}, {"3d6", dice("3d6", 3, kind, 5000)}}}
		b, err := reports.DrawPicture("svg", func(w io.Writer) error { return reports.WriteResultChart(w, c) })
		if err != nil {
			t.Fatal(err)
		}
		texts := pngtest.SVGTexts(b)
		for _, want := range []string{"4d6kh3", "3d6"} {
			if !slices.Contains(texts, want) {
				t.Errorf("%s: no legend entry %q in %q", kind, want, texts)
			}
		}
	}
}

// TestResultChartRefuses: what a chart cannot draw is bad input, said in
// one line, before anything is drawn.
func TestResultChartRefuses(t *testing.T) {
	t.Parallel()
	d := func() *engine.Result { return dice("3d6", 3, engine.Exact, 0) }
	events := d()
	events.Vars, events.Bands = nil, nil
	other := d()
	other.Bands[0].Labels = []string{"fail", "pass"}
	var many []reports.ResultSeries
	for i := range reports.ChartSeriesMax + 1 {
		many = append(many, reports.ResultSeries{fmt.Sprint(i), d()})
	}
	cases := []struct {
		c    reports.ResultChart
		want string
	}{
		{reports.ResultChart{Kind: "histogram", Series: []reports.ResultSeries{{"3d6", d()}}}, `--plot "histogram" is not one of`},
		{reports.ResultChart{Kind: "survival", Series: []reports.ResultSeries{{"3d6", d()}}}, "3d6 is not a process"},
		{reports.ResultChart{Output: "damage", Series: []reports.ResultSeries{{"3d6", d()}}}, `3d6 has no variable "damage"`},
		{reports.ResultChart{Kind: "bands", Output: "damage", Series: []reports.ResultSeries{{"3d6", d()}}}, `3d6 has no band "damage"`},
		{reports.ResultChart{Kind: "bands", Series: []reports.ResultSeries{{"a", d()}, {"b", other}}}, "other categories"},
		{reports.ResultChart{Series: []reports.ResultSeries{{"checks", events}}}, "no variable, band or process"},
		{reports.ResultChart{Kind: "tail", Series: []reports.ResultSeries{{"d1", dice("d1", 0, engine.Exact, 0)}}}, "no tail"},
		{reports.ResultChart{Series: many}, "at most 12 series"},
	}
	for _, tc := range cases {
		b, err := reports.DrawPicture("png", func(w io.Writer) error { return reports.WriteResultChart(w, &tc.c) })
		if err == nil || !mechanics.IsInput(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || b != nil {
			t.Errorf("%+v: %v (%d bytes); want one line of bad input with %q", tc.c.Kind, err, len(b), tc.want)
		}
	}
}

// TestDrawPicture: a picture is drawn whole in memory and checked: a
// writer that fails, or one that writes something else than the format
// asked, gives no bytes.
func TestDrawPicture(t *testing.T) {
	t.Parallel()
	if b, err := reports.DrawPicture("svg", func(w io.Writer) error { _, err := io.WriteString(w, "a table"); return err }); err == nil || b != nil {
		t.Errorf("text drawn as an SVG: %q, %v", b, err)
	}
	if b, err := reports.DrawPicture("pdf", func(w io.Writer) error { w.Write([]byte("%PDF-")); return errors.New("disk full") }); err == nil || b != nil {
		t.Errorf("a failed drawing: %q, %v", b, err)
	}
	if _, err := reports.DrawPicture("jpg", func(io.Writer) error { return nil }); err == nil {
		t.Error("a JPEG was drawn")
	}
	r := dice("3d6", 3, engine.Exact, 0)
	for _, format := range reports.PictureFormats {
		b, err := reports.DrawPicture(format, func(w io.Writer) error { return reports.WritePMF(w, r, &r.Vars[0]) })
		if err != nil || !reports.IsPicture(b, format) {
			t.Errorf("reports.WritePMF as %s: %v", format, err)
		}
		for _, other := range reports.PictureFormats {
			if other != format && reports.IsPicture(b, other) {
				t.Errorf("reports.WritePMF as %s reads as %s too", format, other)
			}
		}
	}
}

// TestPictureFormat: the extension says the format, in any case; other
// picture formats are known as such.
func TestPictureFormat(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"x.png": "png", "out/X.SVG": "svg", "a.b.pdf": "pdf", "x.csv": "", "x": "", "png": "", "x.png.txt": ""} {
		if got := reports.PictureFormat(name); got != want {
			t.Errorf("reports.PictureFormat(%q) = %q; want %q", name, got, want)
		}
	}
	for name, want := range map[string]bool{"x.jpg": true, "x.JPEG": true, "x.gif": true, "x.png": false, "x.csv": false, "x": false} {
		if _, got := reports.UndrawableExt(name); got != want {
			t.Errorf("reports.UndrawableExt(%q) = %v; want %v", name, got, want)
		}
	}
}
