package exact

import (
	"math/big"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// cappedBrute enumerates every sequence of rolls of a capped explosion
// literally: a queue of (face, depth), looked at in order.
func cappedBrute(n mechanics.CappedExplode) RatDist {
	out := RatDist{}
	d := n.Explode.Die
	W := d.TotalWeight()
	bursts := n.Explode.Burster()
	type roll struct{ face, depth int }
	// rolls: the rolls made so far; look: the next to look at; extra:
	// the extra rolls so far; p: the sequence's probability.
	var walk func(rolls []roll, look, extra int, p *big.Rat)
	// roll1 rolls one more die at the end of the rolls: the N dice
	// first, then each extra roll when it is made.
	roll1 := func(rolls []roll, depth int, p *big.Rat, then func([]roll, *big.Rat)) {
		for i, f := range d.Faces {
			q := new(big.Rat).Mul(p, big.NewRat(d.Weight(i), W))
			then(append(append([]roll(nil), rolls...), roll{f, depth}), q)
		}
	}
	walk = func(rolls []roll, look, extra int, p *big.Rat) {
		if look == len(rolls) {
			s := 0
			for _, r := range rolls {
				s += n.Value(r.face, r.depth > 0)
			}
			out.add(s, p)
			return
		}
		r := rolls[look]
		if extra < n.Total && (n.Explode.Limit == 0 || r.depth < n.Explode.Limit) && bursts(r.face) {
			roll1(rolls, r.depth+1, p, func(rs []roll, q *big.Rat) { walk(rs, look+1, extra+1, q) })
			return
		}
		walk(rolls, look+1, extra, p)
	}
	var first func(rolls []roll, p *big.Rat)
	first = func(rolls []roll, p *big.Rat) {
		if len(rolls) == n.N {
			walk(rolls, 0, 0, p)
			return
		}
		roll1(rolls, 0, p, first)
	}
	first(nil, big.NewRat(1, 1))
	return out
}

func TestCappedMatchesBruteForce(t *testing.T) {
	d4, d3 := mechanics.D(4), mechanics.D(3)
	w := mechanics.Die{Faces: []int{-1, 2, 2, 5}, Weights: []int64{2, 1, 1, 3}}
	ge := func(d mechanics.Die, t, limit int) mechanics.Explode {
		return mechanics.Explode{Die: d, ByThreshold: true, Threshold: t, Limit: limit}
	}
	cases := map[string]mechanics.CappedExplode{
		"3d4 >=3 cap 2":           {Explode: ge(d4, 3, 0), N: 3, Total: 2},
		"3d4 >=3 cap 1":           {Explode: ge(d4, 3, 0), N: 3, Total: 1},
		"2d3 always cap 3":        {Explode: ge(d3, 1, 0), N: 2, Total: 3},
		"4d4 =4 per die 1 cap 2":  {Explode: ge(d4, 4, 1), N: 4, Total: 2},
		"2d4 >=3 per die 2 cap 4": {Explode: ge(d4, 3, 2), N: 2, Total: 4},
		"3d3 >=2 per die 1 cap 5": {Explode: ge(d3, 2, 1), N: 3, Total: 5},
		"2d3 >=2 per die 2 cap 5": {Explode: ge(d3, 2, 2), N: 2, Total: 5},
		"penetrating 3d4":         {Explode: mechanics.Explode{Die: d4, Penetrate: true, ByThreshold: true, Threshold: 4}, N: 3, Total: 2},
		"counted 3d4":             {Explode: ge(d4, 3, 0), N: 3, Total: 3, Score: func(f int) int { return map[bool]int{true: 1}[f >= 3] - map[bool]int{true: 1}[f == 1] }},
		"weighted on 5 and -1":    {Explode: mechanics.Explode{Die: w, On: []int{-1, 5}, Penetrate: true, Limit: 2}, N: 2, Total: 3},
		"no dice":                 {Explode: ge(d4, 3, 0), N: 0, Total: 2},
	}
	for name, n := range cases {
		t.Run(name, func(t *testing.T) {
			want := cappedBrute(n)
			got, err := EvalRat(n)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range unionValues(got, want) {
				if got.Prob(v).Cmp(want.Prob(v)) != 0 {
					t.Errorf("P(%d) = %s; brute force %s", v, got.Prob(v).RatString(), want.Prob(v).RatString())
				}
			}
			fd, _, err := Eval(n)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range want.Values() {
				w, _ := want.Prob(v).Float64()
				if d := fd.Prob(v) - w; d > 1e-12 || d < -1e-12 {
					t.Errorf("float P(%d) = %v; want %v", v, fd.Prob(v), w)
				}
			}
		})
	}
}

func unionValues(a, b RatDist) []int {
	seen := map[int]bool{}
	var vs []int
	for _, d := range []RatDist{a, b} {
		for _, v := range d.Values() {
			if !seen[v] {
				seen[v] = true
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// TestCappedWorkRefused: a capped explosion past the work budget is
// refused before it starts, with one line.
func TestCappedWorkRefused(t *testing.T) {
	n := mechanics.CappedExplode{Explode: mechanics.Explode{Die: mechanics.D(1000), Limit: 3, ByThreshold: true, Threshold: 2}, N: 1000, Total: 1000}
	_, _, err := Eval(n)
	if err == nil {
		t.Fatal("no refusal")
	}
	t.Log(err)
}

// TestCappedWorkBoundsTicks: the planned work of a capped explosion is at
// least what its DP ticks, and not wildly more (the reached states are
// counted).
func TestCappedWorkBoundsTicks(t *testing.T) {
	ge := func(sides, t, limit int) mechanics.Explode {
		return mechanics.Explode{Die: mechanics.D(sides), ByThreshold: true, Threshold: t, Limit: limit}
	}
	for _, n := range []mechanics.CappedExplode{
		{Explode: ge(10, 8, 0), N: 5, Total: 2},
		{Explode: ge(10, 8, 1), N: 5, Total: 2},
		{Explode: ge(10, 2, 5), N: 10, Total: 60},
		{Explode: ge(6, 2, 0), N: 8, Total: 30, Score: func(f int) int { return f / 3 }},
		{Explode: mechanics.Explode{Die: mechanics.D(6), Penetrate: true, Limit: 3}, N: 6, Total: 9},
	} {
		b := engine.DefaultBudget()
		if _, err := cappedDist(b, n, floatArith); err != nil {
			t.Fatal(err)
		}
		spent, plan := float64(b.Spent()), cappedWork(n)
		if spent > plan || plan > 50*spent+1000 {
			t.Errorf("%+v: planned %.0f, ticked %.0f", n, plan, spent)
		}
	}
}
