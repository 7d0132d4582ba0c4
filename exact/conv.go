package exact

import (
	"fmt"

	"github.com/oddsmith/oddsmith/engine"
)

// convolve returns the distribution of X + Y for independent X ~ a, Y ~ b
// by direct convolution, O(len(a)·len(b)), within a budget: it refuses a
// result that does not fit and looks at the context every few rows.
// Direct summation keeps every probability non-negative; FFT convolution
// does not (it produced thousands of negative probabilities on 1000d6 in
// our measurements).
func convolve(bg *engine.Budget, a, b engine.Dist) (engine.Dist, error) {
	if len(a.P) == 0 || len(b.P) == 0 {
		return engine.Dist{}, nil
	}
	if len(a.P) < len(b.P) {
		a, b = b, a
	}
	if err := needDense(bg, a.Lo+b.Lo, a.Hi()+b.Hi(), "a sum"); err != nil {
		return engine.Dist{}, err
	}
	out := make([]float64, len(a.P)+len(b.P)-1)
	bp := b.P
	for j, q := range bp {
		if q == 0 {
			continue
		}
		if err := bg.Tick(len(a.P)); err != nil {
			return engine.Dist{}, err
		}
		o := out[j : j+len(a.P)]
		for i, p := range a.P {
			o[i] += p * q
		}
	}
	return engine.Dist{Lo: a.Lo + b.Lo, P: out}, nil
}

// square returns the distribution of X + X' for independent copies, using the
// symmetry of the self-convolution to halve the work.
func square(bg *engine.Budget, a engine.Dist) (engine.Dist, error) {
	n := len(a.P)
	if n == 0 {
		return engine.Dist{}, nil
	}
	if err := needDense(bg, 2*a.Lo, 2*a.Hi(), "a sum"); err != nil {
		return engine.Dist{}, err
	}
	out := make([]float64, 2*n-1)
	p := a.P
	for i, ai := range p {
		if ai == 0 {
			continue
		}
		if err := bg.Tick(n - i); err != nil {
			return engine.Dist{}, err
		}
		out[2*i] += ai * ai
		t := 2 * ai
		rest := p[i+1:]
		o := out[2*i+1:]
		o = o[:len(rest)]
		for j, aj := range rest {
			o[j] += t * aj
		}
	}
	return engine.Dist{Lo: 2 * a.Lo, P: out}, nil
}

// sumN returns the distribution of the sum of n independent copies of X by
// repeated squaring (n even: square the n/2-fold sum; n odd: add one copy),
// so 1000d6 costs about four small self-convolutions of its final size.
// sumN(b, a, 0) is the point mass at 0.
func sumN(bg *engine.Budget, a engine.Dist, n int) (engine.Dist, error) {
	if n < 0 {
		return engine.Dist{}, fmt.Errorf("a sum of %d copies: the count must not be negative", n)
	}
	// A sparse X (packed outcomes: few values spread over a wide range) is
	// cheaper to add one copy at a time: each step costs nnz(X)·span, where a
	// squaring costs span² on the mostly-empty dense support.
	nnz := a.NonZero()
	if n > 1 && wideUniform(a) {
		return sumUniform(bg, a, n)
	}
	if n > 1 && n <= 64 && 2*nnz < len(a.P) {
		acc := a
		for i := 1; i < n; i++ {
			d, err := convolve(bg, acc, a)
			if err != nil {
				return engine.Dist{}, err
			}
			acc = flushTiny(d)
		}
		return acc, nil
	}
	return sumNSquaring(bg, a, n)
}

// wideUniform reports a die of more than 32 values, all equally likely on a
// contiguous range (d100, d77728): sums of its copies are moving windows.
// Smaller dice keep the convolutions, whose products of small counts are
// exact in floating point (3d6 gives 27/216 to the last bit).
func wideUniform(a engine.Dist) bool {
	if len(a.P) <= 32 {
		return false
	}
	for _, p := range a.P {
		if p != a.P[0] || p == 0 {
			return false
		}
	}
	return true
}

// sumUniform is the sum of n copies of a uniform die of w values: each copy
// added is a moving window of w values, O(size) per copy instead of the
// O(size²) of a squaring (8d77728: 5·10⁶ operations, not 10¹¹). Window
// sums are differences of running sums taken from the left end on the
// lower half and from the right end on the upper half, so each tail's tiny
// values are differences of tiny sums and keep their relative precision
// (the distribution of a sum of uniform dice is symmetric and unimodal).
func sumUniform(bg *engine.Budget, a engine.Dist, n int) (engine.Dist, error) {
	w, q := len(a.P), a.P[0]
	// Copy k costs about 3·k·w operations.
	if err := bg.Plan(1.5 * float64(n) * float64(n) * float64(w)); err != nil {
		return engine.Dist{}, err
	}
	// Three arrays of the sum's size are live at once: two buffers and the
	// running sums.
	span := engine.Span(n*a.Lo, n*a.Hi())
	if err := bg.Need(engine.MulBytes(span, 3*engine.FloatBytes), engine.AdviceValues, "the distribution of a sum of %d dice, over the %d values from %d to %d, and its two working arrays", n, span, n*a.Lo, n*a.Hi()); err != nil {
		return engine.Dist{}, err
	}
	size := n*(w-1) + 1
	// Two buffers taken in turn and one of running sums: no allocation per
	// copy added.
	bufs := [2][]float64{make([]float64, size), make([]float64, size)}
	run := make([]float64, size+1)
	cur := append(bufs[0][:0], a.P...)
	lo := a.Lo
	for k := 1; k < n; k++ {
		m := len(cur)
		if err := bg.Tick(m + w); err != nil {
			return engine.Dist{}, err
		}
		out := bufs[k%2][:m+w-1]
		// run[i]: the sum of cur[0:i] (left), then of cur[i:] (right).
		run[0] = 0
		for i, p := range cur {
			run[i+1] = run[i] + p
		}
		mid := len(out) / 2
		for j := 0; j < mid; j++ { // values j−w+1 … j of cur
			out[j] = q * (run[min(j+1, m)] - run[max(0, j-w+1)])
		}
		run[m] = 0
		for i := m - 1; i >= 0; i-- {
			run[i] = run[i+1] + cur[i]
		}
		for j := mid; j < len(out); j++ {
			out[j] = q * (run[max(0, j-w+1)] - run[min(j+1, m)])
		}
		lo += a.Lo
		d := flushTiny(engine.Dist{Lo: lo, P: out})
		cur, lo = d.P, d.Lo
	}
	return engine.Dist{Lo: lo, P: cur}, nil // no copy: nothing else holds cur
}

func sumNSquaring(bg *engine.Budget, a engine.Dist, n int) (engine.Dist, error) {
	// The last squaring dominates: about (n·len/2)² products, the whole
	// about 2/3 of that again.
	if span := float64(n) * float64(len(a.P)); bg != nil && span*span/2 > engine.MaxWork {
		return engine.Dist{}, engine.TooLong()
	}
	var d engine.Dist
	var err error
	switch {
	case n == 0:
		return engine.Point(0), nil
	case n == 1:
		return a, nil
	case n%2 == 0:
		if d, err = sumNSquaring(bg, a, n/2); err == nil {
			d, err = square(bg, d)
		}
	default:
		if d, err = sumNSquaring(bg, a, n-1); err == nil {
			d, err = convolve(bg, d, a)
		}
	}
	if err != nil {
		return engine.Dist{}, err
	}
	return flushTiny(d), nil
}

// tiny is the probability below which sumN flushes values to zero. The far
// tails of large sums (6⁻⁵⁰⁰ for the lowest value of 500d6) would otherwise
// multiply into subnormal floats, which are meaningless here and tens of
// times slower on x86; with every value ≥ 1e-150 no product is subnormal.
// The mass flushed is below tiny times the support size (< 1e-145).
const tiny = 1e-150

// flushTiny zeroes probabilities below tiny and trims zero ends.
func flushTiny(d engine.Dist) engine.Dist {
	for i, p := range d.P {
		if p < tiny {
			d.P[i] = 0
		}
	}
	return d.Trim()
}

// negate returns the distribution of −X.
func negate(a engine.Dist) engine.Dist {
	p := make([]float64, len(a.P))
	for i, q := range a.P {
		p[len(p)-1-i] = q
	}
	return engine.Dist{Lo: -a.Hi(), P: p}
}
