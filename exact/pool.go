package exact

import (
	"fmt"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// poolStateBytes is what one interned evaluator state costs besides its w
// masses: the state, its index entry and slack.
const poolStateBytes = 64

// poolDist runs an evaluator over n rolls of a die as a dynamic program
// over faces, the multiset DP: faces are taken in ascending order, and the
// c dice that show face f among the r not yet placed have the conditional
// binomial weight C(r,c)·q^c·(1−q)^(r−c), q = P(f | face ≥ f). The DP state
// is (evaluator state, dice left), with evaluator states interned per
// face, so the cost is O(F·S·n²) for F faces and S live states.
func poolDist(b *engine.Budget, ft faceTable, n int, ev mechanics.Evaluator) (engine.Dist, error) {
	w := n + 1
	if err := b.Need(engine.MulBytes(engine.MulBytes(int64(w), int64(w)), engine.FloatBytes), engine.AdviceDice, "a pool of %d dice", n); err != nil {
		return engine.Dist{}, err
	}
	cur := poolLayer{states: []uint64{ev.Start()}, mass: make([]float64, w)}
	cur.mass[n] = 1
	cur, err := multisetDP(b, ft, cur, w, ev, fmt.Sprintf("the pool of %d dice", n))
	if err != nil {
		return engine.Dist{}, err
	}
	res := map[int]float64{}
	for si, s := range cur.states {
		if p := cur.mass[si*w]; p != 0 {
			res[ev.Final(s)] += p
		}
	}
	return fromMap(b, res, "a pool's result")
}

// poolLayer is the multiset DP's table: for each live evaluator state, the
// mass of every number r of dice not yet placed (mass[i*w + r]).
type poolLayer struct {
	states []uint64
	mass   []float64
}

// multisetDP places the dice not yet placed of every state of cur on the
// faces of ft, in ascending order (see poolDist): the states it returns
// have mass only at r = 0, every die placed. what names the dice in a
// refusal.
func multisetDP(b *engine.Budget, ft faceTable, cur poolLayer, w int, ev mechanics.Evaluator, what string) (poolLayer, error) {
	if len(ft.faces) == 0 {
		return cur, nil // no faces (every roll on the other side of a trigger)
	}
	qs := ft.conditionals()
	n := w - 1
	// Each live state holds w masses; the DP keeps two layers of them.
	stateBytes := engine.AddBytes(engine.MulBytes(int64(w), engine.FloatBytes), poolStateBytes)
	// binom[c*w + r] = C(r,c)·q^c·(1−q)^(r−c), column-major so the inner loop
	// below walks contiguous memory; built by Pascal's rule (only convex
	// combinations: no powers, no divisions, no cancellation).
	binom := make([]float64, w*w)
	for fi, f := range ft.faces {
		q := qs[fi]
		clear(binom)
		binom[0] = 1
		for r := 1; r <= n; r++ {
			binom[r] = (1 - q) * binom[r-1]
			for c := 1; c <= r; c++ {
				binom[c*w+r] = q*binom[(c-1)*w+r-1] + (1-q)*binom[c*w+r-1]
			}
		}
		index := make(map[uint64]int32, 2*len(cur.states))
		next := poolLayer{}
		for si, s := range cur.states {
			if err := b.Tick(w * w / 2); err != nil {
				return poolLayer{}, err
			}
			m := cur.mass[si*w : (si+1)*w]
			rmax := -1
			for r := n; r >= 0; r-- {
				if m[r] != 0 {
					rmax = r
					break
				}
			}
			prev, j := uint64(0), int32(-1)
			for c := 0; c <= rmax; c++ {
				ns := ev.Next(s, f, c)
				if j < 0 || ns != prev {
					var ok bool
					if j, ok = index[ns]; !ok {
						if live := int64(len(cur.states) + len(next.states) + 1); !b.Fits(engine.MulBytes(live, stateBytes)) {
							return poolLayer{}, b.Need(engine.MulBytes(live, stateBytes), engine.AdviceDice,
								"%s (over %d states of its evaluator so far)", what, live)
						}
						j = int32(len(next.states))
						index[ns] = j
						next.states = append(next.states, ns)
						next.mass = append(next.mass, make([]float64, w)...)
					}
					prev = ns
				}
				out := next.mass[int(j)*w : int(j+1)*w]
				mm := m[c : rmax+1]
				bc := binom[c*w+c : c*w+rmax+1]
				oo := out[:len(mm)]
				bc = bc[:len(mm)]
				for i, p := range mm {
					oo[i] += p * bc[i]
				}
			}
		}
		cur = next
	}
	return cur, nil
}
