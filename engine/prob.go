package engine

import "iter"

// Probabilities summed from their smaller side.
//
// An engine's outcome masses add up to 1 only up to the rounding they
// accumulated (gm.fall at 320 ft: 1 − 2.1e−15). A probability taken as 1
// less the others carries all of that rounding, so a value that is
// certain got a "tail" of 2.1e−15 and a certain event read 0.9999999999999978.
// Every probability the engines report is therefore summed from its own
// smaller side: the mass of the outcomes it counts when that is at most
// the mass of the others, else 1 less the others. Either way the sum is of
// the small masses only, so a probability with no outcome behind it is
// exactly 0 and one with no outcome against it exactly 1, with no
// tolerance: exact zeros and ones come out exact, and no real mass, however
// small (a not-absorbed tail of 1e−31), is ever rounded away.

// belowOne is the largest float64 below 1.
const belowOne = 1 - 0x1p-53

// Prob is the probability of a set of outcomes of mass in when the other
// outcomes, together with any mass the engine left out (truncated_mass),
// have mass out, in + out being 1 in exact arithmetic: in when it is the
// smaller side, else 1 − out. A complement too small to move 1 in float64
// (out below 1.1e−16) still leaves the probability just below 1: only a set
// with nothing against it has probability 1.
func Prob(in, out float64) float64 {
	if in <= out {
		return in
	}
	if out <= 0 {
		return 1
	}
	if p := 1 - out; p < 1 {
		return p
	}
	return belowOne
}

// Probs sets each of ps, masses of disjoint sets of outcomes that together
// with rest (the mass of any other outcomes and of what the engine left
// out) make 1, to its probability summed from its smaller side (Prob): in
// practice only a mass larger than all the others together changes, to 1
// less the others.
func Probs(ps []float64, rest float64) {
	n := len(ps)
	// above[i] is the mass of ps[i+1:], summed from the end.
	above := make([]float64, n)
	for i, s := n-1, 0.0; i >= 0; i-- {
		above[i] = s
		s += ps[i]
	}
	below := 0.0
	for i, p := range ps {
		ps[i] = Prob(p, below+above[i]+rest)
		below += p
	}
}

// Tail is the tail probabilities of a variable at one of its support
// points x: Le = P(X ≤ x), Ge = P(X ≥ x) and Gt = P(X > x). The mass where
// the variable is undefined and the mass the engine left out (Missing)
// count as above every value, as 1 − P(X ≤ x) would (a time never reached
// is later than every time), so Le + Gt = 1. Each is summed from its
// smaller side (Prob): P(X > x) at the largest value is exactly 0 when
// nothing is undefined or left out, and a variable that is certain has
// P(X ≤ x) = P(X ≥ x) = 1 exactly.
type Tail struct {
	Le, Ge, Gt float64
}

// Tails yields the tail probabilities at each support point (Lo+i)/Den,
// in order, with its index i; a simulation's come from its counts, each
// a count over the trials rounded once.
func (v *VarResult) Tails() iter.Seq2[int, Tail] {
	if v.Counts != nil {
		return v.countTails
	}
	return func(yield func(int, Tail) bool) {
		n := len(v.P)
		rest := v.Undefined + v.Missing
		// hi[i] is the mass of P[i:], summed from the top.
		hi := make([]float64, n+1)
		for i := n - 1; i >= 0; i-- {
			hi[i] = hi[i+1] + v.P[i]
		}
		lo := 0.0 // the mass of P[:i], summed from the bottom
		for i, p := range v.P {
			ge := Prob(hi[i]+rest, lo)
			lo += p
			if !yield(i, Tail{Le: Prob(lo, hi[i+1]+rest), Ge: ge, Gt: Prob(hi[i+1]+rest, lo)}) {
				return
			}
		}
	}
}

// countTails is Tails from a simulation's counts.
func (v *VarResult) countTails(yield func(int, Tail) bool) {
	trials := v.UndefinedCount
	for _, c := range v.Counts {
		trials += c
	}
	freq := func(c int64) float64 { return float64(c) / float64(trials) }
	below := int64(0) // the trials below the i-th value
	for i, c := range v.Counts {
		ge := freq(trials - below)
		below += c
		if !yield(i, Tail{Le: freq(below), Ge: ge, Gt: freq(trials - below)}) {
			return
		}
	}
}
