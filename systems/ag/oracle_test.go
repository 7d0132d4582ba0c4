package ag

// Brute-force oracles (every roll enumerated by hand, straight from the
// rules) and the comparisons the tests make with them.

import (
	"math"
	"math/big"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// band is the band of r named name (the test fails without one).
func band(t *testing.T, r *engine.Result, name string) *engine.BandResult {
	t.Helper()
	for i := range r.Bands {
		if r.Bands[i].Name == name {
			return &r.Bands[i]
		}
	}
	t.Fatalf("%s has no band %s", r.Mechanic, name)
	return nil
}

// twoDice enumerates the 36 rolls of two d6 under the default core rules
// (see doc.go): keep the highest, +1 on doubles, double ones a fumble
// scoring 1.
func twoDice(f func(r int, fumble bool)) {
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			switch {
			case a == 1 && b == 1:
				f(1, true)
			case a == b:
				f(a+1, false)
			default:
				f(max(a, b), false)
			}
		}
	}
}

// ratKey is a rational as a map key.
func ratKey(r *big.Rat) string { return r.RatString() }

// checkVar compares a reported variable with a brute-force PMF (value →
// probability) to 1e-12.
func checkVar(t *testing.T, what string, v *engine.VarResult, want map[string]*big.Rat) {
	t.Helper()
	if v == nil {
		t.Fatalf("%s: no such variable", what)
	}
	got := map[string]float64{}
	for i, p := range v.P {
		if p != 0 {
			got[ratKey(big.NewRat(int64(v.Lo+i), int64(max(v.Den, 1))))] += p
		}
	}
	for k, p := range want {
		f, _ := p.Float64()
		if math.Abs(got[k]-f) > 1e-12 {
			t.Errorf("%s: P(%s) = %.15f; want %.15f", what, k, got[k], f)
		}
	}
	for k, p := range got {
		if _, ok := want[k]; !ok && p > 1e-15 {
			t.Errorf("%s: P(%s) = %g; want 0", what, k, p)
		}
	}
}

// addP adds p to the probability of the value v in m.
func addP(m map[string]*big.Rat, v *big.Rat, p *big.Rat) {
	k := ratKey(v)
	if m[k] == nil {
		m[k] = new(big.Rat)
	}
	m[k].Add(m[k], p)
}
