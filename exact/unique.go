package exact

import (
	"math"
	"math/big"
	"slices"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Unique dice (mechanics.Unique) are computed one of two ways.
//
// A fair die whose repeats are all rerolled until new (u) gives N
// different faces, every set of N equally likely: a dynamic program over
// the faces in ascending order, each shown by 0 or 1 die, weighs every
// set 1/C(F, N) (uniqueSubsets), O(F·S·N) for S evaluator states.
//
// Any other case (weighted faces, uo, a condition) follows the dice in
// order (uniqueOrdered): the state after i dice is how many dice show
// each face, for the odds of the next die depend only on which faces are
// already shown. The states are bounded (uniqueStates) before any runs.

// maxUniqueStates bounds the states one step of uniqueOrdered may hold.
const maxUniqueStates = 1 << 20

// uniqueArith is the arithmetic of probabilities P: float64 for the
// engine, *big.Rat for its exact fractions.
type uniqueArith[P any] struct {
	frac func(num, den int64) P
	one  func() P
	add  func(a, b P) P // a new value
	mul  func(a, b P) P // a new value
	rat  func(r *big.Rat) P
}

var floatArith = uniqueArith[float64]{
	frac: func(n, d int64) float64 { return float64(n) / float64(d) },
	one:  func() float64 { return 1 },
	add:  func(a, b float64) float64 { return a + b },
	mul:  func(a, b float64) float64 { return a * b },
	rat:  func(r *big.Rat) float64 { f, _ := r.Float64(); return f },
}

var ratArith = uniqueArith[*big.Rat]{
	frac: func(n, d int64) *big.Rat { return big.NewRat(n, d) },
	one:  func() *big.Rat { return big.NewRat(1, 1) },
	add:  func(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) },
	mul:  func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) },
	rat:  func(r *big.Rat) *big.Rat { return r },
}

// uniqueSubsetCase reports a Unique whose N distinct faces are a uniform
// random N-subset: equal weights, every repeat rerolled until new.
func uniqueSubsetCase(u mechanics.Unique) bool {
	if u.Once {
		return false
	}
	faces, ws := mechanics.UniqueFaces(u.Die)
	for i, f := range faces {
		if ws[i] != ws[0] || !u.Rerolled(f) {
			return false
		}
	}
	return true
}

// uniqueStates bounds the states uniqueOrdered holds after each die: the
// count vectors of i dice over the faces, a rerolled face at most once
// with u. It returns the largest layer and the sum over the layers.
func uniqueStates(u mechanics.Unique) (most, total float64) {
	faces, _ := mechanics.UniqueFaces(u.Die)
	r := 0 // faces held to one die
	if !u.Once {
		for _, f := range faces {
			if u.Rerolled(f) {
				r++
			}
		}
	}
	free := len(faces) - r
	// Coefficients of (1+x)^r and (1−x)^−free up to x^N.
	a, b := make([]float64, u.N+1), make([]float64, u.N+1)
	a[0], b[0] = 1, 1
	for k := 1; k <= u.N; k++ {
		a[k] = a[k-1] * float64(r-k+1) / float64(k)
		if free > 0 {
			b[k] = b[k-1] * float64(free+k-1) / float64(k)
		}
	}
	for i := 0; i <= u.N; i++ {
		s := 0.0
		for k := 0; k <= i; k++ {
			s += max(a[k], 0) * b[i-k]
		}
		most, total = max(most, s), total+s
	}
	return most, total
}

// uniqueStateCost is the work of one state of uniqueSubsets, in the
// budget's units: a map entry holding an exact count.
const uniqueStateCost = 200

// uniqueWork is the work of a Unique as the engine computes it.
func uniqueWork(u mechanics.Unique) float64 {
	faces, _ := mechanics.UniqueFaces(u.Die)
	nf := float64(len(faces))
	if uniqueSubsetCase(u) {
		// The states after i faces: the subsets of at most N of them
		// (Σ C(i, k)), or the evaluator's states for each number of
		// dice placed, bounded as for a sum of them (its range): each a
		// map entry of exact counts, uniqueStateCost units.
		lo, hi := slices.Min(faces), slices.Max(faces)
		byValue := float64(u.N+1) * (float64(u.N)*float64(hi-lo) + 1)
		// row holds C(i, k) for k ≤ N, updated face by face.
		row := make([]float64, u.N+1)
		row[0] = 1
		work := 0.0
		for i := range len(faces) {
			for k := u.N; k > 0; k-- {
				row[k] += row[k-1]
			}
			subsets := 0.0
			for _, c := range row {
				subsets += c
			}
			if subsets >= byValue {
				// The subsets only grow: every face left holds the
				// evaluator's bound.
				return work + float64(len(faces)-i)*byValue*uniqueStateCost
			}
			work += subsets * uniqueStateCost
		}
		return work
	}
	_, total := uniqueStates(u)
	return total * (nf + float64(u.N))
}

// uniqueCheck refuses, with one line, a Unique too large to follow in
// order.
func uniqueCheck(u mechanics.Unique) error {
	if uniqueSubsetCase(u) {
		return nil
	}
	if most, _ := uniqueStates(u); most > maxUniqueStates {
		return mechanics.Invalid("unique dice (%d dice of %d faces, rerolled in order) reach about %.2g states, too many for the exact engine: simulate it (oddsmith sim) or roll fewer dice",
			u.N, len(u.Die.Faces), most)
	}
	return nil
}

// uniqueDist is the distribution of a Unique's evaluator.
func uniqueDist[P any](b *engine.Budget, u mechanics.Unique, ar uniqueArith[P]) (map[int]P, error) {
	if err := uniqueCheck(u); err != nil {
		return nil, err
	}
	if uniqueSubsetCase(u) {
		return uniqueSubsets(b, u, ar)
	}
	return uniqueOrdered(b, u, ar)
}

// uniqueSubsets weighs every N-subset of the faces 1/C(F, N).
func uniqueSubsets[P any](b *engine.Budget, u mechanics.Unique, ar uniqueArith[P]) (map[int]P, error) {
	faces, _ := mechanics.UniqueFaces(u.Die)
	type key struct {
		s uint64
		k int
	}
	// ways: how many subsets reach each state (exact in big.Int).
	cur := map[key]*big.Int{{u.Eval.Start(), 0}: big.NewInt(1)}
	for i, f := range faces {
		next := make(map[key]*big.Int, 2*len(cur))
		left := len(faces) - i - 1
		for k, w := range cur {
			if err := b.Tick(uniqueStateCost); err != nil {
				return nil, err
			}
			for c := 0; c <= 1; c++ {
				nk := key{u.Eval.Next(k.s, f, c), k.k + c}
				if nk.k > u.N || nk.k+left < u.N {
					continue
				}
				if old, ok := next[nk]; ok {
					old.Add(old, w)
				} else {
					next[nk] = new(big.Int).Set(w)
				}
			}
		}
		cur = next
	}
	all := new(big.Int).Binomial(int64(len(faces)), int64(u.N))
	out := map[int]P{}
	for k, w := range cur {
		if k.k != u.N {
			continue
		}
		p := ar.rat(new(big.Rat).SetFrac(w, all))
		v := u.Eval.Final(k.s)
		if old, ok := out[v]; ok {
			out[v] = ar.add(old, p)
		} else {
			out[v] = p
		}
	}
	return out, nil
}

// uniqueOrdered follows the dice one by one; the state is the count of
// dice showing each face.
func uniqueOrdered[P any](b *engine.Budget, u mechanics.Unique, ar uniqueArith[P]) (map[int]P, error) {
	faces, ws := mechanics.UniqueFaces(u.Die)
	W := u.Die.TotalWeight()
	rer := make([]bool, len(faces))
	for j, f := range faces {
		rer[j] = u.Rerolled(f)
	}
	pj := make([]P, len(faces))
	for j := range faces {
		pj[j] = ar.frac(ws[j], W)
	}
	start := string(make([]byte, len(faces)))
	cur := map[string]P{start: ar.one()}
	stateBytes := int64(len(faces) + 64)
	for range u.N {
		next := make(map[string]P, len(cur))
		for s, p := range cur {
			if err := b.Tick(len(faces)); err != nil {
				return nil, err
			}
			// The weight of the faces a die may stay on.
			var wa int64
			for j := range faces {
				if s[j] == 0 || !rer[j] {
					wa += ws[j]
				}
			}
			var again P // uo: the chance of one reroll
			if u.Once {
				again = ar.frac(W-wa, W)
			}
			for j := range faces {
				ok := s[j] == 0 || !rer[j]
				var q P
				switch {
				case u.Once && ok:
					q = ar.mul(pj[j], ar.add(ar.one(), again))
				case u.Once:
					q = ar.mul(pj[j], again)
				case ok:
					q = ar.frac(ws[j], wa)
				default:
					continue
				}
				if s[j] == 255 {
					return nil, mechanics.Invalid("unique dice: more than 255 dice show one face")
				}
				ns := []byte(s)
				ns[j]++
				k := string(ns)
				q = ar.mul(p, q)
				if old, had := next[k]; had {
					next[k] = ar.add(old, q)
				} else {
					next[k] = q
					if !b.Fits(int64(len(next)) * stateBytes) {
						return nil, b.Need(int64(len(next))*stateBytes, engine.AdviceDice, "unique dice (%d states so far)", len(next))
					}
				}
			}
		}
		cur = next
	}
	out := map[int]P{}
	for s, p := range cur {
		if err := b.Tick(len(faces)); err != nil {
			return nil, err
		}
		st := u.Eval.Start()
		for j, f := range faces {
			st = u.Eval.Next(st, f, int(s[j]))
		}
		v := u.Eval.Final(st)
		if old, ok := out[v]; ok {
			out[v] = ar.add(old, p)
		} else {
			out[v] = p
		}
	}
	return out, nil
}

// uniqueFloat is the engine's distribution of a Unique.
func uniqueFloat(b *engine.Budget, u mechanics.Unique) (engine.Dist, error) {
	m, err := uniqueDist(b, u, floatArith)
	if err != nil {
		return engine.Dist{}, err
	}
	return fromMap(b, m, "unique dice")
}

// uniqueRat is the exact distribution of a Unique.
func uniqueRat(b *engine.Budget, u mechanics.Unique) (RatDist, error) {
	m, err := uniqueDist(b, u, ratArith)
	if err != nil {
		return nil, err
	}
	return RatDist(m), nil
}

// uniqueCombinations is the outcomes a Unique spans, for the rational
// engine's estimate.
func uniqueCombinations(u mechanics.Unique) float64 {
	_, total := uniqueStates(u)
	if uniqueSubsetCase(u) {
		return float64(len(u.Die.Faces)) * float64(u.N+1)
	}
	return math.Max(total, 1)
}
