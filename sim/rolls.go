package sim

import (
	"fmt"
	"slices"
	"sort"

	"github.com/oddsmith/oddsmith/mechanics"
)

// rollsSampler rolls N exploding dice, counts every roll (each extra roll
// a die of its own) by face and folds the counts through the evaluator in
// ascending face order (mechanics.ExplodeRolls).
type rollsSampler struct {
	die       *weighted
	slot      []int // index into faces of each face of the die
	faces     []int // the die's distinct faces, ascending
	n, depth  int
	bursts    func(int) bool
	unlimited bool
	ev        mechanics.Evaluator
	counts    []int
}

func compileRolls(n mechanics.ExplodeRolls) (sampler, error) {
	e := n.Explode
	if e.Limit == 0 && e.TopProbability() >= 1 {
		return nil, fmt.Errorf("a die that bursts on every roll (%s) never stops", e.BurstFaces())
	}
	faces := slices.Clone(e.Die.Faces)
	sort.Ints(faces)
	faces = slices.Compact(faces)
	slot := make([]int, len(e.Die.Faces))
	for i, f := range e.Die.Faces {
		slot[i] = sort.SearchInts(faces, f)
	}
	depth := e.Limit
	if depth == 0 {
		depth = mechanics.MaxBursts
	}
	return &rollsSampler{die: newWeighted(e.Die), slot: slot, faces: faces, n: n.N, depth: depth,
		bursts: e.Burster(), unlimited: e.Limit == 0, ev: n.Eval, counts: make([]int, len(faces))}, nil
}

func (p *rollsSampler) sample(r *source) int {
	clear(p.counts)
	for range p.n {
		for j := 0; ; j++ {
			i := p.die.at(r.Index(p.die.total))
			p.counts[p.slot[i]]++
			if !p.bursts(p.die.faces[i]) {
				break
			}
			if j == p.depth {
				if p.unlimited {
					mechanics.Raise("sim: a die burst %d times in a row; the simulation stops rather than cut it short", p.depth)
				}
				break
			}
		}
	}
	s := p.ev.Start()
	for i, f := range p.faces {
		s = p.ev.Next(s, f, p.counts[i])
	}
	return p.ev.Final(s)
}
