package sim

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// uniqueSampler rolls a mechanics.Unique die by die: a die showing a face
// an earlier die shows (one that Only holds for) is rolled again, until
// its face is new or not rerolled, or once with Once; the face counts are
// folded through the evaluator in ascending order.
type uniqueSampler struct {
	die    *weighted // draws a slot: the index of a face in faces
	faces  []int     // distinct faces, ascending
	rer    []bool    // whether a repeat of each face is rerolled
	n      int
	once   bool
	ev     mechanics.Evaluator
	counts []int
}

// maxUniqueRerolls bounds the rerolls of one die: Validate refuses a
// roll that never ends, so only odds below 2⁻⁶⁴ reach it.
const maxUniqueRerolls = 1 << 16

func compileUnique(u mechanics.Unique) (sampler, error) {
	faces, ws := mechanics.UniqueFaces(u.Die)
	slots := make([]int, len(faces))
	for i := range slots {
		slots[i] = i
	}
	w := newWeighted(mechanics.Die{Faces: slots, Weights: ws})
	rer := make([]bool, len(faces))
	for j, f := range faces {
		rer[j] = u.Rerolled(f)
	}
	return &uniqueSampler{die: w, faces: faces, rer: rer, n: u.N, once: u.Once, ev: u.Eval, counts: make([]int, len(faces))}, nil
}

func (s *uniqueSampler) sample(r *source) int {
	clear(s.counts)
	for range s.n {
		j := s.die.sample(r)
		for k := 0; s.counts[j] > 0 && s.rer[j] && k < maxUniqueRerolls; k++ {
			j = s.die.sample(r)
			if s.once {
				break
			}
		}
		s.counts[j]++
	}
	st := s.ev.Start()
	for i, f := range s.faces {
		st = s.ev.Next(st, f, s.counts[i])
	}
	return s.ev.Final(st)
}
