package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
)

// One-line findings for a bundle's index.

// Finding is the one-line summary of a single result.
func Finding(r *engine.Result) string {
	var parts []string
	for i, e := range r.Events {
		if i == 3 {
			break
		}
		parts = append(parts, fmt.Sprintf("P(%s) %s", e.Name, isProb4(e.P)))
	}
	if len(r.Vars) > 0 {
		v := r.Vars[0]
		name := v.Name
		if v.Unit != "" {
			name += " (" + v.Unit + ")"
		}
		switch {
		case len(v.P) == 0:
			parts = append(parts, fmt.Sprintf("%s: none (%s)", name, v.UndefinedLabel))
		case v.Undefined > 0:
			parts = append(parts, fmt.Sprintf("%s: mean %.3f, median %s, 5–95%% %s…%s (%s: %s)", name, v.Stats.Mean, value(v.Stats.P50), value(v.Stats.P5), value(v.Stats.P95), v.UndefinedLabel, prob4(v.Undefined)))
		default:
			parts = append(parts, fmt.Sprintf("%s: mean %.3f, median %s, 5–95%% %s…%s", name, v.Stats.Mean, value(v.Stats.P50), value(v.Stats.P5), value(v.Stats.P95)))
		}
	}
	if r.Process != nil && r.Process.Unbounded {
		parts = append(parts, fmt.Sprintf("mean time (unlimited horizon) %.3f %ss", r.Process.MeanTimeUnbounded, unit(r.Process.TimeUnit)))
	}
	return "Finding: " + strings.Join(parts, "; ") + "."
}

// LineFinding reports where a probability crosses (or reaches) 50%, or
// else the metric's range. met is the metric (engine.ParseMetric), said
// in words ("P(success)"); x is the name of the varied quantity.
func LineFinding(met, x string, xy []XY) string {
	what, prob, _ := metricWords(met, "")
	if prob {
		xs, ys := make([]float64, len(xy)), make([]float64, len(xy))
		for i, p := range xy {
			xs[i], ys[i] = p.X, p.Y
		}
		if s := halfway(x, xs, ys); s != "" {
			return fmt.Sprintf("Finding: %s %s.", what, s)
		}
	}
	if len(xy) == 0 {
		return fmt.Sprintf("Finding: no points of %s.", what)
	}
	lo, hi := ExtremesY(xy)
	if lo.Y == hi.Y {
		return fmt.Sprintf("Finding: %s is %s throughout (%s = %s … %s).", what, fixed3(lo.Y), x, num(xy[0].X), num(xy[len(xy)-1].X))
	}
	return fmt.Sprintf("Finding: %s ranges from %s (%s = %s) to %s (%s = %s).", what, fixed3(lo.Y), x, num(lo.X), fixed3(hi.Y), x, num(hi.X))
}

// ExtremesY is the first point with the lowest y and the first with the
// highest (xy must not be empty).
func ExtremesY(xy []XY) (lo, hi XY) {
	lo, hi = xy[0], xy[0]
	for _, p := range xy {
		if p.Y < lo.Y {
			lo = p
		}
		if p.Y > hi.Y {
			hi = p
		}
	}
	return lo, hi
}

// fixed3 prints a metric's value with three decimals.
func fixed3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// prob3 prints a probability of a finding to three decimals, except that
// only an exact 0 or 1 prints as "0" or "1", and what three decimals
// would round to either as "<0.001" or ">0.999" (see prob4).
func prob3(p float64) string {
	switch {
	case p == 0:
		return "0"
	case p == 1:
		return "1"
	case p > 0 && p < 0.0005:
		return "<0.001"
	case p >= 0.9995 && p < 1:
		return ">0.999"
	}
	return fixed3(p)
}

// isHalf tells a probability of exactly one half (up to rounding error).
func isHalf(p float64) bool { return math.Abs(p-0.5) < 1e-9 }

// halfway says where ys, over xs, first reaches 50%: "reaches 50% at x = 14"
// when a value is one half, or "crosses 50% between x = 7 (0.542) and 8
// (0.148)" when two neighbours lie on either side of it (the settings
// either side: nothing lies between two whole-number settings); ""
// when neither happens.
func halfway(x string, xs, ys []float64) string {
	xy := make([]XY, len(xs))
	for i := range xs {
		xy[i] = XY{X: xs[i], Y: ys[i]}
	}
	return Halfway(x, xy, false)
}

// Halfway says where a curve xy of a probability over a setting x first
// reaches 50%, as halfway does. With interpolate (a setting of real
// values, where the points between the computed ones exist), a crossing
// is placed on the straight line between its neighbours, and said to
// be: "reaches 50% at x ≈ 3.875 (interpolated between 3 and 4)". A
// setting of whole numbers is never interpolated: TN 3.875 does not
// exist.
func Halfway(x string, xy []XY, interpolate bool) string {
	for i, p := range xy {
		if isHalf(p.Y) {
			return fmt.Sprintf("reaches 50%% at %s = %s", x, num(p.X))
		}
		if i == 0 || (xy[i-1].Y-0.5)*(p.Y-0.5) >= 0 {
			continue
		}
		q := xy[i-1]
		if interpolate {
			at := q.X + (0.5-q.Y)/(p.Y-q.Y)*(p.X-q.X)
			return fmt.Sprintf("reaches 50%% at %s ≈ %s (interpolated between %s and %s)", x, fixed3(at), num(q.X), num(p.X))
		}
		return fmt.Sprintf("crosses 50%% between %s = %s (%s) and %s (%s)", x, num(q.X), prob3(q.Y), num(p.X), prob3(p.Y))
	}
	return ""
}

// heatFinding says, for the middle row, where a probability reaches or
// crosses 50% along x, and gives the extremes.
func heatFinding(met string, names []string, axes [][]float64, z [][]float64) string {
	return heatFindingAxes(met, []SweepAxis{{Name: names[0], Values: axes[0]}, {Name: names[1], Values: axes[1]}}, z)
}

// heatFindingAxes is heatFinding over axes that may be categorical: no
// crossing is sought along an x axis of words (there is nothing between
// two options), and the row is named by its word.
func heatFindingAxes(met string, axes []SweepAxis, z [][]float64) string {
	what, prob, _ := metricWords(met, "")
	var parts []string
	if prob && len(axes[1].Values) > 0 && !axes[0].Categorical() {
		r := len(axes[1].Values) / 2
		if s := halfway(axes[0].Name, axes[0].Values, z[r]); s != "" {
			parts = append(parts, fmt.Sprintf("at %s = %s, %s %s", axes[1].Name, axes[1].Text(axes[1].Values[r]), what, s))
		}
	}
	lo, hi := zRange(z)
	parts = append(parts, fmt.Sprintf("%s ranges from %s to %s over the grid", what, fixed3(lo), fixed3(hi)))
	return "Finding: " + strings.Join(parts, "; ") + "."
}

// categoryFinding says where a metric over an axis of words is highest
// and lowest (without interpolating: options have nothing between them).
func categoryFinding(what string, a SweepAxis, xy []XY) string {
	if len(xy) == 0 {
		return fmt.Sprintf("Finding: no points of %s.", what)
	}
	lo, hi := ExtremesY(xy)
	if lo.Y == hi.Y {
		return fmt.Sprintf("Finding: %s is %s for every %s (%s).", what, fixed3(lo.Y), a.Name, axisText(a))
	}
	return fmt.Sprintf("Finding: %s is highest at %s = %s (%s) and lowest at %s = %s (%s).", what, a.Name, a.Text(hi.X), fixed3(hi.Y), a.Name, a.Text(lo.X), fixed3(lo.Y))
}

// deltaFinding says what a +1 step of x is worth in a metric (said in
// words), from the forward differences xy (each at the value its step
// starts from).
func deltaFinding(x, what string, xy []XY) string {
	if len(xy) == 0 {
		return fmt.Sprintf("Finding: no steps of %s.", x)
	}
	lo, hi := ExtremesY(xy)
	if lo.Y == hi.Y {
		return fmt.Sprintf("Finding: each +1 %s changes %s by %s.", x, what, signed3(lo.Y))
	}
	return fmt.Sprintf("Finding: a +1 step of %s changes %s by between %s (from %s = %s) and %s (from %s = %s).",
		x, what, signed3(lo.Y), x, num(lo.X), signed3(hi.Y), x, num(hi.X))
}

// signed3 prints a change with its sign and three decimals ("+0.125",
// "-0.050", "0.000").
func signed3(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	switch {
	case s == "-0.000" || s == "0.000":
		return "0.000"
	case v > 0:
		return "+" + s
	}
	return s
}
