package exact

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// countSupport is the least and the most count of a RandomCount with
// probability above zero, refusing a count that can be negative or above
// mechanics.MaxRandomCount.
func countSupport(lo, hi int) error {
	if lo < 0 {
		return fmt.Errorf("the number of dice can be %d: a random count must not be negative", lo)
	}
	if hi > mechanics.MaxRandomCount {
		return fmt.Errorf("the number of dice can be %d: a random count rolls at most %d dice", hi, mechanics.MaxRandomCount)
	}
	return nil
}

// countWork is the work of a RandomCount whose count runs over a..b and
// whose copies each span w values: the a-fold sum by squaring (about its
// span squared), then a convolution with one more copy per count up to b
// (the n-fold sum spans n·(w−1)+1 values), and each n-fold sum added to
// the result once.
func countWork(a, b, w int) float64 {
	fa, fb, fw := float64(a), float64(b), float64(max(w, 1))
	spanA := fa*(fw-1) + 1
	work := 0.0
	if a > 1 {
		work += spanA * spanA
	}
	// Σ_{n=a..b} (n·(w−1)+1), once per convolution (times w) and once to
	// mix it in.
	sums := (fb - fa + 1) + (fw-1)*(fb*(fb+1)-fa*(fa-1))/2
	return work + sums*(fw+1)
}

// evalRandomCount is Σₙ P(N=n)·X^{*n}: the distribution of the count, then
// the n-fold sums of X built one from the other from the least count with
// probability above zero to the most, each added in with its count's
// probability. Mass that N or X leaves out (a bursting die cut) carries
// through as truncated mass.
func evalRandomCount(b *engine.Budget, n mechanics.RandomCount) (engine.Dist, float64, error) {
	ds, tr, err := evalAll(b, []mechanics.Node{n.N, n.X})
	if err != nil {
		return engine.Dist{}, 0, err
	}
	dn, dx := ds[0].Trim(), ds[1].Trim()
	if len(dn.P) == 0 || len(dx.P) == 0 {
		return engine.Dist{}, tr, nil
	}
	a, c := dn.Lo, dn.Hi()
	if err := countSupport(a, c); err != nil {
		return engine.Dist{}, 0, err
	}
	if err := b.Plan(countWork(a, c, len(dx.P))); err != nil {
		return engine.Dist{}, 0, err
	}
	lo, hi := min(a*dx.Lo, c*dx.Lo), max(a*dx.Hi(), c*dx.Hi())
	if err := needDense(b, lo, hi, "a random number of dice"); err != nil {
		return engine.Dist{}, 0, err
	}
	acc, err := sumN(b, dx, a)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	out := make([]float64, hi-lo+1)
	for k := a; ; k++ {
		if p := dn.Prob(k); p > 0 {
			if err := b.Tick(len(acc.P)); err != nil {
				return engine.Dist{}, 0, err
			}
			o := out[acc.Lo-lo:]
			for i, q := range acc.P {
				o[i] += p * q
			}
		}
		if k == c {
			break
		}
		if acc, err = convolve(b, acc, dx); err != nil {
			return engine.Dist{}, 0, err
		}
		acc = flushTiny(acc)
		if len(acc.P) == 0 {
			break
		}
	}
	res := engine.Dist{Lo: lo, P: out}.Trim()
	if tr == 0 {
		return res, 0, nil
	}
	return res, max(0, 1-res.Total()), nil
}

// ratRandomCount is evalRandomCount with rational probabilities.
func ratRandomCount(b *engine.Budget, n mechanics.RandomCount) (RatDist, error) {
	ds, err := evalRatAll(b, []mechanics.Node{n.N, n.X})
	if err != nil {
		return nil, err
	}
	dn, dx := ds[0], ds[1]
	counts := dn.Values()
	if len(counts) == 0 {
		return RatDist{}, nil
	}
	if err := countSupport(counts[0], counts[len(counts)-1]); err != nil {
		return nil, err
	}
	out := RatDist{}
	acc := RatDist{0: big.NewRat(1, 1)}
	last := counts[len(counts)-1]
	for k := 0; ; k++ {
		if p, ok := dn[k]; ok {
			for _, v := range acc.Values() {
				out.add(v, new(big.Rat).Mul(p, acc[v]))
			}
		}
		if k == last {
			break
		}
		if acc, err = ratCombine(b, acc, dx, func(a, b int) int { return a + b }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// nodeRange is the least and the most a node can show, where that is quick
// to tell from the node alone (ok false otherwise): planWork's view of a
// RandomCount before anything runs.
func nodeRange(n mechanics.Node) (lo, hi float64, ok bool) {
	switch n := n.(type) {
	case mechanics.Die:
		if len(n.Faces) == 0 {
			return 0, 0, false
		}
		return float64(slices.Min(n.Faces)), float64(slices.Max(n.Faces)), true
	case mechanics.Const:
		return float64(n.V), float64(n.V), true
	case mechanics.Sum:
		for _, t := range n.Terms {
			l, h, ok := nodeRange(t)
			if !ok {
				return 0, 0, false
			}
			lo, hi = lo+l, hi+h
		}
		return lo, hi, true
	case mechanics.Repeat:
		l, h, ok := nodeRange(n.X)
		return l * float64(n.N), h * float64(n.N), ok
	case mechanics.Scale:
		l, h, ok := nodeRange(n.X)
		k := float64(n.K)
		return min(k*l, k*h), max(k*l, k*h), ok
	case mechanics.Clamp:
		l, h, ok := nodeRange(n.X)
		return min(max(l, float64(n.Lo)), float64(n.Hi)), min(max(h, float64(n.Lo)), float64(n.Hi)), ok
	case mechanics.Compare:
		return 0, 1, true
	case mechanics.Keep:
		l, h, ok := nodeRange(n.Die)
		return l * float64(n.K), h * float64(n.K), ok
	case mechanics.Cond:
		return rangeUnion([]mechanics.Node{n.Then, n.Else})
	case mechanics.Mixture:
		return rangeUnion(n.Of)
	case mechanics.Max:
		return rangeUnion(n.Terms)
	case mechanics.Min:
		return rangeUnion(n.Terms)
	case mechanics.Explode:
		if len(n.Die.Faces) == 0 || (n.Limit == 0 && n.TopProbability() >= 1) {
			return 0, 0, false
		}
		l, h := float64(slices.Min(n.Die.Faces)), float64(slices.Max(n.Die.Faces))
		d := float64(n.ExactDepth())
		return l + d*min(0, l), h + d*max(0, h), true
	case mechanics.RandomCount:
		nl, nh, ok := nodeRange(n.N)
		l, h, okx := nodeRange(n.X)
		if !ok || !okx {
			return 0, 0, false
		}
		nl = max(nl, 0)
		return min(nl*l, nh*l), max(nl*h, nh*h), true
	}
	return 0, 0, false
}

func rangeUnion(ns []mechanics.Node) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, t := range ns {
		l, h, ok := nodeRange(t)
		if !ok {
			return 0, 0, false
		}
		lo, hi = min(lo, l), max(hi, h)
	}
	return lo, hi, len(ns) > 0
}

// randomCountWork is planWork's estimate of a RandomCount: countWork over
// the ranges of its count and its copies, where nodeRange tells them (the
// engine plans again with the distributions themselves before it
// convolves). A count beyond mechanics.MaxRandomCount is left to the
// engine's refusal.
func randomCountWork(n mechanics.RandomCount) float64 {
	nl, nh, ok := nodeRange(n.N)
	l, h, okx := nodeRange(n.X)
	if !ok || !okx || nh > mechanics.MaxRandomCount || nl < 0 || h-l > 1e9 {
		return 0
	}
	return countWork(int(nl), int(nh), int(h-l)+1)
}

// randomCountCombinations is combinations for a RandomCount: the count's,
// times the copies' to the most copies (infinite when unknown).
func randomCountCombinations(n mechanics.RandomCount) float64 {
	_, nh, ok := nodeRange(n.N)
	if !ok {
		return math.Inf(1)
	}
	return combinations(n.N) * math.Pow(combinations(n.X), max(nh, 0))
}
