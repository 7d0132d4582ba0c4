package sim

import "github.com/oddsmith/oddsmith/mechanics"

// cappedSampler rolls a capped explosion (mechanics.CappedExplode) as the
// rule says: the N dice are rolled, then the rolls are looked at in order,
// each that bursts while the cap allows (and, with a per-die limit, while
// its die has extra rolls left) adding a roll at the end.
type cappedSampler struct {
	die    *weighted
	n      mechanics.CappedExplode
	bursts func(int) bool
	faces  []int // the rolls' faces, in order
	depth  []int // how many extra rolls deep each roll is (0: one of the N)
}

func compileCapped(n mechanics.CappedExplode) (sampler, error) {
	return &cappedSampler{die: newWeighted(n.Explode.Die), n: n, bursts: n.Explode.Burster()}, nil
}

func (p *cappedSampler) roll(r *source) int {
	return p.die.faces[p.die.at(r.Index(p.die.total))]
}

func (p *cappedSampler) sample(r *source) int {
	p.faces, p.depth = p.faces[:0], p.depth[:0]
	for range p.n.N {
		p.faces = append(p.faces, p.roll(r))
		p.depth = append(p.depth, 0)
	}
	extra, limit := 0, p.n.Explode.Limit
	for i := 0; i < len(p.faces); i++ {
		if extra >= p.n.Total {
			break
		}
		if limit > 0 && p.depth[i] >= limit {
			continue
		}
		if p.bursts(p.faces[i]) {
			p.faces = append(p.faces, p.roll(r))
			p.depth = append(p.depth, p.depth[i]+1)
			extra++
		}
	}
	s := 0
	for i, f := range p.faces {
		s += p.n.Value(f, p.depth[i] > 0)
	}
	return s
}
