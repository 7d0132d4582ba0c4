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
			for i := range faces {
				nk := cappedStep(n, k, burst[i])
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

// cappedStep is the state after looking at one roll in state k: shows
// says whether the roll shows a face that bursts. The term is over when
// the state's a is 0.
func cappedStep(n mechanics.CappedExplode, k capKey, shows bool) capKey {
	depth := n.DepthMatters()
	nk := k
	nk.a--
	if shows && k.b < n.Total && (!depth || k.d < n.Explode.Limit) {
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
	return nk
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
	// E: the most extra rolls. Given the rolls looked at, a state is its
	// bursts b ≤ E and (d, a, c): one of two (level 0 or past it), or
	// with the per-die limit a level d ≤ min(L, E) and the rolls of the
	// next level c ≤ b (a is then what is left).
	e := float64(n.MaxRolls() - n.N)
	states = 2 * (e + 1)
	if n.DepthMatters() {
		states = (min(float64(n.Explode.Limit), e) + 1) * (e + 1) * (e + 2) / 2
	}
	values = float64(n.MaxRolls())*float64(hi-lo) + 1
	return states, values
}

// cappedReachLimit bounds the states cappedPlan walks to count those the
// DP reaches; past it the bound of cappedShape stands.
const cappedReachLimit = 1 << 22

// cappedPlan is the work of a capped explosion — at each roll looked at,
// each state's values times the faces — and the most map entries two
// consecutive rolls' states hold. The states are counted by walking the
// ones the DP reaches (without values: a roll bursts or not), when
// cappedShape's bound on them is small enough; the values after j rolls
// are at most j times the spread of a roll's values, plus one.
func cappedPlan(n mechanics.CappedExplode) (work, peak float64) {
	if n.N <= 0 || len(n.Explode.Die.Faces) == 0 || n.Explode.Limit < 0 || n.Total < 0 {
		return 0, 0
	}
	states, values := cappedShape(n)
	faces, _ := mechanics.UniqueFaces(n.Explode.Die)
	nf := float64(len(faces))
	rolls := float64(n.MaxRolls())
	if states*rolls > cappedReachLimit {
		return rolls * states * values * nf, 2 * states * values
	}
	bursts := n.Explode.Burster()
	var up, down bool // some face bursts, some does not
	for _, f := range faces {
		up, down = up || bursts(f), down || !bursts(f)
	}
	spread := (values - 1) / rolls
	prev := 0.0
	cur := map[capKey]bool{{0, n.N, 0, 0}: true}
	for j := 0; len(cur) > 0; j++ {
		entries := float64(len(cur)) * (float64(j)*spread + 1)
		work += entries * nf
		peak, prev = max(peak, prev+entries), entries
		next := map[capKey]bool{}
		for k := range cur {
			for _, shows := range []bool{false, true} {
				if shows && !up || !shows && !down {
					continue
				}
				if nk := cappedStep(n, k, shows); nk.a > 0 {
					next[nk] = true
				}
			}
		}
		cur = next
	}
	return work, peak
}

// cappedWork is the work of a capped explosion (see cappedPlan).
func cappedWork(n mechanics.CappedExplode) float64 {
	w, _ := cappedPlan(n)
	return w
}

// cappedCheck refuses a capped explosion whose states would not fit the
// memory budget.
func cappedCheck(b *engine.Budget, n mechanics.CappedExplode) error {
	_, entries := cappedPlan(n)
	if entries > 1e12 {
		entries = 1e12
	}
	return b.Need(engine.MulBytes(int64(entries), engine.MapEntryBytes), engine.AdviceDice,
		"%s", fmt.Sprintf("%d dice exploding at most %d times in all", n.N, n.Total))
}
