package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// ChartKinds are what a chart of results draws (the --plot of exact, sim
// and compare): a variable's PMF, its CDF P(X ≤ x), its "at least" curve
// P(X ≥ x), its tail P(X > x) on a log scale, a process's survival S(t),
// or a band's categories.
var ChartKinds = []string{"pmf", "cdf", "atleast", "survival", "bands", "tail"}

// ChartSeriesMax is the most results one chart draws: beyond it the
// series can no longer be told apart (FamilyMax).
const ChartSeriesMax = FamilyMax

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
		lines = append(lines, tidyCaption(Caption(c.Series[0].Result)))
	default:
		for _, s := range c.Series {
			lines = append(lines, s.Label+": "+strings.ReplaceAll(tidyCaption(Caption(s.Result)), "\n", "; "))
		}
	}
	return strings.Join(lines, "\n")
}

// tidyCaption drops the empty part Caption leaves for a result without
// parameters (a one-liner's "exact · ", "sim ·  · n=…").
func tidyCaption(s string) string {
	s = strings.ReplaceAll(s, " ·  · ", " · ")
	lines := strings.Split(s, "\n")
	lines[0] = strings.TrimSuffix(strings.TrimRight(lines[0], " "), " ·")
	return strings.Join(lines, "\n")
}

// WriteResultChart draws a chart of results (ResultChart) as a PNG (or in
// DrawPicture's format), by the package's drawing rule. One result is
// drawn as a bundle draws it (WritePMF, WriteAtLeast, WriteTail,
// WriteSurvival, WriteBands; its CDF as steps); several, each in its own
// colour and labelled: their PMFs as markers (WriteLines), their
// cumulative probabilities as steps, their bands as a stacked bar each,
// their survival curves as a family. Simulated values carry their 95%
// intervals.
func WriteResultChart(w io.Writer, c *ResultChart) error {
	if err := c.Check(); err != nil {
		return err
	}
	kind := c.kind()
	s0 := c.Series[0]
	var rs []*engine.Result
	for _, s := range c.Series {
		rs = append(rs, s.Result)
	}
	if len(c.Series) == 1 {
		v, _ := c.variable(s0)
		switch kind {
		case "pmf":
			return WritePMF(w, c.named(s0), v)
		case "atleast":
			return WriteAtLeast(w, c.named(s0), v)
		case "tail":
			return WriteTail(w, c.named(s0), v)
		case "survival":
			return WriteSurvival(w, c.named(s0))
		}
	}
	switch kind {
	case "bands":
		b, _ := c.band(s0)
		return WriteBands(w, fmt.Sprintf("%s — %s", c.who(), words(b.Name)), c.caption(), c.Labels(), rs, b.Name)
	case "survival":
		same := true
		for _, r := range rs {
			same = same && len(r.Process.Survival) == len(s0.Result.Process.Survival)
		}
		if same {
			// (WriteSurvivalFamily draws up to the first's horizon.)
			return WriteSurvivalFamily(w, fmt.Sprintf("%s — chance it is still going after t", c.who()), c.caption(), c.Labels(), rs)
		}
		return c.writeSteps(w, kind)
	case "pmf":
		l, err := c.pmfLines()
		if err != nil {
			return err
		}
		return WriteLines(w, l)
	}
	return c.writeSteps(w, kind)
}

// seriesAxis names the x axis of the series' variables vs: the variable
// with its unit when they share it, else their names joined.
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

// variables are the variables the series draw, and their x axis.
func (c *ResultChart) variables() (vs []*engine.VarResult, label, name string, shared bool, err error) {
	for _, s := range c.Series {
		v, err := c.variable(s)
		if err != nil {
			return nil, "", "", false, err
		}
		vs = append(vs, v)
	}
	label, name, shared = seriesAxis(vs)
	return vs, label, name, shared, nil
}

// trialsOf is the number of trials a simulated variable's probabilities
// are counted over (those of its condition, for a conditional one); 0 for
// an exact one.
func trialsOf(v *engine.VarResult) int64 {
	if v.Counts == nil {
		return 0
	}
	n := v.UndefinedCount
	for _, k := range v.Counts {
		n += k
	}
	return n
}

// pmfLines is the overlay of several results' PMFs: a marker at each
// value a series takes (joined by a guide), with its 95% interval for a
// simulation.
func (c *ResultChart) pmfLines() (*Lines, error) {
	vs, xl, name, shared, err := c.variables()
	if err != nil {
		return nil, err
	}
	// Not "P(…)": an overlay fixes a probability axis to [0, 1], which
	// would flatten a PMF.
	l := &Lines{Title: c.who() + " — distribution of " + name, XLabel: "x = " + xl, Metric: fmt.Sprintf("probability that %s = x", name)}
	var notes []string
	var trials int64
	for i, s := range c.Series {
		v := vs[i]
		lo, hi, cut := shownRange(v.P)
		notes = append(notes, c.varNotes(s, v, lo, hi, cut)...)
		n := trialsOf(v)
		trials = max(trials, n)
		se := Series{Name: s.Label}
		if !shared {
			se.Name += " (" + words(v.Name) + ")"
		}
		for j := lo; j <= hi; j++ {
			if v.P[j] == 0 {
				continue
			}
			se.XY = append(se.XY, XY{X: v.Value(j), Y: v.P[j]})
			if n > 0 {
				se.Err = append(se.Err, engine.Wilson(v.Counts[j], n))
			}
		}
		l.Series = append(l.Series, se)
	}
	if trials > 0 {
		notes = append(notes, intervalsNote(trials, 0))
	}
	l.Caption = c.caption(notes...)
	return l, nil
}

// varNotes are a series' caption lines about its variable: the values
// not drawn, the mass where it is undefined.
func (c *ResultChart) varNotes(s ResultSeries, v *engine.VarResult, lo, hi int, cut float64) []string {
	who := ""
	if len(c.Series) > 1 {
		who = s.Label + ": "
	}
	var notes []string
	if cut > 0 {
		notes = append(notes, fmt.Sprintf("%svalues outside %s … %s (together P = %.2g) are not drawn", who, VarValue(v, lo), VarValue(v, hi), cut))
	}
	if v.Undefined > 0 {
		notes = append(notes, fmt.Sprintf("%s%s (P = %.4g) is not drawn", who, v.UndefinedLabel, v.Undefined))
	}
	return notes
}

// cumulative is one series of a step chart: its points and, for a
// simulation, their intervals.
type cumulative struct {
	xy []XY
	ci [][2]float64
	n  int64
}

// varSteps are a variable's P(X ≤ x) (cdf), P(X ≥ x) (atleast) or
// P(X > x) (tail, down to TailFloor: below says it went lower) at the
// values it takes, with Wilson intervals from a simulation's counts.
func varSteps(v *engine.VarResult, kind string) (cum cumulative, below bool) {
	lo, hi, _ := shownRange(v.P)
	if kind == "tail" {
		lo, hi = 0, len(v.P)-1
	}
	cum.n = trialsOf(v)
	var under int64 // the trials below the value
	for j, t := range v.Tails() {
		var k int64
		if v.Counts != nil {
			k = v.Counts[j]
		}
		in := j >= lo && j <= hi && v.P[j] > 0
		var y float64
		var kk int64
		switch kind {
		case "cdf":
			y, kk = t.Le, under+k
		case "atleast":
			y, kk = t.Ge, cum.n-under
		case "tail":
			y, kk = t.Gt, cum.n-under-k
			if in && !(y >= TailFloor) {
				below = below || y > 0
				in = false
			}
		}
		under += k
		if !in {
			continue
		}
		cum.xy = append(cum.xy, XY{X: v.Value(j), Y: y})
		if cum.n > 0 {
			cum.ci = append(cum.ci, engine.Wilson(kk, cum.n))
		}
	}
	return cum, below
}

// survivalSteps is a process's S(t), with intervals for a simulation.
func survivalSteps(r *engine.Result, last int) cumulative {
	var cum cumulative
	for t, p := range r.Process.Survival {
		if t > last {
			break
		}
		cum.xy = append(cum.xy, XY{X: float64(t), Y: p})
	}
	if r.Engine == engine.Sim && r.Trials > 0 {
		cum.n = r.Trials
		cum.ci = wilsonAll(ysOf(cum.xy), r.Trials)
	}
	return cum
}

// writeSteps draws the results' cumulative probabilities — P(X ≤ x),
// P(X ≥ x), P(X > x) on a log scale down to TailFloor, or S(t) — as step
// functions, one series per result in its own colour and marker, with the
// 95% intervals of simulated values.
func (c *ResultChart) writeSteps(w io.Writer, kind string) error {
	var title, xl, yl string
	var cums []cumulative
	var notes []string
	var names []string
	integer, below := true, false
	step := plotter.PostStep
	if kind == "survival" {
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
		last++
		title, xl, yl = fmt.Sprintf("%s — chance it is still going after t %ss", c.who(), u), fmt.Sprintf("t (%ss)", u), "S(t) = P(T > t)"
		for _, s := range c.Series {
			cums = append(cums, survivalSteps(s.Result, last))
			names = append(names, s.Label)
			if len(s.Result.Process.Survival) > last+1 {
				below = true
			}
		}
		if below {
			notes = append(notes, fmt.Sprintf("drawn up to t = %d, beyond which every curve is below 0.001", last))
		}
	} else {
		vs, label, name, shared, err := c.variables()
		if err != nil {
			return err
		}
		xl = "x = " + label
		switch kind {
		case "cdf":
			title, yl = c.who()+" — chance of at most x", fmt.Sprintf("P(%s ≤ x)", name)
		case "atleast":
			title, yl, step = c.who()+" — chance of at least x", fmt.Sprintf("P(%s ≥ x)", name), plotter.PreStep
		case "tail":
			title, yl = fmt.Sprintf("%s — the tail of %s: P(%s > x), log scale", c.who(), name, name), fmt.Sprintf("P(%s > x)", name)
		default:
			return fmt.Errorf("no step chart draws %q", kind)
		}
		for i, s := range c.Series {
			v := vs[i]
			cum, b := varSteps(v, kind)
			below = below || b
			cums = append(cums, cum)
			integer = integer && v.Den <= 1
			label := s.Label
			if !shared {
				label += " (" + words(v.Name) + ")"
			}
			names = append(names, label)
			if kind != "tail" {
				lo, hi, cut := shownRange(v.P)
				notes = append(notes, c.varNotes(s, v, lo, hi, cut)...)
			}
		}
		if below {
			notes = append(notes, fmt.Sprintf("drawn down to P = %s; the chances beyond are smaller still", decadeLabel(TailFloor)))
		}
	}
	p := newPlot(title, xl, yl)
	spec := PanelSpec{Kind: kind}
	var legend []legendEntry
	var trials int64
	points, low := 0, 1.0
	for i, cum := range cums {
		d := seriesDraw{name: names[i], xy: cum.xy, ci: cum.ci, look: lookOf(i, len(cums)), step: step, sim: cum.n > 0, logY: kind == "tail"}
		thumbs, ss, err := addSeries(p, d)
		if err != nil {
			return err
		}
		spec.Series = append(spec.Series, ss)
		legend = append(legend, legendEntry{name: names[i], thumbs: thumbs})
		trials = max(trials, cum.n)
		points = max(points, len(cum.xy))
		for _, q := range cum.xy {
			if q.Y > 0 {
				low = math.Min(low, q.Y)
			}
		}
	}
	if len(cums) == 1 {
		legend = nil // the axis says it
	}
	if kind == "tail" {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = decadeTicks{}
		p.Y.Min, p.Y.Max = math.Max(TailFloor, math.Pow(10, math.Floor(math.Log10(low)))), 1
	} else {
		probAxis(&p.Y)
	}
	if kind == "survival" {
		p.X.Min = 0
	}
	p.X.Tick.Marker = latticeTicks{den: 1, integer: integer}
	if trials > 0 {
		notes = append(notes, intervalsNote(trials, points))
	}
	return (&figure{plot: p, caption: c.caption(notes...), legend: legend, spec: spec}).write(w)
}
