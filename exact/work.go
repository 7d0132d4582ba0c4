package exact

import (
	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// planWork is the work of a model's dice read one by one — its keeps
// (keepWork), its pools (at least one evaluator state a face), its
// explosions (explodeWork), the rolls of its exploding dice read one by
// one (rollsWork) and the n-fold sums of its random counts
// (randomCountWork) —
// summed over the whole model before any of it runs, in the units
// the engine ticks, so that a model whose keeps together would run past
// engine.MaxWork is refused before it starts rather than when its ticks
// get there. It stops counting past stop.
func planWork(n mechanics.Node, stop float64) float64 {
	work := 0.0
	mechanics.Walk(n, func(n mechanics.Node) {
		if work > stop {
			return
		}
		switch n := n.(type) {
		case mechanics.Keep:
			if n.N >= 0 && n.K >= 0 && n.K <= n.N && len(n.Die.Faces) > 0 {
				work += keepNodeWork(n, stop-work)
			}
		case mechanics.Unique:
			if n.N >= 0 && len(n.Die.Faces) > 0 {
				work += uniqueWork(n)
			}
		case mechanics.Pool:
			if n.N >= 0 {
				w := float64(n.N + 1)
				work += float64(len(n.Die.Faces)) * (w * w / 2)
			}
		case mechanics.ExplodeRolls:
			work += rollsWork(n)
		case mechanics.CappedExplode:
			work += cappedWork(n)
		case mechanics.RandomCount:
			work += randomCountWork(n)
		case mechanics.Explode:
			if len(n.Die.Faces) > 0 && (n.Limit > 0 || n.TopProbability() < 1) {
				work += explodeWork(n)
			}
		}
	})
	return work
}

// keepNodeWork is the work of a Keep as keepDist computes it: keeping
// every die is their sum (a face a die, then the sums: cheap beside the
// rest, counted as the faces once per die), keeping one is the order
// statistic of keepOne (a face a die), and the rest keep's dynamic
// program (keepWork).
func keepNodeWork(n mechanics.Keep, stop float64) float64 {
	nf := float64(len(n.Die.Faces))
	switch {
	case n.K == 0 || n.N == 0:
		return 0
	case n.K >= n.N, n.K == 1:
		return nf * float64(n.N+1)
	}
	return keepWork(dieTable(n.Die), n.N, n.K, n.Highest, stop)
}

// planModel refuses, before any of it runs, a model whose dice read one
// by one would take more than engine.MaxWork (see planWork).
func planModel(b *engine.Budget, n mechanics.Node) error {
	if b == nil {
		return nil
	}
	return b.Plan(planWork(n, engine.MaxWork))
}

// explodeWork is the work of explode: a face per level for a die that
// bursts on one face; otherwise, at each of the depth+1 levels, a face
// for each sum so far of the rolls that burst, held densely: after j of
// them j·span+1 sums (span: the spread of what a bursting roll adds).
func explodeWork(e mechanics.Explode) float64 {
	ft := dieTable(e.Die)
	nf := float64(len(ft.faces))
	bursts := e.Burster()
	k, lo, hi := 0, 0, 0
	for _, f := range ft.faces {
		if bursts(f) {
			a := e.BurstAdds(f)
			if k == 0 {
				lo, hi = a, a
			}
			k, lo, hi = k+1, min(lo, a), max(hi, a)
		}
	}
	d := float64(e.ExactDepth())
	if k <= 1 {
		return nf * (d + 1)
	}
	// Σ_{j=0..d} (j·span + 1)
	return nf * ((d + 1) + float64(hi-lo)*d*(d+1)/2)
}
