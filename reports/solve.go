package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oddsmith/oddsmith/engine"
)

// SolvePlotPoint is one setting a solve evaluated, on a chart of one
// parameter: where it sits on the x axis, the metric there, whether it
// meets every inequality target, and whether it is the answer (nearest
// to the target, or the objective's pick).
type SolvePlotPoint struct {
	X      float64
	Est    engine.Estimate
	Meets  bool
	Chosen bool
}

// SolvePlot is a solve's answer to draw: a metric against one varied
// parameter (a line through the settings evaluated) or over a grid of two
// (a heat map), with the target values, the settings that meet every
// inequality target and the answer marked.
type SolvePlot struct {
	Mechanic string
	// Metric is the metric drawn (its text: event:NAME, p:VAR<=x, …);
	// Targets says every target in words for the title.
	Metric  string
	Targets string
	Caption string
	// Sim draws the 95% intervals of simulated values.
	Sim bool
	// Names are the varied parameters; Labels, per parameter, the words
	// of a parameter of words (its positions 0, 1, … are on the axis).
	Names  []string
	Labels [][]string
	// Lines are the equality target's value, Bands the inequality
	// targets' bounds (either may be infinite), on the metric's scale.
	Lines []float64
	Bands [][2]float64
	// One parameter: the settings evaluated and the x ranges that meet
	// every inequality target.
	Points   []SolvePlotPoint
	Feasible [][2]float64
	// Two parameters: Z[row][col] at (Xs[col], Ys[row]); Meets and Chosen
	// mark cells.
	Xs, Ys        []float64
	Z             [][]float64
	Meets, Chosen [][]bool
	// MeetsLabel says what the outlined cells are.
	MeetsLabel string
}

// Okabe–Ito colours of a solve chart.
var (
	solveLine   = color.RGBA{0, 114, 178, 255}  // blue: the metric
	solveMeets  = color.RGBA{0, 158, 115, 255}  // bluish green: meets the targets
	solveChosen = color.RGBA{213, 94, 0, 255}   // vermillion: the answer
	solveTarget = color.RGBA{0, 0, 0, 255}      // black: target values
	solveShade  = color.NRGBA{0, 158, 115, 45}  // the feasible region
	solveError  = color.RGBA{86, 180, 233, 255} // sky blue: intervals
)

// SolveMetricWords names a metric in words: event:hit → "P(hit)",
// p:damage<=5 → "P(damage ≤ 5)", band:b:L → "P(b is L)", mean:x → "mean
// x", sd:x → "SD of x", quantile:x:0.9 → "90th percentile of x", and sums
// joined by " + ". prob reports a single probability.
func SolveMetricWords(metric string) (label string, prob bool) {
	m, err := engine.ParseMetric(metric)
	if err != nil {
		return metric, false
	}
	var parts []string
	for _, t := range m.Terms {
		switch t.Kind {
		case "event":
			parts = append(parts, "P("+words(t.Name)+")")
		case "band":
			parts = append(parts, "P("+words(t.Name)+" is "+t.Label+")")
		case "p":
			op := map[string]string{"<=": "≤", ">=": "≥", "<": "<", ">": ">", "=": "="}[t.Op]
			parts = append(parts, fmt.Sprintf("P(%s %s %s)", words(t.Name), op, num(t.X)))
		case "mean":
			parts = append(parts, "mean "+words(t.Name))
		case "sd":
			parts = append(parts, "SD of "+words(t.Name))
		case "quantile":
			parts = append(parts, percentile(t.X)+" percentile of "+words(t.Name))
		}
	}
	return strings.Join(parts, " + "), m.Probability() && len(m.Terms) == 1
}

// WriteSolvePlot draws a solve's answer: a line chart for one parameter, a
// heat map for two.
func WriteSolvePlot(w io.Writer, sp *SolvePlot) error {
	if len(sp.Names) == 2 {
		return writeSolveHeatmap(w, sp)
	}
	if len(sp.Points) == 0 {
		return fmt.Errorf("nothing to draw")
	}
	label, prob := SolveMetricWords(sp.Metric)
	title := fmt.Sprintf("%s — %s by %s", sp.Mechanic, label, sp.Names[0])
	if sp.Targets != "" {
		title += "\ntarget: " + strings.NewReplacer("<=", "≤", ">=", "≥").Replace(sp.Targets)
	}
	p := newPlot(title, words(sp.Names[0]), label)
	pts := slices.Clone(sp.Points)
	slices.SortFunc(pts, func(a, b SolvePlotPoint) int { return cmpFloat(a.X, b.X) })
	half := halfGap(pts)
	var legend []legendEntry
	if len(sp.Feasible) > 0 {
		for _, f := range sp.Feasible {
			p.Add(&xShade{x0: f[0] - half, x1: f[1] + half, color: solveShade})
		}
		legend = append(legend, legendEntry{name: "settings that meet every inequality target", thumbs: []plot.Thumbnailer{swatch{solveShade}}})
	}
	var xy, meets, missed, chosen plotter.XYs
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		if math.IsNaN(q.Est.V) {
			continue
		}
		pt := plotter.XY{X: q.X, Y: q.Est.V}
		xy = append(xy, pt)
		if q.Meets {
			meets = append(meets, pt)
		} else {
			missed = append(missed, pt)
		}
		if q.Chosen {
			chosen = append(chosen, pt)
		}
		lo, hi = math.Min(lo, q.Est.Lo), math.Max(hi, q.Est.Hi)
	}
	line, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	line.Color, line.Width = solveLine, vg.Points(1.5)
	if sp.Labels[0] != nil {
		line.Width = 0 // words: no line between them
	} else {
		p.Add(line)
	}
	if sp.Sim {
		var errs solveErrors
		for _, q := range pts {
			if !math.IsNaN(q.Est.V) {
				errs = append(errs, q)
			}
		}
		eb, err := plotter.NewYErrorBars(errs)
		if err != nil {
			return err
		}
		eb.Color, eb.Width, eb.CapWidth = solveError, vg.Points(1.2), vg.Points(5)
		p.Add(eb)
		legend = append(legend, legendEntry{name: "95% interval of the simulated value", thumbs: []plot.Thumbnailer{barThumb{draw.LineStyle{Color: solveError, Width: vg.Points(1.2)}}}})
	}
	dots := func(xys plotter.XYs, c color.Color, g draw.GlyphDrawer, r float64) (*plotter.Scatter, error) {
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape, sc.Radius = c, g, vg.Points(r)
		return sc, nil
	}
	small := len(pts) <= 80
	ring := 3.5
	if !small {
		ring = 2
	}
	if len(missed) > 0 {
		sc, err := dots(missed, solveLine, draw.RingGlyph{}, ring)
		if err != nil {
			return err
		}
		p.Add(sc)
		legend = append(legend, legendEntry{name: label + " at a setting evaluated", thumbs: []plot.Thumbnailer{line, sc}})
	}
	if len(meets) > 0 && len(sp.Feasible) > 0 {
		sc, err := dots(meets, solveMeets, draw.CircleGlyph{}, ring)
		if err != nil {
			return err
		}
		p.Add(sc)
		legend = append(legend, legendEntry{name: "a setting that meets the targets", thumbs: []plot.Thumbnailer{sc}})
	} else if len(meets) > 0 {
		sc, err := dots(meets, solveLine, draw.RingGlyph{}, ring)
		if err != nil {
			return err
		}
		p.Add(sc)
		if len(missed) == 0 {
			legend = append(legend, legendEntry{name: label + " at a setting evaluated", thumbs: []plot.Thumbnailer{line, sc}})
		}
	}
	if len(chosen) > 0 {
		sc, err := dots(chosen, solveChosen, thickRing{}, 7)
		if err != nil {
			return err
		}
		p.Add(sc)
		legend = append(legend, legendEntry{name: "the answer", thumbs: []plot.Thumbnailer{sc}})
	}
	var targetLines []float64
	targetLines = append(targetLines, sp.Lines...)
	for _, b := range sp.Bands {
		for _, v := range b {
			if !math.IsInf(v, 0) {
				targetLines = append(targetLines, v)
			}
		}
	}
	if len(targetLines) > 0 {
		sty := draw.LineStyle{Color: solveTarget, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		for _, v := range targetLines {
			p.Add(markLine{x: v, horizontal: true, style: sty})
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		legend = append(legend, legendEntry{name: "target", thumbs: []plot.Thumbnailer{lineThumb{sty}}})
	}
	if prob {
		probAxis(&p.Y)
	} else if lo < hi {
		pad := (hi - lo) * 0.05
		p.Y.Min, p.Y.Max = lo-pad, hi+pad
	}
	if labels := sp.Labels[0]; labels != nil {
		var ts plot.ConstantTicks
		for i, l := range labels {
			ts = append(ts, plot.Tick{Value: float64(i), Label: l})
		}
		p.X.Tick.Marker = ts
		p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	} else {
		xInt := true
		for _, q := range pts {
			xInt = xInt && q.X == math.Trunc(q.X)
		}
		p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return niceTicks(lo, hi, xInt, 10) })
	}
	return (&figure{plot: p, caption: sp.Caption, legend: legend}).write(w)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// halfGap is half the smallest distance between neighbouring settings:
// how far a shaded run reaches past its ends.
func halfGap(pts []SolvePlotPoint) float64 {
	g := math.Inf(1)
	for i := 1; i < len(pts); i++ {
		if d := pts[i].X - pts[i-1].X; d > 0 {
			g = math.Min(g, d)
		}
	}
	if math.IsInf(g, 1) {
		return 0.5
	}
	return g / 2
}

// solveErrors are simulated values with their 95% intervals.
type solveErrors []SolvePlotPoint

func (e solveErrors) Len() int                    { return len(e) }
func (e solveErrors) XY(i int) (float64, float64) { return e[i].X, e[i].Est.V }
func (e solveErrors) YError(i int) (float64, float64) {
	return e[i].Est.V - e[i].Est.Lo, e[i].Est.Hi - e[i].Est.V
}

// xShade fills the data area between two x values.
type xShade struct {
	x0, x1 float64
	color  color.Color
}

func (s *xShade) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x0, x1 := max(trX(s.x0), c.Min.X), min(trX(s.x1), c.Max.X)
	if x1 <= x0 {
		return
	}
	c.SetColor(s.color)
	c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x1, Y: c.Max.Y}}.Path())
}

// DataRange keeps the shaded ends on the chart.
func (s *xShade) DataRange() (xmin, xmax, ymin, ymax float64) {
	return s.x0, s.x1, math.NaN(), math.NaN()
}

// barThumb is a legend thumbnail: an error bar.
type barThumb struct{ style draw.LineStyle }

func (b barThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	w := (c.Max.X - c.Min.X) / 8
	c.StrokeLine2(b.style, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(b.style, x-w, c.Min.Y, x+w, c.Min.Y)
	c.StrokeLine2(b.style, x-w, c.Max.Y, x+w, c.Max.Y)
}

// thickRing is a ring glyph drawn with a heavy line, to mark the answer.
type thickRing struct{}

func (thickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: sty.Radius / 3})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// lineThumb is a legend thumbnail: a horizontal line.
type lineThumb struct{ style draw.LineStyle }

func (l lineThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// writeSolveHeatmap draws the metric over a grid of two parameters, the
// cells that meet every inequality target outlined and the answer ringed.
func writeSolveHeatmap(w io.Writer, sp *SolvePlot) error {
	label, prob := SolveMetricWords(sp.Metric)
	lo, hi := 0.0, 1.0
	if !prob {
		lo, hi = zRange(sp.Z)
	}
	if lo == hi {
		hi = lo + 1e-9
	}
	hm := plotter.NewHeatMap(grid{xs: sp.Xs, ys: sp.Ys, z: sp.Z}, moreland.SmoothBlueRed().Palette(255))
	hm.Min, hm.Max = lo, hi
	title := fmt.Sprintf("%s — %s by %s and %s", sp.Mechanic, label, sp.Names[0], sp.Names[1])
	if sp.Targets != "" {
		title += "\ntarget: " + strings.NewReplacer("<=", "≤", ">=", "≥").Replace(sp.Targets)
	}
	p := newPlot(title, words(sp.Names[0]), words(sp.Names[1]))
	p.Add(hm)
	p.X.Tick.Marker = valueTicks(sp.Xs, sp.Labels[0])
	p.Y.Tick.Marker = valueTicks(sp.Ys, sp.Labels[1])
	if len(sp.Xs)*len(sp.Ys) <= 400 {
		l, err := cellLabels(&Heatmap{Xs: sp.Xs, Ys: sp.Ys, Z: sp.Z}, lo, hi, prob)
		if err != nil {
			return err
		}
		p.Add(l)
	}
	var legend []legendEntry
	outline := draw.LineStyle{Color: color.Black, Width: vg.Points(2.2)}
	if anyCell(sp.Meets) {
		p.Add(&cellMarks{xs: sp.Xs, ys: sp.Ys, cells: sp.Meets, style: outline})
		legend = append(legend, legendEntry{name: cmp.Or(sp.MeetsLabel, "outlined: settings that meet every inequality target"), thumbs: []plot.Thumbnailer{boxThumb{outline}}})
	}
	if anyCell(sp.Chosen) {
		ring := draw.LineStyle{Color: solveChosen, Width: vg.Points(2.5)}
		p.Add(&cellMarks{xs: sp.Xs, ys: sp.Ys, cells: sp.Chosen, style: ring, inset: 0.18})
		legend = append(legend, legendEntry{name: "the answer", thumbs: []plot.Thumbnailer{boxThumb{ring}}})
	}
	return (&figure{plot: p, colorBar: colorBar(label, lo, hi, prob), caption: sp.Caption, legend: legend}).write(w)
}

func anyCell(cells [][]bool) bool {
	for _, row := range cells {
		if slices.Contains(row, true) {
			return true
		}
	}
	return false
}

// cellMarks outlines the marked cells of a heat map (inset: a fraction of
// the cell kept clear on each side).
type cellMarks struct {
	xs, ys []float64
	cells  [][]bool
	style  draw.LineStyle
	inset  float64
}

// cellEdges are the boundaries of cells centred on vs (half way between
// neighbours).
func cellEdges(vs []float64, i int) (float64, float64) {
	gap := func(j int) float64 {
		if len(vs) < 2 {
			return 1
		}
		if j <= 0 {
			return vs[1] - vs[0]
		}
		return vs[j] - vs[j-1]
	}
	left := gap(i) / 2
	right := left
	if i+1 < len(vs) {
		right = (vs[i+1] - vs[i]) / 2
	}
	if i == 0 && len(vs) > 1 {
		left = right
	}
	return vs[i] - left, vs[i] + right
}

func (m *cellMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for r, row := range m.cells {
		for col, on := range row {
			if !on {
				continue
			}
			x0, x1 := cellEdges(m.xs, col)
			y0, y1 := cellEdges(m.ys, r)
			dx, dy := (x1-x0)*m.inset, (y1-y0)*m.inset
			a := vg.Point{X: trX(x0 + dx), Y: trY(y0 + dy)}
			b := vg.Point{X: trX(x1 - dx), Y: trY(y1 - dy)}
			var path vg.Path
			path.Move(a)
			path.Line(vg.Point{X: b.X, Y: a.Y})
			path.Line(b)
			path.Line(vg.Point{X: a.X, Y: b.Y})
			path.Close()
			c.SetLineStyle(m.style)
			c.Stroke(path)
		}
	}
}

// boxThumb is a legend thumbnail: an outlined square.
type boxThumb struct{ style draw.LineStyle }

func (b boxThumb) Thumbnail(c *draw.Canvas) {
	w, h := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
	side := vg.Length(math.Min(float64(w), float64(h))) * 0.8
	x0, y0 := c.Min.X+(w-side)/2, c.Min.Y+(h-side)/2
	r := vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x0 + side, Y: y0 + side}}
	c.SetLineStyle(b.style)
	c.Stroke(r.Path())
}
