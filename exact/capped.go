package exact

import (
	"fmt"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// A capped explosion (mechanics.CappedExplode) is followed roll by roll,
// in the order the rolls are looked at. The rolls still to look at are
// in breadth-first order — the N dice, then their extra rolls, then the
// extra rolls of those — so they are at most two levels: a rolls of the
// level d being looked at and c rolls of level d+1 behind them. The state
// is (d, a, c, bursts so far) with the distribution of the term so far;
// the term stops when no roll is left. When the per-die limit cannot bite
// before the cap (DepthMatters is false) every extra roll is alike, and
// the levels past the first are one (d stays at 1, extra rolls join a).

// capKey is a state of the capped explosion's DP.
type capKey struct{ d, a, c, b int }

// cappedDist is the distribution of a capped explosion's term.
func cappedDist[P any](b *engine.Budget, n mechanics.CappedExplode, ar uniqueArith[P]) (map[int]P, error) {
	faces, ws := mechanics.UniqueFaces(n.Explode.Die)
	W := n.Explode.Die.TotalWeight()
	pf := make([]P, len(faces))
	burst := make([]bool, len(faces))
	bursts := n.Explode.Burster()
	for i, f := range faces {
		pf[i], burst[i] = ar.frac(ws[i], W), bursts(f)
	}
	first, extra := make([]int, len(faces)), make([]int, len(faces))
	for i, f := range faces {
		first[i], extra[i] = n.Value(f, false), n.Value(f, true)
	}
	depth, L := n.DepthMatters(), n.Explode.Limit
	out := map[int]P{}
	add := func(m map[int]P, v int, p P) {
		if old, ok := m[v]; ok {
			m[v] = ar.add(old, p)
		} else {
			m[v] = p
		}
	}
	if n.N == 0 {
		out[0] = ar.one()
		return out, nil
	}
	cur := map[capKey]map[int]P{{0, n.N, 0, 0}: {0: ar.one()}}
	for len(cur) > 0 {
		next := map[capKey]map[int]P{}
		for k, dist := range cur {
			if err := b.Tick(len(dist) * len(faces)); err != nil {
				return nil, err
			}
			vals := first
			if k.d > 0 {
				vals = extra
			}
			mayBurst := k.b < n.Total && (!depth || k.d < L)
			for i := range faces {
				nk := k
				nk.a--
				if mayBurst && burst[i] {
					nk.b++
					if !depth && k.d > 0 {
						nk.a++
					} else {
						nk.c++
					}
				}
				if nk.a == 0 {
					nk.d, nk.a, nk.c = nk.d+1, nk.c, 0
					if !depth {
						nk.d = 1
					}
				}
				dst := out
				if nk.a > 0 {
					if dst = next[nk]; dst == nil {
						dst = map[int]P{}
						next[nk] = dst
					}
				}
				for v, p := range dist {
					add(dst, v+vals[i], ar.mul(p, pf[i]))
				}
			}
		}
		cur = next
	}
	return out, nil
}

// cappedFloat is the engine's distribution of a capped explosion.
func cappedFloat(b *engine.Budget, n mechanics.CappedExplode) (engine.Dist, error) {
	if err := cappedCheck(b, n); err != nil {
		return engine.Dist{}, err
	}
	m, err := cappedDist(b, n, floatArith)
	if err != nil {
		return engine.Dist{}, err
	}
	return fromMap(b, m, "a capped explosion")
}

// cappedRat is the exact distribution of a capped explosion.
func cappedRat(b *engine.Budget, n mechanics.CappedExplode) (RatDist, error) {
	if err := cappedCheck(b, n); err != nil {
		return nil, err
	}
	m, err := cappedDist(b, n, ratArith)
	if err != nil {
		return nil, err
	}
	return RatDist(m), nil
}

// cappedShape is the most DP states one roll may hold and the values each
// holds at most.
func cappedShape(n mechanics.CappedExplode) (states, values float64) {
	faces, _ := mechanics.UniqueFaces(n.Explode.Die)
	lo, hi := 0, 0
	for i, f := range faces {
		a, e := n.Value(f, false), n.Value(f, true)
		if i == 0 {
			lo, hi = min(a, e), max(a, e)
		}
		lo, hi = min(lo, a, e), max(hi, a, e)
	}
	t := float64(n.Total + 1)
	// Given the rolls looked at and the bursts, (d, a, c) is one of two
	// (level 0 or past it), or with the per-die limit one of the (L+1)
	// levels with how the rolls left split between two levels.
	states = 2 * t
	if n.DepthMatters() {
		states = float64(n.Explode.Limit+1) * t * t
	}
	values = float64(n.MaxRolls())*float64(hi-lo) + 1
	return states, values
}

// cappedWork is the work of a capped explosion: at each roll looked at,
// each state's values times the faces.
func cappedWork(n mechanics.CappedExplode) float64 {
	if n.N < 0 || len(n.Explode.Die.Faces) == 0 {
		return 0
	}
	states, values := cappedShape(n)
	faces, _ := mechanics.UniqueFaces(n.Explode.Die)
	return float64(n.MaxRolls()) * states * values * float64(len(faces))
}

// cappedCheck refuses a capped explosion whose states would not fit the
// memory budget.
func cappedCheck(b *engine.Budget, n mechanics.CappedExplode) error {
	states, values := cappedShape(n)
	entries := 2 * states * values
	if entries > 1e12 {
		entries = 1e12
	}
	return b.Need(engine.MulBytes(int64(entries), engine.MapEntryBytes), engine.AdviceDice,
		"%s", fmt.Sprintf("%d dice exploding at most %d times in all", n.N, n.Total))
}
