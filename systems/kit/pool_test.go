package kit

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// direct computes a stat of one roll straight from the dice.
func direct(st PoolStat, roll []int) int {
	sorted := slices.Clone(roll)
	slices.Sort(sorted)
	n := len(sorted)
	sum := func(xs []int) int {
		t := 0
		for _, x := range xs {
			t += x
		}
		return t
	}
	counts := map[int]int{}
	for _, x := range sorted {
		counts[x]++
	}
	switch s := st.(type) {
	case PoolSum:
		return sum(sorted)
	case PoolHighest:
		return sum(sorted[n-min(s.K, n):])
	case PoolLowest:
		return sum(sorted[:min(s.K, n)])
	case PoolCount:
		c := 0
		for _, x := range sorted {
			if s.Op.Holds(x, s.T) {
				c++
			}
		}
		return c
	case PoolAll:
		for _, x := range sorted {
			if !s.Op.Holds(x, s.T) {
				return 0
			}
		}
		return 1
	case PoolAny:
		for _, x := range sorted {
			if s.Op.Holds(x, s.T) {
				return 1
			}
		}
		return 0
	case PoolCountHighest:
		return counts[sorted[n-1]]
	case PoolCountLowest:
		return counts[sorted[0]]
	case PoolDistinct:
		return len(counts)
	case PoolLargestSet:
		m := 0
		for _, c := range counts {
			m = max(m, c)
		}
		return m
	case PoolStraight:
		best, cur, prev := 0, 0, math.MinInt
		for _, x := range slices.Compact(sorted) {
			if x == prev+1 {
				cur++
			} else {
				cur = 1
			}
			best, prev = max(best, cur), x
		}
		return best
	}
	panic("unknown stat")
}

var allStats = []PoolStat{PoolSum{}, PoolHighest{1}, PoolHighest{2}, PoolLowest{1}, PoolLowest{3},
	PoolCount{mechanics.GE, 5}, PoolCount{mechanics.EQ, 0}, PoolAll{mechanics.EQ, 1}, PoolAny{mechanics.EQ, 6},
	PoolCountHighest{}, PoolCountLowest{}, PoolDistinct{}, PoolLargestSet{}, PoolStraight{}}

// enumerate calls f with every roll of n dice of die and its weight.
func enumerate(die mechanics.Die, n int, f func(roll []int, w float64)) {
	roll := make([]int, n)
	var rec func(j int, w float64)
	rec = func(j int, w float64) {
		if j == n {
			f(roll, w)
			return
		}
		for i, face := range die.Faces {
			roll[j] = face
			rec(j+1, w*float64(die.Weight(i))/float64(die.TotalWeight()))
		}
	}
	rec(0, 1)
}

// TestPoolStatsAgainstEveryRoll: each stat alone (PoolOf) and all of them
// jointly (JointPool, three at a time) give the distribution that
// enumerating every roll gives, for a d6 and an awkward die (negative,
// repeated and weighted faces, gaps).
func TestPoolStatsAgainstEveryRoll(t *testing.T) {
	t.Parallel()
	dice := []mechanics.Die{mechanics.D(6), {Faces: []int{-1, 0, 0, 2, 3, 5}, Weights: []int64{1, 1, 2, 1, 3, 1}}}
	for _, die := range dice {
		for n := 1; n <= 4; n++ {
			for _, st := range allStats {
				node, err := PoolOf(die, n, st)
				if err != nil {
					t.Fatal(err)
				}
				d, _, err := exact.Eval(node)
				if err != nil {
					t.Fatal(err)
				}
				want := map[int]float64{}
				enumerate(die, n, func(roll []int, w float64) { want[direct(st, roll)] += w })
				for v, p := range want {
					if math.Abs(d.Prob(v)-p) > 1e-12 {
						t.Errorf("%v n=%d %s: P(%d) = %v, want %v", die.Faces, n, st.Name(), v, d.Prob(v), p)
					}
				}
				if math.Abs(d.Total()-1) > 1e-12 {
					t.Errorf("%s sums to %v", st.Name(), d.Total())
				}
			}
			for j := 0; j+3 <= len(allStats); j += 3 {
				stats := allStats[j : j+3]
				node, rec, err := JointPool(die, n, []string{"a", "b", "c"}, stats)
				if err != nil {
					t.Fatal(err)
				}
				d, _, err := exact.Eval(node)
				if err != nil {
					t.Fatal(err)
				}
				sa, sb, sc := rec.Slot("a"), rec.Slot("b"), rec.Slot("c")
				want := map[[3]int]float64{}
				enumerate(die, n, func(roll []int, w float64) {
					want[[3]int{direct(stats[0], roll), direct(stats[1], roll), direct(stats[2], roll)}] += w
				})
				got := map[[3]int]float64{}
				for i, p := range d.P {
					if p != 0 {
						code := d.Lo + i
						got[[3]int{sa.Get(code), sb.Get(code), sc.Get(code)}] += p
					}
				}
				for k, p := range want {
					if math.Abs(got[k]-p) > 1e-12 {
						t.Errorf("%v n=%d joint %s/%s/%s %v: %v, want %v", die.Faces, n, stats[0].Name(), stats[1].Name(), stats[2].Name(), k, got[k], p)
					}
				}
			}
		}
	}
}

func TestJointPoolLimits(t *testing.T) {
	t.Parallel()
	if _, _, err := JointPool(mechanics.D(6), 5, []string{"a", "b"}, []PoolStat{PoolHighest{10}, PoolSum{}}); err == nil {
		t.Error("keeping 10 dice in a joint pool was accepted")
	}
	many := make([]PoolStat, 10)
	names := make([]string, 10)
	for i := range many {
		many[i], names[i] = PoolHighest{2}, string(rune('a'+i))
	}
	if _, _, err := JointPool(mechanics.D(6), 5, names, many); err == nil {
		t.Error("160 bits of state were accepted")
	}
}

// TestJointPoolSimulated: the simulator rolls a joint pool (small pools one
// table of every roll, larger ones die by die in groups) and agrees with
// the exact multiset DP.
func TestJointPoolSimulated(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 9, 15} {
		node, rec, err := JointPool(mechanics.D(6), n, []string{"hi", "nhi", "run"},
			[]PoolStat{PoolHighest{2}, PoolCountHighest{}, PoolStraight{}})
		if err != nil {
			t.Fatal(err)
		}
		spec := &mechanics.Spec{Record: rec, Outcome: node}
		d, _, err := exact.Eval(node)
		if err != nil {
			t.Fatal(err)
		}
		h, err := sim.Outcomes(context.Background(), spec, sim.Options{Trials: 200_000, Seed: 3, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if a := engine.ChiSquare(h.Lo, h.Counts, d); a.P < 1e-6 || a.Impossible > 0 {
			t.Errorf("%dd6: chi-square %+v", n, a)
		}
	}
}
