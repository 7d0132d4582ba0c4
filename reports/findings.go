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

// isHalf tells a probability of exactly one half (up to rounding error).
func isHalf(p float64) bool { return math.Abs(p-0.5) < 1e-9 }

// halfway says where ys, over xs, first reaches 50%: "reaches 50% at x = 14
// (0.500)" when a value is one half, or "crosses 50% between x = 7 (0.542)
// and 8 (0.148)" when two neighbours lie on either side of it; "" when
// neither happens.
func halfway(x string, xs, ys []float64) string {
	for i := range ys {
		if isHalf(ys[i]) {
			return fmt.Sprintf("reaches 50%% at %s = %s", x, num(xs[i]))
		}
		if i > 0 && (ys[i-1]-0.5)*(ys[i]-0.5) < 0 {
			return fmt.Sprintf("crosses 50%% between %s = %s (%s) and %s (%s)", x, num(xs[i-1]), fixed3(ys[i-1]), num(xs[i]), fixed3(ys[i]))
		}
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
