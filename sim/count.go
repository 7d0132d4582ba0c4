package sim

import "github.com/oddsmith/oddsmith/mechanics"

// countSampler draws a RandomCount: the count, then that many copies of
// X summed. A count outside 0..mechanics.MaxRandomCount is a fault of the
// model (the simulation stops with its error).
type countSampler struct {
	n, x sampler
}

func compileRandomCount(n mechanics.RandomCount) (sampler, error) {
	s, err := compileAll(n.N, n.X)
	if err != nil {
		return nil, err
	}
	return &countSampler{n: s[0], x: s[1]}, nil
}

func (c *countSampler) sample(r *source) int {
	k := c.n.sample(r)
	if err := mechanics.CheckCount(k); err != nil {
		panic(mechanics.Fault{Err: err})
	}
	s := 0
	for range k {
		s += c.x.sample(r)
	}
	return s
}
