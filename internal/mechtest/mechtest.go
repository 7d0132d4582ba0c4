package mechtest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/sim"
)

// Exact looks a mechanic up in reg, applies "name=value" settings to its
// defaults and computes it exactly.
func Exact(reg *mechanics.Registry, id string, settings ...string) (*engine.Result, error) {
	m, c, err := reg.Configure(id, settings)
	if err != nil {
		return nil, err
	}
	return exact.Run(m, c)
}

// CheckMechanics cross-checks every given mechanic with its defaults and
// with each extra list of settings (sim.CrossCheck at minP 1e-6 and
// intervals widened by 1.25 widths). It returns one line per disagreement
// or failure, so one broken configuration never hides the others; the
// error is only for a setting that does not apply.
func CheckMechanics(ctx context.Context, ms []*mechanics.Mechanic, extra map[string][][]string, opt sim.Options) ([]string, error) {
	var report []string
	for _, m := range ms {
		if m.MCOnly {
			continue
		}
		for _, sets := range append([][]string{nil}, extra[m.ID]...) {
			c, err := m.Configure(sets)
			if err != nil {
				return nil, fmt.Errorf("%s %v: %w", m.ID, sets, err)
			}
			spec, err := m.Model(c)
			if err != nil {
				report = append(report, fmt.Sprintf("%s %v: %v", m.ID, sets, err))
				continue
			}
			r, err := crosscheck.Spec(ctx, spec, opt, crosscheck.Standard)
			if err != nil {
				report = append(report, fmt.Sprintf("%s %v: %v", m.ID, sets, err))
				continue
			}
			for _, line := range r {
				report = append(report, fmt.Sprintf("%s %v: %s", m.ID, sets, line))
			}
		}
	}
	return report, nil
}

// Trials is the simulation size of a cross-check: 10⁶ trials, or 10⁵
// under -short (enough to reject a changed face or crit rule, see the
// cross-check's own tests), with a fixed seed so the test is deterministic.
func Trials(t testing.TB) sim.Options {
	if testing.Short() {
		return sim.Options{Trials: 100_000, Seed: 7}
	}
	return sim.Options{Trials: 1_000_000, Seed: 7}
}

// Eval evaluates an output expression with the named fields set to the
// given values; an unknown field or an evaluation error fails the test.
func Eval(t testing.TB, e expr.Expr, fields map[string]expr.Rat) expr.Rat {
	t.Helper()
	var names []string
	var vals []expr.Rat
	for k, v := range fields {
		names = append(names, k)
		vals = append(vals, v)
	}
	p, err := expr.Compile(e, func(name string) (int, bool) {
		i := slices.Index(names, name)
		return i, i >= 0
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Eval(vals)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// MustExact is Exact for a test: an error fails the test.
func MustExact(t testing.TB, reg *mechanics.Registry, id string, settings ...string) *engine.Result {
	t.Helper()
	r, err := Exact(reg, id, settings...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// MustModel looks a mechanic up in reg, applies settings to its defaults
// and builds its declared model; an error fails the test.
func MustModel(t testing.TB, reg *mechanics.Registry, id string, settings ...string) *mechanics.Spec {
	t.Helper()
	m, c, err := reg.Configure(id, settings)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Model(c)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// Near fails the test unless got is within tol of want.
func Near(t testing.TB, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g; want %.10g (±%g)", what, got, want, tol)
	}
}
