package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oddsmith/oddsmith/engine"
)

// ComparePlot is what to draw of a comparison: one shared output, as an
// overlay of both sides (WriteCompareOverlay) and as the change B − A
// value by value (WriteCompareDiff).
type ComparePlot struct {
	*CompareReport
	// Output is the shared variable or band to draw; "" draws the first
	// shared variable, else the first shared band, else the shared events
	// side by side.
	Output string
	// CDF draws P(X ≤ x) instead of P(X = x) (variables).
	CDF bool
}

// The sides' colours: Okabe & Ito's blue for A, vermillion for B (the
// first two overlay colours).
var (
	sideA color.Color = okabeIto[0]
	sideB color.Color = okabeIto[1]
)

// DrawTarget checks what a plot would draw: the kind ("variable",
// "band" or "events") and the name of the output. An Output that is not
// shared is an error that says what is.
func (p *ComparePlot) DrawTarget() (kind, name string, err error) {
	if p.Output != "" {
		for _, d := range p.Dists {
			if d.Name == p.Output {
				return d.Kind, d.Name, nil
			}
		}
		var shared []string
		for _, d := range p.Dists {
			shared = append(shared, d.Name)
		}
		if len(shared) == 0 {
			return "", "", fmt.Errorf("%s is not a variable or band both sides share (they share none)", p.Output)
		}
		return "", "", fmt.Errorf("%s is not a variable or band both sides share (shared: %s)", p.Output, strings.Join(shared, ", "))
	}
	for _, d := range p.Dists {
		if d.Kind == "variable" {
			return d.Kind, d.Name, nil
		}
	}
	if len(p.Dists) > 0 {
		return p.Dists[0].Kind, p.Dists[0].Name, nil
	}
	for _, r := range p.Rows {
		if r.Kind == "event" {
			return "events", "", nil
		}
	}
	return "", "", fmt.Errorf("nothing shared to draw")
}

// compareCaption is the caption of a comparison's plots: each side's
// engine and settings, then notes.
func (p *ComparePlot) caption(notes ...string) string {
	var lines []string
	for _, n := range notes {
		if n != "" {
			lines = append(lines, n)
		}
	}
	lines = append(lines, "A: "+sideCaption(p.A), "B: "+sideCaption(p.B))
	return strings.Join(lines, "\n")
}

// sideCaption is a side's mechanic (with its rule), engine and settings
// on one line, as Caption words them.
func sideCaption(r *engine.Result) string {
	parts := []string{r.Mechanic} // Caption says the rule
	for _, line := range strings.Split(Caption(r), "\n") {
		for _, part := range strings.Split(line, " · ") {
			if part = strings.TrimSpace(part); part != "" {
				parts = append(parts, part)
			}
		}
	}
	return strings.Join(parts, " · ")
}

func (p *ComparePlot) legendNames() (string, string) {
	a, b := p.LabelA, p.LabelB
	if a == "" {
		a = p.A.Mechanic
	}
	if b == "" {
		b = p.B.Mechanic
	}
	return "A: " + a, "B: " + b
}

// WriteCompareOverlay draws the shared output on both sides: a
// variable's PMF (or CDF) as two lines, A in blue and B in vermillion,
// each side's mean a dotted vertical; a band's categories (or the shared
// events) as pairs of bars. Simulated values carry their 95% intervals as
// whiskers.
func WriteCompareOverlay(w io.Writer, p *ComparePlot) error {
	kind, name, err := p.DrawTarget()
	if err != nil {
		return err
	}
	if kind == "variable" {
		return p.variableOverlay(w, p.Dist(name))
	}
	return p.categoryOverlay(w, p.categories(kind, name))
}

// WriteCompareDiff draws the change B − A of the shared output at every
// value (or category): bars above zero in B's colour (more likely under
// B), below zero in A's; simulated changes carry their 95% intervals and
// those not significant are drawn pale.
func WriteCompareDiff(w io.Writer, p *ComparePlot) error {
	kind, name, err := p.DrawTarget()
	if err != nil {
		return err
	}
	if kind == "variable" {
		return p.variableDiff(w, p.Dist(name))
	}
	return p.categoryDiff(w, p.categories(kind, name))
}

// shownValues are the values of a variable worth drawing (shownRange on
// the larger of the two masses) and the mass left out.
func shownValues(vps []engine.ValuePoint) ([]engine.ValuePoint, float64) {
	m := make([]float64, len(vps))
	for i, v := range vps {
		m[i] = math.Max(v.A.V, v.B.V)
	}
	lo, hi, cut := shownRange(m)
	if len(vps) == 0 {
		return nil, 0
	}
	return vps[lo : hi+1], cut
}

// step is the smallest gap between two values drawn (1 for whole numbers).
func step(vps []engine.ValuePoint) float64 {
	s := math.Inf(1)
	for i := 1; i < len(vps); i++ {
		s = math.Min(s, vps[i].X-vps[i-1].X)
	}
	if math.IsInf(s, 1) {
		return 1
	}
	return s
}

func allWhole(vps []engine.ValuePoint) bool {
	for _, v := range vps {
		if v.X != math.Trunc(v.X) {
			return false
		}
	}
	return true
}

// distNote sums up the distance of a variable's two distributions.
func distNote(d *engine.DistCompare) string {
	s := fmt.Sprintf("TVD %s, KS %s", fixed4(d.TVD), fixed4(d.KS))
	if !math.IsNaN(d.KSAt) {
		s += " at " + value(d.KSAt)
	}
	if d.KSCritical > 0 {
		s += fmt.Sprintf(" (95%% critical value %s)", fixed4(d.KSCritical))
	}
	if len(d.Crossings) > 0 {
		s += "; the CDFs cross at " + crossText(d.Crossings)
	} else {
		s += "; the CDFs do not cross"
	}
	return s + "; swingier: " + swingText(*d)
}

func undefinedNote(d *engine.DistCompare, p *ComparePlot) string {
	for _, r := range p.Rows {
		if r.Output == d.Name && r.Quantity == "undefined" {
			return fmt.Sprintf("%s (A: P = %s, B: P = %s) is not drawn", cmpOr(r.Label, "undefined"), fixed4(r.A.V), fixed4(r.B.V))
		}
	}
	return ""
}

func cutNote(vps []engine.ValuePoint, cut float64) string {
	if cut <= 0 {
		return ""
	}
	return fmt.Sprintf("values outside %s … %s (together P ≤ %.2g) are not drawn", value(vps[0].X), value(vps[len(vps)-1].X), cut)
}

// varAxis names a variable's axis with its unit.
func varAxis(d *engine.DistCompare) string {
	l := words(d.Name)
	if d.Unit != "" {
		l += " (" + d.Unit + ")"
	}
	return l
}

func (p *ComparePlot) variableOverlay(w io.Writer, d *engine.DistCompare) error {
	vps, cut := shownValues(d.Values(p.Comparison))
	if len(vps) == 0 {
		return fmt.Errorf("%s has no value on either side to draw", d.Name)
	}
	name := words(d.Name)
	title, ylabel := "distribution of "+name+": A against B", fmt.Sprintf("P(%s = x)", name)
	if p.CDF {
		title, ylabel = fmt.Sprintf("chance of at most x: P(%s ≤ x), A against B", name), fmt.Sprintf("P(%s ≤ x)", name)
	}
	pl := newPlot(title, "x = "+varAxis(d), ylabel)
	sim := p.Sim()
	var legend []legendEntry
	la, lb := p.legendNames()
	top := 0.0
	spec := PanelSpec{Kind: "compare"}
	for side, col := range []color.RGBA{okabeIto[0], okabeIto[1]} {
		var xy []XY
		var ci [][2]float64
		for _, v := range vps {
			if !p.CDF && ((side == 0 && !v.OnA) || (side == 1 && !v.OnB)) {
				continue // not a value of this side's variable
			}
			e := v.A
			if side == 1 {
				e = v.B
			}
			if p.CDF {
				e = v.FA
				if side == 1 {
					e = v.FB
				}
			}
			xy = append(xy, XY{X: v.X, Y: e.V})
			ci = append(ci, [2]float64{e.Lo, e.Hi})
			top = math.Max(top, math.Max(e.V, e.Hi))
		}
		d := seriesDraw{xy: xy, look: look{col: col, glyph: seriesGlyphs[side]}, sim: sim}
		if side == 1 {
			d.width = vg.Points(1.2) // B's steps over an identical A leave A visible
		}
		d.name = la
		if side == 1 {
			d.name = lb
		}
		if sim {
			d.ci = ci
			d.offset = (float64(side) - 0.5) * 0.12 * step(vps)
		}
		if p.CDF {
			d.step = plotter.PostStep
			d.offset = 0
		}
		thumbs, ss, err := addSeries(pl, d)
		if err != nil {
			return err
		}
		spec.Series = append(spec.Series, ss)
		legend = append(legend, legendEntry{name: d.name, thumbs: thumbs})
	}
	// Each side's mean, a dotted vertical in its colour.
	for side, col := range []color.Color{sideA, sideB} {
		for _, r := range p.Rows {
			if r.Output == d.Name && r.Quantity == "mean" {
				m := r.A.V
				if side == 1 {
					m = r.B.V
				}
				pl.Add(markLine{x: m, style: draw.LineStyle{Color: col, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(1.5), vg.Points(2.5)}}})
			}
		}
	}
	if p.CDF {
		probAxis(&pl.Y)
	} else {
		pl.Y.Min, pl.Y.Max = 0, top*1.08
		pl.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, false, 6) })
	}
	s := step(vps)
	pl.X.Min, pl.X.Max = vps[0].X-s/2, vps[len(vps)-1].X+s/2
	whole := allWhole(vps)
	pl.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, whole, 12) })
	notes := []string{distNote(d), "dotted verticals: each side's mean"}
	if sim {
		notes = append(notes, intervalsNote(p.A.Trials, len(vps))+" per side")
	}
	notes = append(notes, cutNote(vps, cut), undefinedNote(d, p))
	return (&figure{plot: pl, legend: legend, caption: p.caption(notes...), spec: spec}).write(w)
}

// barsSpec records signed bars.
func barsSpec(name string, b *signedBars, sim bool) SeriesSpec {
	xy := make([]XY, len(b.xs))
	for i := range b.xs {
		xy[i] = XY{X: b.xs[i], Y: b.ys[i]}
	}
	s := seriesSpec(name, "bars", xy, false, nil, false)
	s.Simulated, s.Intervals = sim, sim
	return s
}

func (p *ComparePlot) variableDiff(w io.Writer, d *engine.DistCompare) error {
	vps, cut := shownValues(d.Values(p.Comparison))
	if len(vps) == 0 {
		return fmt.Errorf("%s has no value on either side to draw", d.Name)
	}
	name := words(d.Name)
	what := fmt.Sprintf("P(%s = x)", name)
	if p.CDF {
		what = fmt.Sprintf("P(%s ≤ x)", name)
	}
	pl := newPlot("change of "+what+": B − A", "x = "+varAxis(d), what+", B − A")
	bars := &signedBars{half: 0.4 * step(vps)}
	var lo, hi []float64
	for _, v := range vps {
		e := v.Delta
		if p.CDF {
			e = v.FDelta
		}
		bars.xs = append(bars.xs, v.X)
		bars.ys = append(bars.ys, e.V)
		bars.pale = append(bars.pale, p.Sim() && !(e.Lo > 0 || e.Hi < 0))
		lo, hi = append(lo, e.Lo), append(hi, e.Hi)
	}
	legend := p.diffChart(pl, bars, lo, hi)
	s := step(vps)
	pl.X.Min, pl.X.Max = vps[0].X-s/2, vps[len(vps)-1].X+s/2
	whole := allWhole(vps)
	pl.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, whole, 12) })
	note := "TVD = half the total length of the bars"
	if p.CDF {
		note = "KS = the longest bar"
	}
	spec := PanelSpec{Kind: "diff", Series: []SeriesSpec{barsSpec("B − A", bars, p.Sim())}}
	return (&figure{plot: pl, legend: legend, caption: p.caption(distNote(d), note, cutNote(vps, cut), undefinedNote(d, p)), spec: spec}).write(w)
}

// diffChart adds a difference chart's bars, whiskers and zero line and
// returns its legend.
func (p *ComparePlot) diffChart(pl *plot.Plot, bars *signedBars, lo, hi []float64) []legendEntry {
	pl.Add(bars)
	pl.Add(hline{y: 0})
	more := "more likely under %s"
	if p.CDF {
		more = "P(≤ x) higher under %s"
	}
	legend := []legendEntry{
		{name: fmt.Sprintf(more, "B"), thumbs: []plot.Thumbnailer{swatch{sideB}}},
		{name: fmt.Sprintf(more, "A"), thumbs: []plot.Thumbnailer{swatch{sideA}}},
	}
	ymin, ymax := 0.0, 0.0
	for i := range bars.ys {
		ymin, ymax = math.Min(ymin, bars.ys[i]), math.Max(ymax, bars.ys[i])
	}
	if p.Sim() {
		wk := &whiskers{xs: bars.xs, lo: lo, hi: hi, color: color.Black}
		pl.Add(wk)
		for i := range lo {
			ymin, ymax = math.Min(ymin, lo[i]), math.Max(ymax, hi[i])
		}
		if slices.Contains(bars.pale, true) {
			legend = append(legend, legendEntry{name: fmt.Sprintf("not significant at n=%d", p.A.Trials), thumbs: []plot.Thumbnailer{pairSwatch{pale(sideB), pale(sideA)}}})
		}
		legend = append(legend, legendEntry{name: "95% interval of B − A", thumbs: []plot.Thumbnailer{wk}})
	}
	if ymax-ymin == 0 {
		ymin, ymax = -0.01, 0.01 // no change at all: a flat line at 0
	}
	pad := (ymax - ymin) * 0.06
	pl.Y.Min, pl.Y.Max = ymin-pad, ymax+pad
	if ymin == 0 {
		pl.Y.Min = 0
	}
	if ymax == 0 {
		pl.Y.Max = 0
	}
	pl.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, false, 6) })
	return legend
}

// pale is a colour for a change that is not significant.
func pale(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return shade(color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}, 0.65)
}

// categorical is a band's categories (or the shared events) on both sides.
type categorical struct {
	title, xlabel string
	names         []string
	a, b, d       []engine.Estimate
	sig           []bool
	tvd           float64
}

func (p *ComparePlot) categories(kind, name string) *categorical {
	c := &categorical{}
	if kind == "events" {
		c.title, c.xlabel = "P(event)", "event"
	} else {
		c.title, c.xlabel = words(name)+" by category", words(name)
		if d := p.Dist(name); d != nil {
			c.tvd = d.TVD
		}
	}
	for _, r := range p.Rows {
		if (kind == "events" && r.Kind == "event") || (kind == "band" && r.Kind == "band" && r.Output == name) {
			label := r.Label
			if kind == "events" {
				label = words(r.Output)
			}
			c.names = append(c.names, label)
			c.a, c.b, c.d = append(c.a, r.A), append(c.b, r.B), append(c.d, r.Delta)
			c.sig = append(c.sig, r.Significant)
		}
	}
	return c
}

// categoryTicks labels the categories under their bars, slanted when
// they would run into each other; it returns the room the first slanted
// label needs left of the plot.
func categoryTicks(pl *plot.Plot, names []string) vg.Length {
	widest := categoryLabels(pl, names)
	pl.X.Tick.Length = 0
	// At least three categories' room, so that one or two bars are not slabs.
	mid, half := float64(len(names)-1)/2, math.Max(float64(len(names)), 3)/2+0.1
	pl.X.Min, pl.X.Max = mid-half, mid+half
	slot := (plotW - vg.Inch) / vg.Length(max(len(names), 1))
	if len(names) > 0 && widest > slot*0.9 {
		slantLabels(pl)
		// The first label reaches left of its bar by its slanted width;
		// the axis and half a slot's margin are already there.
		first := pl.X.Tick.Label.Width(names[0]) * vg.Length(math.Cos(math.Pi/6))
		return max(0, first-vg.Inch*0.7-slot*0.6)
	}
	return 0
}

func (p *ComparePlot) categoryOverlay(w io.Writer, c *categorical) error {
	pl := newPlot(c.title+": A against B", c.xlabel, "probability")
	la, lb := p.legendNames()
	var legend []legendEntry
	top := 0.0
	spec := PanelSpec{Kind: "compare"}
	for side, col := range []color.Color{sideA, sideB} {
		es := c.a
		name := la
		if side == 1 {
			es, name = c.b, lb
		}
		off := (float64(side) - 0.5) * 0.38
		bars := &signedBars{half: 0.17}
		var lo, hi []float64
		for i, e := range es {
			bars.xs = append(bars.xs, float64(i)+off)
			bars.ys = append(bars.ys, e.V)
			bars.colors = append(bars.colors, col)
			lo, hi = append(lo, e.Lo), append(hi, e.Hi)
			top = math.Max(top, e.Hi)
		}
		pl.Add(bars)
		if p.Sim() {
			pl.Add(&whiskers{xs: bars.xs, lo: lo, hi: hi, color: color.Black})
		}
		spec.Series = append(spec.Series, barsSpec(name, bars, p.Sim()))
		legend = append(legend, legendEntry{name: name, thumbs: []plot.Thumbnailer{swatch{col}}})
	}
	pl.Y.Min, pl.Y.Max = 0, math.Min(1, top*1.1)
	if top == 0 {
		pl.Y.Max = 1
	}
	pl.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, false, 6) })
	pad := categoryTicks(pl, c.names)
	var notes []string
	if c.tvd > 0 || c.xlabel != "event" {
		notes = append(notes, "TVD "+fixed4(c.tvd))
	}
	if p.Sim() {
		notes = append(notes, fmt.Sprintf("whiskers: 95%% intervals (Wilson), n=%d per side", p.A.Trials))
	}
	return (&figure{plot: pl, legend: legend, caption: p.caption(notes...), padLeft: pad, spec: spec}).write(w)
}

func (p *ComparePlot) categoryDiff(w io.Writer, c *categorical) error {
	pl := newPlot("change of "+c.title+": B − A", c.xlabel, "probability, B − A")
	bars := &signedBars{half: 0.36}
	var lo, hi []float64
	for i, e := range c.d {
		bars.xs = append(bars.xs, float64(i))
		bars.ys = append(bars.ys, e.V)
		bars.pale = append(bars.pale, p.Sim() && !c.sig[i])
		lo, hi = append(lo, e.Lo), append(hi, e.Hi)
	}
	legend := p.diffChart(pl, bars, lo, hi)
	pad := categoryTicks(pl, c.names)
	note := ""
	if c.xlabel != "event" {
		note = "TVD " + fixed4(c.tvd) + " = half the total length of the bars"
	}
	spec := PanelSpec{Kind: "diff", Series: []SeriesSpec{barsSpec("B − A", bars, p.Sim())}}
	return (&figure{plot: pl, legend: legend, caption: p.caption(note), padLeft: pad, spec: spec}).write(w)
}

// signedBars draws a bar from 0 to each y at each x, half wide in data
// units: in colors[i] when given, else in B's colour above zero and A's
// below; pale[i] draws it pale.
type signedBars struct {
	xs, ys []float64
	half   float64
	colors []color.Color
	pale   []bool
}

func (b *signedBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	minW := vg.Points(0.75)
	for i, y := range b.ys {
		if y == 0 {
			continue
		}
		col := sideB
		if y < 0 {
			col = sideA
		}
		if i < len(b.colors) {
			col = b.colors[i]
		}
		if i < len(b.pale) && b.pale[i] {
			col = pale(col)
		}
		x0, x1 := trX(b.xs[i]-b.half), trX(b.xs[i]+b.half)
		if x1-x0 < minW {
			mid := (x0 + x1) / 2
			x0, x1 = mid-minW/2, mid+minW/2
		}
		y0, y1 := trY(0), trY(y)
		if y1 < y0 {
			y0, y1 = y1, y0
		}
		c.SetColor(col)
		c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}.Path())
	}
}

func (b *signedBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for i, x := range b.xs {
		xmin, xmax = math.Min(xmin, x-b.half), math.Max(xmax, x+b.half)
		ymin, ymax = math.Min(ymin, b.ys[i]), math.Max(ymax, b.ys[i])
	}
	return
}

// whiskers draw a vertical line from lo to hi at each x (shifted by
// offset, in data units, so that two sides' whiskers stand apart), with
// short caps: the 95% interval of a simulated value.
type whiskers struct {
	xs, lo, hi []float64
	offset     float64
	color      color.Color
}

func (wk *whiskers) style() draw.LineStyle {
	return draw.LineStyle{Color: wk.color, Width: vg.Points(1)}
}

func (wk *whiskers) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	sty := wk.style()
	capW := vg.Points(2.5)
	if len(wk.xs) > 1 {
		gap := trX(wk.xs[1]) - trX(wk.xs[0])
		capW = min(capW, gap/6)
	}
	for i, x := range wk.xs {
		if wk.hi[i] <= wk.lo[i] {
			continue
		}
		px := trX(x + wk.offset)
		y0, y1 := trY(wk.lo[i]), trY(wk.hi[i])
		// Within the data area: an end beyond it (below the floor of a
		// log axis) loses its cap.
		in0, in1 := y0 >= c.Min.Y, y1 <= c.Max.Y
		y0, y1 = max(y0, c.Min.Y), min(y1, c.Max.Y)
		if y1 <= y0 {
			continue
		}
		c.StrokeLine2(sty, px, y0, px, y1)
		if in0 {
			c.StrokeLine2(sty, px-capW, y0, px+capW, y0)
		}
		if in1 {
			c.StrokeLine2(sty, px-capW, y1, px+capW, y1)
		}
	}
}

// DataRange makes room for the whiskers on the axes.
func (wk *whiskers) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, x := range wk.xs {
		if math.IsNaN(wk.lo[i]) || math.IsNaN(wk.hi[i]) {
			continue
		}
		xmin, xmax = math.Min(xmin, x+wk.offset), math.Max(xmax, x+wk.offset)
		ymin, ymax = math.Min(ymin, wk.lo[i]), math.Max(ymax, wk.hi[i])
	}
	if xmin > xmax {
		return 0, 0, 0, 0
	}
	return
}

// Thumbnail draws a whisker in a legend.
func (wk *whiskers) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	sty := wk.style()
	c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(sty, x-vg.Points(3), c.Min.Y, x+vg.Points(3), c.Min.Y)
	c.StrokeLine2(sty, x-vg.Points(3), c.Max.Y, x+vg.Points(3), c.Max.Y)
}

// pairSwatch is a legend thumbnail of two colours: a box split in two.
type pairSwatch struct{ left, right color.Color }

func (s pairSwatch) Thumbnail(c *draw.Canvas) {
	w, h := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
	side := min(w, h)
	x0 := c.Min.X + (w-side)/2
	c.SetColor(s.left)
	c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x0 + side/2, Y: c.Min.Y + side}}.Path())
	c.SetColor(s.right)
	c.Fill(vg.Rectangle{Min: vg.Point{X: x0 + side/2, Y: c.Min.Y}, Max: vg.Point{X: x0 + side, Y: c.Min.Y + side}}.Path())
}

// hline is a horizontal line across the data area at y.
type hline struct{ y float64 }

func (h hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.y)
	if y < c.Min.Y || y > c.Max.Y {
		return
	}
	c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}, c.Min.X, y, c.Max.X, y)
}
