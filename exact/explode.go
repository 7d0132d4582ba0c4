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
// time.
func explodeFrom(b *engine.Budget, ft faceTable, e mechanics.Explode, depth int, limited bool) (engine.Dist, float64, error) {
	what := fmt.Sprintf("a die exploding on %s up to %d times", e.BurstFaces(), depth)
	if err := b.Need(engine.MulBytes(engine.MulBytes(int64(depth)+1, int64(ft.faces[len(ft.faces)-1]-ft.faces[0])+1), engine.MapEntryBytes), "lower the explosion depth", "%s", what); err != nil {
		return engine.Dist{}, 0, err
	}
	bursts := e.Burster()
	out := map[int]float64{}
	cur := map[int]float64{0: 1} // the sum so far of the rolls of dice still bursting
	for j := 0; j <= depth; j++ {
		if err := b.Tick(len(cur) * len(ft.faces)); err != nil {
			return engine.Dist{}, 0, err
		}
		next := map[int]float64{}
		for s, p := range cur {
			for i, f := range ft.faces {
				q := p * ft.probs[i]
				if bursts(f) && (j < depth || !limited) {
					next[s+e.BurstAdds(f)] += q // bursts again (past depth: the dropped mass)
				} else {
					out[s+f] += q
				}
			}
		}
		cur = next
	}
	truncated := 0.0
	for _, p := range cur {
		truncated += p
	}
	d, err := fromMap(b, out, what)
	return d, truncated, err
}
