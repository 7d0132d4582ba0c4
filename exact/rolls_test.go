package exact

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// bruteRolls enumerates every chain of rolls of every die of n (a limited
// explosion), counts all the rolls by face and runs the evaluator: the
// distribution with exact fractions.
func bruteRolls(n mechanics.ExplodeRolls) RatDist {
	e := n.Explode
	die := ratDie(e.Die)
	faces := die.Values()
	bursts := e.Burster()
	type chain struct {
		rolls []int
		p     *big.Rat
	}
	var chains []chain
	var rec func(rolls []int, p *big.Rat)
	rec = func(rolls []int, p *big.Rat) {
		for _, f := range faces {
			q := new(big.Rat).Mul(p, die[f])
			next := append(slices.Clone(rolls), f)
			if bursts(f) && len(rolls) < e.Limit {
				rec(next, q)
				continue
			}
			chains = append(chains, chain{next, q})
		}
	}
	rec(nil, big.NewRat(1, 1))
	out := RatDist{}
	var all func(k int, rolls []int, p *big.Rat)
	all = func(k int, rolls []int, p *big.Rat) {
		if k == n.N {
			s := n.Eval.Start()
			for _, f := range faces {
				s = n.Eval.Next(s, f, countOf(rolls, f))
			}
			out.add(n.Eval.Final(s), p)
			return
		}
		for _, c := range chains {
			all(k+1, append(slices.Clone(rolls), c.rolls...), new(big.Rat).Mul(p, c.p))
		}
	}
	all(0, nil, big.NewRat(1, 1))
	return out
}

func countOf(xs []int, v int) int {
	c := 0
	for _, x := range xs {
		if x == v {
			c++
		}
	}
	return c
}

// topTwo is the sum of the two highest rolls (the evaluator sees faces in
// ascending order: the last two placed).
type topTwo struct{}

func (topTwo) Start() uint64 { return 0 }
func (topTwo) Next(s uint64, face, c int) uint64 {
	a, b := int(s>>16&0xffff), int(s&0xffff) // a ≥ b, faces + 100
	for range min(c, 2) {
		a, b = face+100, a
	}
	return uint64(a)<<16 | uint64(b)
}
func (topTwo) Final(s uint64) int {
	v := 0
	for _, x := range []int{int(s >> 16 & 0xffff), int(s & 0xffff)} {
		if x > 0 {
			v += x - 100
		}
	}
	return v
}

// countEval counts every roll and the faces at least 5: 100·rolls + fives.
type countEval struct{}

func (countEval) Start() uint64 { return 0 }
func (countEval) Next(s uint64, face, c int) uint64 {
	s += uint64(100 * c)
	if face >= 5 {
		s += uint64(c)
	}
	return s
}
func (countEval) Final(s uint64) int { return int(s) }

func TestExplodeRollsMatchesBruteForce(t *testing.T) {
	d4, d6 := mechanics.D(4), mechanics.D(6)
	odd := mechanics.Die{Faces: []int{-1, 2, 2, 5}, Weights: []int64{2, 1, 3, 1}}
	cases := map[string]mechanics.ExplodeRolls{
		"3d4!{2} top two":     {Explode: mechanics.Explode{Die: d4, Limit: 2}, N: 3, Eval: topTwo{}},
		"2d6!>=5{2} counts":   {Explode: mechanics.Explode{Die: d6, Limit: 2, ByThreshold: true, Threshold: 5}, N: 2, Eval: countEval{}},
		"3d6!>=4{1} top two":  {Explode: mechanics.Explode{Die: d6, Limit: 1, ByThreshold: true, Threshold: 4}, N: 3, Eval: topTwo{}},
		"2 odd!>=2{3} counts": {Explode: mechanics.Explode{Die: odd, Limit: 3, ByThreshold: true, Threshold: 2}, N: 2, Eval: countEval{}},
		"2d4!>=1{2} sum":      {Explode: mechanics.Explode{Die: d4, Limit: 2, ByThreshold: true, Threshold: 1}, N: 2, Eval: mechanics.SumEval{}},
		"0d6!{2}":             {Explode: mechanics.Explode{Die: d6, Limit: 2}, N: 0, Eval: countEval{}},
	}
	for name, n := range cases {
		t.Run(name, func(t *testing.T) {
			want := bruteRolls(n)
			rat, err := EvalRat(n)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range append(want.Values(), rat.Values()...) {
				if want.Prob(v).Cmp(rat.Prob(v)) != 0 {
					t.Errorf("rational P(%d) = %s; want %s", v, rat.Prob(v).RatString(), want.Prob(v).RatString())
				}
			}
			got, tr, err := Eval(n)
			if err != nil {
				t.Fatal(err)
			}
			if tr != 0 {
				t.Errorf("truncated %v; a limited explosion is exact", tr)
			}
			for _, v := range want.Values() {
				w, _ := want.Prob(v).Float64()
				if math.Abs(got.Prob(v)-w) > 1e-13 {
					t.Errorf("P(%d) = %v; want %v", v, got.Prob(v), w)
				}
			}
			if math.Abs(got.Total()-1) > 1e-13 {
				t.Errorf("total %v", got.Total())
			}
		})
	}
}

// An unlimited explosion's rolls summed are the exploding dice summed; the
// mass left out is reported and at most the tolerance.
func TestExplodeRollsUnlimitedSum(t *testing.T) {
	for _, e := range []mechanics.Explode{
		{Die: mechanics.D(6)},
		{Die: mechanics.D(10)},
		{Die: mechanics.D(6), ByThreshold: true, Threshold: 3},
	} {
		n := mechanics.ExplodeRolls{Explode: e, N: 4, Eval: mechanics.SumEval{}}
		got, tr, err := Eval(n)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := Eval(mechanics.Repeat{X: e, N: 4})
		if err != nil {
			t.Fatal(err)
		}
		if tr <= 0 || tr > mechanics.DefaultTolerance || math.Abs(got.Total()+tr-1) > 1e-13 {
			t.Errorf("%+v: truncated %v, total %v", e, tr, got.Total())
		}
		for v := want.Lo; v <= want.Hi(); v++ {
			if math.Abs(got.Prob(v)-want.Prob(v)) > 1e-12 {
				t.Errorf("%+v: P(%d) = %v; want %v", e, v, got.Prob(v), want.Prob(v))
				break
			}
		}
	}
}

// Explosions that would need too many rolls are refused by the work plan
// before they run.
func TestExplodeRollsRefusedOverBudget(t *testing.T) {
	e := mechanics.Explode{Die: mechanics.D(100), ByThreshold: true, Threshold: 2}
	_, _, err := Eval(mechanics.ExplodeRolls{Explode: e, N: 255, Eval: countEval{}})
	if err == nil {
		t.Fatal("255d100!>=2 read roll by roll ran; want a refusal")
	}
	t.Log(err)
}
