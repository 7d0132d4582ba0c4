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

// kindTerms: several kinds, some repeated (a die, a sum, a weighted die
// with a missing weight, a constant), in mixed order.
var kindTerms = []mechanics.Node{
	keepOfTerms[0], keepOfTerms[1], keepOfTerms[0], keepOfTerms[5], keepOfTerms[1], keepOfTerms[0], keepOfTerms[3],
}

// TestKeepKindsAgainstRationals: the kinds DP on its own (not only where
// keepOf picks it), from the highest and from the lowest (on the negated
// values), every window, unscored and scored, against the rational
// enumeration; its ticks stay within its plan.
func TestKeepKindsAgainstRationals(t *testing.T) {
	var ds []engine.Dist
	for _, n := range kindTerms {
		d, _, err := Eval(n)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	n := len(ds)
	neg := make([]engine.Dist, n)
	for i, d := range ds {
		neg[i] = negate(d)
	}
	id := func(x int) int { return x }
	for lo := 0; lo < n; lo++ {
		for hi := lo + 1; hi <= n; hi++ {
			for _, scored := range []bool{false, true} {
				node := mechanics.KeepOf{Terms: kindTerms, Lo: lo, Hi: hi}
				g := id
				if scored {
					node.Score, node.Name, g = sign, "sign", sign
				}
				want, err := EvalRat(node)
				if err != nil {
					t.Fatal(err)
				}
				for _, up := range []bool{false, true} {
					label := fmt.Sprintf("ranks %d..%d scored %v from the lowest %v", lo, hi-1, scored, up)
					var p kindsPlan
					if up {
						p = planKinds(neg, hi, lo, func(y int) int { return g(-y) }, engine.MaxWork)
					} else {
						p = planKinds(ds, n-lo, n-hi, g, engine.MaxWork)
					}
					if !p.ok {
						t.Fatalf("%s: no plan", label)
					}
					b := engine.DefaultBudget()
					got, err := p.run(b)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					if s := b.Spent(); float64(s) > p.work {
						t.Errorf("%s: %d work units, planned %.0f", label, s, p.work)
					}
					tot := 0.0
					for _, v := range want.Values() {
						w, _ := want[v].Float64()
						tot += w
						if math.Abs(got.Prob(v)-w) > 1e-14 {
							t.Errorf("%s: P(%d) = %.15g, want %.15g", label, v, got.Prob(v), w)
						}
					}
					if math.Abs(got.Total()-tot) > 1e-14 {
						t.Errorf("%s: total %.15g, want %.15g", label, got.Total(), tot)
					}
				}
			}
		}
	}
}

// TestKeepKindsAgainstEnumeration: the kinds DP on wide sums of several
// kinds (windows at the ends and in the middle, scored), against every
// combination.
func TestKeepKindsAgainstEnumeration(t *testing.T) {
	var ds []engine.Dist
	for _, n := range []mechanics.Node{
		mechanics.Repeat{X: mechanics.D(6), N: 2},
		mechanics.Repeat{X: mechanics.D(4), N: 2},
		mechanics.Repeat{X: mechanics.D(6), N: 2},
		mechanics.Sum{Terms: []mechanics.Node{mechanics.D(8), mechanics.Const{V: 3}}},
		mechanics.Repeat{X: mechanics.D(6), N: 2},
		mechanics.Repeat{X: mechanics.D(4), N: 2},
	} {
		d, _, err := Eval(n)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	n := len(ds)
	scores := map[string]func(int) int{
		"value": func(x int) int { return x },
		"cs":    func(x int) int { return map[bool]int{true: 1}[x >= 11] - map[bool]int{true: 1}[x <= 5] },
	}
	for name, g := range scores {
		for _, w := range [][2]int{{3, 6}, {0, 2}, {1, 5}, {2, 4}, {0, 6}, {5, 6}} {
			lo, hi := w[0], w[1]
			want, err := keepEvery(nil, ds, lo, hi, g)
			if err != nil {
				t.Fatal(err)
			}
			p := planKinds(ds, n-lo, n-hi, g, engine.MaxWork)
			got, err := p.run(nil)
			if err != nil {
				t.Fatal(err)
			}
			// The enumeration adds millions of products into a few
			// scores: it is good to about 1e-12.
			for v := min(want.Lo, got.Lo); v <= max(want.Hi(), got.Hi()); v++ {
				if math.Abs(got.Prob(v)-want.Prob(v)) > 3e-12 {
					t.Errorf("%s ranks %d..%d: P(%d) = %.15g, want %.15g", name, lo, hi-1, v, got.Prob(v), want.Prob(v))
				}
			}
			if hi < n || name != "value" {
				continue
			}
			// The boundary DP, at its precision.
			top, err := keepTop(nil, ds, hi-lo, g, true)
			if err != nil {
				t.Fatal(err)
			}
			for v := min(top.Lo, got.Lo); v <= max(top.Hi(), got.Hi()); v++ {
				if math.Abs(got.Prob(v)-top.Prob(v)) > 1e-15 {
					t.Errorf("%s ranks %d..%d: P(%d) = %.17g, keepTop %.17g", name, lo, hi-1, v, got.Prob(v), top.Prob(v))
				}
			}
		}
	}
}

// TestKeepKindsWork: the goal by counted work, not time (the
// benchmark in benchmarks/ times it): nine 20d20 and a 20d12 (two kinds)
// under every window fit a small fraction of the budget, and a middle
// window of ten unlike sums of twenty dice (every combination: refused
// before) is computed within it.
func TestKeepKindsWork(t *testing.T) {
	var nine, unlike []mechanics.Node
	for range 9 {
		nine = append(nine, mechanics.Repeat{X: mechanics.D(20), N: 20})
	}
	nine = append(nine, mechanics.Repeat{X: mechanics.D(12), N: 20})
	for n := 20; n > 10; n-- {
		unlike = append(unlike, mechanics.Repeat{X: mechanics.D(20), N: n})
	}
	for lo := 0; lo < 10; lo++ {
		for hi := lo + 1; hi <= 10; hi++ {
			b := engine.DefaultBudget()
			if _, _, err := evalNode(b, mechanics.KeepOf{Terms: nine, Lo: lo, Hi: hi}); err != nil {
				t.Fatal(err)
			}
			if s := b.Spent(); s > 1e8 {
				t.Errorf("nine 20d20 and a 20d12, ranks %d..%d: %d work units", lo, hi-1, s)
			}
		}
	}
	b := engine.DefaultBudget()
	if _, _, err := evalNode(b, mechanics.KeepOf{Terms: unlike, Lo: 2, Hi: 8}); err != nil {
		t.Fatal(err)
	}
	if s := b.Spent(); s > 3e9 {
		t.Errorf("ten unlike sums of 20d20, ranks 2..7: %d work units", s)
	}
	// Too many kinds for the kinds DP, too many combinations: refused
	// before it starts.
	var wide []mechanics.Node
	for i := range 40 {
		wide = append(wide, mechanics.Repeat{X: mechanics.D(100 + i), N: 20})
	}
	b = engine.DefaultBudget()
	_, _, err := evalNode(b, mechanics.KeepOf{Terms: wide, Lo: 10, Hi: 30})
	var ie *mechanics.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "simulate") {
		t.Errorf("forty unlike sums, ranks 10..29: %v, want a refusal", err)
	}
	if s := b.Spent(); s > 1e8 {
		t.Errorf("forty unlike sums, ranks 10..29: %d work units before the refusal", s)
	}
}
