package exact

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Dist is a probability distribution over the integers [Lo, Lo+len(P)).
// A Dist is treated as immutable once built. Probabilities are float64; see
// RatDist for exact rationals on small cases.
type Dist struct {
	Lo int
	P  []float64
}

// Point is the distribution that is v with certainty.
func Point(v int) Dist { return Dist{Lo: v, P: []float64{1}} }

// Uniform is the fair die on lo..hi.
func Uniform(lo, hi int) Dist {
	p := make([]float64, hi-lo+1)
	for i := range p {
		p[i] = 1 / float64(len(p))
	}
	return Dist{Lo: lo, P: p}
}

// Hi is the largest value of the dense support.
func (d Dist) Hi() int { return d.Lo + len(d.P) - 1 }

// Prob returns P(X = x).
func (d Dist) Prob(x int) float64 {
	i := x - d.Lo
	if i < 0 || i >= len(d.P) {
		return 0
	}
	return d.P[i]
}

// CDF returns P(X ≤ x).
func (d Dist) CDF(x int) float64 {
	s := 0.0
	for i, p := range d.P {
		if d.Lo+i > x {
			break
		}
		s += p
	}
	return math.Min(s, 1)
}

// Survival returns P(X > x), summed from the upper tail for accuracy.
func (d Dist) Survival(x int) float64 {
	s := 0.0
	for i := len(d.P) - 1; i >= 0 && d.Lo+i > x; i-- {
		s += d.P[i]
	}
	return math.Min(s, 1)
}

// Quantile returns the smallest x with P(X ≤ x) ≥ p. It panics if p is
// outside [0, 1].
func (d Dist) Quantile(p float64) int {
	if p < 0 || p > 1 || math.IsNaN(p) {
		panic(fmt.Sprintf("exact: quantile p=%v outside [0,1]", p))
	}
	s := 0.0
	tol := 1e-12
	for i, q := range d.P {
		s += q
		if q > 0 && s >= p-tol {
			return d.Lo + i
		}
	}
	return d.Max()
}

// nonzero is the number of values with mass.
func (d Dist) nonzero() int {
	n := 0
	for _, p := range d.P {
		if p != 0 {
			n++
		}
	}
	return n
}

// Total is the sum of the probabilities (1 up to rounding, less when mass was
// truncated).
func (d Dist) Total() float64 {
	s := 0.0
	for _, p := range d.P {
		s += p
	}
	return s
}

// Mean is E[X].
func (d Dist) Mean() float64 {
	s, t := 0.0, 0.0
	for i, p := range d.P {
		s += float64(d.Lo+i) * p
		t += p
	}
	if t == 0 {
		return math.NaN()
	}
	return s / t
}

// Variance is Var[X].
func (d Dist) Variance() float64 {
	m := d.Mean()
	s, t := 0.0, 0.0
	for i, p := range d.P {
		x := float64(d.Lo+i) - m
		s += x * x * p
		t += p
	}
	return s / t
}

// StdDev is the standard deviation.
func (d Dist) StdDev() float64 { return math.Sqrt(d.Variance()) }

// Min is the smallest value with positive probability.
func (d Dist) Min() int {
	for i, p := range d.P {
		if p > 0 {
			return d.Lo + i
		}
	}
	return d.Lo
}

// Max is the largest value with positive probability.
func (d Dist) Max() int {
	for i := len(d.P) - 1; i >= 0; i-- {
		if d.P[i] > 0 {
			return d.Lo + i
		}
	}
	return d.Hi()
}

// Sample draws one value by inverting the CDF.
func (d Dist) Sample(r *rand.Rand) int {
	u := r.Float64() * d.Total()
	for i, p := range d.P {
		u -= p
		if u < 0 {
			return d.Lo + i
		}
	}
	return d.Max()
}

// Trim drops zero-probability values from both ends.
func (d Dist) Trim() Dist {
	a, b := 0, len(d.P)
	for a < b && d.P[a] == 0 {
		a++
	}
	for b > a && d.P[b-1] == 0 {
		b--
	}
	if a == b {
		return Dist{Lo: d.Lo, P: nil}
	}
	return Dist{Lo: d.Lo + a, P: d.P[a:b]}
}

// Map returns the distribution of f(X). It refuses (a *MemoryError) a
// result whose dense support would not fit DefaultMemory.
func (d Dist) Map(f func(int) int) (Dist, error) {
	return d.mapWith(defaultBudget(), f, "a mapped value")
}

// mapWith is Map within a budget; what names the result in messages.
func (d Dist) mapWith(b *budget, f func(int) int, what string) (Dist, error) {
	type vp struct {
		v int
		p float64
	}
	if err := b.need(mulBytes(int64(len(d.P)), 16), adviceValues, "%s over %d values", what, len(d.P)); err != nil {
		return Dist{}, err
	}
	pts := make([]vp, 0, len(d.P))
	lo, hi := math.MaxInt, math.MinInt
	for i, p := range d.P {
		if p == 0 {
			continue
		}
		if err := b.tick(16); err != nil {
			return Dist{}, err
		}
		v := f(d.Lo + i)
		lo, hi = min(lo, v), max(hi, v)
		pts = append(pts, vp{v, p})
	}
	if len(pts) == 0 {
		return Dist{}, nil
	}
	if err := b.needDense(lo, hi, what); err != nil {
		return Dist{}, err
	}
	out := make([]float64, hi-lo+1)
	for _, q := range pts {
		out[q.v-lo] += q.p
	}
	return Dist{Lo: lo, P: out}, nil
}

// needDense refuses a dense distribution over [lo, hi] that does not fit.
func (b *budget) needDense(lo, hi int, what string) error {
	n := span(lo, hi)
	return b.need(mulBytes(n, floatBytes), adviceValues, "the distribution of %s, over the %d values from %d to %d,", what, n, lo, hi)
}

// FromMap builds a Dist from value → probability. It refuses (a
// *MemoryError) a support too wide for DefaultMemory.
func FromMap(m map[int]float64) (Dist, error) { return fromMap(defaultBudget(), m, "the outcome") }

// fromMap is FromMap within a budget; what names the result in messages.
func fromMap(b *budget, m map[int]float64, what string) (Dist, error) {
	if len(m) == 0 {
		return Dist{}, nil
	}
	lo, hi := math.MaxInt, math.MinInt
	for k := range m {
		lo, hi = min(lo, k), max(hi, k)
	}
	if err := b.needDense(lo, hi, what); err != nil {
		return Dist{}, err
	}
	p := make([]float64, hi-lo+1)
	for k, v := range m {
		p[k-lo] = v
	}
	return Dist{Lo: lo, P: p}, nil
}

// Scaled multiplies every probability by w.
func (d Dist) Scaled(w float64) Dist {
	p := make([]float64, len(d.P))
	for i, q := range d.P {
		p[i] = q * w
	}
	return Dist{Lo: d.Lo, P: p}
}

// Mix returns the pointwise sum of weighted distributions (a mixture).
func Mix(ws []float64, ds []Dist) Dist {
	d, _ := mix(nil, ws, ds)
	return d
}

func mix(b *budget, ws []float64, ds []Dist) (Dist, error) {
	lo, hi := math.MaxInt, math.MinInt
	for i, d := range ds {
		if ws[i] == 0 || len(d.P) == 0 {
			continue
		}
		lo, hi = min(lo, d.Lo), max(hi, d.Hi())
	}
	if lo > hi {
		return Dist{}, nil
	}
	if err := b.needDense(lo, hi, "a mixture"); err != nil {
		return Dist{}, err
	}
	p := make([]float64, hi-lo+1)
	for i, d := range ds {
		if ws[i] == 0 {
			continue
		}
		if err := b.tick(len(d.P)); err != nil {
			return Dist{}, err
		}
		for j, q := range d.P {
			p[d.Lo+j-lo] += ws[i] * q
		}
	}
	return Dist{Lo: lo, P: p}, nil
}

// FromDie is the distribution of one roll of a die given by faces and
// positive integer weights.
func FromDie(faces []int, weight func(i int) int64, total int64) Dist {
	d, _ := fromDie(defaultBudget(), faces, weight, total)
	return d
}

func fromDie(b *budget, faces []int, weight func(i int) int64, total int64) (Dist, error) {
	m := make(map[int]float64, len(faces))
	for i, f := range faces {
		m[f] += float64(weight(i)) / float64(total)
	}
	return fromMap(b, m, "a die")
}
