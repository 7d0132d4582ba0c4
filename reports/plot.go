package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oddsmith/oddsmith/mechanics"
)

// Plot sizes.
const (
	plotW = 8 * vg.Inch
	plotH = 5 * vg.Inch
)

// Caption is the one-line description of what a result was computed with,
// for plot captions: engine, parameters and non-default-looking options.
func Caption(r *mechanics.Result) string {
	var opts []string
	for _, o := range r.Options {
		name := o.Name
		if i := strings.LastIndex(name, ".opt."); i >= 0 {
			name = name[i+5:]
		} else if i := strings.LastIndex(name, "."); i >= 0 {
			name = name[i+1:]
		}
		opts = append(opts, name+"="+o.Value)
	}
	c := r.Engine + " · " + paramString(r)
	if r.Engine == "sim" {
		c += fmt.Sprintf(" · n=%d seed=%d", r.Trials, r.Seed)
	}
	return wrap(c, captionWidth) + "\n" + wrap("options: "+strings.Join(opts, " "), captionWidth)
}

// captionWidth is the longest caption line, in characters, that fits the
// plot's width in the caption font.
const captionWidth = 92

func wrap(s string, width int) string {
	var lines []string
	var cur string
	for _, w := range strings.Fields(s) {
		if len(cur)+len(w)+1 > width && cur != "" {
			lines = append(lines, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	return strings.Join(append(lines, cur), "\n")
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

func save(p *plot.Plot, w io.Writer) error {
	wt, err := p.WriterTo(plotW, plotH, "png")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// WritePMF draws a variable's PMF as bars with the mean marked.
func WritePMF(w io.Writer, r *mechanics.Result, v *mechanics.VarResult) error {
	// The mean is named in the axis label, not in a legend that could
	// cover bars.
	p := newPlot(fmt.Sprintf("%s — distribution of %s", r.Mechanic, v.Name),
		fmt.Sprintf("%s; dashed line: mean %.3f (sd %.3f)\n%s", axisLabel(v), v.Stats.Mean, v.Stats.SD, Caption(r)), "probability")
	// Bars stand at the lattice units Lo+i; the ticks print the values.
	den := float64(max(v.Den, 1))
	if v.Den > 1 {
		p.X.Tick.Marker = scaledTicks{den}
	}
	vals := make(plotter.Values, len(v.P))
	copy(vals, v.P)
	bars, err := plotter.NewBarChart(vals, vg.Points(max(2, 400/float64(len(vals)+1))))
	if err != nil {
		return err
	}
	bars.Color = color.RGBA{R: 70, G: 110, B: 180, A: 255}
	bars.LineStyle.Width = 0
	bars.XMin = float64(v.Lo)
	p.Add(bars)
	ml, err := plotter.NewLine(plotter.XYs{{X: v.Stats.Mean * den, Y: 0}, {X: v.Stats.Mean * den, Y: maxOf(v.P) * 1.05}})
	if err != nil {
		return err
	}
	ml.Color = color.RGBA{R: 200, G: 40, B: 40, A: 255}
	ml.Width = vg.Points(2)
	ml.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(ml)
	p.Y.Min = 0
	return save(p, w)
}

// axisLabel names a variable's axis in words, with its unit.
func axisLabel(v *mechanics.VarResult) string {
	l := strings.ReplaceAll(v.Name, "_", " ")
	if v.Unit != "" {
		l += " (" + v.Unit + ")"
	}
	return l
}

// scaledTicks labels an axis in lattice units u with the values u/den.
type scaledTicks struct{ den float64 }

func (s scaledTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo/s.den, hi/s.den)
	for i := range ts {
		ts[i].Value *= s.den
	}
	return ts
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

// WriteAtLeast draws P(X ≥ x) for a variable.
func WriteAtLeast(w io.Writer, r *mechanics.Result, v *mechanics.VarResult) error {
	p := newPlot(fmt.Sprintf("%s — P(%s ≥ x)", r.Mechanic, v.Name), "x = "+axisLabel(v)+"\n"+Caption(r), "P(at least x)")
	var pts plotter.XYs
	tail := 0.0
	for i := len(v.P) - 1; i >= 0; i-- {
		tail += v.P[i]
		pts = append(pts, plotter.XY{X: v.Value(i), Y: math.Min(tail, 1)})
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
	l, sc, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	l.Color = color.RGBA{R: 70, G: 110, B: 180, A: 255}
	sc.Shape = draw.CircleGlyph{}
	p.Add(l, sc)
	p.Y.Min, p.Y.Max = 0, 1
	return save(p, w)
}

// WriteSurvival draws S(t) of a process.
func WriteSurvival(w io.Writer, r *mechanics.Result) error {
	pr := r.Process
	p := newPlot(fmt.Sprintf("%s — still going after t %ss", r.Mechanic, unit(pr.TimeUnit)), unit(pr.TimeUnit)+"s\n"+Caption(r), "S(t) = P(T > t)")
	var pts plotter.XYs
	for t, s := range pr.Survival {
		pts = append(pts, plotter.XY{X: float64(t), Y: s})
		if s < 1e-3 && t >= 5 {
			break // the rest of the horizon is flat at ~0
		}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.StepStyle = plotter.PostStep
	l.Width = vg.Points(2)
	l.Color = color.RGBA{R: 70, G: 110, B: 180, A: 255}
	p.Add(l)
	p.Y.Min, p.Y.Max = 0, 1
	return save(p, w)
}

// WriteBands draws one stacked bar per result (e.g. one per TN) of a
// categorical band, labelled by labels.
func WriteBands(w io.Writer, title, caption string, labels []string, rs []*mechanics.Result, band string) error {
	if len(rs) == 0 {
		return fmt.Errorf("no results to plot")
	}
	var b0 *mechanics.BandResult
	for i := range rs[0].Bands {
		if rs[0].Bands[i].Name == band {
			b0 = &rs[0].Bands[i]
		}
	}
	if b0 == nil {
		return fmt.Errorf("%s has no band %q", rs[0].Mechanic, band)
	}
	if caption == "" {
		caption = Caption(rs[0])
	}
	p := newPlot(title, "\n"+caption, "probability")
	pal := moreland.SmoothBlueRed().Palette(max(2, len(b0.Labels)))
	width := vg.Points(math.Max(8, 360/float64(len(rs))))
	var below *plotter.BarChart
	for k, label := range b0.Labels {
		vals := make(plotter.Values, len(rs))
		for i, r := range rs {
			for _, b := range r.Bands {
				if b.Name == band {
					vals[i] = b.P[k]
				}
			}
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bc.Color = pal.Colors()[k]
		bc.LineStyle.Width = 0
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
		p.Legend.Add(label, bc)
	}
	p.Legend.Top = true
	p.Legend.Left = false
	p.NominalX(labels...)
	// Headroom above the bars for the legend.
	p.Y.Min, p.Y.Max = 0, 1+0.07*float64(len(b0.Labels))
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}}
	return save(p, w)
}

// Series is one line of an overlay plot.
type Series struct {
	Name string
	XY   plotter.XYs
}

// WriteLines overlays several series (mechanics, option settings or systems).
func WriteLines(w io.Writer, title, x, y, caption string, series []Series) error {
	p := newPlot(title, x+"\n"+caption, y)
	pal := palette.Rainbow(max(2, len(series)), palette.Blue, palette.Red, 1, 0.8, 1)
	for i, s := range series {
		l, sc, err := plotter.NewLinePoints(s.XY)
		if err != nil {
			return err
		}
		l.Color = pal.Colors()[i]
		l.Width = vg.Points(2)
		sc.Color = pal.Colors()[i]
		p.Add(l, sc)
		p.Legend.Add(s.Name, l)
	}
	p.Legend.Top = true
	return save(p, w)
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

// WriteHeatmap draws Z over (x, y) with the values printed in the cells and
// a colour bar.
func WriteHeatmap(w io.Writer, title, xName, yName, zName, caption string, xs, ys []float64, z [][]float64) error {
	g := grid{xs: xs, ys: ys, z: z}
	pal := moreland.SmoothBlueRed().Palette(255)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range z {
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo == hi {
		hi = lo + 1e-9
	}
	hm := plotter.NewHeatMap(g, pal)
	hm.Min, hm.Max = lo, hi
	p := newPlot(title, xName+"\n"+caption, yName)
	p.Add(hm)
	p.X.Tick.Marker = valueTicks(xs)
	p.Y.Tick.Marker = valueTicks(ys)
	var lbls plotter.XYLabels
	for r, y := range ys {
		for c, x := range xs {
			lbls.XYs = append(lbls.XYs, plotter.XY{X: x, Y: y})
			lbls.Labels = append(lbls.Labels, fmt.Sprintf("%.2f", z[r][c]))
		}
	}
	if len(xs)*len(ys) <= 400 {
		l, err := plotter.NewLabels(lbls)
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign = draw.XCenter
			l.TextStyle[i].YAlign = draw.YCenter
			l.TextStyle[i].Font.Size = vg.Points(8)
		}
		p.Add(l)
	}
	cb := plot.New()
	cb.HideY()
	cb.X.Label.Text = zName
	cm := moreland.SmoothBlueRed()
	cm.SetMin(lo)
	cm.SetMax(hi)
	bar := &plotter.ColorBar{ColorMap: cm}
	cb.Add(bar)
	img := vgimgCanvas()
	dc := draw.New(img)
	top := draw.Canvas{Canvas: dc.Canvas, Rectangle: dc.Rectangle}
	top.Min.Y += vg.Inch * 0.9
	p.Draw(top)
	bottom := draw.Canvas{Canvas: dc.Canvas, Rectangle: dc.Rectangle}
	bottom.Max.Y = bottom.Min.Y + vg.Inch*0.8
	bottom.Min.X += vg.Inch * 0.8
	bottom.Max.X -= vg.Inch * 0.3
	cb.Draw(bottom)
	return writeCanvas(img, w)
}

// valueTicks puts one labelled tick on each grid value (thinned to ~15).
func valueTicks(vs []float64) plot.ConstantTicks {
	step := max(1, len(vs)/15)
	var t plot.ConstantTicks
	for i, v := range vs {
		if i%step == 0 {
			t = append(t, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
		}
	}
	return t
}
