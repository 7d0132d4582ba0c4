package gm

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// near fails the test unless got is within tol of want.
func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g; want %.10g (±%g)", what, got, want, tol)
	}
}

// runExact computes a gm mechanic exactly at the settings, failing the
// test on an error.
func runExact(t *testing.T, id string, sets ...string) *engine.Result {
	t.Helper()
	r, err := mechtest.Exact(registry, id, sets...)
	if err != nil {
		t.Fatalf("%s %v: %v", id, sets, err)
	}
	return r
}

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
