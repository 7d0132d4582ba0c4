package sim

import (
	"sort"

	"github.com/oddsmith/oddsmith/mechanics"
)

// weightedPool rolls a pool of dice whose odds are too fine for a table of
// faces (an exploding die made finite, weights of 10¹³): each die is one
// weighted draw, the faces are counted and the evaluator folded over the
// counts in ascending order.
type weightedPool struct {
	die    *weighted // draws a slot: the index of a face in faces
	faces  []int     // distinct faces, ascending
	n      int
	ev     mechanics.Evaluator
	counts []int
}

func newWeightedPool(die mechanics.Die, n int, ev mechanics.Evaluator) *weightedPool {
	w := newWeighted(die)
	faces := append([]int(nil), die.Faces...)
	sort.Ints(faces)
	faces = dedup(faces)
	slot := make(map[int]int, len(faces))
	for i, f := range faces {
		slot[f] = i
	}
	// The faces as slots, so a draw lands on its count directly.
	for i, f := range w.faces {
		w.faces[i] = slot[f]
	}
	return &weightedPool{die: w, faces: faces, n: n, ev: ev, counts: make([]int, len(faces))}
}

func (p *weightedPool) sample(r *source) int {
	clear(p.counts)
	for range p.n {
		p.counts[p.die.sample(r)]++
	}
	s := p.ev.Start()
	for i, f := range p.faces {
		s = p.ev.Next(s, f, p.counts[i])
	}
	return p.ev.Final(s)
}
