package engine

import (
	"fmt"
	"math"
)

// Dist is a probability distribution over the integers [Lo, Lo+len(P)).
// A Dist is treated as immutable once built. Probabilities are float64; see
// exact.RatDist for exact rationals on small cases.
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
		panic(fmt.Sprintf("engine: quantile p=%v outside [0,1]", p))
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

// NonZero is the number of values with mass.
func (d Dist) NonZero() int {
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

// stdDev is the standard deviation.
func (d Dist) stdDev() float64 { return math.Sqrt(d.Variance()) }

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

// Scaled multiplies every probability by w.
func (d Dist) Scaled(w float64) Dist {
	p := make([]float64, len(d.P))
	for i, q := range d.P {
		p[i] = q * w
	}
	return Dist{Lo: d.Lo, P: p}
}
