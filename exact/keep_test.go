package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// bruteKeepMissing is the sum of the k highest (or lowest) of n rolls of a
// die with a missing weight, by enumeration: a roll in which some die shows
// the missing outcome is left out (its mass leaves the result, as keep's
// does).
func bruteKeepMissing(d mechanics.Die, n, k int, highest bool) RatDist {
	counts := map[int]int64{}
	total := int64(1)
	for range n {
		total *= d.TotalWeight()
	}
	bruteTuples(d, n, func(faces []int, w int64) {
		s := append([]int(nil), faces...)
		sort.Ints(s)
		if highest {
			s = s[len(s)-k:]
		} else {
			s = s[:k]
		}
		sum := 0
		for _, x := range s {
			sum += x
		}
		counts[sum] += w
	})
	out := RatDist{}
	for v, c := range counts {
		out[v] = big.NewRat(c, total)
	}
	return out
}

// TestKeepPathsAgainstBruteForce: every path of Keep (all the dice kept,
// one kept, the DP) against enumeration, on dice with a missing weight
// too, in floats and in rationals, and against the pool DP that reads
// every face (the general evaluator path, which settles nothing early).
func TestKeepPathsAgainstBruteForce(t *testing.T) {
	dice := map[string]mechanics.Die{
		"d4":       mechanics.D(4),
		"weighted": {Faces: []int{-2, 0, 5}, Weights: []int64{3, 1, 2}},
		"missing":  {Faces: []int{1, 2, 3}, Weights: []int64{2, 1, 1}, Missing: 2},
	}
	for dn, d := range dice {
		for n := 1; n <= 4; n++ {
			for k := 1; k <= n; k++ {
				for _, hi := range []bool{true, false} {
					name := fmt.Sprintf("%s: keep %d of %d, highest %v", dn, k, n, hi)
					want := bruteKeepMissing(d, n, k, hi)
					node := mechanics.Keep{Die: d, N: n, K: k, Highest: hi}
					got, err := ratKeep(nil, node)
					if err != nil {
						t.Fatal(err)
					}
					ratEqual(t, name, got, want)
					general, err := ratPool(nil, d, n, KeepEvaluator(n, k, hi), false)
					if err != nil {
						t.Fatal(err)
					}
					ratEqual(t, name+" (pool DP)", general, want)
					fd, err := keepDist(nil, node)
					if err != nil {
						t.Fatal(err)
					}
					for v := fd.Lo; v <= fd.Hi(); v++ {
						w, _ := want.Prob(v).Float64()
						if math.Abs(fd.Prob(v)-w) > 1e-13 {
							t.Errorf("%s: float P(%d) = %v; want %v", name, v, fd.Prob(v), w)
						}
					}
					for _, v := range want.Values() {
						if w, _ := want.Prob(v).Float64(); w > 0 && fd.Prob(v) == 0 {
							t.Errorf("%s: float P(%d) = 0; want %v", name, v, w)
						}
					}
					// The DP, whatever the shape, agrees too.
					dp, err := keep(nil, dieTable(d), n, k, hi)
					if err != nil {
						t.Fatal(err)
					}
					for _, v := range want.Values() {
						w, _ := want.Prob(v).Float64()
						if math.Abs(dp.Prob(v)-w) > 1e-13 {
							t.Errorf("%s: DP P(%d) = %v; want %v", name, v, dp.Prob(v), w)
						}
					}
				}
			}
		}
	}
}

// TestKeepOnALargeDieIsLinear: keeping 1 of 1 die of F faces (d40601kh1)
// and the highest or lowest of a few such dice take work linear in F,
// counted by the engine's budget, in floats and in rationals (the work the
// budget bounds: past it a model is refused, never left to run).
func TestKeepOnALargeDieIsLinear(t *testing.T) {
	const faces = 40601
	die := mechanics.D(faces)
	for _, c := range []struct {
		n, k    int
		highest bool
	}{{1, 1, true}, {1, 1, false}, {3, 1, true}, {3, 1, false}} {
		b := engine.NewBudget(context.Background(), 0)
		d, _, err := evalNode(b, mechanics.Keep{Die: die, N: c.n, K: c.k, Highest: c.highest})
		if err != nil {
			t.Fatal(err)
		}
		if limit := int64(4 * (c.n + 1) * faces); b.Spent() > limit {
			t.Errorf("keep %d of %dd%d: %d work units, want at most %d (linear in the faces)", c.k, c.n, faces, b.Spent(), limit)
		}
		if math.Abs(d.Total()-1) > 1e-12 {
			t.Errorf("keep %d of %dd%d: total %v", c.k, c.n, faces, d.Total())
		}
		if c.n == 1 && math.Abs(d.Prob(faces)-1.0/faces) > 1e-15 {
			t.Errorf("d%dkh1: P(%d) = %v, want 1/%d", faces, faces, d.Prob(faces), faces)
		}
	}
	// Rationals: d2000kh1 is the die, with work linear in its faces.
	const small = 2000
	b := engine.NewBudget(context.Background(), 0)
	rd, err := evalRat(b, mechanics.Keep{Die: mechanics.D(small), N: 1, K: 1, Highest: true})
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(4 * ratOp * small); b.Spent() > limit {
		t.Errorf("rational d%dkh1: %d work units, want at most %d", small, b.Spent(), limit)
	}
	if len(rd.Values()) != small || rd.Prob(7).Cmp(big.NewRat(1, small)) != 0 {
		t.Errorf("rational d%dkh1: %d values, P(7) = %v", small, len(rd.Values()), rd.Prob(7))
	}
	b = engine.NewBudget(context.Background(), 0)
	if _, err := evalRat(b, mechanics.Keep{Die: mechanics.D(small), N: 2, K: 1, Highest: false}); err != nil {
		t.Fatal(err)
	}
	if limit := int64(4 * ratOp * 2 * small); b.Spent() > limit {
		t.Errorf("rational 2d%dkl1: %d work units, want at most %d", small, b.Spent(), limit)
	}
}
