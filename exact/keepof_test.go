package exact

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// keepOfTerms are unlike terms for KeepOf: dice, sums, a constant, a
// weighted die with a missing weight (its mass leaves the result).
var keepOfTerms = []mechanics.Node{
	mechanics.D(4),
	mechanics.Sum{Terms: []mechanics.Node{mechanics.D(3), mechanics.D(3)}},
	mechanics.Die{Faces: []int{-2, 0, 5}, Weights: []int64{3, 1, 2}},
	mechanics.Const{V: 2},
	mechanics.Sum{Terms: []mechanics.Node{mechanics.D(2), mechanics.Const{V: -1}}},
	mechanics.Die{Faces: []int{1, 2, 3}, Weights: []int64{2, 1, 1}, Missing: 2},
}

func sign(x int) int {
	switch {
	case x > 2:
		return 1
	case x < 1:
		return -1
	}
	return 0
}

// TestKeepOfAgainstRationals: every window of every technique (sum, order
// statistic, alike values, the boundary DP at either end, every
// combination in the middle), unscored and scored, in floats against the
// rational enumeration.
func TestKeepOfAgainstRationals(t *testing.T) {
	sets := map[string][]mechanics.Node{
		"unlike": keepOfTerms[:5],
		"alike":  {keepOfTerms[1], keepOfTerms[1], keepOfTerms[1], keepOfTerms[1]},
		"two":    {keepOfTerms[0], keepOfTerms[2]},
		"lossy":  {keepOfTerms[5], keepOfTerms[0], keepOfTerms[5]},
		"one":    {keepOfTerms[1]},
	}
	for name, terms := range sets {
		n := len(terms)
		for lo := 0; lo <= n; lo++ {
			for hi := lo; hi <= n; hi++ {
				for _, scored := range []bool{false, true} {
					node := mechanics.KeepOf{Terms: terms, Lo: lo, Hi: hi}
					if scored {
						node.Score, node.Name = sign, "sign"
					}
					label := fmt.Sprintf("%s ranks %d..%d scored %v", name, lo, hi-1, scored)
					got, _, err := Eval(node)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					want, err := EvalRat(node)
					if err != nil {
						t.Fatalf("%s: rationals: %v", label, err)
					}
					for _, v := range want.Values() {
						w, _ := want[v].Float64()
						if math.Abs(got.Prob(v)-w) > 1e-12 {
							t.Errorf("%s: P(%d) = %.15g, want %.15g", label, v, got.Prob(v), w)
						}
					}
					tot := 0.0
					for _, p := range want {
						f, _ := p.Float64()
						tot += f
					}
					if math.Abs(got.Total()-tot) > 1e-12 {
						t.Errorf("%s: total %.15g, want %.15g", label, got.Total(), tot)
					}
				}
			}
		}
	}
}

// TestKeepTopAgainstEnumeration: the boundary DP on its own (not only where
// keepOf picks it), against every combination, on unlike wide sums.
func TestKeepTopAgainstEnumeration(t *testing.T) {
	var ds []engine.Dist
	for _, n := range []mechanics.Node{
		mechanics.Repeat{X: mechanics.D(6), N: 3},
		mechanics.Repeat{X: mechanics.D(4), N: 2},
		mechanics.Sum{Terms: []mechanics.Node{mechanics.D(8), mechanics.Const{V: 3}}},
		mechanics.Repeat{X: mechanics.D(6), N: 3},
		mechanics.D(12),
	} {
		d, _, err := Eval(n)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	id := func(x int) int { return x }
	for k := 1; k < len(ds); k++ {
		got, err := keepTop(nil, ds, k, id, true)
		if err != nil {
			t.Fatal(err)
		}
		want, err := keepEvery(nil, ds, len(ds)-k, len(ds), id)
		if err != nil {
			t.Fatal(err)
		}
		for v := want.Lo; v <= want.Hi(); v++ {
			if math.Abs(got.Prob(v)-want.Prob(v)) > 1e-14 {
				t.Errorf("keep %d: P(%d) = %.15g, want %.15g", k, v, got.Prob(v), want.Prob(v))
			}
		}
	}
}

// TestKeepOfWork: the goal, ten unlike sums of twenty dice, fits a
// small fraction of the budget (counted, not timed: the benchmark in
// benchmarks/ times it), and a group past the budget is refused before it
// starts.
func TestKeepOfWork(t *testing.T) {
	var terms []mechanics.Node
	for i := range 10 {
		terms = append(terms, mechanics.Repeat{X: mechanics.D(4 + i%3*2), N: 20})
	}
	b := engine.DefaultBudget()
	if _, _, err := evalNode(b, mechanics.KeepOf{Terms: terms, Lo: 5, Hi: 10}); err != nil {
		t.Fatal(err)
	}
	if s := b.Spent(); s > 1e9 {
		t.Errorf("ten sums of 20 dice, keep 5: %d work units", s)
	}
	var wide []mechanics.Node
	for range 60 {
		wide = append(wide, mechanics.Repeat{X: mechanics.D(1000), N: 20})
	}
	_, _, err := Eval(mechanics.KeepOf{Terms: wide, Lo: 30, Hi: 60})
	var ie *mechanics.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "simulate") {
		t.Errorf("sixty sums of 20d1000, keep 30: %v, want a refusal", err)
	}
}
