package gm

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// pmf is a variable's distribution by value (its defined part).
func pmf(v *engine.VarResult) map[float64]float64 {
	out := map[float64]float64{}
	for i, p := range v.P {
		if p != 0 {
			out[v.Value(i)] += p
		}
	}
	return out
}

// samePMF compares a variable's distribution with an oracle's.
func samePMF(t *testing.T, what string, got *engine.VarResult, want map[float64]float64, tol float64) {
	t.Helper()
	g := pmf(got)
	for x, p := range want {
		if math.Abs(g[x]-p) > tol {
			t.Errorf("%s: P(%s = %g) = %.12g; want %.12g", what, got.Name, x, g[x], p)
		}
	}
	for x, p := range g {
		if _, ok := want[x]; !ok && p > tol {
			t.Errorf("%s: P(%s = %g) = %.12g; want 0", what, got.Name, x, p)
		}
	}
}
