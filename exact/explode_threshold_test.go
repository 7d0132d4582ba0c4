package exact

import (
	"fmt"
	"math"
	"math/big"
	"strings"
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

// rollSequences enumerates every sequence of rolls of die, each roll that
// bursts rolling again up to depth extra rolls, as exact fractions; with
// pen every extra roll counts one less than its face. With limited the
// last roll counts as it is; otherwise what would go on past depth is
// left out.
func rollSequences(die mechanics.Die, bursts func(int) bool, pen bool, depth int, limited bool) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	tot := die.TotalWeight()
	var rec func(rolls []int, p *big.Rat)
	rec = func(rolls []int, p *big.Rat) {
		for i, f := range die.Faces {
			q := new(big.Rat).Mul(p, big.NewRat(die.Weight(i), tot))
			next := append(append([]int(nil), rolls...), f)
			if bursts(f) && len(rolls) < depth {
				rec(next, q)
				continue
			}
			if bursts(f) && !limited {
				continue // dropped
			}
			sum := 0
			for j, r := range next {
				sum += r
				if pen && j > 0 {
					sum--
				}
			}
			if out[sum] == nil {
				out[sum] = new(big.Rat)
			}
			out[sum].Add(out[sum], q)
		}
	}
	rec(nil, big.NewRat(1, 1))
	return out
}

// TestExplodeOnFacesAndPenetrate: dice that burst on a set of faces (low
// ones, negative ones, several apart) or penetrate, limited and
// unlimited, in the float and the rational engine, against the
// enumeration of roll sequences; the dropped mass is reported.
func TestExplodeOnFacesAndPenetrate(t *testing.T) {
	dice := []mechanics.Die{mechanics.D(6), {Faces: []int{-1, 0, 1}}, {Faces: []int{1, 2, 2, 5, 7}, Weights: []int64{2, 1, 1, 1, 3}}}
	sets := [][]int{nil, {1}, {-1}, {2, 7}, {1, 6}, {0, 1}, {5}}
	checked := 0
	for _, die := range dice {
		for _, on := range sets {
			for _, pen := range []bool{false, true} {
				for _, limit := range []int{0, 1, 3} {
					e := mechanics.Explode{Die: die, Limit: limit, On: on, Penetrate: pen, Tolerance: 1e-3}
					p := e.TopProbability()
					if p >= 1 || p == 0 {
						continue
					} else if p > 0.5 {
						e.Tolerance = 0.3 // few enough rolls to enumerate every sequence
					}
					name := fmt.Sprintf("%v on %v pen %v limit %d", die.Faces, on, pen, limit)
					want := rollSequences(die, e.Bursts, pen, e.ExactDepth(), limit > 0)
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
							t.Errorf("%s: P(%d) = %v, want %v", name, v, d.Prob(v), w)
						}
						if r.Prob(v).Cmp(p) != 0 {
							t.Errorf("%s: rational P(%d) = %v, want %v", name, v, r.Prob(v), p)
						}
					}
					if math.Abs(d.Total()-sum) > 1e-12 {
						t.Errorf("%s: total %v, the enumeration %v", name, d.Total(), sum)
					}
					if math.Abs(tr-(1-sum)) > 1e-12 || (limit > 0) != (tr == 0) {
						t.Errorf("%s: truncated %v, enumeration misses %v", name, tr, 1-sum)
					}
					checked++
				}
			}
		}
	}
	if checked < 60 {
		t.Errorf("only %d explosions checked", checked)
	}
	if _, _, err := Eval(mechanics.Explode{Die: mechanics.D(2), On: []int{1, 2}}); err == nil || !strings.Contains(err.Error(), "1 or 2") {
		t.Errorf("a die bursting on every face: %v", err)
	}
}
