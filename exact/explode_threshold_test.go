package exact

import (
	"math"
	"math/big"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// burstSequences enumerates every sequence of rolls of die that bursts on
// faces ≥ trigger, up to depth extra rolls, as exact fractions: with
// limited the last roll counts as it is; otherwise what would go on past
// depth is left out.
func burstSequences(die mechanics.Die, trigger, depth int, limited bool) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	tot := die.TotalWeight()
	var rec func(j, sum int, p *big.Rat)
	rec = func(j, sum int, p *big.Rat) {
		for i, f := range die.Faces {
			q := new(big.Rat).Mul(p, big.NewRat(die.Weight(i), tot))
			if f >= trigger && j < depth {
				rec(j+1, sum+f, q)
				continue
			}
			if f >= trigger && !limited {
				continue // dropped
			}
			if out[sum+f] == nil {
				out[sum+f] = new(big.Rat)
			}
			out[sum+f].Add(out[sum+f], q)
		}
	}
	rec(0, 0, big.NewRat(1, 1))
	return out
}

// TestExplodeByThreshold: a die that bursts on a threshold below its top
// face, limited and unlimited, in the float and the rational engine,
// against the enumeration of roll sequences; the dropped mass is reported.
func TestExplodeByThreshold(t *testing.T) {
	dice := []mechanics.Die{mechanics.D(6), {Faces: []int{1, 2, 2, 5, 7}, Weights: []int64{2, 1, 1, 1, 3}}}
	for _, die := range dice {
		for _, trig := range []int{5, 6, 2} {
			for _, limit := range []int{0, 1, 3} {
				e := mechanics.Explode{Die: die, Limit: limit, ByThreshold: true, Threshold: trig, Tolerance: 1e-3}
				if p := e.TopProbability(); p >= 1 {
					continue
				} else if p > 0.5 {
					e.Tolerance = 0.3 // few enough rolls to enumerate every sequence
				}
				depth := e.ExactDepth()
				want := burstSequences(die, trig, depth, limit > 0)
				d, tr, err := Eval(e)
				if err != nil {
					t.Fatal(err)
				}
				r, err := EvalRat(e)
				if err != nil {
					t.Fatal(err)
				}
				sum := 0.0
				for v, p := range want {
					w, _ := p.Float64()
					sum += w
					if math.Abs(d.Prob(v)-w) > 1e-12 {
						t.Errorf("%v ≥%d limit %d: P(%d) = %v, want %v", die.Faces, trig, limit, v, d.Prob(v), w)
					}
					if r.Prob(v).Cmp(p) != 0 {
						t.Errorf("%v ≥%d limit %d: rational P(%d) = %v, want %v", die.Faces, trig, limit, v, r.Prob(v), p)
					}
				}
				if math.Abs(tr-(1-sum)) > 1e-12 || (limit > 0) != (tr == 0) {
					t.Errorf("%v ≥%d limit %d: truncated %v, enumeration misses %v", die.Faces, trig, limit, tr, 1-sum)
				}
			}
		}
	}
	if _, _, err := Eval(mechanics.Explode{Die: mechanics.D(6), ByThreshold: true, Threshold: 1}); err == nil {
		t.Error("a die bursting on every roll was accepted")
	}
}
