package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ChartKinds are what a chart of results draws (the --plot of exact, sim
// and compare): a variable's PMF, its CDF P(X ≤ x), its "at least" curve
// P(X ≥ x), its tail P(X > x) on a log scale, a process's survival S(t),
// or a band's categories.
var ChartKinds = []string{"pmf", "cdf", "atleast", "survival", "bands", "tail"}

// ChartSeriesMax is the most results one chart draws: beyond it the
// series can no longer be told apart (FamilyMax).
const ChartSeriesMax = FamilyMax

// tailFloor is where a tail chart of several results stops: P(X > x)
// below one in a million is drawn as nothing.
const tailFloor = 1e-6

// ResultSeries is one result of a chart of results, with the label it
// goes by: the rule's text of a one-liner ("4d6kh3"), a mechanic's id.
type ResultSeries struct {
	Label  string
	Result *engine.Result
}

// ResultChart is a chart of one or more results of the exact engine or
// the simulator, one series each: what it draws (Kind, one of ChartKinds;
// "" for DefaultChartKind of the first) of which output (Output: a
// variable or a band by name; "" for each result's primary variable, or
// the first band). Simulated results are drawn with their 95% (Wilson)
// intervals.
type ResultChart struct {
	Kind   string
	Output string
	Series []ResultSeries
	// Title, when set, names what the series are of in the title (a
	// sweep's mechanic, its series being its settings); by default the
	// series' labels do. Caption, when set, says what they were computed
	// with instead of each series' settings (a sweep's fixed ones).
	Title, Caption string
}

// DefaultChartKind is what a chart of r draws unless asked: the survival
// curve of a process, else the PMF of its primary variable, else its first
// band; "" when r has none of them (events only).
func DefaultChartKind(r *engine.Result) string {
	switch {
	case r.Process != nil && len(r.Process.Survival) > 0:
		return "survival"
	case len(r.Vars) > 0 && len(r.Vars[0].P) > 0:
		return "pmf"
	case len(r.Bands) > 0:
		return "bands"
	}
	return ""
}

// kind is what the chart draws.
func (c *ResultChart) kind() string {
	if c.Kind == "" && len(c.Series) > 0 {
		return DefaultChartKind(c.Series[0].Result)
	}
	return c.Kind
}

// sim reports a chart with a simulated series.
func (c *ResultChart) sim() bool {
	for _, s := range c.Series {
		if s.Result.Engine == engine.Sim {
			return true
		}
	}
	return false
}

// Check reports what makes the chart impossible to draw, as bad input
// (mechanics.IsInput): an unknown kind, too many series, an output a
// series lacks.
func (c *ResultChart) Check() error {
	if len(c.Series) == 0 {
		return fmt.Errorf("a chart needs a result to draw")
	}
	if len(c.Series) > ChartSeriesMax {
		return mechanics.Invalid("one chart draws at most %d series, got %d", ChartSeriesMax, len(c.Series))
	}
	if c.Kind != "" && !slices.Contains(ChartKinds, c.Kind) {
		return mechanics.Invalid("--plot %q is not one of %s", c.Kind, strings.Join(ChartKinds, ", "))
	}
	kind := c.kind()
	if kind == "" {
		return mechanics.Invalid("%s has no variable, band or process to draw (its events are in the table)", c.Series[0].Label)
	}
	switch kind {
	case "survival":
		if c.Output != "" {
			return mechanics.Invalid("--plot survival draws the process's time: leave out --var %s", c.Output)
		}
		var unit string
		for i, s := range c.Series {
			pr := s.Result.Process
			if pr == nil || len(pr.Survival) == 0 {
				return mechanics.Invalid("%s is not a process: it has no survival curve (try --plot pmf or atleast)", s.Label)
			}
			if i == 0 {
				unit = pr.TimeUnit
			} else if pr.TimeUnit != unit {
				return mechanics.Invalid("%s counts time in %ss, %s in %ss: their survival curves share no axis", c.Series[0].Label, unit, s.Label, pr.TimeUnit)
			}
		}
	case "bands":
		var labels []string
		for i, s := range c.Series {
			b, err := c.band(s)
			if err != nil {
				return err
			}
			if i == 0 {
				labels = b.Labels
			} else if !slices.Equal(b.Labels, labels) {
				return mechanics.Invalid("%s's band %s has other categories than %s's: they share no chart", s.Label, b.Name, c.Series[0].Label)
			}
		}
	default:
		for _, s := range c.Series {
			v, err := c.variable(s)
			if err != nil {
				return err
			}
			if kind == "tail" && !hasTail(v) {
				return mechanics.Invalid("%s's %s has no tail to draw: P(%s > x) is 0 or 1 at every value", s.Label, v.Name, v.Name)
			}
		}
	}
	return nil
}

// hasTail reports a variable with two values x where 0 < P(X > x).
func hasTail(v *engine.VarResult) bool {
	n := 0
	for i, t := range v.Tails() {
		if v.P[i] > 0 && t.Gt > 0 {
			n++
		}
	}
	return n >= 2
}

// variable is the variable a series draws: the one named Output, or its
// primary one.
func (c *ResultChart) variable(s ResultSeries) (*engine.VarResult, error) {
	r := s.Result
	var v *engine.VarResult
	if c.Output == "" {
		if len(r.Vars) > 0 {
			v = &r.Vars[0]
		}
	} else {
		v = r.Var(c.Output)
	}
	if v == nil || len(v.P) == 0 {
		var names []string
		for _, v := range r.Vars {
			names = append(names, v.Name)
		}
		what := "no variable"
		if len(names) > 0 {
			what = "the variables " + strings.Join(names, ", ")
		}
		if c.Output == "" {
			return nil, mechanics.Invalid("%s has no variable to draw a %s of (try --plot bands)", s.Label, c.kind())
		}
		return nil, mechanics.Invalid("%s has no variable %q to draw (it has %s)", s.Label, c.Output, what)
	}
	return v, nil
}

// band is the band a series draws: the one named Output, or its first.
func (c *ResultChart) band(s ResultSeries) (*engine.BandResult, error) {
	r := s.Result
	var names []string
	for i := range r.Bands {
		if c.Output == "" || r.Bands[i].Name == c.Output {
			return &r.Bands[i], nil
		}
		names = append(names, r.Bands[i].Name)
	}
	if len(names) == 0 {
		return nil, mechanics.Invalid("%s has no band to draw (try --plot pmf)", s.Label)
	}
	return nil, mechanics.Invalid("%s has no band %q (it has %s)", s.Label, c.Output, strings.Join(names, ", "))
}

// Labels are the names the chart's series go by in its legend.
func (c *ResultChart) Labels() []string {
	var ls []string
	for _, s := range c.Series {
		ls = append(ls, s.Label)
	}
	return ls
}

// named is the result of a chart of one series with what the chart
// names it by (its Title, or the series' label) as its mechanic, so that
// a one-liner's chart is titled by its rule ("4d6kh3"), not "expr".
func (c *ResultChart) named(s ResultSeries) *engine.Result {
	r := *s.Result
	if w := c.who(); w != "" {
		r.Mechanic = w
	}
	return &r
}

// who names the series of a chart for its title: "4d6kh3 vs 3d6", "a, b
// and c", "5 rules".
func (c *ResultChart) who() string {
	if c.Title != "" {
		return c.Title
	}
	ls := c.Labels()
	switch {
	case len(ls) == 1:
		return ls[0]
	case len(ls) == 2:
		return ls[0] + " vs " + ls[1]
	case len(ls) <= 4:
		return strings.Join(ls[:len(ls)-1], ", ") + " and " + ls[len(ls)-1]
	}
	return fmt.Sprintf("%d rules", len(ls))
}

// caption says what each series was computed with: once when they share
// it, else a line per series; notes come first.
func (c *ResultChart) caption(notes ...string) string {
	var lines []string
	for _, n := range notes {
		if n != "" {
			lines = append(lines, n)
		}
	}
	same := true
	for _, s := range c.Series[1:] {
		same = same && Caption(s.Result) == Caption(c.Series[0].Result)
	}
	switch {
	case c.Caption != "":
		lines = append(lines, c.Caption)
	case same:
		lines = append(lines, Caption(c.Series[0].Result))
	default:
		for _, s := range c.Series {
			lines = append(lines, s.Label+": "+strings.ReplaceAll(Caption(s.Result), "\n", "; "))
		}
	}
	return strings.Join(lines, "\n")
}

// intervalNote says what a simulated chart's error bars are.
func (c *ResultChart) intervalNote() string {
	if !c.sim() {
		return ""
	}
	return "error bars: 95% intervals (Wilson) of the simulated probabilities"
}

// WriteResultChart draws a chart of results (ResultChart) as a PNG (or in
// DrawPicture's format). One exact result is drawn as a bundle draws it
// (WritePMF, WriteAtLeast, WriteTail, WriteSurvival, WriteBands); several,
// or simulated ones, as an overlay (WriteLines) with a series per result,
// labelled, and the 95% intervals of simulated values as error bars; the
// bands of several exact results as one stacked bar each.
func WriteResultChart(w io.Writer, c *ResultChart) error {
	if err := c.Check(); err != nil {
		return err
	}
	kind := c.kind()
	one, sim := len(c.Series) == 1, c.sim()
	s0 := c.Series[0]
	if !sim {
		switch kind {
		case "pmf", "atleast", "tail":
			if one {
				v, _ := c.variable(s0)
				switch kind {
				case "pmf":
					return WritePMF(w, c.named(s0), v)
				case "atleast":
					return WriteAtLeast(w, c.named(s0), v)
				}
				return WriteTail(w, c.named(s0), v)
			}
		case "survival":
			if one {
				return WriteSurvival(w, c.named(s0))
			}
			var rs []*engine.Result
			same := true
			for _, s := range c.Series {
				rs = append(rs, s.Result)
				same = same && len(s.Result.Process.Survival) == len(s0.Result.Process.Survival)
			}
			if same {
				// (WriteSurvivalFamily draws up to the first's horizon.)
				return WriteSurvivalFamily(w, fmt.Sprintf("%s — chance it is still going after t", c.who()), c.caption(), c.Labels(), rs)
			}
		case "bands":
			b, _ := c.band(s0)
			var rs []*engine.Result
			for _, s := range c.Series {
				rs = append(rs, s.Result)
			}
			return WriteBands(w, fmt.Sprintf("%s — %s", c.who(), words(b.Name)), c.caption(), c.Labels(), rs, b.Name)
		}
	}
	if kind == "tail" {
		return c.writeTails(w)
	}
	l, err := c.lines()
	if err != nil {
		return err
	}
	return WriteLines(w, l)
}

// lines is the overlay a chart of several (or simulated) results draws.
func (c *ResultChart) lines() (*Lines, error) {
	switch kind := c.kind(); kind {
	case "survival":
		return c.survivalLines(), nil
	case "bands":
		return c.bandLines()
	default:
		return c.variableLines(kind)
	}
}

// seriesAxis names the x axis of the series' variables vs: the variable with
// its unit when they share it, else their names joined.
func seriesAxis(vs []*engine.VarResult) (label, name string, shared bool) {
	label, name = axisLabel(vs[0]), words(vs[0].Name)
	for _, v := range vs[1:] {
		if axisLabel(v) != label {
			var ns []string
			for _, v := range vs {
				if n := axisLabel(v); !slices.Contains(ns, n) {
					ns = append(ns, n)
				}
			}
			return strings.Join(ns, " / "), "X", false
		}
	}
	return label, name, true
}

// variableLines draws each series' variable as a line of its PMF, CDF or
// "at least" probabilities at the values it takes, with intervals for a
// simulation.
func (c *ResultChart) variableLines(kind string) (*Lines, error) {
	var vs []*engine.VarResult
	for _, s := range c.Series {
		v, err := c.variable(s)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	xl, name, shared := seriesAxis(vs)
	var metric, what string
	switch kind {
	case "pmf":
		// Not "P(…)": an overlay fixes a probability axis to [0, 1], which
		// would flatten a PMF.
		metric, what = fmt.Sprintf("probability that %s = x", name), "distribution of "+name
	case "cdf":
		metric, what = fmt.Sprintf("P(%s ≤ x)", name), "chance of at most x"
	case "atleast":
		metric, what = fmt.Sprintf("P(%s ≥ x)", name), "chance of at least x"
	default:
		return nil, fmt.Errorf("no overlay draws %q", kind)
	}
	l := &Lines{Title: c.who() + " — " + what, XLabel: "x = " + xl, Metric: metric}
	var notes []string
	for i, s := range c.Series {
		v := vs[i]
		lo, hi, cut := shownRange(v.P)
		if cut > 0 {
			notes = append(notes, fmt.Sprintf("%s: values outside %s … %s (together P = %.2g) are not drawn", s.Label, VarValue(v, lo), VarValue(v, hi), cut))
		}
		if v.Undefined > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s (P = %.4g) is not drawn", s.Label, v.UndefinedLabel, v.Undefined))
		}
		var n, below int64
		if v.Counts != nil {
			n = v.UndefinedCount
			for _, k := range v.Counts {
				n += k
			}
		}
		se := Series{Name: s.Label}
		if !shared {
			se.Name += " (" + words(v.Name) + ")"
		}
		for j, t := range v.Tails() {
			var k int64
			if v.Counts != nil {
				k = v.Counts[j]
			}
			if j < lo || j > hi || v.P[j] == 0 {
				below += k
				continue
			}
			var y float64
			var kk int64
			switch kind {
			case "pmf":
				y, kk = v.P[j], k
			case "cdf":
				y, kk = t.Le, below+k
			case "atleast":
				y, kk = t.Ge, n-below
			}
			below += k
			se.XY = append(se.XY, XY{X: v.Value(j), Y: y})
			if v.Counts != nil {
				se.Err = append(se.Err, engine.Wilson(kk, n))
			}
		}
		l.Series = append(l.Series, se)
	}
	if c.sim() {
		notes = append(notes, c.intervalNote())
	}
	l.Caption = c.caption(notes...)
	return l, nil
}

// survivalLines draws each process's S(t) up to the last t where one is
// still above 0.001, with intervals for a simulation.
func (c *ResultChart) survivalLines() *Lines {
	pr0 := c.Series[0].Result.Process
	u := unit(pr0.TimeUnit)
	last := 0
	for _, s := range c.Series {
		for t, p := range s.Result.Process.Survival {
			if p >= 1e-3 || t < 5 {
				last = max(last, t)
			}
		}
	}
	l := &Lines{Title: fmt.Sprintf("%s — chance it is still going after t %ss", c.who(), u), XLabel: fmt.Sprintf("t (%ss)", u),
		Metric: "P(T > t), still going after t"}
	var notes []string
	for _, s := range c.Series {
		r := s.Result
		se := Series{Name: s.Label}
		for t, p := range r.Process.Survival {
			if t > last+1 {
				every := "every curve is"
				if len(c.Series) == 1 {
					every = "S(t) is"
				}
				notes = append(notes, fmt.Sprintf("drawn up to t = %d, beyond which %s below 0.001", last+1, every))
				break
			}
			se.XY = append(se.XY, XY{X: float64(t), Y: p})
			if r.Engine == engine.Sim && r.Trials > 0 {
				se.Err = append(se.Err, engine.Wilson(int64(math.Round(p*float64(r.Trials))), r.Trials))
			}
		}
		l.Series = append(l.Series, se)
	}
	if len(notes) > 0 {
		notes = notes[:1]
	}
	notes = append(notes, c.intervalNote())
	l.Caption = c.caption(notes...)
	return l
}

// bandLines draws each series' band as points over its categories, side
// by side, with intervals for a simulation.
func (c *ResultChart) bandLines() (*Lines, error) {
	b0, err := c.band(c.Series[0])
	if err != nil {
		return nil, err
	}
	l := &Lines{Title: fmt.Sprintf("%s — %s", c.who(), words(b0.Name)), XLabel: words(b0.Name),
		Metric: "P(" + words(b0.Name) + ")", XLabels: b0.Labels}
	for _, s := range c.Series {
		b, err := c.band(s)
		if err != nil {
			return nil, err
		}
		se := Series{Name: s.Label}
		for k, p := range b.P {
			se.XY = append(se.XY, XY{X: float64(k), Y: p})
			if s.Result.Engine == engine.Sim && k < len(b.CI) {
				se.Err = append(se.Err, b.CI[k])
			}
		}
		l.Series = append(l.Series, se)
	}
	l.Caption = c.caption(c.intervalNote())
	return l, nil
}

// writeTails draws P(X > x) of each series on a log scale down to
// tailFloor, a step line per series, with intervals for a simulation.
func (c *ResultChart) writeTails(w io.Writer) error {
	var vs []*engine.VarResult
	for _, s := range c.Series {
		v, err := c.variable(s)
		if err != nil {
			return err
		}
		vs = append(vs, v)
	}
	xl, name, shared := seriesAxis(vs)
	p := newPlot(fmt.Sprintf("%s — the tail of %s: P(%s > x), log scale", c.who(), name, name), "x = "+xl, fmt.Sprintf("P(%s > x)", name))
	type tailPts struct {
		xy  []XY
		err [][2]float64
	}
	all := make([]tailPts, len(vs))
	low, integer, cut := 1.0, true, false
	for i, v := range vs {
		var n, below int64
		if v.Counts != nil {
			n = v.UndefinedCount
			for _, k := range v.Counts {
				n += k
			}
		}
		for j, t := range v.Tails() {
			if v.Counts != nil {
				below += v.Counts[j]
			}
			if v.P[j] == 0 || !(t.Gt >= tailFloor) {
				cut = cut || (v.P[j] > 0 && t.Gt > 0)
				continue
			}
			all[i].xy = append(all[i].xy, XY{X: v.Value(j), Y: t.Gt})
			if v.Counts != nil {
				all[i].err = append(all[i].err, engine.Wilson(n-below, n))
			}
			low = math.Min(low, t.Gt)
		}
		integer = integer && v.Den <= 1
	}
	yMin := math.Pow(10, math.Floor(math.Log10(low)))
	var legend []legendEntry
	for i, s := range c.Series {
		pts := all[i].xy
		if len(pts) == 0 {
			continue
		}
		sort.Slice(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
		line, err := plotter.NewLine(plotXYs(pts))
		if err != nil {
			return err
		}
		line.StepStyle = plotter.PostStep
		line.Color = seriesColors[i%len(seriesColors)]
		line.Dashes = seriesDashes[i%len(seriesDashes)]
		line.Width = vg.Points(math.Max(1.2, 3.2-0.7*float64(i)))
		p.Add(line)
		if all[i].err != nil {
			ci := make([][2]float64, len(all[i].err))
			for j, e := range all[i].err {
				ci[j] = [2]float64{math.Max(e[0], yMin), math.Max(e[1], yMin)}
			}
			if err := addErrorBars(p, i, pts, ci, 0); err != nil {
				return err
			}
		}
		label := s.Label
		if !shared {
			label += " (" + words(vs[i].Name) + ")"
		}
		legend = append(legend, legendEntry{name: label, thumbs: []plot.Thumbnailer{line}})
	}
	if len(c.Series) == 1 {
		legend = nil
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = decadeTicks{}
	p.Y.Min, p.Y.Max = yMin, 1
	p.X.Tick.Marker = latticeTicks{den: 1, integer: integer}
	notes := []string{c.intervalNote()}
	if cut {
		notes = append([]string{fmt.Sprintf("drawn down to P = %g: the rest of the tail is not", tailFloor)}, notes...)
	}
	return (&figure{plot: p, caption: c.caption(notes...), legend: legend}).write(w)
}
