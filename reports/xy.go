package reports

import "gonum.org/v1/plot/plotter"

// XY is one point of a series: X on the horizontal axis, Y on the
// vertical. Series, charts and findings take their points as XY, so that a
// caller hands reports plain numbers and never the plotting library's types.
type XY struct{ X, Y float64 }

// plotXYs is points in the plotting library's form.
func plotXYs(pts []XY) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, p := range pts {
		out[i] = plotter.XY(p)
	}
	return out
}
