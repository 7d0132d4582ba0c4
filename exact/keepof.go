package exact

import (
	"math"
	"slices"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// evalKeepOf is a KeepOf: the terms' distributions, then keepOf.
func evalKeepOf(b *engine.Budget, n mechanics.KeepOf) (engine.Dist, float64, error) {
	ds, tr, err := evalAll(b, n.Terms)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	d, err := keepOf(b, ds, n.Lo, n.Hi, n.Score)
	return d, tr, err
}

// keepOf is the distribution of the sum of score over the independent
// values ds ranked lo..hi−1 from the lowest (score nil: the value), by the
// cheapest exact technique that fits its shape:
//
//   - every value kept: their sum (scored one by one);
//   - one value kept at an end, unscored: the largest or the smallest
//     (orderStat);
//   - values alike (a group of equal sums, or dice of one kind): the
//     multiset dynamic program of a pool over the value's support, as for
//     n rolls of one die;
//   - any window of values of a few kinds (alike values, as in {20d20 ×9,
//     20d12}): the kinds DP (keeptypes.go), a walk over the values from
//     the highest (or the lowest) placing each kind's values multinomially;
//   - a window at an end: keepTop, a dynamic program over the boundary
//     value, where its estimate is lower (many unlike values, most kept);
//   - a window in the middle: every combination where that is cheaper.
//
// Between the last three keepOf picks by their work estimates.
func keepOf(b *engine.Budget, ds []engine.Dist, lo, hi int, score func(int) int) (engine.Dist, error) {
	n, k := len(ds), hi-lo
	whole := 1.0 // the mass of the outcomes every value holds
	for _, d := range ds {
		if len(d.P) == 0 {
			return engine.Dist{}, nil
		}
		whole *= d.Total()
	}
	lossy := whole < 1-1e-12
	if k == 0 {
		return engine.Dist{Lo: 0, P: []float64{min(whole, 1)}}, nil
	}
	g := score
	if g == nil {
		g = func(x int) int { return x }
	}
	if k == n {
		acc := engine.Point(0)
		for _, d := range ds {
			if score != nil {
				var err error
				if d, err = mapDist(b, d, g, "a kept value's score"); err != nil {
					return engine.Dist{}, err
				}
			}
			var err error
			if acc, err = convolve(b, acc, d); err != nil {
				return engine.Dist{}, err
			}
		}
		return acc, nil
	}
	if score == nil && k == 1 && (lo == 0 || hi == n) && !lossy {
		return orderStat(b, ds, hi == n)
	}
	if alike(ds) {
		ft := distTable(ds[0])
		if score == nil && (lo == 0 || hi == n) {
			return keep(b, ft, n, k, hi == n)
		}
		return poolDist(b, ft, n, windowEval(n, lo, hi, g, ft.faces))
	}
	neg := make([]engine.Dist, n)
	for i, d := range ds {
		neg[i] = negate(d)
	}
	ng := func(y int) int { return g(-y) }
	// The kinds DP in the cheaper direction, if cheaper than the others
	// by their estimates (keepTop's bounds its work on wide sums loosely:
	// it skips the zeros it counts, about keepTopSlack of them).
	var other float64
	switch {
	case hi == n:
		other = keepTopEstimate(ds, k, g, score == nil)
	case lo == 0:
		other = keepTopEstimate(neg, k, ng, false)
	default:
		other = keepEveryWork(ds)
	}
	if lo == 0 || hi == n {
		if score == nil {
			other /= keepTopSlack
		}
	}
	kinds := planKinds(ds, n-lo, n-hi, g, min(engine.MaxWork, other))
	if up := planKinds(neg, hi, lo, ng, min(engine.MaxWork, other, kinds.workOr())); up.workOr() < kinds.workOr() {
		kinds = up
	}
	if kinds.workOr() <= other {
		return kinds.run(b)
	}
	switch {
	case hi == n:
		return keepTop(b, ds, k, g, score == nil)
	case lo == 0:
		// The k lowest of X are the k highest of −X.
		if score == nil {
			d, err := keepTop(b, neg, k, g, true)
			return negate(d), err
		}
		return keepTop(b, neg, k, ng, false)
	}
	return keepEvery(b, ds, lo, hi, g)
}

// keepTopSlack is about how much keepTopWork exceeds the work keepTop
// does on wide sums (measured: 5 to 20 times).
const keepTopSlack = 10

// alike reports values with one distribution.
func alike(ds []engine.Dist) bool {
	for _, d := range ds[1:] {
		if d.Lo != ds[0].Lo || !slices.Equal(d.P, ds[0].P) {
			return false
		}
	}
	return true
}

// distTable is a distribution as the face table of a die: its values that
// hold mass, ascending, and the mass it lacks (truncated) as missing.
func distTable(d engine.Dist) faceTable {
	ft := faceTable{}
	tot := 0.0
	for i, p := range d.P {
		if p > 0 {
			ft.faces = append(ft.faces, d.Lo+i)
			ft.probs = append(ft.probs, p)
			tot += p
		}
	}
	ft.missing = max(0, 1-tot)
	return ft
}

// windowEval sums score over the values ranked lo..hi−1 from the lowest of
// n (a pool's evaluator sees the faces in ascending order). The state packs
// the values placed (low 16 bits) and the score so far, made non-negative
// by an offset.
func windowEval(n, lo, hi int, score func(int) int, faces []int) mechanics.Evaluator {
	least := 0
	for _, f := range faces {
		least = min(least, score(f))
	}
	off := -least * n
	return mechanics.EvalFunc{
		StartF: func() uint64 { return uint64(off) << 16 },
		NextF: func(s uint64, face, c int) uint64 {
			m, sc := int(s&0xffff), int(s>>16)
			sc += max(0, min(m+c, hi)-max(m, lo)) * score(face)
			return uint64(sc)<<16 | uint64(m+c)
		},
		FinalF: func(s uint64) int { return int(s>>16) - off },
	}
}

// keepTopUnits is what keepTop pays per state and value besides the
// multiply-adds of a convolution (the scalar branches, the slicing).
const keepTopUnits = 8

// keepTopWork bounds keepTop's work in its ticks, summed before it starts:
// at each boundary value v, for each of the n values, each of the 2·c
// states (c counts on the side keepTop tracks) spans at most (k−1)·w + 1
// scores (w the widest score range at v or above) and takes the value's
// scores at v or above (at most w) for each.
func keepTopWork(n, k, c int, vs []int, width func(v int) int) float64 {
	work := 0.0
	for _, v := range vs {
		w := float64(width(v))
		work += float64(n) * 2 * float64(c) * (float64(k-1)*w + 1) * (w + keepTopUnits)
		if work > engine.MaxWork {
			break
		}
	}
	return work
}

// sparse is a run of masses from the score lo on.
type sparse struct {
	lo int
	p  []float64
}

// cover widens s to hold the scores lo..hi (its masses kept in place),
// reusing its array where it can.
func (s *sparse) cover(lo, hi int) {
	if len(s.p) == 0 {
		s.lo = lo
		s.p = zeros(s.p, hi-lo+1)
		return
	}
	if lo < s.lo {
		grow, old := s.lo-lo, len(s.p)
		s.p = zeros(s.p, old+grow)
		copy(s.p[grow:], s.p[:old])
		clear(s.p[:grow])
		s.lo = lo
	}
	if top := s.lo + len(s.p) - 1; hi > top {
		s.p = zeros(s.p, len(s.p)+hi-top)
	}
}

// zeros is p extended to length n with zeros.
func zeros(p []float64, n int) []float64 {
	old := len(p)
	if n <= old {
		return p[:n]
	}
	p = slices.Grow(p, n-old)[:n]
	clear(p[old:])
	return p
}

// keepTopValues are the values some term can show, ascending, and the
// bounds of g over them.
func keepTopValues(ds []engine.Dist, g func(int) int) (vs []int, glo, ghi int) {
	seen := map[int]bool{}
	for _, d := range ds {
		for i, p := range d.P {
			if p > 0 {
				seen[d.Lo+i] = true
			}
		}
	}
	vs = make([]int, 0, len(seen))
	for v := range seen {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	glo, ghi = math.MaxInt, math.MinInt
	for _, v := range vs {
		glo, ghi = min(glo, g(v)), max(ghi, g(v))
	}
	return vs, glo, ghi
}

// keepTopEstimate is keepTopWork for keepTop(ds, k, g, identity).
func keepTopEstimate(ds []engine.Dist, k int, g func(int) int, identity bool) float64 {
	n, m := len(ds), len(ds)-k
	target := m
	if k <= m+1 {
		target = k - 1
	}
	vs, glo, ghi := keepTopValues(ds, g)
	width := func(v int) int {
		if !identity {
			return ghi - glo + 1
		}
		w := 0
		for _, d := range ds {
			w = max(w, d.Hi()-v+1)
		}
		return w
	}
	return keepTopWork(n, k, target+1, vs, width)
}

// keepTop is the distribution of the sum of g over the k highest of the
// independent values ds (k < n = len(ds)), unlike in general. Ties are
// ranked by index (of equal values the earlier ranks lower), so that one
// value, the boundary b, is the k-th highest: k − 1 values rank above it
// and m = n − k below. For each value v that b can show, a dynamic program
// over the values in order tracks whether b is behind (f), how many
// values rank on one side of it (c: those above, up to k − 1, or those
// below, up to m, whichever is fewer) and the score of those above (s):
// a value before b ranks below if it is at most v and above if it is
// more; b shows v; a value after b ranks below if it is less than v and
// above if it is at least v. The states with b behind and c on target add
// s + g(v) to the result. The work is about V·n·2c·S·W for V boundary
// values, S the scores of k − 1 values and W those of one. Masses the
// values lack (truncated explosions) leave the result.
func keepTop(b *engine.Budget, ds []engine.Dist, k int, g func(int) int, identity bool) (engine.Dist, error) {
	if err := b.Plan(keepTopEstimate(ds, k, g, identity)); err != nil {
		return engine.Dist{}, err
	}
	n, m := len(ds), len(ds)-k
	countAbove := k <= m+1
	target := m // the count on the side tracked when b is behind
	if countAbove {
		target = k - 1
	}
	vs, glo, ghi := keepTopValues(ds, g)
	// below[i][x−Lo]: P(Xᵢ < x).
	below := make([][]float64, n)
	for i, d := range ds {
		c := make([]float64, len(d.P)+1)
		for x, p := range d.P {
			c[x+1] = c[x] + p
		}
		below[i] = c
	}
	at := func(i, v int) (lt, eq float64) {
		d := ds[i]
		switch {
		case v < d.Lo:
			return 0, 0
		case v > d.Hi():
			return below[i][len(d.P)], 0
		}
		return below[i][v-d.Lo], d.P[v-d.Lo]
	}
	// from fills a with the scores of Xᵢ at v or above (strictly above
	// when strict).
	from := func(a *sparse, d engine.Dist, v int, strict bool) {
		a.p = a.p[:0]
		first := v
		if strict {
			first++
		}
		if d.Hi() < first {
			return
		}
		first = max(first, d.Lo)
		tail := d.P[first-d.Lo:]
		if identity {
			a.lo, a.p = first, append(a.p, tail...)
			return
		}
		a.cover(glo, ghi)
		for x, p := range tail {
			a.p[g(first+x)-glo] += p
		}
		for len(a.p) > 0 && a.p[len(a.p)-1] == 0 {
			a.p = a.p[:len(a.p)-1]
		}
		for len(a.p) > 0 && a.p[0] == 0 {
			a.p, a.lo = a.p[1:], a.lo+1
		}
	}
	// States: slot(f, c).
	slot := func(f, c int) int { return f*(target+1) + c }
	cur := make([]sparse, 2*(target+1))
	next := make([]sparse, 2*(target+1))
	res := map[int]float64{}
	var gt, ge sparse
	// add puts st·w (shifted by the score sh) into next's slot.
	add := func(to int, st sparse, w float64, sh int) {
		o := &next[to]
		top := st.lo + len(st.p) - 1
		o.cover(st.lo+sh, top+sh)
		axpy(o.p[st.lo+sh-o.lo:], st.p, w)
	}
	// conv puts st convolved with a into next's slot.
	conv := func(to int, st, a sparse) {
		o := &next[to]
		top := st.lo + len(st.p) - 1
		o.cover(st.lo+a.lo, top+a.lo+len(a.p)-1)
		base := st.lo + a.lo - o.lo
		for x, p := range st.p {
			if p == 0 {
				continue
			}
			axpy(o.p[base+x:], a.p, p)
		}
	}
	for _, v := range vs {
		for i := range cur {
			cur[i].p = cur[i].p[:0]
		}
		cur[slot(0, 0)].cover(0, 0)
		cur[slot(0, 0)].p[0] = 1
		gv := g(v)
		for i, d := range ds {
			lt, eq := at(i, v)
			from(&gt, d, v, true)
			from(&ge, d, v, false)
			for s := range next {
				next[s].p = next[s].p[:0]
			}
			for f := 0; f < 2; f++ {
				for c := 0; c <= target; c++ {
					st := cur[slot(f, c)]
					if len(st.p) == 0 {
						continue
					}
					up := gt
					low := lt + eq
					if f == 1 {
						up, low = ge, lt
					}
					if err := b.Tick(len(st.p) * (len(up.p) + keepTopUnits)); err != nil {
						return engine.Dist{}, err
					}
					cb, ca := c, c // the count after a value below, above
					if countAbove {
						ca++
					} else {
						cb++
					}
					if low > 0 && cb <= target {
						add(slot(f, cb), st, low, 0)
					}
					if len(up.p) > 0 && ca <= target {
						conv(slot(f, ca), st, up)
					}
					if f == 0 && eq > 0 {
						add(slot(1, c), st, eq, gv)
					}
				}
			}
			cur, next = next, cur
		}
		st := cur[slot(1, target)]
		for x, p := range st.p {
			if p != 0 {
				res[st.lo+x] += p
			}
		}
	}
	return fromMap(b, res, "the kept values")
}

// keepEveryWork is keepEvery's work: every combination, sorted.
func keepEveryWork(ds []engine.Dist) float64 {
	n := len(ds)
	combos := 1.0
	for _, d := range ds {
		combos *= float64(d.NonZero())
	}
	return combos * float64(n*n+8)
}

// keepEvery is keepOf over every combination of the values, for windows in
// the middle of unlike values ({a, b, c, d}dl1dh1).
func keepEvery(b *engine.Budget, ds []engine.Dist, lo, hi int, g func(int) int) (engine.Dist, error) {
	n := len(ds)
	if err := b.Plan(keepEveryWork(ds)); err != nil {
		return engine.Dist{}, err
	}
	res := map[int]float64{}
	vals := make([]int, n)
	sorted := make([]int, n)
	var walk func(i int, p float64) error
	walk = func(i int, p float64) error {
		if i == n {
			copy(sorted, vals)
			slices.Sort(sorted)
			s := 0
			for _, v := range sorted[lo:hi] {
				s += g(v)
			}
			res[s] += p
			return nil
		}
		if err := b.Tick(n + 8); err != nil {
			return err
		}
		d := ds[i]
		for x, q := range d.P {
			if q == 0 {
				continue
			}
			vals[i] = d.Lo + x
			if err := walk(i+1, p*q); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0, 1); err != nil {
		return engine.Dist{}, err
	}
	return fromMap(b, res, "the kept values")
}

// workOr is the plan's work, or +Inf when it does not fit.
func (p kindsPlan) workOr() float64 {
	if !p.ok {
		return math.Inf(1)
	}
	return p.work
}
