package exact

import (
	"math"
	"sort"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// orderStat returns the distribution of the largest (isMax) or the smallest
// of independent variables, an order statistic, by products of their CDFs:
// P(max ≤ x) = Π P(Xᵢ ≤ x), P(min > x) = Π P(Xᵢ > x).
func orderStat(b *engine.Budget, ds []engine.Dist, isMax bool) (engine.Dist, error) {
	lo, hi := math.MaxInt, math.MinInt
	for _, d := range ds {
		if len(d.P) == 0 {
			return engine.Dist{}, nil
		}
		lo, hi = min(lo, d.Lo), max(hi, d.Hi())
	}
	what := "the smallest of several values"
	if isMax {
		what = "the largest of several values"
	}
	// acc and the result: two arrays over the common support.
	if err := b.Need(engine.MulBytes(engine.Span(lo, hi), 2*engine.FloatBytes), engine.AdviceValues, "%s, over the %d values from %d to %d,", what, engine.Span(lo, hi), lo, hi); err != nil {
		return engine.Dist{}, err
	}
	n := hi - lo + 1
	// acc[x] = Π CDF_i(x) for max, Π Survival_i(x) for min.
	acc := make([]float64, n)
	for i := range acc {
		acc[i] = 1
	}
	for _, d := range ds {
		if err := b.Tick(n); err != nil {
			return engine.Dist{}, err
		}
		if isMax {
			c := 0.0
			for x := 0; x < n; x++ {
				c += d.Prob(lo + x)
				acc[x] *= math.Min(c, 1)
			}
		} else {
			s := 0.0
			for x := n - 1; x >= 0; x-- {
				acc[x] *= math.Min(s, 1) // P(X > lo+x)
				s += d.Prob(lo + x)
			}
		}
	}
	p := make([]float64, n)
	if isMax {
		prev := 0.0
		for x := 0; x < n; x++ {
			p[x] = math.Max(acc[x]-prev, 0)
			prev = acc[x]
		}
	} else {
		prev := 1.0 // P(min > lo-1)
		for x := 0; x < n; x++ {
			p[x] = math.Max(prev-acc[x], 0)
			prev = acc[x]
		}
	}
	return engine.Dist{Lo: lo, P: p}.Trim(), nil
}

// faceTable is a die's distinct faces in ascending order with their
// probabilities.
type faceTable struct {
	faces []int
	probs []float64
	// missing is the probability of no face (a die's Missing weight): the
	// dice that show it are never placed, so their mass leaves the result.
	missing float64
}

func newFaceTable(faces []int, weight func(int) int64, total int64) faceTable {
	m := map[int]int64{}
	for i, f := range faces {
		m[f] += weight(i)
	}
	ft := faceTable{}
	for f := range m {
		ft.faces = append(ft.faces, f)
	}
	sort.Ints(ft.faces)
	for _, f := range ft.faces {
		ft.probs = append(ft.probs, float64(m[f])/float64(total))
	}
	return ft
}

// conditionals returns, for faces in ascending order, q_i = P(face i | face ≥
// face i): the chance that a die not yet placed below face i shows face i.
func (ft faceTable) conditionals() []float64 {
	q := make([]float64, len(ft.probs))
	rest := ft.missing
	for i := len(ft.probs) - 1; i >= 0; i-- {
		rest += ft.probs[i]
		q[i] = ft.probs[i] / rest
	}
	if ft.missing == 0 {
		q[len(q)-1] = 1
	}
	return q
}

// binomRow fills row[c] = C(r,c) q^c (1−q)^(r−c) for c = 0..r.
func binomRow(row []float64, r int, q float64) {
	row = row[:r+1]
	switch {
	case q >= 1:
		clear(row)
		row[r] = 1
		return
	case q <= 0:
		clear(row)
		row[0] = 1
		return
	}
	p0 := math.Pow(1-q, float64(r))
	if p0 > 1e-250 {
		ratio := q / (1 - q)
		row[0] = p0
		for c := 0; c < r; c++ {
			row[c+1] = row[c] * float64(r-c) / float64(c+1) * ratio
		}
		return
	}
	lq, l1q := math.Log(q), math.Log1p(-q)
	lr, _ := math.Lgamma(float64(r + 1))
	for c := 0; c <= r; c++ {
		lc, _ := math.Lgamma(float64(c + 1))
		lrc, _ := math.Lgamma(float64(r - c + 1))
		row[c] = math.Exp(lr - lc - lrc + float64(c)*lq + float64(r-c)*l1q)
	}
}

// keepDist is the distribution of a Keep node, by its shape: every die
// kept is their sum (keeping 1 of 1 die is the die itself), one die kept is
// the largest or the smallest (order statistics, O(n·F) for F faces), and
// the rest the dynamic program of keep.
func keepDist(b *engine.Budget, n mechanics.Keep) (engine.Dist, error) {
	switch {
	case n.K == 0 || n.N == 0:
		return engine.Point(0), nil
	case n.K >= n.N:
		if err := b.Tick(len(n.Die.Faces)); err != nil {
			return engine.Dist{}, err
		}
		d, err := fromDie(b, n.Die.Faces, n.Die.Weight, n.Die.TotalWeight())
		if err != nil {
			return engine.Dist{}, err
		}
		return sumN(b, d, n.N)
	case n.K == 1:
		return keepOne(b, dieTable(n.Die), n.N, n.Highest)
	}
	return keep(b, dieTable(n.Die), n.N, n.K, n.Highest)
}

// keepOne is the distribution of the highest (or lowest) of n rolls of a
// die: with c the probability of a face at most x (for the lowest: at
// least x) and c' the same below x (above x), P(X = x) = cⁿ − c'ⁿ, written
// as p·Σ cʲ·c'ⁿ⁻¹⁻ʲ (p = c − c', the face's own probability) so that no
// difference of nearly equal numbers loses the tails. A die's missing
// weight leaves the result with the dice that show it, as in keep.
func keepOne(b *engine.Budget, ft faceTable, n int, highest bool) (engine.Dist, error) {
	nf := len(ft.faces)
	lo, hi := ft.faces[0], ft.faces[nf-1]
	if err := b.Need(engine.MulBytes(engine.Span(lo, hi), engine.FloatBytes), engine.AdviceValues,
		"keeping 1 of %d dice, over the %d values from %d to %d,", n, engine.Span(lo, hi), lo, hi); err != nil {
		return engine.Dist{}, err
	}
	p := make([]float64, hi-lo+1)
	// at gives the face's mass from c' (the mass beyond it so far) and
	// its own probability q.
	at := func(prev, q float64) float64 {
		c := math.Min(prev+q, 1)
		// Σ_{j<n} cʲ·prevⁿ⁻¹⁻ʲ, one power at a time (every term positive).
		s, pk := 1.0, 1.0
		for m := 1; m < n; m++ {
			pk *= prev
			s = c*s + pk
		}
		return q * s
	}
	if err := b.Tick(nf * (n + 1)); err != nil {
		return engine.Dist{}, err
	}
	if highest {
		c := 0.0
		for i, f := range ft.faces {
			p[f-lo] = at(c, ft.probs[i])
			c += ft.probs[i]
		}
	} else {
		c := 0.0
		for i := nf - 1; i >= 0; i-- {
			p[ft.faces[i]-lo] = at(c, ft.probs[i])
			c += ft.probs[i]
		}
	}
	return engine.Dist{Lo: lo, P: p}.Trim(), nil
}

// keepRowUnits is what keep pays for each count of dice at each row and
// face besides the multiply-adds of the row (its binomial weight, its kept
// count, the slicing), in multiply-adds: with it the ticks follow the time
// also where rows are a value or two wide (255d100000kh1).
const keepRowUnits = 12

// keptOf is the number of kept dice among the m lowest of n placed (of k
// kept): keep's kept count for a whole row.
func keptOf(n, k, m int, highest bool) int {
	if highest {
		return max(0, m-(n-k))
	}
	return min(m, k)
}

// keepWork is the work keep does for k of n dice of ft, in its ticks,
// summed before it starts. Before face i (faces ascending from f₀) row m of
// the table (m dice placed) spans the kept sums of its kept dice, K(m)·(f_{i−1}
// − f₀) + 1 values (at most the table's width), and a face costs (n − m +
// 1)·(width + keepRowUnits) at every row. Rows that hold no mass yet (a
// binomial weight below the smallest float) are not ticked, so it is an
// upper bound, within a few per cent once every row is reached. It stops
// counting past stop.
func keepWork(ft faceTable, n, k int, highest bool, stop float64) float64 {
	if k == 0 || n == 0 || len(ft.faces) == 0 {
		return 0
	}
	fmin, fmax := ft.faces[0], ft.faces[len(ft.faces)-1]
	ns := float64(engine.Span(min(0, k*fmin), max(0, k*fmax)))
	work := float64(n+1) * (1 + keepRowUnits) // face 0: row 0 only
	for i := 1; i < len(ft.faces) && work <= stop; i++ {
		d := float64(ft.faces[i-1] - fmin)
		for m := 0; m <= n; m++ {
			width := min(ns, float64(keptOf(n, k, m, highest))*d+1)
			work += float64(n-m+1) * (width + keepRowUnits)
		}
	}
	return work
}

// keep returns the distribution of the sum of the k highest (or lowest) of
// n rolls of a die. Faces are popped in ascending order with conditional
// binomial weights over the state (dice placed, kept sum): O(F·n²·S) for F
// faces and S possible kept sums. A state with every die placed changes no
// more: its mass goes straight to the result, and is not carried through
// the faces that follow.
func keep(b *engine.Budget, ft faceTable, n, k int, highest bool) (engine.Dist, error) {
	if k == 0 || n == 0 {
		return engine.Point(0), nil
	}
	if err := b.Plan(keepWork(ft, n, k, highest, engine.MaxWork)); err != nil {
		return engine.Dist{}, err
	}
	fmin, fmax := ft.faces[0], ft.faces[len(ft.faces)-1]
	// Partial kept sums lie between 0 and the full ones.
	sLo, sHi := min(0, k*fmin), max(0, k*fmax)
	// Two tables of (dice placed, kept sum).
	cells := engine.MulBytes(int64(n)+1, engine.Span(sLo, sHi))
	if err := b.Need(engine.MulBytes(cells, 2*engine.FloatBytes), engine.AdviceDice,
		"keeping %d of %d dice (a table of %d × %d partial sums)", k, n, n+1, engine.Span(sLo, sHi)); err != nil {
		return engine.Dist{}, err
	}
	ns := sHi - sLo + 1
	// dp[m*ns + s]: m < n dice placed so far, kept sum sLo+s. Each row
	// keeps the range of sums that hold mass (lo > hi: an empty row), so
	// that empty rows and the zeros around a row's mass are never
	// scanned. done[s]: every die placed, kept sum sLo+s.
	dp := make([]float64, n*ns)
	nd := make([]float64, n*ns)
	done := make([]float64, ns)
	lo, hi := make([]int, n), make([]int, n)
	nlo, nhi := make([]int, n), make([]int, n)
	for m := range lo {
		lo[m], hi[m] = ns, -1
	}
	dp[0-sLo] = 1
	lo[0], hi[0] = -sLo, -sLo
	qs := ft.conditionals()
	row := make([]float64, n+1)
	for fi, f := range ft.faces {
		for m := range nlo {
			if nlo[m] <= nhi[m] {
				clear(nd[m*ns+nlo[m] : m*ns+nhi[m]+1])
			}
			nlo[m], nhi[m] = ns, -1
		}
		for m := 0; m < n; m++ {
			if lo[m] > hi[m] {
				continue
			}
			if err := b.Tick((n - m + 1) * (hi[m] - lo[m] + 1 + keepRowUnits)); err != nil {
				return engine.Dist{}, err
			}
			r := n - m
			binomRow(row, r, qs[fi])
			base := dp[m*ns+lo[m] : m*ns+hi[m]+1]
			for c := 0; c <= r; c++ {
				w := row[c]
				if w == 0 {
					continue
				}
				kept := mechanics.KeptCount(n, k, m, c, highest)
				shift := f * kept
				var out []float64
				if m+c == n {
					out = done[lo[m]+shift : lo[m]+shift+len(base)]
				} else {
					at := (m+c)*ns + lo[m] + shift
					out = nd[at : at+len(base)]
					nlo[m+c] = min(nlo[m+c], lo[m]+shift)
					nhi[m+c] = max(nhi[m+c], hi[m]+shift)
				}
				for s, p := range base {
					out[s] += p * w
				}
			}
		}
		dp, nd = nd, dp
		lo, nlo = nlo, lo
		hi, nhi = nhi, hi
	}
	return engine.Dist{Lo: sLo, P: done}.Trim(), nil
}
