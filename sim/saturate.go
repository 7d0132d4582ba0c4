package sim

import (
	"math/bits"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
)

// A comparison or a clamp of a sum of bursting dice (d20 + 2d10! > 15, a
// damage roll capped at what a creature can lose) has few values although
// the sum has no bound: above some value s the function no longer changes.
// Such a node becomes a weighted table: every sequence of rolls is followed
// until the sum is known to reach s whatever comes next (or the last die has
// stopped), and its outcome counted with its exact integer weight over the
// product of the dice rolled. A trial is then one draw against those
// weights. It is the dice rolled all the ways they can fall, as for a
// table; only the sequences that cannot change the outcome are not
// followed further.

// saturateMaxCut bounds the values below the saturation point that the
// tables follow (the sum's distance from its least value).
const saturateMaxCut = 1 << 12

// countsTablePer bounds the entries a value of a table made from counts
// (see fromCounts).
const countsTablePer = 8192

// saturateMaxWork bounds the steps of the truncated convolutions (about a
// millisecond), so that compiling never takes long.
const saturateMaxWork = 1 << 21

// saturateMaxBurstWork bounds the steps of following one bursting die's
// chains (tens of milliseconds).
const saturateMaxBurstWork = 1 << 24

// saturateMaxTotal bounds the common denominator of a weighted table: one
// draw below it must fit a 64-bit word with little rejection.
const saturateMaxTotal = 1 << 62

// truncated is a distribution of a non-negative integer variable as exact
// counts out of total: c[v] ways to equal v for v < len(c) (the cut), and
// total − Σc ways to be at least the cut.
type truncated struct {
	c     []uint64
	total uint64
}

// mulCheck is a·b, or false if it does not fit below saturateMaxTotal.
func mulCheck(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0 && lo <= saturateMaxTotal
}

// saturating compiles f(x) for a sum x of dice when f(v) = f(sat) for every
// v ≥ sat: a weighted table of f's values, or false when x is not a sum of
// tables and bursting dice whose bursts only add (burstsUp), or when the counts outgrow
// the limits above (the caller then rolls the dice one by one).
func saturating(x mechanics.Node, f func(int) int, sat int) (sampler, bool) {
	terms := flattenSum(x, nil)
	if !slices.ContainsFunc(terms, func(t mechanics.Node) bool { _, ok := t.(mechanics.Explode); return ok }) {
		return nil, false
	}
	type part struct {
		vals    []int
		weights []uint64
		e       *mechanics.Explode
	}
	parts := make([]part, 0, len(terms))
	minSum := 0
	const far = 1 << 40 // keeps the cut's arithmetic from overflowing
	for _, t := range terms {
		if e, ok := t.(mechanics.Explode); ok {
			if !burstsUp(e) || e.Die.TotalWeight() > tableMax || (e.Limit == 0 && e.TopProbability() >= 1) {
				return nil, false
			}
			lo := slices.Min(e.Die.Faces)
			if lo > far || lo < -far {
				return nil, false
			}
			minSum += lo
			parts = append(parts, part{e: &e})
			continue
		}
		s, err := compile(t)
		if err != nil {
			return nil, false
		}
		vals, ws, ok := weightedCountsOf(s)
		if !ok {
			return nil, false
		}
		lo := slices.Min(vals)
		if lo > far || lo < -far {
			return nil, false
		}
		minSum += lo
		parts = append(parts, part{vals: vals, weights: ws})
	}
	if sat > far || sat < -far || minSum > far || minSum < -far {
		return nil, false
	}
	cut := sat - minSum
	if cut > saturateMaxCut {
		return nil, false
	}
	cut = max(cut, 0)
	if len(parts)*cut*cut > saturateMaxWork {
		return nil, false
	}
	acc := truncated{c: make([]uint64, cut), total: 1}
	if cut > 0 {
		acc.c[0] = 1
	}
	for _, p := range parts {
		var d truncated
		var ok bool
		if p.e != nil {
			d, _, ok = burstTruncated(*p.e, cut)
		} else {
			d, ok = finiteTruncated(p.vals, p.weights, cut)
		}
		if !ok {
			return nil, false
		}
		if acc, ok = convTruncated(acc, d); !ok {
			return nil, false
		}
	}
	// f's values: below the cut, each shifted sum; at or above it, f(sat).
	byVal := map[int]uint64{}
	below := uint64(0)
	for v, n := range acc.c {
		if n > 0 {
			byVal[f(v+minSum)] += n
			below += n
		}
	}
	if rest := acc.total - below; rest > 0 {
		byVal[f(sat)] += rest
	}
	return fromCounts(byVal), true
}

// flattenSum lists the terms of nested sums and repeats.
func flattenSum(x mechanics.Node, out []mechanics.Node) []mechanics.Node {
	switch x := x.(type) {
	case mechanics.Sum:
		for _, t := range x.Terms {
			out = flattenSum(t, out)
		}
		return out
	case mechanics.Repeat:
		for range x.N {
			out = flattenSum(x.X, out)
		}
		return out
	}
	return append(out, x)
}

// distinctCounts is the distinct values of a table, ascending, with the
// number of entries holding each.
func distinctCounts(vals []int) ([]int, []uint64) {
	d, cls := classes(vals)
	ws := make([]uint64, len(d))
	for _, c := range cls {
		ws[c]++
	}
	return d, ws
}

// finiteTruncated is a finite distribution shifted to start at 0 and cut.
func finiteTruncated(vals []int, ws []uint64, cut int) (truncated, bool) {
	lo := slices.Min(vals)
	d := truncated{c: make([]uint64, cut)}
	for i, v := range vals {
		if v-lo < cut {
			d.c[v-lo] += ws[i]
		}
		d.total += ws[i]
		if d.total > saturateMaxTotal {
			return truncated{}, false
		}
	}
	return d, true
}

// burstTruncated is one bursting die, shifted to start at 0 (its least
// face) and cut: each chain of maxima is followed while the die's value
// can still end below the cut, level by level (a level is one more roll,
// so its counts are out of W^level); the levels are brought to the
// deepest one's denominator at the end. steps counts the faces tried, at
// most saturateMaxBurstWork.
func burstTruncated(e mechanics.Explode, cut int) (d truncated, steps int, ok bool) {
	faces, bursts := e.Die.Faces, e.Burster()
	lo := slices.Min(faces)
	// The faces' own weights: a die with a Missing weight is rolled
	// conditional on the faces it has, as everywhere in the simulator.
	W := uint64(0)
	for i := range faces {
		W += uint64(e.Die.Weight(i))
	}
	// levels[j] holds the counts of values settled at the j-th roll, out
	// of W^(j+1).
	var levels [][]uint64
	// going: partial sums (unshifted) of chains still rolling, with their
	// counts out of W^j before the j-th roll.
	going := map[int]uint64{0: 1}
	// The denominator W^(j+1) is checked level by level and the steps are
	// bounded, so that a large die bursting on a low face (d65536!>=70
	// capped at 1400) is declined at once instead of being followed for
	// seconds to a denominator that cannot fit.
	denom := uint64(1)
	for j := 0; len(going) > 0; j++ {
		if denom, ok = mulCheck(denom, W); !ok {
			return truncated{}, steps, false
		}
		if steps+len(going)*len(faces) > saturateMaxBurstWork {
			return truncated{}, steps, false
		}
		steps += len(going) * len(faces)
		settled := make([]uint64, cut)
		next := map[int]uint64{}
		for p, n := range going {
			for i, fc := range faces {
				w := n * uint64(e.Die.Weight(i)) // at most denom: no overflow
				v := p + fc
				if bursts(fc) && (e.Limit == 0 || j < e.Limit) {
					v = p + e.BurstAdds(fc)
					// The die rolls on: its value will be at least v + lo,
					// v above its least value.
					if v < cut {
						next[v] += w
					}
					continue
				}
				if v-lo < cut {
					settled[v-lo] += w
				}
			}
		}
		levels = append(levels, settled)
		going = next
	}
	d = truncated{c: make([]uint64, cut), total: denom}
	scale := uint64(1)
	for j := len(levels) - 1; j >= 0; j-- {
		for v, n := range levels[j] {
			d.c[v] += n * scale
		}
		scale *= W
	}
	return d, steps, true
}

// burstsUp reports whether every roll that bursts adds a positive amount
// to its chain, so that a chain's value only grows as it goes on.
func burstsUp(e mechanics.Explode) bool {
	bursts := e.Burster()
	for _, f := range e.Die.Faces {
		if bursts(f) && e.BurstAdds(f) <= 0 {
			return false
		}
	}
	return true
}

// convTruncated is the sum of two independent truncated variables, cut
// where both are.
func convTruncated(a, b truncated) (truncated, bool) {
	total, ok := mulCheck(a.total, b.total)
	if !ok {
		return truncated{}, false
	}
	out := truncated{c: make([]uint64, len(a.c)), total: total}
	for u, x := range a.c {
		if x == 0 {
			continue
		}
		for v, y := range b.c[:len(a.c)-u] {
			out.c[u+v] += x * y
		}
	}
	return out, true
}

// fromCounts is the sampler of values with counts, divided by their
// greatest common divisor: a table (each value repeated by its count) when
// that is small, for what is built on tables (products, a process step's
// row by table index, draws of whole blocks), else a weighted table, which
// process kernels take as well (class rows, block and jump engines). A
// table is at most countsTablePer entries a value long (d20 + 2d10! ≥ 20,
// 10 000 entries for two values, is one; d20 + 2d12! > 15, 17 280, is not),
// so that a chain with a comparison of its own at each of thousands of
// states keeps a few kB a state, not a table of 2¹⁶ entries each.
func fromCounts(byVal map[int]uint64) sampler {
	vals := make([]int, 0, len(byVal))
	g := uint64(0)
	for v, n := range byVal {
		if n > 0 {
			vals = append(vals, v)
			g = gcd(g, n)
		}
	}
	slices.Sort(vals)
	w := &weighted{}
	for _, v := range vals {
		w.total += byVal[v] / g
		w.faces = append(w.faces, v)
		w.cum = append(w.cum, w.total)
	}
	if w.total > tableMax || w.total > uint64(countsTablePer*len(vals)) {
		w.index()
		return w
	}
	t := &table{vals: make([]int, 0, w.total)}
	for _, v := range vals {
		for range byVal[v] / g {
			t.vals = append(t.vals, v)
		}
	}
	return t
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
