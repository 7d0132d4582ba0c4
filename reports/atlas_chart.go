package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
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

// ChartSeries is one line (or bar) of a panel.
type ChartSeries struct {
	Label string
	// Group picks the colour: series of one game system ("ag", "bd",
	// "d20w", "gm", "grim") share its hue, in shades, and differ in marker
	// and dash.
	Group string
	XY    []XY
	// Band is drawn as a thin dotted line in the series' colour (the 95%
	// half-width of a simulation, say).
	Band []XY
	// Values are the bar heights (one per category of stacked bars, or one
	// for a plain bar).
	Values []float64
	// Marks are x positions to mark with dotted verticals (band edges).
	Marks []float64
	// Step draws the line as a staircase (a distribution over whole
	// numbers, a survival curve); NoPoints leaves the markers off.
	Step, NoPoints bool
}

// systemColors are Okabe & Ito's colour-blind-safe hues, one per system.
var systemColors = map[string]color.RGBA{
	"ag":   {0, 114, 178, 255},
	"grim": {213, 94, 0, 255},
	"bd":   {0, 158, 115, 255},
	"gm":   {204, 121, 167, 255},
	"d20w": {230, 159, 0, 255},
}

// otherColors colour the series of groups that are not systems, in order.
var otherColors = []color.RGBA{{86, 180, 233, 255}, {0, 0, 0, 255}, {240, 228, 66, 255}}

// categoryColors colour the layers of stacked bars: a win, a tie, a loss.
var categoryColors = []color.RGBA{{0, 114, 178, 255}, {190, 190, 190, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255}}

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

// seriesStyle is the colour, dash and marker of the i-th series of a
// panel: the hue of its group, and within a group of n series, shades from
// dark to light with a different marker and dash each.
type seriesStyle struct {
	col    color.RGBA
	dashes []vg.Length
	glyph  draw.GlyphDrawer
	width  vg.Length
}

func panelStyles(series []ChartSeries) []seriesStyle {
	count, other := map[string]int{}, map[string]int{}
	for _, s := range series {
		count[s.Group]++
		if _, ok := systemColors[s.Group]; !ok {
			if _, seen := other[s.Group]; !seen {
				other[s.Group] = len(other)
			}
		}
	}
	idx := map[string]int{}
	out := make([]seriesStyle, len(series))
	for i, s := range series {
		base, ok := systemColors[s.Group]
		if !ok {
			base = otherColors[other[s.Group]%len(otherColors)]
		}
		k, n := idx[s.Group], count[s.Group]
		idx[s.Group]++
		t := 0.0
		if n > 1 {
			t = -0.3 + 0.65*float64(k)/float64(n-1) // dark … light
		}
		out[i] = seriesStyle{
			col:    shade(base, t),
			dashes: seriesDashes[k%len(seriesDashes)],
			glyph:  seriesGlyphs[k%len(seriesGlyphs)],
			width:  vg.Points(2.2),
		}
	}
	return out
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
	for i := range c.Panels {
		var err error
		if cells[i], err = newChartCell(&c.Panels[i], cellW); err != nil {
			return fmt.Errorf("panel %q: %w", c.Panels[i].Title, err)
		}
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
	return img.finish()
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
}

// newChartCell builds a panel's plot and lays out what goes under it in a
// cell cellW wide.
func newChartCell(pn *ChartPanel, cellW vg.Length) (chartCell, error) {
	p, leg, err := buildPanel(pn)
	if err != nil {
		return chartCell{}, err
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
	return chartCell{plot: p, legend: leg, cols: lc, colW: colW, note: note, h: h}, nil
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

// buildPanel makes the plot of one panel and its legend entries.
func buildPanel(pn *ChartPanel) (*plot.Plot, []legendEntry, error) {
	p := newPlot(pn.Title, pn.XLabel, pn.YLabel)
	p.Title.TextStyle.Font.Size = vg.Points(13)
	switch pn.Kind {
	case "stacked", "bars":
		return barPanel(p, pn)
	case "lines", "":
	default:
		return nil, nil, fmt.Errorf("unknown panel kind %q", pn.Kind)
	}
	lp := &linesPanel{p: p, pn: pn, ext: extent{ylo: math.Inf(1), yhi: math.Inf(-1), xInt: true}}
	if len(pn.Shade) > 0 {
		sh := &shadeUnder{xy: positive(pn.Shade, pn.LogX, pn.LogY), color: color.RGBA{225, 225, 225, 255}}
		p.Add(sh)
		lp.legend = append(lp.legend, legendEntry{name: pn.ShadeLabel, thumbs: []plot.Thumbnailer{swatch{sh.color}}})
	}
	for i, st := range panelStyles(pn.Series) {
		if err := lp.series(&pn.Series[i], st); err != nil {
			return nil, nil, err
		}
	}
	for _, m := range lp.marks {
		p.Add(m)
	}
	lp.axes()
	if len(lp.legend) == 1 && lp.legend[0].name == pn.YLabel {
		return p, nil, nil
	}
	return p, lp.legend, nil
}

// linesPanel draws a panel of lines: its series, their marks (added last,
// over the lines) and its axes, fitted to what was drawn.
type linesPanel struct {
	p      *plot.Plot
	pn     *ChartPanel
	legend []legendEntry
	marks  []markLine
	ext    extent
}

// extent is the range of the values drawn on a panel (bands included),
// and whether every x of a series is a whole number.
type extent struct {
	ylo, yhi float64
	xInt     bool
}

// series draws one series in style st: its line, its markers (for up to
// 80 points, unless NoPoints) and its band as a dotted line; a series with
// no point the axes can show is left out of the legend.
func (lp *linesPanel) series(s *ChartSeries, st seriesStyle) error {
	pn := lp.pn
	xy := plotXYs(s.XY)
	if pn.LogY || pn.LogX {
		xy = positive(s.XY, pn.LogX, pn.LogY)
	}
	if len(xy) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color, l.Dashes, l.Width = st.col, st.dashes, st.width
	if s.Step {
		l.StepStyle = plotter.PostStep
		if pn.LogY {
			l.StepStyle = plotter.PreStep // P(X ≥ x) holds up to x
		}
	}
	lp.p.Add(l)
	thumbs := []plot.Thumbnailer{l}
	if !s.NoPoints && len(xy) <= 80 {
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		sc.Color, sc.Shape, sc.Radius = st.col, st.glyph, vg.Points(3.2)
		lp.p.Add(sc)
		thumbs = append(thumbs, sc)
	}
	if len(s.Band) > 0 {
		band := positive(s.Band, pn.LogX, pn.LogY)
		bl, err := plotter.NewLine(band)
		if err != nil {
			return err
		}
		bl.Color, bl.Width = st.col, vg.Points(1.2)
		bl.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		lp.p.Add(bl)
		for _, q := range band {
			lp.ext.ylo, lp.ext.yhi = math.Min(lp.ext.ylo, q.Y), math.Max(lp.ext.yhi, q.Y)
		}
	}
	for _, x := range s.Marks {
		lp.marks = append(lp.marks, markLine{x: x, style: draw.LineStyle{Color: st.col, Width: vg.Points(0.9),
			Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}})
	}
	for _, q := range xy {
		e := &lp.ext
		e.xInt = e.xInt && q.X == math.Trunc(q.X)
		e.ylo, e.yhi = math.Min(e.ylo, q.Y), math.Max(e.yhi, q.Y)
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
// them.
func barPanel(p *plot.Plot, pn *ChartPanel) (*plot.Plot, []legendEntry, error) {
	n := len(pn.Series)
	var ticks plot.ConstantTicks
	for i, s := range pn.Series {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: s.Label})
	}
	var legend []legendEntry
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
			legend = append(legend, legendEntry{name: c, thumbs: []plot.Thumbnailer{swatch{sb.colors[k]}}})
		}
		probAxis(&p.Y)
	} else {
		styles := panelStyles(pn.Series)
		vb := &valueBars{half: 0.36}
		hi := 0.0
		for i, s := range pn.Series {
			v := 0.0
			if len(s.Values) > 0 {
				v = s.Values[0]
			}
			vb.values = append(vb.values, v)
			vb.colors = append(vb.colors, styles[i].col)
			hi = math.Max(hi, v)
		}
		p.Add(vb)
		seen := map[string]bool{}
		for i, s := range pn.Series {
			if s.Group != "" && !seen[s.Group] {
				seen[s.Group] = true
				legend = append(legend, legendEntry{name: s.Group, thumbs: []plot.Thumbnailer{swatch{systemColorOr(s.Group, styles[i].col)}}})
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
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
	}
	return p, legend, nil
}

func systemColorOr(g string, c color.RGBA) color.RGBA {
	if s, ok := systemColors[g]; ok {
		return s
	}
	return c
}

// valueBars draws one bar per value at x = 0 … n−1, its value printed
// above it.
type valueBars struct {
	half   float64
	values []float64
	colors []color.RGBA
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
		c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: r.Max.Y + vg.Points(2)}, fmt.Sprintf("%.3f", v))
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
