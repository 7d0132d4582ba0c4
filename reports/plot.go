package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plot sizes: the width of every figure and the height of its plot; the
// legend, colour bar and caption are added below (see figure).
const (
	plotW = 8 * vg.Inch
	plotH = 5 * vg.Inch
)

// The colours of a single distribution: Okabe & Ito's blue bars, the mean
// in their vermillion.
var (
	barColor  = okabeIto[0]
	meanColor = okabeIto[1]
)

// Caption is the description of what a result was computed with, for plot
// captions: the engine, the rule and the parameters on one line, the
// options on the next (option names shortened to what --set accepts), by
// the rule of caption.go. Figures wrap each line to their width.
func Caption(r *engine.Result) string { return resultCaption(r) }

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Label.TextStyle.Font.Size = vg.Points(12)
	p.Y.Label.TextStyle.Font.Size = vg.Points(12)
	p.Add(plotter.NewGrid())
	return p
}

// words writes an identifier in words: "success_or_cost" → "success or cost".
func words(id string) string { return strings.ReplaceAll(id, "_", " ") }

// metricWords names a metric (engine.ParseMetric) in words:
// "event:success" → "P(success)", "mean:damage" with unit "wounds" → "mean
// damage (wounds)", "p:damage<=5" → "P(damage ≤ 5)", "quantile:damage:0.9"
// → "90th percentile of damage (wounds)", a sum → its terms joined by " +
// ". The unit is that of the variables the metric reads, said once at the
// end. prob reports a single probability (event, band or p:); ok is false
// for a string that is not a metric (returned as it is).
func metricWords(metric, unit string) (label string, prob, ok bool) {
	m, err := engine.ParseMetric(metric)
	if err != nil {
		return metric, false, false
	}
	var ws []string
	valued := false
	for _, t := range m.Terms {
		ws = append(ws, termWords(t))
		valued = valued || (t.Kind != "event" && t.Kind != "band" && t.Kind != "p")
	}
	label = strings.Join(ws, " + ")
	if valued && unit != "" {
		label += " (" + unit + ")"
	}
	return label, len(m.Terms) == 1 && m.Probability(), true
}

// termWords says one term of a metric in words, without a unit.
func termWords(t engine.Term) string {
	name := words(t.Name)
	switch t.Kind {
	case "event":
		return "P(" + name + ")"
	case "band":
		return "P(" + name + " = " + t.Label + ")"
	case "mean":
		return "mean " + name
	case "sd":
		return "SD of " + name
	case "p":
		op := map[string]string{"<=": "≤", ">=": "≥"}[t.Op]
		if op == "" {
			op = t.Op
		}
		return "P(" + name + " " + op + " " + strconv.FormatFloat(t.X, 'f', -1, 64) + ")"
	case "quantile":
		if t.X == 0.5 {
			return "median " + name
		}
		return percentile(t.X) + " percentile of " + name
	}
	return t.Kind + ":" + t.Name
}

// percentile names the level q of a quantile as a percentile: 0.9 →
// "90th", 0.01 → "1st", 0.975 → "97.5th".
func percentile(q float64) string {
	pc := math.Round(q*100*1e9) / 1e9
	s := strconv.FormatFloat(pc, 'f', -1, 64)
	if pc != math.Trunc(pc) {
		return s + "th"
	}
	switch n := int(pc); {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

// MetricLabel names a metric of r in words for an axis or a legend:
// "event:success" → "P(success)", "mean:damage" → "mean damage (wounds)",
// "quantile:damage:0.9" → "90th percentile of damage (wounds)" (the unit is
// the variable's). Anything else is returned as it is.
func MetricLabel(r *engine.Result, metric string) string {
	l, _, _ := metricWords(metric, MetricUnit(r, metric))
	return l
}

// MetricUnit is the unit of the values a metric of r reads: that of the
// variable of a mean, an SD or a quantile ("wounds"), when every such term
// of it shares one; "" for probabilities, variables without a unit, terms
// of different units, or no result.
func MetricUnit(r *engine.Result, metric string) string {
	m, err := engine.ParseMetric(metric)
	if err != nil || r == nil {
		return ""
	}
	unit, seen := "", false
	for _, t := range m.Terms {
		if t.Kind == "event" || t.Kind == "band" || t.Kind == "p" {
			continue
		}
		u := ""
		if v := r.Var(t.Name); v != nil {
			u = v.Unit
		}
		if seen && u != unit {
			return ""
		}
		unit, seen = u, true
	}
	return unit
}

// retitle makes a title say what is plotted. A bare identifier (a plan's
// name for a chart, with no spaces) is replaced by "WHAT by AXES"; otherwise
// a metric written as event:NAME or mean:VAR becomes WHAT, and " by AXES" is
// added when the title does not say it already. The identifier returned,
// if any, belongs in the caption.
func retitle(title, metric, what string, axes ...string) (string, string) {
	by := what + " by " + strings.Join(axes, " and ")
	if title == "" {
		return by, ""
	}
	if !strings.ContainsAny(title, " \t") {
		return by, title
	}
	if metric != "" && strings.Contains(title, metric) {
		title = strings.Replace(title, metric, what, 1)
		if !strings.Contains(title, " by ") {
			title += " by " + strings.Join(axes, " and ")
		}
	}
	return title, ""
}

// WritePMF draws a variable's PMF as bars with the mean marked. Bars stand
// on the variable's lattice (halves, thirds …) with half a bar of room at
// each end; a long support loses its far tails (together less than 0.05%),
// and the caption says so. Simulated bars carry their 95% intervals.
func WritePMF(w io.Writer, r *engine.Result, v *engine.VarResult) error {
	p := newPlot(fmt.Sprintf("%s — distribution of %s", r.Mechanic, axisLabel(v)), axisLabel(v), fmt.Sprintf("P(%s = x)", words(v.Name)))
	den := float64(max(v.Den, 1))
	lo, hi, cut := shownRange(v.P)
	bars := &latticeBars{x0: float64(v.Lo + lo), p: v.P[lo : hi+1], half: 0.4, color: barColor}
	if v.Xs != nil {
		// Values held one by one (a quotient by a die): bars at the
		// values, on an axis of values, as wide as the closest two allow.
		den = 1
		bars.xs = make([]float64, hi-lo+1)
		for i := range bars.xs {
			bars.xs[i] = v.Value(lo + i)
		}
		gap := math.Inf(1)
		for i := 1; i < len(bars.xs); i++ {
			gap = math.Min(gap, bars.xs[i]-bars.xs[i-1])
		}
		if !math.IsInf(gap, 1) {
			bars.half = 0.4 * gap
		}
	}
	p.Add(bars)
	top := maxOf(bars.p)
	sim := r.Engine == engine.Sim && r.Trials > 0
	spec := seriesSpec(fmt.Sprintf("P(%s = x)", words(v.Name)), "bars", bars.xy(), false, barColor, false)
	spec.Simulated = sim
	caption := Caption(r)
	if sim {
		ci := wilsonAll(bars.p, r.Trials)
		wk := &whiskers{color: color.Black}
		for i, c := range ci {
			if bars.p[i] > 0 || c[1] > 0 {
				wk.xs, wk.lo, wk.hi = append(wk.xs, bars.x(i)), append(wk.lo, c[0]), append(wk.hi, c[1])
				top = math.Max(top, c[1])
			}
		}
		p.Add(wk)
		spec.Intervals = true
		caption = intervalsNote(r.Trials, 0) + "\n" + caption
	}
	ml, err := plotter.NewLine(plotter.XYs{{X: v.Stats.Mean * den, Y: 0}, {X: v.Stats.Mean * den, Y: top * 1.04}})
	if err != nil {
		return err
	}
	ml.Color = meanColor
	ml.Width = vg.Points(2)
	ml.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(ml)
	p.X.Min, p.X.Max = bars.x(0)-bars.room(), bars.x(len(bars.p)-1)+bars.room()
	p.X.Tick.Marker = latticeTicks{den: den, integer: v.Xs == nil}
	p.Y.Min, p.Y.Max = 0, top*1.06
	p.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, false, 6) })
	if cut > 0 {
		caption = fmt.Sprintf("values outside %s … %s (together P = %.2g) are not drawn\n", VarValue(v, lo), VarValue(v, hi), cut) + caption
	}
	if v.Undefined > 0 {
		caption = fmt.Sprintf("%s (P = %.4g) is not drawn; the mean is over the rest\n", v.UndefinedLabel, v.Undefined) + caption
	}
	legend := []legendEntry{
		{name: fmt.Sprintf("P(%s = x)", words(v.Name)), thumbs: []plot.Thumbnailer{swatch{barColor}}},
		{name: fmt.Sprintf("mean %s, sd %s", num3(v.Stats.Mean), num3(v.Stats.SD)), thumbs: []plot.Thumbnailer{ml}},
	}
	if sim {
		legend = append(legend, legendEntry{name: "95% interval", thumbs: []plot.Thumbnailer{&whiskers{color: color.Black}}})
	}
	f := &figure{plot: p, caption: caption, legend: legend, spec: PanelSpec{Kind: "pmf", Series: []SeriesSpec{spec}}}
	return f.write(w)
}

// latticeXY is the points of a PMF on lattice units x0, x0+1, ….
func latticeXY(x0 float64, p []float64) []XY {
	xy := make([]XY, len(p))
	for i, q := range p {
		xy[i] = XY{X: x0 + float64(i), Y: q}
	}
	return xy
}

// num3 prints a statistic with three decimals, without float noise.
func num3(x float64) string { return fmt.Sprintf("%.3f", x) }

// shownRange is the part of a PMF worth drawing: from the first to the last
// value with a positive probability, and on a long support (more than 40
// values) without far tails that hold together less than 0.05%. cut is the
// probability left out.
func shownRange(p []float64) (lo, hi int, cut float64) {
	lo, hi = 0, len(p)-1
	for lo < hi && p[lo] == 0 {
		lo++
	}
	for hi > lo && p[hi] == 0 {
		hi--
	}
	if hi-lo+1 <= 40 {
		return lo, hi, 0
	}
	const tail = 0.00025 // per side
	left, right := 0.0, 0.0
	for lo < hi && left+p[lo] < tail {
		left += p[lo]
		lo++
	}
	for hi > lo && right+p[hi] < tail {
		right += p[hi]
		hi--
	}
	return lo, hi, left + right
}

// latticeBars draws bars at the lattice units x0, x0+1, … (or at xs, when
// not nil) with half-width half, in data units, so that their width
// follows the axis.
type latticeBars struct {
	x0, half float64
	xs       []float64
	p        []float64
	color    color.Color
}

// x is where bar i stands.
func (b *latticeBars) x(i int) float64 {
	if b.xs != nil {
		return b.xs[i]
	}
	return b.x0 + float64(i)
}

// room is the axis's margin beyond the outer bars: half a lattice unit,
// or a bar's width.
func (b *latticeBars) room() float64 {
	if b.xs != nil {
		return 2 * b.half
	}
	return 0.5
}

// xy is the bars' points.
func (b *latticeBars) xy() []XY {
	if b.xs == nil {
		return latticeXY(b.x0, b.p)
	}
	xy := make([]XY, len(b.p))
	for i, q := range b.p {
		xy[i] = XY{X: b.xs[i], Y: q}
	}
	return xy
}

func (b *latticeBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	c.SetColor(b.color)
	minW := vg.Points(0.75)
	for i, p := range b.p {
		if p <= 0 {
			continue
		}
		x := b.x(i)
		x0, x1 := trX(x-b.half), trX(x+b.half)
		if x1-x0 < minW {
			mid := (x0 + x1) / 2
			x0, x1 = mid-minW/2, mid+minW/2
		}
		r := vg.Rectangle{Min: vg.Point{X: x0, Y: trY(0)}, Max: vg.Point{X: x1, Y: trY(p)}}
		c.Fill(r.Path())
	}
}

func (b *latticeBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	if len(b.p) == 0 {
		return b.x0 - 0.5, b.x0 + 0.5, 0, 0
	}
	return b.x(0) - b.room(), b.x(len(b.p)-1) + b.room(), 0, maxOf(b.p)
}

// latticeTicks labels an axis in lattice units u with the values u/den:
// labelled ticks at round values that are on the lattice (whole numbers for
// thirds), an unlabelled one at every lattice point when they are few;
// integer keeps an axis of whole values on whole numbers.
type latticeTicks struct {
	den     float64
	integer bool
}

func (s latticeTicks) Ticks(lo, hi float64) []plot.Tick {
	if s.den <= 1 {
		return niceTicks(lo, hi, s.integer, 12)
	}
	var ts []plot.Tick
	for _, t := range niceTicks(lo/s.den, hi/s.den, false, 12) {
		if t.Label == "" {
			continue
		}
		if u := t.Value * s.den; math.Abs(u-math.Round(u)) > 1e-9 {
			// Off the lattice (0.5 on thirds): whole numbers instead.
			return s.whole(lo, hi)
		}
		t.Value *= s.den
		ts = append(ts, t)
	}
	return append(ts, s.minor(lo, hi, ts)...)
}

// whole labels the whole numbers in [lo, hi] (lattice units), thinned to
// about a dozen.
func (s latticeTicks) whole(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for _, t := range niceTicks(lo/s.den, hi/s.den, true, 12) {
		if t.Label != "" {
			t.Value *= s.den
			ts = append(ts, t)
		}
	}
	return append(ts, s.minor(lo, hi, ts)...)
}

// minor marks every lattice point of [lo, hi] that has no label, when there
// are at most 80 of them.
func (s latticeTicks) minor(lo, hi float64, major []plot.Tick) []plot.Tick {
	if hi-lo > 80 {
		return nil
	}
	labelled := map[int]bool{}
	for _, t := range major {
		labelled[int(math.Round(t.Value))] = true
	}
	var ts []plot.Tick
	for u := math.Ceil(lo); u <= hi; u++ {
		if !labelled[int(u)] {
			ts = append(ts, plot.Tick{Value: u})
		}
	}
	return ts
}

// niceTicks puts at most about n labelled ticks on [lo, hi] at multiples of
// 1, 2 or 5 × 10^k, with unlabelled ticks between; integer keeps them all on
// whole numbers (an axis of counts never reads 2.5).
func niceTicks(lo, hi float64, integer bool, n int) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: num(lo)}}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if integer && step < 1 {
		step = 1
	}
	minor := step / 5
	if step/mag == 2 {
		minor = step / 2
	}
	if integer && minor < 1 {
		minor = 0
	}
	var ts []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+1e-9*step; k++ {
		v := k * step
		if math.Abs(v) < 1e-12*step {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: num(v)})
	}
	if minor > 0 {
		for k := math.Ceil(lo/minor - 1e-9); k*minor <= hi+1e-9*minor; k++ {
			if r := math.Mod(math.Abs(k*minor), step); r > 1e-9*step && step-r > 1e-9*step {
				ts = append(ts, plot.Tick{Value: k * minor})
			}
		}
	}
	return ts
}

// axisLabel names a variable's axis in words, with its unit.
func axisLabel(v *engine.VarResult) string {
	l := words(v.Name)
	if v.Unit != "" {
		l += " (" + v.Unit + ")"
	}
	return l
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

// probAxis fixes an axis to [0, 1] with ticks every 0.2.
func probAxis(a *plot.Axis) {
	a.Min, a.Max = 0, 1
	a.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(0, 1, false, 5) })
}

// WriteAtLeast draws P(X ≥ x) for a variable: a step function of x
// (it holds from one value of the variable up to the next), a marker on
// each value, simulated values with their 95% intervals.
func WriteAtLeast(w io.Writer, r *engine.Result, v *engine.VarResult) error {
	name := words(v.Name)
	p := newPlot(fmt.Sprintf("%s — chance of at least x: P(%s ≥ x)", r.Mechanic, name), "x = "+axisLabel(v), fmt.Sprintf("P(%s ≥ x)", name))
	lo, hi, cut := shownRange(v.P)
	var xy []XY
	tail := 0.0
	for i := len(v.P) - 1; i >= lo; i-- {
		tail += v.P[i]
		if i <= hi {
			xy = append(xy, XY{X: v.Value(i), Y: math.Min(tail, 1)})
		}
	}
	d := seriesDraw{name: fmt.Sprintf("P(%s ≥ x)", name), xy: xy, look: look{col: barColor, glyph: draw.CircleGlyph{}}, step: plotter.PreStep}
	caption := Caption(r)
	if d.sim = r.Engine == engine.Sim && r.Trials > 0; d.sim {
		d.ci = wilsonAll(ysOf(xy), r.Trials)
		caption = intervalsNote(r.Trials, len(xy)) + "\n" + caption
	}
	_, spec, err := addSeries(p, d)
	if err != nil {
		return err
	}
	probAxis(&p.Y)
	p.X.Tick.Marker = latticeTicks{den: 1, integer: v.Den <= 1}
	if cut > 0 {
		caption = fmt.Sprintf("values outside %s … %s (together P = %.2g) are not drawn\n", VarValue(v, lo), VarValue(v, hi), cut) + caption
	}
	if v.Undefined > 0 {
		caption = fmt.Sprintf("%s (P = %.4g) is not drawn; the mean is over the rest\n", v.UndefinedLabel, v.Undefined) + caption
	}
	return (&figure{plot: p, caption: caption, spec: PanelSpec{Kind: "atleast", Series: []SeriesSpec{spec}}}).write(w)
}

func ysOf(xy []XY) []float64 {
	ys := make([]float64, len(xy))
	for i, q := range xy {
		ys[i] = q.Y
	}
	return ys
}

// HasLongTail reports a variable whose chance of exceeding a value falls
// from 1e-4 to TailFloor over several of its values (a bursting damage
// roll): that tail is invisible on a linear axis and WriteTail shows it.
// A bounded variable whose chances drop from above 1e-4 to nothing in a
// step or two has none.
func HasLongTail(v *engine.VarResult) bool {
	tail, n := 0.0, 0
	for i := len(v.P) - 1; i >= 0; i-- {
		tail += v.P[i]
		if tail >= TailFloor && tail < 1e-4 {
			n++
		}
	}
	return n >= 3
}

// WriteTail draws the complementary CDF P(X > x) on a logarithmic axis, so
// that a long tail (bursting dice: every value is reachable, ever less
// likely) reads as the straight-ish line it is, down to TailFloor.
func WriteTail(w io.Writer, r *engine.Result, v *engine.VarResult) error {
	return WriteTailFloor(w, r, v, TailFloor)
}

// WriteTailFloor is WriteTail down to the probability floor (asked for:
// TailFloor is the default).
func WriteTailFloor(w io.Writer, r *engine.Result, v *engine.VarResult, floor float64) error {
	if !(floor > 0) {
		return fmt.Errorf("the floor of a tail plot must be a positive probability, not %g", floor)
	}
	name := words(v.Name)
	p := newPlot(fmt.Sprintf("%s — the tail of %s: P(%s > x), log scale", r.Mechanic, name, name), "x = "+axisLabel(v), fmt.Sprintf("P(%s > x)", name))
	var xy []XY
	tail, below := 0.0, false
	for i := len(v.P) - 1; i >= 0; i-- {
		switch {
		case tail >= floor:
			xy = append(xy, XY{X: v.Value(i), Y: math.Min(tail, 1)})
		case tail > 0:
			below = true
		}
		tail += v.P[i]
	}
	if len(xy) < 2 {
		return fmt.Errorf("%s has no tail to draw above %g", v.Name, floor)
	}
	d := seriesDraw{name: fmt.Sprintf("P(%s > x)", name), xy: xy, look: look{col: barColor, glyph: draw.CircleGlyph{}}, step: plotter.PostStep, logY: true}
	caption := Caption(r)
	if d.sim = r.Engine == engine.Sim && r.Trials > 0; d.sim {
		d.ci = wilsonAll(ysOf(xy), r.Trials)
		caption = intervalsNote(r.Trials, len(xy)) + "\n" + caption
	}
	_, spec, err := addSeries(p, d)
	if err != nil {
		return err
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = decadeTicks{}
	p.X.Tick.Marker = latticeTicks{den: 1, integer: v.Den <= 1}
	low := 1.0
	for _, q := range xy {
		low = math.Min(low, q.Y)
	}
	p.Y.Min, p.Y.Max = math.Max(floor, math.Pow(10, math.Floor(math.Log10(low)))), 1
	if below {
		caption = fmt.Sprintf("drawn down to P = %s; the chances beyond are smaller still\n", decadeLabel(floor)) + caption
	}
	if r.Truncated > 0 {
		caption = fmt.Sprintf("the exact engine left out the tail beyond the last value it reached: a mass of %.2g (truncated_mass)\n", r.Truncated) + caption
	}
	return (&figure{plot: p, caption: caption, spec: PanelSpec{Kind: "tail", Series: []SeriesSpec{spec}}}).write(w)
}

// decadeLabel prints a probability as the decade ticks do: 0.01, 1e-6.
func decadeLabel(x float64) string {
	if k := math.Log10(x); k == math.Trunc(k) && k < -2 {
		return "1e" + strconv.Itoa(int(k))
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// decadeTicks labels a logarithmic probability axis at powers of ten: 1,
// 0.1, 0.01, then 1e-3, 1e-4, …; with many decades only every second or
// third is labelled.
type decadeTicks struct{}

func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	a, b := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	every := 1 + (b-a)/8
	var ts []plot.Tick
	for k := b; k >= a; k-- {
		t := plot.Tick{Value: math.Pow(10, float64(k))}
		if (b-k)%every == 0 {
			switch {
			case k >= 0:
				t.Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
			case k >= -2:
				t.Label = strconv.FormatFloat(t.Value, 'f', -k, 64)
			default:
				t.Label = "1e" + strconv.Itoa(k) // the plot font has no superscript minus
			}
		}
		ts = append(ts, t)
	}
	return ts
}

// WriteSurvival draws S(t) of a process: a step function of whole t, a
// marker on each t, simulated values with their 95% intervals.
func WriteSurvival(w io.Writer, r *engine.Result) error {
	pr := r.Process
	u := unit(pr.TimeUnit)
	p := newPlot(fmt.Sprintf("%s — chance it is still going after t %ss", r.Mechanic, u), fmt.Sprintf("t (%ss)", u), "S(t) = P(T > t)")
	var xy []XY
	for t, s := range pr.Survival {
		xy = append(xy, XY{X: float64(t), Y: s})
		if s < 1e-3 && t >= 5 {
			break // the rest of the horizon is flat at ~0
		}
	}
	d := seriesDraw{name: "S(t)", xy: xy, look: look{col: barColor, glyph: draw.CircleGlyph{}}, step: plotter.PostStep}
	caption := Caption(r)
	if d.sim = r.Engine == engine.Sim && r.Trials > 0; d.sim {
		d.ci = wilsonAll(ysOf(xy), r.Trials)
		caption = intervalsNote(r.Trials, len(xy)) + "\n" + caption
	}
	_, spec, err := addSeries(p, d)
	if err != nil {
		return err
	}
	probAxis(&p.Y)
	p.X.Min = 0
	p.X.Tick.Marker = latticeTicks{den: 1, integer: true}
	if n := len(xy); n < len(pr.Survival) {
		caption = fmt.Sprintf("drawn up to t = %d, where S(t) < 0.001 (horizon %d %ss)\n", n-1, pr.Horizon, u) + caption
	}
	return (&figure{plot: p, caption: caption, spec: PanelSpec{Kind: "survival", Series: []SeriesSpec{spec}}}).write(w)
}

// FamilyMax is the most curves a family plot draws (one per point of a
// sweep): beyond it the lines can no longer be told apart.
const FamilyMax = 12

// WriteSurvivalFamily draws the survival curves S(t) of several results of
// one process mechanic (one per value of a swept parameter, labelled by
// labels) on one chart, up to the last t where any of them is still above
// 0.001: steps, each in its own colour and marker.
func WriteSurvivalFamily(w io.Writer, title, caption string, labels []string, rs []*engine.Result) error {
	if len(rs) == 0 || len(rs) > FamilyMax || len(labels) != len(rs) {
		return fmt.Errorf("a survival family needs 1 to %d results, one label each", FamilyMax)
	}
	pr0 := rs[0].Process
	if pr0 == nil {
		return fmt.Errorf("%s is not a process", rs[0].Mechanic)
	}
	u := unit(pr0.TimeUnit)
	last := 0
	for _, r := range rs {
		if r.Process == nil {
			return fmt.Errorf("%s is not a process", r.Mechanic)
		}
		for t, s := range r.Process.Survival {
			if s >= 1e-3 || t < 5 {
				last = max(last, t)
			}
		}
	}
	last = min(last+1, len(pr0.Survival)-1)
	p := newPlot(title, fmt.Sprintf("t (%ss)", u), "S(t) = P(T > t)")
	var legend []legendEntry
	spec := PanelSpec{Kind: "survival"}
	sim := false
	for i, r := range rs {
		var xy []XY
		for t, s := range r.Process.Survival {
			if t > last {
				break
			}
			xy = append(xy, XY{X: float64(t), Y: s})
		}
		d := seriesDraw{name: labels[i], xy: xy, look: lookOf(i, len(rs)), step: plotter.PostStep}
		if d.sim = r.Engine == engine.Sim && r.Trials > 0; d.sim {
			d.ci = wilsonAll(ysOf(xy), r.Trials)
			sim = true
		}
		thumbs, s, err := addSeries(p, d)
		if err != nil {
			return err
		}
		spec.Series = append(spec.Series, s)
		legend = append(legend, legendEntry{name: labels[i], thumbs: thumbs})
	}
	probAxis(&p.Y)
	p.X.Min = 0
	p.X.Tick.Marker = latticeTicks{den: 1, integer: true}
	if last < len(pr0.Survival)-1 {
		caption = fmt.Sprintf("drawn up to t = %d, beyond which every curve is below 0.001 (horizon %d %ss)\n", last, pr0.Horizon, u) + caption
	}
	if sim {
		caption = intervalsNote(rs[0].Trials, last+1) + "\n" + caption
	}
	return (&figure{plot: p, caption: caption, legend: legend, spec: spec}).write(w)
}

// WriteBands draws one stacked bar per result (e.g. one per TN) of a
// categorical band, labelled by labels. Labels of the form "name=value"
// put the name on the axis and the values under the bars (thinned when they
// would collide); the legend stands beside the plot, top to bottom in the
// order of the stack, and lists only categories of some mass. More than
// maxLayers categories of mass keep the maxLayers−1 largest, the rest
// drawn as one grey layer; the final states of a process over two state
// variables ("hp=3 round=2") are a heat map over them instead
// (WriteStates). Simulated bars carry the 95% intervals of the boundaries
// between their layers.
func WriteBands(w io.Writer, title, caption string, labels []string, rs []*engine.Result, band string) error {
	if len(rs) == 0 {
		return fmt.Errorf("no results to plot")
	}
	b0 := bandOf(rs[0], band)
	if b0 == nil {
		return fmt.Errorf("%s has no band %q", rs[0].Mechanic, band)
	}
	if _, ok := jointStates(b0.Labels); ok && len(b0.Labels) > maxJointLayers {
		return WriteStates(w, title, caption, labels, rs, band)
	}
	if caption == "" {
		caption = Caption(rs[0])
	}
	xName, ticks := bandTicks(labels)
	p := newPlot(title, xName, "probability")
	// Each category's share in each bar, and its largest.
	shares := make([][]float64, len(b0.Labels))
	most := make([]float64, len(b0.Labels))
	for k := range b0.Labels {
		shares[k] = make([]float64, len(rs))
		for i, r := range rs {
			if b := bandOf(r, band); b != nil && k < len(b.P) {
				shares[k][i] = b.P[k]
				most[k] = math.Max(most[k], b.P[k])
			}
		}
	}
	var kept, none []int
	for k := range b0.Labels {
		if most[k] >= massFloor {
			kept = append(kept, k)
		} else {
			none = append(none, k)
		}
	}
	var rest []int
	if len(kept) > maxLayers {
		byMass := slices.Clone(kept)
		sort.SliceStable(byMass, func(a, b int) bool { return most[byMass[a]] > most[byMass[b]] })
		big := map[int]bool{}
		for _, k := range byMass[:maxLayers-1] {
			big[k] = true
		}
		var top []int
		for _, k := range kept {
			if big[k] {
				top = append(top, k)
			} else {
				rest = append(rest, k)
			}
		}
		kept = top
	}
	pal := moreland.SmoothBlueRed().Palette(max(2, len(kept)))
	sb := &stackedBars{n: len(rs), half: 0.36}
	var legend []legendEntry
	for j, k := range kept {
		sb.layers = append(sb.layers, shares[k])
		sb.colors = append(sb.colors, pal.Colors()[j])
		legend = append(legend, legendEntry{name: b0.Labels[k], thumbs: []plot.Thumbnailer{swatch{sb.colors[j]}}, mass: massPtr(most[k])})
	}
	if len(rest) > 0 {
		other := make([]float64, len(rs))
		m := 0.0
		for _, k := range rest {
			for i := range rs {
				other[i] += shares[k][i]
			}
		}
		for _, v := range other {
			m = math.Max(m, v)
		}
		grey := color.RGBA{150, 150, 150, 255}
		sb.layers = append(sb.layers, other)
		sb.colors = append(sb.colors, grey)
		legend = append(legend, legendEntry{name: fmt.Sprintf("%d other categories", len(rest)), thumbs: []plot.Thumbnailer{swatch{grey}}, mass: massPtr(m)})
	}
	slices.Reverse(legend) // top of the stack first
	p.Add(sb)
	spec := PanelSpec{Kind: "bands"}
	for j, l := range sb.layers {
		name := "other categories"
		if j < len(kept) {
			name = b0.Labels[kept[j]]
		}
		spec.Series = append(spec.Series, seriesSpec(name, "stacked", latticeXY(0, l), false, sb.colors[j], false))
	}
	if sim := rs[0].Engine == engine.Sim && rs[0].Trials > 0; sim {
		// The boundaries between layers: the share of the layers under
		// each, with its Wilson interval.
		wk := &whiskers{color: color.Black}
		for i := range rs {
			below := 0.0
			for j := 0; j < len(sb.layers)-1; j++ {
				below += sb.layers[j][i]
				if below <= 0 || below >= 1-1e-12 {
					continue
				}
				ci := engine.Wilson(int64(math.Round(below*float64(rs[0].Trials))), rs[0].Trials)
				wk.xs, wk.lo, wk.hi = append(wk.xs, float64(i)), append(wk.lo, ci[0]), append(wk.hi, ci[1])
			}
		}
		p.Add(wk)
		for j := range spec.Series {
			spec.Series[j].Simulated, spec.Series[j].Intervals = true, true
		}
		caption = fmt.Sprintf("whiskers: 95%% intervals (Wilson) of the boundaries between layers, n=%d\n", rs[0].Trials) + caption
	}
	if len(none) > 0 {
		var names []string
		for _, k := range none {
			names = append(names, b0.Labels[k])
		}
		caption = fmt.Sprintf("no mass in any bar, so not in the legend: %s\n", strings.Join(shorten(names, 6), ", ")) + caption
	}
	// At least four bars' room, so that one or two bars are not slabs.
	mid, half := float64(len(rs)-1)/2, math.Max(float64(len(rs)), 4)/2
	p.X.Min, p.X.Max = mid-half, mid+half
	probAxis(&p.Y)
	p.X.Tick.Marker = ticks
	p.X.Tick.Length = 0
	f := &figure{plot: p, caption: caption, legend: legend, beside: true, spec: spec}
	// Thin (and, for long labels, slant) the labels under the bars to
	// what the width of the data area leaves room for.
	if len(ticks) > 1 {
		colW, _ := f.legendLayout(textStyle(legendFontS), plotW)
		slot := (plotW - colW - 1.2*vg.Inch) / vg.Length(len(rs))
		sty := p.X.Tick.Label
		widest := vg.Length(0)
		for _, t := range ticks {
			widest = max(widest, sty.Width(t.Label))
		}
		if widest > 4*slot && widest > vg.Inch {
			// Slanted, a label needs about its height of room; the first
			// one reaches left of its bar by its slanted width, which the
			// plot makes room for.
			p.X.Tick.Label.Rotation = math.Pi / 4
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YTop
			f.padLeft = max(0, (sty.Width(ticks[0].Label)+sty.Height(ticks[0].Label))*math.Sqrt2/2-vg.Points(40)-slot/2)
			widest = sty.Height(ticks[0].Label) * 1.5
		}
		if step := int(math.Ceil(float64(widest+vg.Points(6)) / float64(slot))); step > 1 {
			keep := roundLabels(ticks, step)
			thin := plot.ConstantTicks{}
			for i, t := range ticks {
				if keep(i) {
					thin = append(thin, t)
				} else {
					thin = append(thin, plot.Tick{Value: t.Value})
				}
			}
			p.X.Tick.Marker = thin
			p.X.Tick.Length = vg.Points(3)
		}
	}
	return f.write(w)
}

// roundLabels picks the bar labels to keep when only one in step fits:
// for evenly spaced numbers, the multiples of a round step (0, 5, 10 …);
// otherwise every step-th label from the first.
func roundLabels(ticks plot.ConstantTicks, step int) func(i int) bool {
	every := func(i int) bool { return i%step == 0 }
	vs := make([]float64, len(ticks))
	for i, t := range ticks {
		v, err := strconv.ParseFloat(t.Label, 64)
		if err != nil {
			return every
		}
		vs[i] = v
	}
	d := vs[1] - vs[0]
	for i := 2; i < len(vs); i++ {
		if math.Abs(vs[i]-vs[i-1]-d) > 1e-9*math.Abs(d) {
			return every
		}
	}
	if d <= 0 {
		return every
	}
	need := d * float64(step)
	mag := math.Pow(10, math.Floor(math.Log10(need)))
	round := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= need-1e-9*need {
			round = m * mag
			break
		}
	}
	if k := round / d; math.Abs(k-math.Round(k)) > 1e-9 {
		return every // the round values are not on the bars
	}
	return func(i int) bool {
		r := math.Mod(math.Abs(vs[i]), round)
		return r < 1e-9*round || round-r < 1e-9*round
	}
}

// bandTicks labels the bars: when every label is "name=value" with the same
// name, the name is the axis label and the values label the bars.
func bandTicks(labels []string) (string, plot.ConstantTicks) {
	name := ""
	for i, l := range labels {
		n, _, ok := strings.Cut(l, "=")
		if !ok || (i > 0 && n != name) {
			name = ""
			break
		}
		name = n
	}
	cut := len(name) + 1
	if name == "" && len(labels) > 1 {
		// Labels that share their first words ("grim check +1", "grim
		// check +2") leave them to the axis label.
		prefix := labels[0]
		for _, l := range labels[1:] {
			for !strings.HasPrefix(l, prefix) {
				prefix = prefix[:len(prefix)-1]
			}
		}
		if i := strings.LastIndex(prefix, " "); i > 0 {
			name, cut = strings.TrimSpace(prefix[:i]), i+1
		}
	}
	var ts plot.ConstantTicks
	for i, l := range labels {
		if name != "" {
			l = l[cut:]
		}
		ts = append(ts, plot.Tick{Value: float64(i), Label: l})
	}
	return name, ts
}

// stackedBars draws n stacked bars at x = 0 … n−1, layers[k][i] high, of
// half-width half in data units.
type stackedBars struct {
	n      int
	half   float64
	layers [][]float64
	colors []color.Color
}

func (s *stackedBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	sty := textStyle(9)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for i := 0; i < s.n; i++ {
		base := 0.0
		x0, x1 := trX(float64(i)-s.half), trX(float64(i)+s.half)
		for k, l := range s.layers {
			if l[i] <= 0 {
				continue
			}
			top := math.Min(base+l[i], 1)
			c.SetColor(s.colors[k])
			r := vg.Rectangle{Min: vg.Point{X: x0, Y: trY(base)}, Max: vg.Point{X: x1, Y: trY(top)}}
			c.Fill(r.Path())
			// A segment with room for it shows its probability.
			label := probLabel(l[i])
			if r.Max.Y-r.Min.Y >= 2*sty.Height(label) && x1-x0 >= sty.Width(label)+vg.Points(6) {
				st := sty
				if luminance(s.colors[k]) < 0.45 {
					st.Color = color.White
				}
				c.FillText(st, vg.Point{X: (x0 + x1) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, label)
			}
			base = top
		}
	}
}

func (s *stackedBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(s.n) - 0.5, 0, 1
}

var _ plot.DataRanger = (*stackedBars)(nil)

// Series is one line of an overlay plot (Lines).
type Series struct {
	// Name is the series' name in the legend; XY its points.
	Name string
	XY   []XY
	// Metric is what the series plots ("event:hit", "mean:damage") and
	// Unit the unit of a mean's variable ("wounds"); both optional, Metric
	// defaulting to the chart's (Lines.Metric). Series that plot
	// different metrics are named with theirs in the legend, and the y axis
	// says what they share ("probability").
	Metric, Unit string
	// Marks are x positions to mark on the chart in the series' colour (a
	// rule's band edges: where a falling table adds a die).
	Marks []float64
	// Err, when set, holds each point's 95% interval [lo, hi] (a
	// simulated value), drawn as an error bar.
	Err [][2]float64
	// Style is the look the plan asks for the series (its colour and
	// dash), over the package's choice.
	Style Style
}

// Styles of the series of a chart (see lookOf): dash patterns, used past
// eight series only, and markers, solid shapes first, one per series.
var (
	seriesDashes = [][]vg.Length{nil, {vg.Points(7), vg.Points(4)}, {vg.Points(2), vg.Points(3)},
		{vg.Points(9), vg.Points(3), vg.Points(2), vg.Points(3)}, {vg.Points(4), vg.Points(2)}}
	seriesGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{},
		draw.RingGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	// categoryGlyphs mark the points of a categorical axis, which stand
	// alone (no guide leads the eye to them).
	categoryGlyphs = seriesGlyphs
)

// Lines is an overlay chart: several series (mechanics, option settings or
// systems) against one x axis.
type Lines struct {
	// Title is the chart's title. One that is only an identifier (a plan's
	// name for the chart) is replaced by what is plotted, the identifier
	// moving to the caption.
	Title string
	// XLabel names the x axis; YLabel, when set, the y axis in place of
	// the metric's words (series scaled to a reference, say).
	XLabel, YLabel string
	// Metric is what the series plot unless they name their own: event:NAME,
	// mean:VAR, or words. The axis and the legend say it in words.
	Metric  string
	Caption string
	Series  []Series
	// XLabels, when set, make the x axis categorical: the series' X are
	// the positions 0, 1, … of these words (option values), drawn as
	// points with the words under them and no line between them (there
	// is nothing between two options); several series stand side by side
	// around each position.
	XLabels []string
}

// WriteLines draws an overlay chart. The y axis says in words what the
// series plot (what they share, when they plot different metrics); a
// probability axis is [0, 1].
func WriteLines(w io.Writer, c *Lines) error {
	ax := newLinesAxis(c.Series, c.Metric)
	if c.YLabel != "" {
		ax.label, ax.what, ax.prob = c.YLabel, c.YLabel, false
	}
	title, id := retitle(c.Title, c.Metric, ax.what, c.XLabel)
	caption := c.Caption
	if id != "" {
		caption = strings.TrimSpace("chart " + id + "\n" + caption)
	}
	p := newPlot(title, c.XLabel, ax.label)
	var legend []legendEntry
	var marks []markLine
	lo, hi := math.Inf(1), math.Inf(-1)
	xInt := true
	spec := PanelSpec{Kind: "lines"}
	for i, s := range c.Series {
		lk := s.Style.over(lookOf(i, len(c.Series)))
		d := seriesDraw{name: s.Name, xy: s.XY, ci: s.Err, look: lk, sim: s.Err != nil}
		if c.XLabels != nil {
			d.offset = categoryOffset(i, len(c.Series))
			d.look.glyph = categoryGlyphs[i%len(categoryGlyphs)]
			d.alone = true // nothing lies between two options
		}
		thumbs, ss, err := addSeries(p, d)
		if err != nil {
			return err
		}
		spec.Series = append(spec.Series, ss)
		name := s.Name
		if n, _, ok := metricWords(name, s.Unit); ok {
			name = n
		}
		if ax.mixed {
			name += " — " + MetricLabelOf(ax.metrics[i], s.Unit)
		}
		legend = append(legend, legendEntry{name: name, thumbs: thumbs})
		for _, x := range s.Marks {
			marks = append(marks, markLine{x: x, style: draw.LineStyle{Color: lk.col, Width: vg.Points(0.8),
				Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}})
		}
		for j, pt := range s.XY {
			if math.IsNaN(pt.Y) {
				continue
			}
			lo, hi = math.Min(lo, pt.Y), math.Max(hi, pt.Y)
			if j < len(s.Err) {
				lo, hi = math.Min(lo, s.Err[j][0]), math.Max(hi, s.Err[j][1])
			}
			xInt = xInt && pt.X == math.Trunc(pt.X)
		}
	}
	if len(c.Series) == 1 && (legend[0].name == ax.label || c.Series[0].Name == c.Metric) {
		legend = nil // the axis says it
	}
	if ax.prob {
		probAxis(&p.Y)
	} else if lo >= 0 {
		p.Y.Min = 0
		if hi <= 0 {
			p.Y.Max = 1
		}
	}
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, xInt, 12) })
	if c.XLabels != nil {
		categoryAxis(p, c.XLabels)
	}
	for _, m := range marks {
		p.Add(m)
	}
	if len(marks) > 0 {
		caption = strings.TrimSpace(caption + "\ndotted verticals: the rules' band edges, in each series' colour")
	}
	return (&figure{plot: p, caption: caption, legend: legend, spec: spec}).write(w)
}

// categoryOffset shifts the i-th of n series on a categorical axis a
// little from the others', so that equal values stay visible.
func categoryOffset(i, n int) float64 {
	if n <= 1 {
		return 0
	}
	spread := math.Min(0.5, 0.12*float64(n-1))
	return -spread/2 + spread*float64(i)/float64(n-1)
}

// categoryAxis makes p's x axis categorical: one labelled position per
// word at 0, 1, …, half a step of room at each end, the labels slanted
// when they would not fit side by side.
func categoryAxis(p *plot.Plot, labels []string) {
	widest := categoryLabels(p, labels)
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	if slot := (plotW - 1.2*vg.Inch) / vg.Length(max(len(labels), 1)); widest+vg.Points(8) > slot {
		slantLabels(p)
	}
}

// categoryLabels puts one tick label per word at 0, 1, … on p's x axis;
// it returns the widest label's width.
func categoryLabels(p *plot.Plot, labels []string) vg.Length {
	var ts plot.ConstantTicks
	widest := vg.Length(0)
	for i, l := range labels {
		ts = append(ts, plot.Tick{Value: float64(i), Label: l})
		widest = max(widest, p.X.Tick.Label.Width(l))
	}
	p.X.Tick.Marker = ts
	return widest
}

// slantLabels slants p's x tick labels, each ending under its tick.
func slantLabels(p *plot.Plot) {
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YTop
}

// linesAxis is what the y axis of an overlay says.
type linesAxis struct {
	// metrics is each series' metric (its own, or the chart's).
	metrics []string
	// label is the axis label; what says what is plotted, for the title.
	label, what string
	// prob is a probability axis; mixed tells series that plot different
	// metrics (the legend then names each one's).
	prob, mixed bool
}

// newLinesAxis words the y axis of series whose metric defaults to metric:
// one metric in words ("P(success)"), or what several share
// ("probability", "mean (wounds)", "mean", "value").
func newLinesAxis(series []Series, metric string) linesAxis {
	ax := linesAxis{metrics: make([]string, len(series))}
	var distinct []string
	unitOf := map[string]string{}
	// Series of one metric in different units (the damage of two
	// systems) share no unit: the axis names none.
	mixedUnit := map[string]bool{}
	for i, s := range series {
		ax.metrics[i] = cmp.Or(s.Metric, metric)
		m := ax.metrics[i]
		prev, seen := unitOf[m]
		if !seen {
			distinct = append(distinct, m)
		} else if prev != s.Unit {
			mixedUnit[m] = true
		}
		unitOf[m] = s.Unit
	}
	for m := range mixedUnit {
		unitOf[m] = ""
	}
	if len(series) == 0 {
		distinct = []string{metric}
	}
	ax.label, ax.prob, _ = metricWords(distinct[0], unitOf[distinct[0]])
	ax.what = ax.label
	if ax.mixed = len(distinct) > 1; ax.mixed {
		var ws []string
		allProb, allMean := true, true
		units := map[string]bool{}
		for _, m := range distinct {
			l, p, _ := metricWords(m, unitOf[m])
			ws = append(ws, l)
			allProb = allProb && p
			allMean = allMean && strings.HasPrefix(m, "mean:")
			units[unitOf[m]] = true
		}
		ax.prob = allProb
		switch {
		case allProb:
			ax.label = "probability"
		case allMean && len(units) == 1:
			ax.label = "mean"
			if u := unitOf[distinct[0]]; u != "" {
				ax.label += " (" + u + ")"
			}
		case allMean:
			ax.label = "mean"
		default:
			ax.label = "value"
		}
		ax.what = strings.Join(ws, " and ")
	}
	if !ax.prob && (strings.HasPrefix(ax.label, "P(") || ax.label == "probability") {
		ax.prob = true
	}
	return ax
}

// markLine is a line across the whole data area: vertical at x, or
// horizontal at y = x.
type markLine struct {
	x          float64
	horizontal bool
	style      draw.LineStyle
}

// Plot draws the line from edge to edge of the data area, nothing when
// it falls outside.
func (m markLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	if m.horizontal {
		if y := trY(m.x); y >= c.Min.Y && y <= c.Max.Y {
			c.StrokeLine2(m.style, c.Min.X, y, c.Max.X, y)
		}
		return
	}
	if x := trX(m.x); x >= c.Min.X && x <= c.Max.X {
		c.StrokeLine2(m.style, x, c.Min.Y, x, c.Max.Y)
	}
}

// MetricLabelOf names a metric in words, as MetricLabel does, with the unit
// given.
func MetricLabelOf(metric, unit string) string {
	l, _, _ := metricWords(metric, unit)
	return l
}

// grid is a heat map's data: Z[row][col] for Y values by X values.
type grid struct {
	xs, ys []float64
	z      [][]float64
}

func (g grid) Dims() (c, r int)   { return len(g.xs), len(g.ys) }
func (g grid) Z(c, r int) float64 { return g.z[r][c] }
func (g grid) X(c int) float64    { return g.xs[c] }
func (g grid) Y(r int) float64    { return g.ys[r] }

// Heatmap is a metric over a grid of two parameters: Z[row][col] at
// (Xs[col], Ys[row]).
type Heatmap struct {
	// Title is the chart's title; as in Lines, one that is only an
	// identifier is replaced by what is plotted.
	Title          string
	XLabel, YLabel string
	// Metric is what Z holds: event:NAME, mean:VAR, or words.
	Metric  string
	Caption string
	Xs, Ys  []float64
	Z       [][]float64
	// XLabels and YLabels, when set, are the words of a categorical axis
	// (option values) at its positions Xs or Ys = 0, 1, ….
	XLabels, YLabels []string
	// Diverging colours the values on a range symmetric about 0 (a
	// change: no change is the middle colour).
	Diverging bool
	// fit colours a probability from 0 to the largest value rather than
	// on [0, 1] (a distribution over many cells); kind is what the spec
	// calls the panel ("heatmap" when empty).
	fit  bool
	kind string
}

// WriteHeatmap draws a heat map with the values printed in the cells (up
// to 400 of them) and a colour bar. A probability is coloured on the whole
// of [0, 1], so that equal colours mean equal chances across plots.
func WriteHeatmap(w io.Writer, h *Heatmap) error {
	zLabel, prob, _ := metricWords(h.Metric, "")
	if !prob && strings.HasPrefix(zLabel, "P(") {
		prob = true
	}
	lo, hi := 0.0, 1.0
	if !prob {
		lo, hi = zRange(h.Z)
	} else if h.fit {
		_, hi = zRange(h.Z)
		hi = math.Max(hi, 1e-12)
	}
	if h.Diverging {
		m := math.Max(math.Abs(lo), math.Abs(hi))
		lo, hi = -m, m
	}
	if lo == hi {
		hi = lo + 1e-9
	}
	hm := plotter.NewHeatMap(grid{xs: h.Xs, ys: h.Ys, z: h.Z}, moreland.SmoothBlueRed().Palette(255))
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.White // a point with no value
	title, id := retitle(h.Title, h.Metric, zLabel, h.XLabel, h.YLabel)
	caption := h.Caption
	if id != "" {
		caption = strings.TrimSpace("chart " + id + "\n" + caption)
	}
	p := newPlot(title, h.XLabel, h.YLabel)
	p.Add(hm)
	p.X.Tick.Marker = valueTicks(h.Xs, h.XLabels)
	p.Y.Tick.Marker = valueTicks(h.Ys, h.YLabels)
	spec := PanelSpec{Kind: cmp.Or(h.kind, "heatmap"), Series: []SeriesSpec{{Name: zLabel, Draw: "cells", Points: countCells(h.Z), Sorted: true}}}
	if len(h.Xs)*len(h.Ys) <= 400 {
		l, err := cellLabels(h, lo, hi, prob)
		if err != nil {
			return err
		}
		if l != nil {
			p.Add(l)
			spec.Cells = l.Labels
		}
	}
	return (&figure{plot: p, colorBar: colorBar(zLabel, lo, hi, prob && !h.fit), caption: caption, spec: spec}).write(w)
}

// zRange is the smallest and the largest value of a grid, NaN aside (0
// and 0 when it has none).
func zRange(z [][]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range z {
		for _, v := range row {
			if !math.IsNaN(v) { // a value the point does not have
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// heatColors is the colour map of heat maps, spanning [lo, hi].
func heatColors(lo, hi float64) palette.ColorMap {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm
}

// cellLabels prints each cell's value in it, white on dark colours.
func cellLabels(h *Heatmap, lo, hi float64, prob bool) (*plotter.Labels, error) {
	cm := heatColors(lo, hi)
	var lbls plotter.XYLabels
	var dark []bool
	for r, y := range h.Ys {
		for c, x := range h.Xs {
			if math.IsNaN(h.Z[r][c]) {
				continue // a blank cell
			}
			lbls.XYs = append(lbls.XYs, plotter.XY{X: x, Y: y})
			l := cellValue(h.Z[r][c], prob)
			if h.Diverging && h.Z[r][c] > 0 {
				l = "+" + l
			}
			lbls.Labels = append(lbls.Labels, l)
			col, err := cm.At(math.Min(math.Max(h.Z[r][c], lo), hi))
			dark = append(dark, err == nil && luminance(col) < 0.45)
		}
	}
	if len(lbls.XYs) == 0 {
		return nil, nil
	}
	l, err := plotter.NewLabels(lbls)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = draw.XCenter
		l.TextStyle[i].YAlign = draw.YCenter
		l.TextStyle[i].Font.Size = vg.Points(8)
		if dark[i] {
			l.TextStyle[i].Color = color.White
		}
	}
	return l, nil
}

// colorBar is a heat map's colour bar over [lo, hi], labelled with what
// the colours mean.
func colorBar(label string, lo, hi float64, prob bool) *plot.Plot {
	cb := plot.New()
	cb.HideY()
	cb.X.Label.Text = label
	cb.X.Label.TextStyle.Font.Size = vg.Points(12)
	cb.Add(&plotter.ColorBar{ColorMap: heatColors(lo, hi)})
	if prob {
		probAxis(&cb.X)
	}
	return cb
}

// cellValue prints a heat map cell: probabilities with two decimals, never
// rounded to a certainty they are not (probLabel), other values with three
// significant digits.
func cellValue(v float64, prob bool) string {
	if prob {
		return probLabel(v)
	}
	return fmt.Sprintf("%.3g", v)
}

func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// valueTicks puts one labelled tick on each grid value (thinned to ~15),
// labelled by the words of a categorical axis when there are any.
func valueTicks(vs []float64, words []string) plot.ConstantTicks {
	step := max(1, (len(vs)+14)/15)
	var t plot.ConstantTicks
	for i, v := range vs {
		if i%step == 0 {
			l := num(v)
			if i < len(words) {
				l = words[i]
			}
			t = append(t, plot.Tick{Value: v, Label: l})
		} else {
			t = append(t, plot.Tick{Value: v})
		}
	}
	return t
}
