package reports

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/oddsmith/oddsmith/mechanics"
)

// One-line findings for a bundle's index.

// Finding is the one-line summary of a single result.
func Finding(r *mechanics.Result) string {
	var parts []string
	for i, e := range r.Events {
		if i == 3 {
			break
		}
		parts = append(parts, fmt.Sprintf("P(%s) = %.4f", e.Name, e.P))
	}
	if len(r.Vars) > 0 {
		v := r.Vars[0]
		parts = append(parts, fmt.Sprintf("%s: mean %.3f, median %s, 5–95%% %s…%s", v.Name, v.Stats.Mean, value(v.Stats.P50), value(v.Stats.P5), value(v.Stats.P95)))
	}
	if r.Process != nil && r.Process.Unbounded {
		parts = append(parts, fmt.Sprintf("mean time (unlimited horizon) %.3f %ss", r.Process.MeanTimeUnbounded, unit(r.Process.TimeUnit)))
	}
	return "Finding: " + strings.Join(parts, "; ") + "."
}

// LineFinding reports where the metric crosses 50% (for probabilities) or
// its range.
func LineFinding(met, x string, xy plotter.XYs) string {
	if strings.HasPrefix(met, "event:") {
		for i := 1; i < len(xy); i++ {
			a, b := xy[i-1].Y, xy[i].Y
			if (a-0.5)*(b-0.5) <= 0 && a != b {
				return fmt.Sprintf("Finding: %s crosses 50%% between %s = %g (%.3f) and %g (%.3f).", met, x, xy[i-1].X, a, xy[i].X, b)
			}
		}
	}
	lo, hi := xy[0], xy[0]
	for _, p := range xy {
		if p.Y < lo.Y {
			lo = p
		}
		if p.Y > hi.Y {
			hi = p
		}
	}
	return fmt.Sprintf("Finding: %s ranges from %.3f (%s = %g) to %.3f (%s = %g).", met, lo.Y, x, lo.X, hi.Y, x, hi.X)
}

// heatFinding says, for the middle row, where the metric crosses 50% in x,
// and gives the extremes.
func heatFinding(met string, names []string, axes [][]float64, z [][]float64) string {
	var parts []string
	if strings.HasPrefix(met, "event:") {
		for r, y := range axes[1] {
			if r != len(axes[1])/2 {
				continue
			}
			for c := 1; c < len(axes[0]); c++ {
				if (z[r][c-1]-0.5)*(z[r][c]-0.5) <= 0 && z[r][c-1] != z[r][c] {
					parts = append(parts, fmt.Sprintf("at %s = %g, %s crosses 50%% between %s = %g and %g", names[1], y, met, names[0], axes[0][c-1], axes[0][c]))
					break
				}
			}
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range z {
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	parts = append(parts, fmt.Sprintf("%s ranges from %.3f to %.3f over the grid", met, lo, hi))
	return "Finding: " + strings.Join(parts, "; ") + "."
}
