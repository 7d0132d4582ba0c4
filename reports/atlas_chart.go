package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oddsmith/oddsmith/mechanics"
)

// A Chart is a figure of one or more panels under one title, with one
// caption across the bottom: the plan's [[chart]] tables (the atlas of
// cross-system comparisons is made of them). Each panel has its own axes
// and its own legend under it, so nothing is drawn over the data.
type Chart struct {
	Title, Caption string
	// Columns is the number of panels side by side (1 or 2; 0 chooses:
	// one for a single panel, two otherwise).
	Columns int
	Panels  []ChartPanel
}

// ChartPanel is one set of axes of a Chart.
type ChartPanel struct {
	// Kind is "lines" (series of points), "stacked" (one stacked bar per
	// series, its Values one per category) or "bars" (one bar per series,
	// its Values[0]).
	Kind                  string
	Title, XLabel, YLabel string
	LogX, LogY            bool
	// Prob fixes a linear y axis to [0, 1].
	Prob bool
	// XMin and XMax, when XMax > XMin, fix the x axis.
	XMin, XMax float64
	// Categories name the layers of stacked bars, bottom first.
	Categories []string
	Series     []ChartSeries
	// Note is a line added under the panel's legend (what a dotted line
	// means, say).
	Note string
	// Shade, when set, is the top of a light grey region drawn under the
	// series (the 95% band of a validation panel), named ShadeLabel in the
	// legend.
	Shade      []XY
	ShadeLabel string
}

// ChartSeries is one series (or bar) of a panel. The series of a chart
// take distinct colours (Okabe & Ito's, the same for the same label in
// every panel) and markers; their points are drawn by the package's rule
// (markers joined by thin guides, steps for a cumulative probability),
// in the order of x.
type ChartSeries struct {
	Label string
	// Group is the series' game system ("ag", "bd", "d20w", "gm",
	// "grim"): it colours the plain bars of a "bars" panel, one hue per
	// system, named in the legend.
	Group string
	XY    []XY
	// Err, when set, holds the 95% interval [lo, hi] of each point of XY
	// (a simulated value), drawn as whiskers.
	Err [][2]float64
	// Band is drawn as a thin dotted line in the series' colour (the 95%
	// half-width of a simulation, say): a reference, not data.
	Band []XY
	// Values are the bar heights (one per category of stacked bars, or one
	// for a plain bar).
	Values []float64
	// Marks are x positions to mark with dotted verticals (band edges).
	Marks []float64
	// Step draws a cumulative probability of a whole-number variable as
	// the step function it is: "post" for P(X ≤ x), P(X > x) and S(t)
	// (the value holds from x to the next point), "pre" for P(X ≥ x)
	// (from the previous point up to x); "" draws markers and guides.
	Step string
	// Style is the look the plan asks for the series (its colour and
	// dash; a bar takes the colour), over the package's choice.
	Style Style
}

// systemColors are Okabe & Ito's colour-blind-safe hues, one per system,
// for the plain bars of a "bars" panel.
var systemColors = map[string]color.RGBA{
	"ag":   okabeIto[0],
	"grim": okabeIto[1],
	"bd":   okabeIto[2],
	"gm":   okabeIto[3],
	"d20w": okabeIto[4],
}

// otherColors colour the bars of groups that are not systems, in order.
var otherColors = []color.RGBA{okabeIto[5], okabeIto[6], okabeIto[7]}

// categoryColors colour the layers of stacked bars: a win, a tie, a loss.
var categoryColors = []color.RGBA{okabeIto[0], {190, 190, 190, 255}, okabeIto[1], okabeIto[2], okabeIto[3]}

// shade darkens (t < 0) or lightens (t > 0) a colour.
func shade(c color.RGBA, t float64) color.RGBA {
	mix := func(v uint8) uint8 {
		if t < 0 {
			return uint8(float64(v) * (1 + t))
		}
		return uint8(float64(v) + (255-float64(v))*t)
	}
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}

// groupColors are the colours of plain bars: their system's hue.
func groupColors(series []ChartSeries) []color.RGBA {
	other := map[string]int{}
	out := make([]color.RGBA, len(series))
	for i, s := range series {
		c, ok := systemColors[s.Group]
		if !ok {
			k, seen := other[s.Group]
			if !seen {
				k = len(other)
				other[s.Group] = k
			}
			c = otherColors[k%len(otherColors)]
		}
		if asked, err := ParseColor(s.Style.Color); s.Style.Color != "" && err == nil {
			c = asked
		}
		out[i] = c
	}
	return out
}

// chartLooks gives each series of a chart its look: by label across the
// chart's panels when the chart has at most eight labels (a series keeps
// its colour from panel to panel), else by its place in its panel.
func chartLooks(c *Chart) func(panel, i int) look {
	idx := map[string]int{}
	for _, pn := range c.Panels {
		for _, s := range pn.Series {
			if _, ok := idx[s.Label]; !ok {
				idx[s.Label] = len(idx)
			}
		}
	}
	return func(panel, i int) look {
		pn := &c.Panels[panel]
		if len(idx) <= len(okabeIto) {
			return lookOf(idx[pn.Series[i].Label], len(idx))
		}
		return lookOf(i, len(pn.Series))
	}
}

// Panel and figure sizes.
const (
	chartW1     = 9 * vg.Inch  // one column
	chartW2     = 14 * vg.Inch // two columns
	chartPanelH = 4.4 * vg.Inch
)

// WriteChart draws a chart as a PNG: the title across the top, the panels
// in rows of Columns, each with its legend and note under it, and the
// caption across the bottom.
func WriteChart(w io.Writer, c *Chart) error {
	if len(c.Panels) == 0 {
		return fmt.Errorf("chart %q has no panels", c.Title)
	}
	cols := c.Columns
	if cols <= 0 {
		cols = min(2, len(c.Panels))
	}
	cols = min(cols, len(c.Panels))
	width := chartW1
	if cols > 1 {
		width = chartW2
	}
	cellW := (width - 2*figMargin) / vg.Length(cols)
	cells := make([]chartCell, len(c.Panels))
	looks := chartLooks(c)
	spec := &ChartSpec{Title: c.Title, Caption: c.Caption}
	for i := range c.Panels {
		var err error
		if cells[i], err = newChartCell(&c.Panels[i], cellW, func(k int) look { return looks(i, k) }); err != nil {
			return fmt.Errorf("panel %q: %w", c.Panels[i].Title, err)
		}
		spec.Panels = append(spec.Panels, cells[i].spec)
	}
	rowH := make([]vg.Length, (len(cells)+cols-1)/cols)
	for i, cl := range cells {
		rowH[i/cols] = max(rowH[i/cols], chartPanelH+cl.h)
	}
	titleSty, capSty := textStyle(17), textStyle(captionFont)
	title := wrapText(c.Title, titleSty, width-2*figMargin)
	titleH := vg.Length(len(title))*lineHeight(titleSty) + figMargin
	caption := wrapText(c.Caption, capSty, width-2*figMargin)
	capH := vg.Length(0)
	if len(caption) > 0 {
		capH = lineHeight(capSty)*vg.Length(len(caption)) + 2*figMargin
	}
	height := titleH + capH
	for _, h := range rowH {
		height += h
	}
	img := newCanvas(w, width, height)
	dc := draw.New(img)
	centredLines(dc, titleSty, title, width/2, height-figMargin/2)
	y := height - titleH
	for i, cl := range cells {
		cl.draw(dc, figMargin+vg.Length(i%cols)*cellW, y, cellW)
		if i%cols == cols-1 || i == len(cells)-1 {
			y -= rowH[i/cols]
		}
	}
	centredLines(dc, capSty, caption, width/2, y-figMargin/2)
	return img.finish(spec)
}

// chartCell is a panel of a chart, laid out: its plot, its legend in rows
// of cols entries colW wide, the lines of its note, and h, the height the
// legend and the note take under the plot.
type chartCell struct {
	plot   *plot.Plot
	legend []legendEntry
	cols   int
	colW   vg.Length
	note   []string
	h      vg.Length
	spec   PanelSpec
}

// newChartCell builds a panel's plot and lays out what goes under it in a
// cell cellW wide.
func newChartCell(pn *ChartPanel, cellW vg.Length, looks func(i int) look) (chartCell, error) {
	p, leg, spec, err := buildPanel(pn, looks)
	if err != nil {
		return chartCell{}, err
	}
	spec.Title = pn.Title
	spec.Legend = legendSpecs(leg)
	spec.YMin = p.Y.Min
	if _, ok := p.Y.Scale.(plot.LogScale); ok {
		spec.LogY = true
	}
	legSty, capSty := textStyle(legendFontS), textStyle(captionFont)
	colW, lc := (&figure{legend: leg}).legendLayout(legSty, cellW-figMargin)
	rows := 0
	if len(leg) > 0 {
		rows = (len(leg) + lc - 1) / lc
	}
	note := wrapText(pn.Note, capSty, cellW-2*figMargin)
	h := vg.Length(rows)*legendEntryH(legSty) + vg.Length(len(note))*lineHeight(capSty)
	if h > 0 {
		h += figMargin
	}
	return chartCell{plot: p, legend: leg, cols: lc, colW: colW, note: note, h: h, spec: spec}, nil
}

// draw draws the cell with its top-left corner at (x0, y): the plot
// chartPanelH high, then the legend and the note, centred.
func (cl *chartCell) draw(dc draw.Canvas, x0, y, cellW vg.Length) {
	pc := dc
	pc.Min = vg.Point{X: x0, Y: y - chartPanelH}
	pc.Max = vg.Point{X: x0 + cellW, Y: y}
	pc = draw.Crop(pc, figMargin/2, -figMargin/2, 0, -figMargin/2)
	cl.plot.Draw(pc)
	ly := y - chartPanelH - figMargin/2
	if len(cl.legend) > 0 {
		legSty := textStyle(legendFontS)
		entryH := legendEntryH(legSty)
		lx := x0 + (cellW-vg.Length(cl.cols)*cl.colW)/2
		for j, e := range cl.legend {
			r, c := j/cl.cols, j%cl.cols
			drawEntry(dc, legSty, e, lx+vg.Length(c)*cl.colW, ly-vg.Length(r+1)*entryH, entryH)
		}
		ly -= vg.Length((len(cl.legend)+cl.cols-1)/cl.cols) * entryH
	}
	centredLines(dc, textStyle(captionFont), cl.note, x0+cellW/2, ly)
}

// buildPanel makes the plot of one panel, its legend entries and its
// record; looks gives the i-th series its look.
func buildPanel(pn *ChartPanel, looks func(i int) look) (*plot.Plot, []legendEntry, PanelSpec, error) {
	p := newPlot(pn.Title, pn.XLabel, pn.YLabel)
	p.Title.TextStyle.Font.Size = vg.Points(13)
	switch pn.Kind {
	case "stacked", "bars":
		return barPanel(p, pn)
	case "lines", "":
	default:
		return nil, nil, PanelSpec{}, fmt.Errorf("unknown panel kind %q", pn.Kind)
	}
	lp := &linesPanel{p: p, pn: pn, ext: extent{ylo: math.Inf(1), yhi: math.Inf(-1), xInt: true}}
	lp.spec.Kind = "lines"
	switch {
	case pn.tail():
		lp.spec.Kind = "tail"
	case pn.LogX:
		lp.spec.Kind = "validation"
	}
	if len(pn.Shade) > 0 {
		sh := &shadeUnder{xy: positive(pn.Shade, pn.LogX, pn.LogY), color: color.RGBA{225, 225, 225, 255}}
		p.Add(sh)
		lp.legend = append(lp.legend, legendEntry{name: pn.ShadeLabel, thumbs: []plot.Thumbnailer{swatch{sh.color}}})
	}
	for i := range pn.Series {
		if err := lp.series(&pn.Series[i], pn.Series[i].Style.over(looks(i))); err != nil {
			return nil, nil, PanelSpec{}, err
		}
	}
	for _, m := range lp.marks {
		p.Add(m)
	}
	lp.axes()
	if len(lp.legend) == 1 && lp.legend[0].name == pn.YLabel {
		return p, nil, lp.spec, nil
	}
	return p, lp.legend, lp.spec, nil
}

// linesPanel draws a panel of series: their points, their marks (added
// last, over them) and its axes, fitted to what was drawn.
type linesPanel struct {
	p      *plot.Plot
	pn     *ChartPanel
	legend []legendEntry
	marks  []markLine
	ext    extent
	spec   PanelSpec
}

// extent is the range of the values drawn on a panel (bands included),
// and whether every x of a series is a whole number.
type extent struct {
	ylo, yhi float64
	xInt     bool
}

// tail tells a panel of tails: P(X ≥ x) on a log scale, cut at TailFloor.
func (pn *ChartPanel) tail() bool { return pn.LogY && pn.Prob && !pn.LogX }

// series draws one series in look lk by the package's rule (markers and
// guides, or steps), its intervals, and its band as a dotted line; a
// series with no point the axes can show is left out of the legend.
func (lp *linesPanel) series(s *ChartSeries, lk look) error {
	pn := lp.pn
	var xy []XY
	var ci [][2]float64
	for i, q := range s.XY {
		if (pn.LogX && !(q.X > 0)) || (pn.LogY && !(q.Y > 0)) || math.IsNaN(q.Y) || (pn.tail() && q.Y < TailFloor) {
			continue
		}
		xy = append(xy, q)
		if s.Err != nil {
			e := [2]float64{math.NaN(), math.NaN()}
			if i < len(s.Err) {
				e = s.Err[i]
			}
			ci = append(ci, e)
		}
	}
	if len(xy) == 0 {
		return nil
	}
	d := seriesDraw{name: s.Label, xy: xy, ci: ci, look: lk, sim: s.Err != nil, logY: pn.LogY}
	switch s.Step {
	case "post":
		d.step = plotter.PostStep
	case "pre":
		d.step = plotter.PreStep
	}
	thumbs, spec, err := addSeries(lp.p, d)
	if err != nil {
		return err
	}
	lp.spec.Series = append(lp.spec.Series, spec)
	if len(s.Band) > 0 {
		band := positive(s.Band, pn.LogX, pn.LogY)
		sort.SliceStable(band, func(a, b int) bool { return band[a].X < band[b].X })
		bl, err := plotter.NewLine(band)
		if err != nil {
			return err
		}
		bl.Color, bl.Width = lk.col, vg.Points(1.2)
		bl.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		lp.p.Add(bl)
		for _, q := range band {
			lp.ext.ylo, lp.ext.yhi = math.Min(lp.ext.ylo, q.Y), math.Max(lp.ext.yhi, q.Y)
		}
	}
	for _, x := range s.Marks {
		lp.marks = append(lp.marks, markLine{x: x, style: draw.LineStyle{Color: lk.col, Width: vg.Points(0.9),
			Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}})
	}
	for i, q := range xy {
		e := &lp.ext
		e.xInt = e.xInt && q.X == math.Trunc(q.X)
		e.ylo, e.yhi = math.Min(e.ylo, q.Y), math.Max(e.yhi, q.Y)
		if ci != nil && !math.IsNaN(ci[i][1]) {
			e.yhi = math.Max(e.yhi, ci[i][1])
		}
	}
	lp.legend = append(lp.legend, legendEntry{name: s.Label, thumbs: thumbs})
	return nil
}

// axes sets the panel's axes: y logarithmic (by decades), a probability,
// or from 0 (or the lowest value) up; x logarithmic (counts) or linear,
// fixed when the panel gives XMin and XMax.
func (lp *linesPanel) axes() {
	p, pn, ylo, yhi := lp.p, lp.pn, lp.ext.ylo, lp.ext.yhi
	switch {
	case pn.LogY:
		if !(ylo > 0) {
			ylo = 1e-6
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = decadeTicks{}
		p.Y.Min = math.Pow(10, math.Floor(math.Log10(math.Max(ylo, yhi*1e-7))))
		p.Y.Max = math.Pow(10, math.Ceil(math.Log10(yhi)+1e-9))
		if pn.Prob {
			p.Y.Max = 1
		}
		if pn.tail() {
			p.Y.Min = math.Max(p.Y.Min, TailFloor)
		}
	case pn.Prob:
		probAxis(&p.Y)
	default:
		if ylo >= 0 {
			p.Y.Min = 0
		}
		if !(yhi > ylo) {
			p.Y.Max = p.Y.Min + 1
		}
		p.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, false, 8) })
	}
	if pn.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = countTicks{}
	} else {
		xInt := lp.ext.xInt
		p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, xInt, 10) })
	}
	if pn.XMax > pn.XMin {
		p.X.Min, p.X.Max = pn.XMin, pn.XMax
	}
}

// positive keeps the points a logarithmic axis can show, and no point
// whose y is NaN, in the plotting library's form.
func positive(xy []XY, logX, logY bool) plotter.XYs {
	var out plotter.XYs
	for _, q := range xy {
		if (logX && !(q.X > 0)) || (logY && !(q.Y > 0)) || math.IsNaN(q.Y) {
			continue
		}
		out = append(out, plotter.XY(q))
	}
	return out
}

// countTicks labels a logarithmic axis of counts at powers of ten: 100,
// 1k, 10k, 100k, 1M, …
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(math.Log10(lo)); k <= math.Ceil(math.Log10(hi)); k++ {
		v := math.Pow(10, k)
		if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			ts = append(ts, plot.Tick{Value: v, Label: countLabel(v)})
		}
		for m := 2.0; m < 10; m++ {
			if u := m * v; u >= lo && u <= hi {
				ts = append(ts, plot.Tick{Value: u})
			}
		}
	}
	return ts
}

func countLabel(v float64) string {
	switch {
	case v >= 1e9:
		return mechanics.FormatNum(v/1e9) + "G"
	case v >= 1e6:
		return mechanics.FormatNum(v/1e6) + "M"
	case v >= 1e3:
		return mechanics.FormatNum(v/1e3) + "k"
	}
	return mechanics.FormatNum(v)
}

// barPanel draws stacked bars (one per series, a layer per category) or
// plain bars (one per series, coloured by group), the series' labels under
// them. The legend lists only the categories of some mass.
func barPanel(p *plot.Plot, pn *ChartPanel) (*plot.Plot, []legendEntry, PanelSpec, error) {
	n := len(pn.Series)
	var ticks plot.ConstantTicks
	for i, s := range pn.Series {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: s.Label})
	}
	var legend []legendEntry
	spec := PanelSpec{Kind: pn.Kind}
	if pn.Kind == "stacked" {
		sb := &stackedBars{n: n, half: 0.36}
		for k := range pn.Categories {
			vals := make([]float64, n)
			for i, s := range pn.Series {
				if k < len(s.Values) {
					vals[i] = s.Values[k]
				}
			}
			sb.layers = append(sb.layers, vals)
			sb.colors = append(sb.colors, categoryColors[k%len(categoryColors)])
		}
		p.Add(sb)
		for k, c := range pn.Categories {
			m := maxOf(sb.layers[k])
			spec.Series = append(spec.Series, seriesSpec(c, "stacked", latticeXY(0, sb.layers[k]), false, sb.colors[k], false))
			if m < massFloor {
				continue // no mass in any bar: nothing to name
			}
			legend = append(legend, legendEntry{name: c, thumbs: []plot.Thumbnailer{swatch{sb.colors[k]}}, mass: massPtr(m)})
		}
		probAxis(&p.Y)
	} else {
		cols := groupColors(pn.Series)
		vb := &valueBars{half: 0.36, prob: pn.Prob}
		hi := 0.0
		for i, s := range pn.Series {
			v := 0.0
			if len(s.Values) > 0 {
				v = s.Values[0]
			}
			vb.values = append(vb.values, v)
			vb.colors = append(vb.colors, cols[i])
			hi = math.Max(hi, v)
			ss := seriesSpec(s.Label, "bars", []XY{{X: float64(i), Y: v}}, false, cols[i], false)
			ss.Asked = s.Style.spec()
			spec.Series = append(spec.Series, ss)
		}
		p.Add(vb)
		seen := map[string]bool{}
		for i, s := range pn.Series {
			// A group whose bars a plan coloured otherwise is named once
			// per colour.
			if key := s.Group + hexColor(cols[i]); s.Group != "" && !seen[key] {
				seen[key] = true
				legend = append(legend, legendEntry{name: s.Group, thumbs: []plot.Thumbnailer{swatch{cols[i]}}})
			}
		}
		if pn.Prob {
			probAxis(&p.Y)
		} else {
			p.Y.Min, p.Y.Max = 0, hi*1.15
		}
	}
	p.X.Min, p.X.Max = -0.6, float64(n)-0.4
	p.X.Tick.Marker = ticks
	p.X.Tick.Length = 0
	// Long labels are slanted so that they do not run into each other.
	widest := vg.Length(0)
	for _, t := range ticks {
		widest = max(widest, p.X.Tick.Label.Width(t.Label))
	}
	if n > 0 && widest > (chartW2/2-vg.Inch)/vg.Length(n)*0.9 {
		slantLabels(p)
	}
	return p, legend, spec, nil
}

// valueBars draws one bar per value at x = 0 … n−1, its value printed
// above it.
type valueBars struct {
	half   float64
	values []float64
	colors []color.RGBA
	// prob prints the values as probabilities (probLabel3).
	prob bool
}

func (b *valueBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	sty := textStyle(10)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
	for i, v := range b.values {
		x0, x1 := trX(float64(i)-b.half), trX(float64(i)+b.half)
		r := vg.Rectangle{Min: vg.Point{X: x0, Y: trY(0)}, Max: vg.Point{X: x1, Y: trY(v)}}
		c.SetColor(b.colors[i])
		c.Fill(r.Path())
		label := fmt.Sprintf("%.3f", v)
		if b.prob {
			label = probLabel3(v)
		}
		c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: r.Max.Y + vg.Points(2)}, label)
	}
}

func (b *valueBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(b.values)) - 0.5, 0, maxOf(b.values)
}

// ChartRow is one point of a chart's data: the tidy table behind it.
type ChartRow struct {
	Chart, Panel, Series, Mechanic string
	// Quantity says what Y is ("P(success)", "band95", …).
	Quantity string
	X, Y     float64
	// Setting is the parameter setting of the point ("tn=5"), Fingerprint
	// the model's.
	Setting, Fingerprint string
}

// WriteChartCSV writes the rows behind a chart.
func WriteChartCSV(w io.Writer, name, caption string, rows []ChartRow) error {
	fmt.Fprintf(w, "# oddsmith: %s\n# chart: %s\n", mechanics.Version, name)
	for _, l := range strings.Split(caption, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			fmt.Fprintf(w, "# caption: %s\n", l)
		}
	}
	cw := csvWriter(w)
	cw.Write([]string{"chart", "panel", "series", "mechanic", "quantity", "x", "y", "setting", "fingerprint"})
	for _, r := range rows {
		cw.Write([]string{r.Chart, r.Panel, r.Series, r.Mechanic, r.Quantity, num(r.X), num(r.Y), r.Setting, r.Fingerprint})
	}
	cw.Flush()
	return cw.Error()
}

// shadeUnder fills the region under a curve, down to the bottom of the
// data area.
type shadeUnder struct {
	xy    plotter.XYs
	color color.Color
}

func (s *shadeUnder) Plot(c draw.Canvas, plt *plot.Plot) {
	if len(s.xy) < 2 {
		return
	}
	trX, trY := plt.Transforms(&c)
	var path vg.Path
	path.Move(vg.Point{X: trX(s.xy[0].X), Y: c.Min.Y})
	for _, q := range s.xy {
		path.Line(vg.Point{X: trX(q.X), Y: max(c.Min.Y, min(c.Max.Y, trY(q.Y)))})
	}
	path.Line(vg.Point{X: trX(s.xy[len(s.xy)-1].X), Y: c.Min.Y})
	path.Close()
	c.SetColor(s.color)
	c.Fill(path)
}
