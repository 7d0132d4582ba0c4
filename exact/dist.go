package exact

import (
	"math"

	"github.com/oddsmith/oddsmith/engine"
)

// Distributions built within a computation's budget.

// mapDist is the distribution of f(X) for X ~ d, within a budget; what
// names the result in messages.
func mapDist(b *engine.Budget, d engine.Dist, f func(int) int, what string) (engine.Dist, error) {
	type vp struct {
		v int
		p float64
	}
	if err := b.Need(engine.MulBytes(int64(len(d.P)), 16), engine.AdviceValues, "%s over %d values", what, len(d.P)); err != nil {
		return engine.Dist{}, err
	}
	pts := make([]vp, 0, len(d.P))
	lo, hi := math.MaxInt, math.MinInt
	for i, p := range d.P {
		if p == 0 {
			continue
		}
		if err := b.Tick(16); err != nil {
			return engine.Dist{}, err
		}
		v := f(d.Lo + i)
		lo, hi = min(lo, v), max(hi, v)
		pts = append(pts, vp{v, p})
	}
	if len(pts) == 0 {
		return engine.Dist{}, nil
	}
	if err := needDense(b, lo, hi, what); err != nil {
		return engine.Dist{}, err
	}
	out := make([]float64, hi-lo+1)
	for _, q := range pts {
		out[q.v-lo] += q.p
	}
	return engine.Dist{Lo: lo, P: out}, nil
}

// needDense refuses a dense distribution over [lo, hi] that does not fit.
func needDense(b *engine.Budget, lo, hi int, what string) error {
	n := engine.Span(lo, hi)
	return b.Need(engine.MulBytes(n, engine.FloatBytes), engine.AdviceValues, "the distribution of %s, over the %d values from %d to %d,", what, n, lo, hi)
}

// fromMap builds a Dist from value → probability within a budget; what
// names the result in messages.
func fromMap(b *engine.Budget, m map[int]float64, what string) (engine.Dist, error) {
	if len(m) == 0 {
		return engine.Dist{}, nil
	}
	lo, hi := math.MaxInt, math.MinInt
	for k := range m {
		lo, hi = min(lo, k), max(hi, k)
	}
	if err := needDense(b, lo, hi, what); err != nil {
		return engine.Dist{}, err
	}
	p := make([]float64, hi-lo+1)
	for k, v := range m {
		p[k-lo] = v
	}
	return engine.Dist{Lo: lo, P: p}, nil
}

// mix is the pointwise sum of weighted distributions (a mixture).
func mix(b *engine.Budget, ws []float64, ds []engine.Dist) (engine.Dist, error) {
	lo, hi := math.MaxInt, math.MinInt
	for i, d := range ds {
		if ws[i] == 0 || len(d.P) == 0 {
			continue
		}
		lo, hi = min(lo, d.Lo), max(hi, d.Hi())
	}
	if lo > hi {
		return engine.Dist{}, nil
	}
	if err := needDense(b, lo, hi, "a mixture"); err != nil {
		return engine.Dist{}, err
	}
	p := make([]float64, hi-lo+1)
	for i, d := range ds {
		if ws[i] == 0 {
			continue
		}
		if err := b.Tick(len(d.P)); err != nil {
			return engine.Dist{}, err
		}
		for j, q := range d.P {
			p[d.Lo+j-lo] += ws[i] * q
		}
	}
	return engine.Dist{Lo: lo, P: p}, nil
}

// fromDie is the distribution of one roll of a die given by faces and
// positive integer weights.
func fromDie(b *engine.Budget, faces []int, weight func(i int) int64, total int64) (engine.Dist, error) {
	m := make(map[int]float64, len(faces))
	for i, f := range faces {
		m[f] += float64(weight(i)) / float64(total)
	}
	return fromMap(b, m, "a die")
}
