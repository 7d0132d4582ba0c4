package exact

import (
	"fmt"
	"math"
	"math/big"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// The rolls of exploding dice read one by one (mechanics.ExplodeRolls).
// Every roll of a die is below the trigger (it stops the die) or at or
// above it (it rolls again, unless the die has used its limit). Given how
// many rolls fall on each side — a below, b at or above — the rolls are
// a independent rolls of the die given that it shows less than the
// trigger and b of the die given that it shows the trigger or more, and
// the faces below the trigger all come before the others. So the
// evaluator runs as the multiset DP of a pool twice: over the low faces
// with a dice, once for each a, then over the high faces with b dice,
// where the DP's dice still to place start as the law of b given a.
//
// Without a limit every die ends on a low roll (a = N) and b is negative
// binomial: P(b) = C(b+N−1, b)·pᵇ·(1−p)ᴺ, followed until what is left is
// at most the tolerance (the truncated mass). With a limit L a die rolls
// j < L+1 high rolls then a low one (pʲ(1−p)), or L+1 high rolls (its
// last roll, an extra one past which it may not go, showing the trigger
// or more: p^(L+1)); the u dice that end high leave a = N−u.

// maxRollsHigh bounds the rolls at or above the trigger the exact engine
// follows (past it the work refuses long before).
const maxRollsHigh = 1 << 20

// rollsSplit is the die's faces below the trigger and at or above it,
// each as a die of its own (the die given that side), and p, the
// probability of the high side.
func rollsSplit(e mechanics.Explode) (low, high faceTable, p float64) {
	ft := dieTable(e.Die)
	bursts := e.Burster()
	for i, f := range ft.faces {
		if bursts(f) {
			p += ft.probs[i]
		}
	}
	for i, f := range ft.faces {
		if bursts(f) {
			high.faces = append(high.faces, f)
			high.probs = append(high.probs, ft.probs[i]/p)
		} else {
			low.faces = append(low.faces, f)
			low.probs = append(low.probs, ft.probs[i]/(1-p))
		}
	}
	return low, high, p
}

func rollsTolerance(e mechanics.Explode) float64 {
	if e.Tolerance > 0 {
		return e.Tolerance
	}
	return mechanics.DefaultTolerance
}

// rollsBound is the most rolls at or above the trigger the exact engine
// follows: N·(L+1) with a limit, else the fewest after which the negative
// binomial's tail is at most the tolerance (maxRollsHigh+1 when that is
// past maxRollsHigh).
func rollsBound(n mechanics.ExplodeRolls, p float64) int {
	if n.Explode.Limit > 0 {
		return n.N * (n.Explode.Limit + 1)
	}
	if p == 0 || n.N == 0 {
		return 0
	}
	tol := rollsTolerance(n.Explode)
	cum := 0.0
	for g := 0; g <= maxRollsHigh; g++ {
		cum += negBin(g, n.N, p)
		if 1-cum <= tol {
			return g
		}
	}
	return maxRollsHigh + 1
}

// negBin is P(G = g) for G the failures before the n-th success, a
// failure having probability p: C(g+n−1, g)·pᵍ·(1−p)ⁿ, in logarithms (no
// underflow of (1−p)ⁿ on its own).
func negBin(g, n int, p float64) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x)); return v }
	return math.Exp(lg(g+n) - lg(g+1) - lg(n) + float64(g)*math.Log(p) + float64(n)*math.Log1p(-p))
}

// rollsJoint is the law of (a, b): joint[a][b] for a = 0..N, b = 0..bmax
// (a nil row has no mass), and the mass past bmax left out.
func rollsJoint(b *engine.Budget, n mechanics.ExplodeRolls, p float64, bmax int) ([][]float64, float64, error) {
	N, L := n.N, n.Explode.Limit
	joint := make([][]float64, N+1)
	if L == 0 {
		row := make([]float64, bmax+1)
		total := 0.0
		for g := range row {
			if p == 0 {
				row[g] = 0
			} else {
				row[g] = negBin(g, N, p)
			}
			total += row[g]
		}
		if p == 0 || N == 0 {
			row[0], total = 1, 1
		}
		joint[N] = row
		return joint, max(0, 1-total), nil
	}
	// geo[j] = pʲ(1−p), j = 0..L: one die ending low after j high rolls.
	geo := make([]float64, L+1)
	for j := range geo {
		geo[j] = math.Pow(p, float64(j)) * (1 - p)
	}
	top := math.Pow(p, float64(L+1)) // one die ending high
	// sums[k]: the high rolls of k dice ending low, conv'd up one die at a time.
	sums := []float64{1}
	choose := 1.0 // C(N, u) for u = N−k, built from k = 0 up
	for k := 0; k <= N; k++ {
		if k > 0 {
			if err := b.Tick(len(sums) * len(geo)); err != nil {
				return nil, 0, err
			}
			next := make([]float64, len(sums)+L)
			for i, x := range sums {
				if x == 0 {
					continue
				}
				for j, g := range geo {
					next[i+j] += x * g
				}
			}
			sums = next
			choose = choose * float64(N-k+1) / float64(k)
		}
		u := N - k
		w := choose * math.Pow(top, float64(u))
		if w == 0 {
			continue
		}
		row := make([]float64, bmax+1)
		for i, x := range sums {
			row[u*(L+1)+i] = w * x
		}
		joint[k] = row
	}
	return joint, 0, nil
}

// rollsWork is the work rollsDist ticks, estimated before it runs (one
// evaluator state a face, as planWork counts a pool).
func rollsWork(n mechanics.ExplodeRolls) float64 {
	if n.N < 0 || len(n.Explode.Die.Faces) == 0 {
		return 0
	}
	low, high, p := rollsSplit(n.Explode)
	bmax := rollsBound(n, p)
	if bmax > maxRollsHigh {
		return math.Inf(1)
	}
	w := float64(bmax + 1)
	work := float64(len(high.faces)) * w * w / 2
	lows := 1.0
	if n.Explode.Limit > 0 {
		lows = float64(n.N + 1)
		work += float64(n.N+1) * w * float64(n.Explode.Limit+1)
	}
	a := float64(n.N + 1)
	work += lows * float64(len(low.faces)) * a * a / 2
	if n.States != nil {
		work *= max(1, n.States(n.N+bmax))
	}
	return work
}

// rollsDist is the distribution of an ExplodeRolls' evaluator.
func rollsDist(b *engine.Budget, n mechanics.ExplodeRolls) (engine.Dist, float64, error) {
	what := fmt.Sprintf("the rolls of %d exploding dice", n.N)
	low, high, p := rollsSplit(n.Explode)
	if n.Explode.Limit == 0 && p >= 1 {
		return engine.Dist{}, 0, fmt.Errorf("a die that bursts on every roll (%s) never stops", n.Explode.BurstFaces())
	}
	bmax := rollsBound(n, p)
	if bmax > maxRollsHigh {
		return engine.Dist{}, 0, mechanics.Invalid("%s roll more than %d times at the trigger before the rest is negligible: simulate it (oddsmith sim) or raise the trigger", what, maxRollsHigh)
	}
	w := bmax + 1
	if err := b.Need(engine.MulBytes(engine.MulBytes(int64(w), int64(w)), engine.FloatBytes), engine.AdviceDice, "%s", what); err != nil {
		return engine.Dist{}, 0, err
	}
	joint, truncated, err := rollsJoint(b, n, p, bmax)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	ev := n.Eval
	// The high DP starts from every state the low faces leave, with the
	// law of b given a as its dice still to place.
	hi := poolLayer{}
	index := map[uint64]int{}
	for a, row := range joint {
		if row == nil {
			continue
		}
		lo := poolLayer{states: []uint64{ev.Start()}, mass: make([]float64, a+1)}
		lo.mass[a] = 1
		if lo, err = multisetDP(b, low, lo, a+1, ev, what); err != nil {
			return engine.Dist{}, 0, err
		}
		for si, s := range lo.states {
			m := lo.mass[si*(a+1)]
			if m == 0 {
				continue
			}
			j, ok := index[s]
			if !ok {
				if err := b.Need(engine.MulBytes(int64(len(hi.states)+1), engine.MulBytes(int64(w), engine.FloatBytes)), engine.AdviceDice, "%s", what); err != nil {
					return engine.Dist{}, 0, err
				}
				j = len(hi.states)
				index[s] = j
				hi.states = append(hi.states, s)
				hi.mass = append(hi.mass, make([]float64, w)...)
			}
			out := hi.mass[j*w : (j+1)*w]
			for r, x := range row {
				out[r] += m * x
			}
		}
	}
	if hi, err = multisetDP(b, high, hi, w, ev, what); err != nil {
		return engine.Dist{}, 0, err
	}
	res := map[int]float64{}
	for si, s := range hi.states {
		if m := hi.mass[si*w]; m != 0 {
			res[ev.Final(s)] += m
		}
	}
	d, err := fromMap(b, res, what)
	return d, truncated, err
}

// ratRolls is rollsDist with rational probabilities, for a limited
// explosion (an unlimited one has no finite exact law).
func ratRolls(b *engine.Budget, n mechanics.ExplodeRolls) (RatDist, error) {
	e := n.Explode
	if e.Limit == 0 {
		return nil, fmt.Errorf("exact fractions of exploding rolls need a limit")
	}
	bursts := e.Burster()
	wts := map[int]int64{}
	var tot, hiW int64
	for i, f := range e.Die.Faces {
		wts[f] += e.Die.Weight(i)
		tot += e.Die.Weight(i)
		if bursts(f) {
			hiW += e.Die.Weight(i)
		}
	}
	var lowF, highF []int
	for _, f := range ratDie(e.Die).Values() {
		if bursts(f) {
			highF = append(highF, f)
		} else {
			lowF = append(lowF, f)
		}
	}
	p := big.NewRat(hiW, tot)
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	N, L := n.N, e.Limit
	// The law of (a, b) as in rollsJoint.
	geo := make([]*big.Rat, L+1)
	for j := range geo {
		geo[j] = new(big.Rat).Mul(ratPow(p, j), q)
	}
	top := ratPow(p, L+1)
	joint := make([]map[int]*big.Rat, N+1)
	sums := []*big.Rat{big.NewRat(1, 1)}
	for k := 0; k <= N; k++ {
		if k > 0 {
			if err := b.Tick(ratOp * len(sums) * len(geo)); err != nil {
				return nil, err
			}
			next := make([]*big.Rat, len(sums)+L)
			for i := range next {
				next[i] = new(big.Rat)
			}
			for i, x := range sums {
				for j, g := range geo {
					next[i+j].Add(next[i+j], new(big.Rat).Mul(x, g))
				}
			}
			sums = next
		}
		u := N - k
		w := new(big.Rat).SetInt(new(big.Int).Binomial(int64(N), int64(u)))
		w.Mul(w, ratPow(top, u))
		if w.Sign() == 0 {
			continue
		}
		joint[k] = map[int]*big.Rat{}
		for i, x := range sums {
			if x.Sign() != 0 {
				joint[k][u*(L+1)+i] = new(big.Rat).Mul(w, x)
			}
		}
	}
	ev := n.Eval
	hi := map[ratKey]*big.Rat{}
	for a, row := range joint {
		if row == nil {
			continue
		}
		lo, err := ratMultiset(b, lowF, wts, map[ratKey]*big.Rat{{ev.Start(), a}: big.NewRat(1, 1)}, ev)
		if err != nil {
			return nil, err
		}
		for k, m := range lo {
			if k.r != 0 {
				continue
			}
			for r, x := range row {
				nk := ratKey{k.s, r}
				if hi[nk] == nil {
					hi[nk] = new(big.Rat)
				}
				hi[nk].Add(hi[nk], new(big.Rat).Mul(m, x))
			}
		}
	}
	hi, err := ratMultiset(b, highF, wts, hi, ev)
	if err != nil {
		return nil, err
	}
	out := RatDist{}
	for k, m := range hi {
		if k.r == 0 {
			out.add(ev.Final(k.s), m)
		}
	}
	return out, nil
}

// ratKey is a state of the rational multiset DP: the evaluator's state and
// the dice not yet placed.
type ratKey struct {
	s uint64
	r int
}

// ratMultiset is the multiset DP of ratPool over the faces given (sorted,
// weights wts), each die still to place showing one of them.
func ratMultiset(b *engine.Budget, faces []int, wts map[int]int64, cur map[ratKey]*big.Rat, ev mechanics.Evaluator) (map[ratKey]*big.Rat, error) {
	var rest int64
	for _, f := range faces {
		rest += wts[f]
	}
	for _, f := range faces {
		q := big.NewRat(wts[f], rest) // P(f | face ≥ f)
		q1 := new(big.Rat).Sub(big.NewRat(1, 1), q)
		rest -= wts[f]
		next := map[ratKey]*big.Rat{}
		for k, p := range cur {
			if err := b.Tick(ratOp * 4 * (k.r + 1)); err != nil {
				return nil, err
			}
			for c := 0; c <= k.r; c++ {
				w := new(big.Rat).SetInt(new(big.Int).Binomial(int64(k.r), int64(c)))
				w.Mul(w, ratPow(q, c))
				w.Mul(w, ratPow(q1, k.r-c))
				if w.Sign() == 0 {
					continue
				}
				w.Mul(w, p)
				nk := ratKey{ev.Next(k.s, f, c), k.r - c}
				if old, ok := next[nk]; ok {
					old.Add(old, w)
				} else {
					next[nk] = w
				}
			}
		}
		cur = next
	}
	return cur, nil
}
