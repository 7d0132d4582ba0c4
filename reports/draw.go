package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oddsmith/oddsmith/engine"
)

// How every chart draws its data — one rule for all kinds:
//
//   - A value known only at the points computed (a sweep's setting, an
//     overlay's point, P(X = x) of a variable on a lattice) is a marker at
//     that point; the markers of one series are joined by a thin, pale
//     guide that leads the eye and is visibly not data (nothing is
//     computed between two settings: there is no TN 6.5). A single PMF is
//     drawn as bars.
//   - A cumulative probability of a variable on a lattice (P(X ≤ x),
//     P(X ≥ x), P(X > x), S(t)) is a step function — it holds between
//     the lattice points — and is drawn as steps, with a marker on each
//     lattice point where there are at most stepMarkersMax of them.
//   - Points are drawn in the order of x.
//   - Simulated values carry their 95% intervals (Wilson for
//     probabilities): whiskers where there are at most whiskersMax points,
//     thin dotted lines at the ends of the interval otherwise.
//   - Series of one chart take Okabe & Ito's eight colours, which stay
//     apart for colour-blind readers, in order, each with its own marker;
//     dash patterns only past eight series.
//   - A tail on a log scale stops at TailFloor.
const (
	stepMarkersMax = 60
	whiskersMax    = 80
)

// TailFloor is the smallest probability a tail plot draws unless asked
// for less: below it a chance is a curiosity, not a design fact.
const TailFloor = 1e-6

// okabeIto are Okabe & Ito's colour-blind-safe colours, in the order the
// series of a chart take them.
var okabeIto = []color.RGBA{
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermillion
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{0, 0, 0, 255},       // black
	{240, 228, 66, 255},  // yellow
}

// look is how the i-th series of a chart is drawn: its colour, its
// marker, and past eight series a dash pattern.
type look struct {
	col    color.RGBA
	glyph  draw.GlyphDrawer
	dashes []vg.Length
	// shrink makes the markers of later series a little smaller, so
	// that a series drawn over an identical one leaves it visible
	// around them (0 for none).
	shrink float64
	// asked is the look a plan asked for (Style.over), for the spec.
	asked *StyleSpec
}

// lookOf is the look of the i-th of n series: the i-th colour and
// marker, and with more than eight series, the (i/8)-th dash pattern.
func lookOf(i, n int) look {
	l := look{col: okabeIto[i%len(okabeIto)], glyph: seriesGlyphs[i%len(seriesGlyphs)], shrink: 0.12 * float64(min(i, 4))}
	if n > len(okabeIto) {
		l.dashes = seriesDashes[(i/len(okabeIto))%len(seriesDashes)]
	}
	return l
}

// markerRadius is the radius of the markers of a series of n points:
// smaller as they crowd.
func markerRadius(n int) vg.Length {
	switch {
	case n <= 40:
		return vg.Points(3.2)
	case n <= 120:
		return vg.Points(2.2)
	}
	return vg.Points(1.5)
}

// guideColor is the pale colour of the guide joining a series' markers.
func guideColor(c color.RGBA) color.Color { return color.NRGBA{R: c.R, G: c.G, B: c.B, A: 120} }

// seriesDraw is one series to draw by the rule above.
type seriesDraw struct {
	name string
	xy   []XY
	// ci, when set, holds each point's 95% interval [lo, hi].
	ci   [][2]float64
	look look
	// step draws a step function (plotter.PreStep for P(X ≥ x),
	// PostStep for P(X ≤ x), P(X > x) and S(t)); NoStep draws markers and
	// guides.
	step plotter.StepKind
	// sim marks simulated values.
	sim bool
	// logY keeps only the points a logarithmic y axis can show.
	logY bool
	// alone draws markers with no guide (points of a categorical axis).
	alone bool
	// width is the width of a step line (2 points when 0).
	width vg.Length
	// offset shifts the markers and whiskers along x (data units), so
	// that series on the same points stay visible.
	offset float64
}

// sortXY sorts points by x, their intervals with them, dropping points
// whose y is NaN (and, for a log axis, not positive).
func sortXY(xy []XY, ci [][2]float64, logY bool) ([]XY, [][2]float64) {
	idx := make([]int, 0, len(xy))
	for i, q := range xy {
		if math.IsNaN(q.Y) || math.IsNaN(q.X) || (logY && !(q.Y > 0)) {
			continue
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return xy[idx[a]].X < xy[idx[b]].X })
	out := make([]XY, len(idx))
	var oci [][2]float64
	if ci != nil {
		oci = make([][2]float64, len(idx))
	}
	for k, i := range idx {
		out[k] = xy[i]
		if ci != nil && i < len(ci) {
			oci[k] = ci[i]
		} else if ci != nil {
			oci[k] = [2]float64{math.NaN(), math.NaN()}
		}
	}
	return out, oci
}

// addSeries draws a series by the rule above and returns its legend
// thumbnails and its record.
func addSeries(p *plot.Plot, d seriesDraw) ([]plot.Thumbnailer, SeriesSpec, error) {
	xy, ci := sortXY(d.xy, d.ci, d.logY)
	if len(xy) == 0 {
		return nil, SeriesSpec{Name: d.name, Draw: "markers", Sorted: true}, nil
	}
	pts := plotXYs(xy)
	moved := pts
	if d.offset != 0 {
		moved = make(plotter.XYs, len(pts))
		for i, q := range pts {
			moved[i] = plotter.XY{X: q.X + d.offset, Y: q.Y}
		}
	}
	var thumbs []plot.Thumbnailer
	markers := true
	draw := "markers"
	if d.step != plotter.NoStep {
		draw = "steps"
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, SeriesSpec{}, err
		}
		l.StepStyle = d.step
		l.Color, l.Width, l.Dashes = d.look.col, cmp.Or(d.width, vg.Points(2)), d.look.dashes
		p.Add(l)
		thumbs = append(thumbs, l)
		markers = len(xy) <= stepMarkersMax
	} else if len(xy) > 1 && !d.alone {
		g, err := plotter.NewLine(moved)
		if err != nil {
			return nil, SeriesSpec{}, err
		}
		g.Color, g.Width, g.Dashes = guideColor(d.look.col), vg.Points(1), d.look.dashes
		p.Add(g)
		thumbs = append(thumbs, g)
	}
	if markers {
		sc, err := plotter.NewScatter(moved)
		if err != nil {
			return nil, SeriesSpec{}, err
		}
		sc.Color, sc.Shape, sc.Radius = d.look.col, d.look.glyph, markerRadius(len(xy))*vg.Length(1-d.look.shrink)
		if d.step != plotter.NoStep {
			sc.Radius = min(sc.Radius, vg.Points(2.6))
		}
		p.Add(sc)
		thumbs = append(thumbs, sc)
	}
	spec := seriesSpec(d.name, draw, xy, markers, d.look.col, d.look.dashes != nil)
	spec.Dash, spec.Asked = dashName(d.look.dashes), d.look.asked
	spec.Simulated = d.sim
	if ci != nil {
		if err := addIntervals(p, xy, ci, d.look.col, d.offset, d.step, d.logY); err != nil {
			return nil, SeriesSpec{}, err
		}
		spec.Intervals = true
	}
	return thumbs, spec, nil
}

// addIntervals draws 95% intervals at the points xy: whiskers for up to
// whiskersMax points, otherwise their ends as thin dotted lines (steps
// for a step function).
func addIntervals(p *plot.Plot, xy []XY, ci [][2]float64, col color.Color, offset float64, step plotter.StepKind, logY bool) error {
	if len(xy) <= whiskersMax {
		wk := &whiskers{offset: offset, color: col}
		for i, q := range xy {
			lo, hi := ci[i][0], ci[i][1]
			if math.IsNaN(lo) || math.IsNaN(hi) {
				continue
			}
			if logY {
				lo = math.Max(lo, q.Y/1e3) // a log axis cannot reach 0
			}
			wk.xs, wk.lo, wk.hi = append(wk.xs, q.X), append(wk.lo, lo), append(wk.hi, hi)
		}
		if len(wk.xs) > 0 {
			p.Add(wk)
		}
		return nil
	}
	for end := range 2 {
		var band plotter.XYs
		for i, q := range xy {
			if y := ci[i][end]; !math.IsNaN(y) && (!logY || y > 0) {
				band = append(band, plotter.XY{X: q.X + offset, Y: y})
			}
		}
		if len(band) < 2 {
			continue
		}
		l, err := plotter.NewLine(band)
		if err != nil {
			return err
		}
		l.StepStyle = step
		l.Color, l.Width, l.Dashes = col, vg.Points(0.8), []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		p.Add(l)
	}
	return nil
}

// wilsonAll is the Wilson 95% interval of each probability of ps
// estimated from n trials (ps[i]·n successes).
func wilsonAll(ps []float64, n int64) [][2]float64 {
	out := make([][2]float64, len(ps))
	for i, q := range ps {
		out[i] = engine.Wilson(int64(math.Round(q*float64(n))), n)
	}
	return out
}

// intervalsNote is the caption line of a chart whose values are
// simulated.
func intervalsNote(n int64, points int) string {
	what := "whiskers"
	if points > whiskersMax {
		what = "thin dotted lines"
	}
	return fmt.Sprintf("%s: 95%% intervals (Wilson) of the simulated probabilities, n=%d", what, n)
}

// probLabel prints a probability in two decimals for a cell or a bar
// segment, never rounding an uncertain value to a certain one: 1 and 0
// exactly as "1" and "0", 0.9954 as "≥.995", 0.0046 as "<.005".
func probLabel(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v == 1:
		return "1"
	}
	s := fmt.Sprintf("%.2f", v)
	switch {
	case s == "1.00":
		return "≥.995"
	case s == "0.00":
		return "<.005"
	case s == "-0.00":
		return ">−.005"
	case s == "-1.00":
		return "≤−.995"
	}
	return s
}

// probLabel3 is probLabel with three decimals ("≥.9995", "<.0005").
func probLabel3(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v == 1:
		return "1"
	}
	s := fmt.Sprintf("%.3f", v)
	switch s {
	case "1.000":
		return "≥.9995"
	case "0.000":
		return "<.0005"
	}
	return s
}

// massFloor is the probability below which a category has no mass to
// show: it is left out of a legend, as text tables leave out rows.
const massFloor = 1e-12

func massPtr(m float64) *float64 { return &m }
