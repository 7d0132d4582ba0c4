package exact

import (
	"fmt"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// explode returns the distribution of a bursting die: roll, and while the
// roll bursts (e.Bursts) roll again, following depth extra rolls; a roll
// that bursts adds e.BurstAdds of its face (one less when penetrating),
// the last roll its face. With limited (a rule's limit) the last roll
// counts as it is and nothing is lost; otherwise the bursts go on without
// limit and the mass of going on past depth is dropped: truncated is that
// probability, P(burst)^(depth+1), and the distribution sums to 1 −
// truncated.
func explode(b *engine.Budget, ft faceTable, e mechanics.Explode, depth int, limited bool) (d engine.Dist, truncated float64, err error) {
	bursts := e.Burster()
	one, n := 0, 0 // the bursting face, when there is only one
	for i, f := range ft.faces {
		if bursts(f) {
			one, n = i, n+1
		}
	}
	if n != 1 {
		return explodeFrom(b, ft, e, depth, limited)
	}
	entries := engine.MulBytes(int64(depth)+1, int64(len(ft.faces)))
	if err := b.Need(engine.MulBytes(entries, engine.MapEntryBytes), "lower the explosion depth", "a die exploding up to %d times", depth); err != nil {
		return engine.Dist{}, 0, err
	}
	M := e.BurstAdds(ft.faces[one])
	pm := ft.probs[one]
	parts := make(map[int]float64)
	reach := 1.0 // P(j explosions so far)
	for j := 0; j <= depth; j++ {
		if err := b.Tick(len(ft.faces)); err != nil {
			return engine.Dist{}, 0, err
		}
		for i, f := range ft.faces {
			if i == one && (j < depth || !limited) {
				continue // bursts again (past depth: the dropped mass)
			}
			parts[j*M+f] += reach * ft.probs[i]
		}
		reach *= pm
	}
	d, err = fromMap(b, parts, fmt.Sprintf("a die exploding up to %d times", depth))
	if limited {
		return d, 0, err
	}
	return d, reach, err // reach = pm^(depth+1)
}

// explodeFrom follows a die that bursts on several faces: the sum so far
// of the rolls that burst is a distribution, carried one extra roll at a
// time. After j bursts it lies in [j·lo, j·hi] (lo, hi: the least and the
// most a bursting roll adds), held densely.
func explodeFrom(b *engine.Budget, ft faceTable, e mechanics.Explode, depth int, limited bool) (engine.Dist, float64, error) {
	what := fmt.Sprintf("a die exploding on %s up to %d times", e.BurstFaces(), depth)
	bursts := e.Burster()
	adds := make([]int, len(ft.faces))
	burst := make([]bool, len(ft.faces))
	lo, hi, k := 0, 0, 0
	for i, f := range ft.faces {
		if burst[i], adds[i] = bursts(f), e.BurstAdds(f); burst[i] {
			if k == 0 {
				lo, hi = adds[i], adds[i]
			}
			k, lo, hi = k+1, min(lo, adds[i]), max(hi, adds[i])
		}
	}
	fmin, fmax := ft.faces[0], ft.faces[len(ft.faces)-1]
	olo, ohi := min(0, depth*lo)+fmin, max(0, depth*hi)+fmax
	width := int64(depth)*int64(hi-lo) + 1
	if err := b.Need(engine.MulBytes(engine.AddBytes(engine.Span(olo, ohi), 2*width), engine.FloatBytes), "lower the explosion depth", "%s", what); err != nil {
		return engine.Dist{}, 0, err
	}
	out := make([]float64, ohi-olo+1)
	cur, next := make([]float64, 1, width), make([]float64, 0, width)
	cur[0] = 1 // the sum so far of the rolls of dice still bursting, from curLo
	curLo := 0
	for j := 0; j <= depth && len(cur) > 0; j++ {
		if err := b.Tick(len(cur) * len(ft.faces)); err != nil {
			return engine.Dist{}, 0, err
		}
		goOn := j < depth || !limited
		nextLo := curLo + lo
		next = next[:0]
		if goOn && k > 0 {
			next = append(next, make([]float64, len(cur)+hi-lo)...)
		}
		for i, f := range ft.faces {
			pf := ft.probs[i]
			if burst[i] && goOn {
				dst := next[curLo+adds[i]-nextLo:] // bursts again (past depth: the dropped mass)
				for s, p := range cur {
					dst[s] += p * pf
				}
				continue
			}
			dst := out[curLo+f-olo:]
			for s, p := range cur {
				dst[s] += p * pf
			}
		}
		cur, next, curLo = next, cur, nextLo
	}
	truncated := 0.0
	for _, p := range cur {
		truncated += p
	}
	return engine.Dist{Lo: olo, P: out}.Trim(), truncated, nil
}
