package reports

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/mechanics"
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
	sets := map[string][]ResultSeries{
		"exact1": {{"3d6", dice("3d6", 3, engine.Exact, 0)}},
		"exact2": {{"3d6", dice("3d6", 3, engine.Exact, 0)}, {"4d6", dice("4d6", 4, engine.Exact, 0)}},
		"sim1":   {{"3d6", dice("3d6", 3, engine.Sim, 20000)}},
		"sim2":   {{"3d6", dice("3d6", 3, engine.Sim, 20000)}, {"4d6", dice("4d6", 4, engine.Sim, 20000)}},
	}
	for name, ss := range sets {
		for _, kind := range ChartKinds {
			series := ss
			if kind == "survival" {
				series = nil
				for i, s := range ss {
					series = append(series, ResultSeries{s.Label, process(s.Result.Engine, 0.5+0.2*float64(i))})
				}
			}
			for _, format := range PictureFormats {
				t.Run(name+"_"+kind+"_"+format, func(t *testing.T) {
					t.Parallel()
					c := &ResultChart{Kind: kind, Series: series}
					b, err := DrawPicture(format, func(w io.Writer) error { return WriteResultChart(w, c) })
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
// result, labelled as asked (the legend), and a simulated one carries the
// 95% interval of every point, around the point.
func TestResultChartSeries(t *testing.T) {
	t.Parallel()
	for _, kind := range []engine.Kind{engine.Exact, engine.Sim} {
		for _, plot := range []string{"pmf", "cdf", "atleast", "bands"} {
			c := &ResultChart{Kind: plot, Series: []ResultSeries{{"4d6kh3", dice("4d6kh3", 3, kind, 5000)}, {"3d6", dice("3d6", 3, kind, 5000)}}}
			l, err := c.lines()
			if err != nil {
				t.Fatalf("%s %s: %v", kind, plot, err)
			}
			var names []string
			for _, s := range l.Series {
				names = append(names, s.Name)
				if kind == engine.Exact {
					if s.Err != nil {
						t.Errorf("%s %s %s: exact values with intervals %v", kind, plot, s.Name, s.Err)
					}
					continue
				}
				if len(s.Err) != len(s.XY) || len(s.XY) == 0 {
					t.Errorf("%s %s %s: %d intervals for %d points", kind, plot, s.Name, len(s.Err), len(s.XY))
					continue
				}
				wide := false
				for i, e := range s.Err {
					if !(e[0] <= s.XY[i].Y+1e-12 && s.XY[i].Y <= e[1]+1e-12) {
						t.Errorf("%s %s %s: %g outside its interval %v", kind, plot, s.Name, s.XY[i].Y, e)
					}
					wide = wide || e[1]-e[0] > 1e-3
				}
				if !wide {
					t.Errorf("%s %s %s: intervals of no width at 5000 trials", kind, plot, s.Name)
				}
			}
			if !slices.Equal(names, []string{"4d6kh3", "3d6"}) {
				t.Errorf("%s %s: series %q; want 4d6kh3 and 3d6", kind, plot, names)
			}
			if kind == engine.Sim && !strings.Contains(l.Caption, "95% intervals") {
				t.Errorf("%s %s: the caption %q does not say what the error bars are", kind, plot, l.Caption)
			}
		}
	}
	// Drawn, the legend names both (an SVG keeps its texts).
	for _, kind := range []engine.Kind{engine.Exact, engine.Sim} {
		c := &ResultChart{Series: []ResultSeries{{"4d6kh3", dice("4d6kh3", 3, kind, 5000)}, {"3d6", dice("3d6", 3, kind, 5000)}}}
		b, err := DrawPicture("svg", func(w io.Writer) error { return WriteResultChart(w, c) })
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
	var many []ResultSeries
	for i := range ChartSeriesMax + 1 {
		many = append(many, ResultSeries{fmt.Sprint(i), d()})
	}
	cases := []struct {
		c    ResultChart
		want string
	}{
		{ResultChart{Kind: "histogram", Series: []ResultSeries{{"3d6", d()}}}, `--plot "histogram" is not one of`},
		{ResultChart{Kind: "survival", Series: []ResultSeries{{"3d6", d()}}}, "3d6 is not a process"},
		{ResultChart{Output: "damage", Series: []ResultSeries{{"3d6", d()}}}, `3d6 has no variable "damage"`},
		{ResultChart{Kind: "bands", Output: "damage", Series: []ResultSeries{{"3d6", d()}}}, `3d6 has no band "damage"`},
		{ResultChart{Kind: "bands", Series: []ResultSeries{{"a", d()}, {"b", other}}}, "other categories"},
		{ResultChart{Series: []ResultSeries{{"checks", events}}}, "no variable, band or process"},
		{ResultChart{Kind: "tail", Series: []ResultSeries{{"d1", dice("d1", 0, engine.Exact, 0)}}}, "no tail"},
		{ResultChart{Series: many}, "at most 12 series"},
	}
	for _, tc := range cases {
		b, err := DrawPicture("png", func(w io.Writer) error { return WriteResultChart(w, &tc.c) })
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
	if b, err := DrawPicture("svg", func(w io.Writer) error { _, err := io.WriteString(w, "a table"); return err }); err == nil || b != nil {
		t.Errorf("text drawn as an SVG: %q, %v", b, err)
	}
	if b, err := DrawPicture("pdf", func(w io.Writer) error { w.Write([]byte("%PDF-")); return errors.New("disk full") }); err == nil || b != nil {
		t.Errorf("a failed drawing: %q, %v", b, err)
	}
	if _, err := DrawPicture("jpg", func(io.Writer) error { return nil }); err == nil {
		t.Error("a JPEG was drawn")
	}
	r := dice("3d6", 3, engine.Exact, 0)
	for _, format := range PictureFormats {
		b, err := DrawPicture(format, func(w io.Writer) error { return WritePMF(w, r, &r.Vars[0]) })
		if err != nil || !IsPicture(b, format) {
			t.Errorf("WritePMF as %s: %v", format, err)
		}
		for _, other := range PictureFormats {
			if other != format && IsPicture(b, other) {
				t.Errorf("WritePMF as %s reads as %s too", format, other)
			}
		}
	}
}

// TestPictureFormat: the extension says the format, in any case; other
// picture formats are known as such.
func TestPictureFormat(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"x.png": "png", "out/X.SVG": "svg", "a.b.pdf": "pdf", "x.csv": "", "x": "", "png": "", "x.png.txt": ""} {
		if got := PictureFormat(name); got != want {
			t.Errorf("PictureFormat(%q) = %q; want %q", name, got, want)
		}
	}
	for name, want := range map[string]bool{"x.jpg": true, "x.JPEG": true, "x.gif": true, "x.png": false, "x.csv": false, "x": false} {
		if _, got := UndrawableExt(name); got != want {
			t.Errorf("UndrawableExt(%q) = %v; want %v", name, got, want)
		}
	}
}

// TestPDFText: a PDF's texts are written in its fonts' code page, so that
// "—" is a dash and not "â€”"; what the code page lacks is spelled in
// ASCII.
func TestPDFText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"3d6 — P(x ≥ 5)":    "3d6 \x97 P(x >= 5)",
		"é · ½ × …":         "\xe9 \xb7 \xbd \xd7 \x85",
		"Δ = B − A, x ≤ 2":  "D = B - A, x <= 2",
		"plain ascii 1e-06": "plain ascii 1e-06",
		"日":                 "?",
	} {
		if got := cp1252(in); got != want {
			t.Errorf("cp1252(%q) = %q; want %q", in, got, want)
		}
	}
}
