package exact

import (
	"math"
	"slices"

	"github.com/oddsmith/oddsmith/engine"
)

// Keeping a window of a group by kinds: values alike (one distribution)
// form a kind, and a dynamic program walks the values from the highest
// down, placing at each value v how many of the still unplaced values of
// each kind show v (a multinomial step, as for the dice of one kind).
// Its state is how many of each kind are placed (all above the values
// still to come) and the score of those placed that the window keeps;
// the mass of a state is the product of the placed values' masses, the
// unplaced ones are weighed only when the window is filled. Positions are
// counted from the highest: the window keeps positions D..K−1 (D = n−hi,
// K = n−lo), so a state holds fewer than K placed values; the step that
// places the K-th ends the walk for that state, its unplaced values
// weighed by their mass below v (kinds already stepped at v) or at v or
// below (kinds still to step). Every outcome is counted once, at the value
// and the kind that fill the window, with only sums and products of
// masses (no subtraction: the tails keep their precision). The work is
// about V·Σ states·(values per kind)·S for V values and S kept scores, so
// it pays where kinds are few (nine alike and one other: a handful of
// states); ten unlike values have up to 2¹⁰ states, and keepOf then
// weighs it against keepTop by the estimates of both.

// kindsOf groups alike distributions: each distinct one and its count, in
// the order they first come.
func kindsOf(ds []engine.Dist) ([]engine.Dist, []int) {
	var ks []engine.Dist
	var ns []int
next:
	for _, d := range ds {
		for i, k := range ks {
			if k.Lo == d.Lo && slices.Equal(k.P, d.P) {
				ns[i]++
				continue next
			}
		}
		ks, ns = append(ks, d), append(ns, 1)
	}
	return ks, ns
}

// maxKindStates bounds the states of a kinds plan (beyond it keepOf uses
// the other techniques).
const maxKindStates = 1 << 14

// maxKindLooks bounds the estimate's own work (some tens of
// milliseconds).
const maxKindLooks = 1 << 26

// kindsUnits is what the kinds DP pays per transition besides its
// multiply-adds.
const kindsUnits = 8

// kindsPlan is the kinds DP set up for a window, with its work estimated
// before it runs.
type kindsPlan struct {
	ks   []engine.Dist
	ns   []int
	k, d int // the window's positions from the highest: d..k−1
	g    func(int) int
	vs   []int // the values, descending
	cnt  []int // cnt[s*T+j]: state s's placed values of kind j
	sum  []int // placed values of state s
	up   []int // up[s*T+j]: the state with one more of kind j, −1 if none
	sLo  int   // the least kept score
	sw   int   // the kept scores' span
	work float64
	ok   bool // false: too many states
}

// planKinds sets up the kinds DP for keeping positions d..k−1 from the
// highest of ds, scored by g, and estimates its work (stopping the
// estimate past stop).
func planKinds(ds []engine.Dist, k, d int, g func(int) int, stop float64) kindsPlan {
	ks, ns := kindsOf(ds)
	T := len(ks)
	p := kindsPlan{ks: ks, ns: ns, k: k, d: d, g: g}
	// The states: counts c with Σc < k, c_j ≤ n_j, in lexicographic order
	// with the last kind most significant (a state's successors come
	// after it).
	var rec func(j, left int, c []int) bool
	index := map[string]int{}
	key := func(c []int) string {
		b := make([]byte, len(c)*2)
		for i, x := range c {
			b[2*i], b[2*i+1] = byte(x), byte(x>>8)
		}
		return string(b)
	}
	c := make([]int, T)
	rec = func(j, left int, c []int) bool {
		if j < 0 {
			if len(p.sum) >= maxKindStates {
				return false
			}
			index[key(c)] = len(p.sum)
			p.cnt = append(p.cnt, c...)
			p.sum = append(p.sum, k-1-left)
			return true
		}
		for x := 0; x <= min(ns[j], left); x++ {
			c[j] = x
			if !rec(j-1, left-x, c) {
				return false
			}
		}
		c[j] = 0
		return true
	}
	if !rec(T-1, k-1, c) {
		return p
	}
	S := len(p.sum)
	p.up = make([]int, S*T)
	for s := range S {
		copy(c, p.cnt[s*T:(s+1)*T])
		for j := range T {
			p.up[s*T+j] = -1
			if c[j] < ns[j] && p.sum[s]+1 < k {
				c[j]++
				p.up[s*T+j] = index[key(c)]
				c[j]--
			}
		}
	}
	seen := map[int]bool{}
	for _, kd := range ks {
		for i, q := range kd.P {
			if q > 0 {
				seen[kd.Lo+i] = true
			}
		}
	}
	for v := range seen {
		p.vs = append(p.vs, v)
	}
	slices.Sort(p.vs)
	slices.Reverse(p.vs)
	if len(p.vs) == 0 {
		p.ok = true
		return p
	}
	// Scores: suffix bounds of g over the values at v or above.
	kc := k - d
	glo, ghi := math.MaxInt, math.MinInt
	span := make([]int, len(p.vs))
	for i, v := range p.vs {
		glo, ghi = min(glo, g(v)), max(ghi, g(v))
		span[i] = ghi - glo
	}
	p.sLo = min(0, kc*glo)
	p.sw = max(0, kc*ghi) - p.sLo + 1
	// The estimate: at each value, for each kind that shows it, each state
	// takes up to (unplaced of the kind) steps over its kept scores. It
	// looks at each state once per value and kind, so it stops (as too
	// long) past maxKindLooks of them.
	looks := 0
	for i, v := range p.vs {
		for j, kd := range ks {
			if v < kd.Lo || v > kd.Hi() || kd.P[v-kd.Lo] == 0 {
				continue
			}
			for s := range S {
				rem := ns[j] - p.cnt[s*T+j]
				if rem == 0 {
					continue
				}
				w := min(p.sw, overlap(0, p.sum[s], d, k)*span[i]+1)
				p.work += float64(rem) * float64(w+kindsUnits)
			}
			if looks += S; p.work > stop || looks > maxKindLooks {
				return p
			}
		}
	}
	p.ok = true
	return p
}

// overlap is the size of [a, b) ∩ [c, d).
func overlap(a, b, c, d int) int {
	return max(0, min(b, d)-max(a, c))
}

// run is the kinds DP: the distribution of the kept score.
func (p kindsPlan) run(b *engine.Budget) (engine.Dist, error) {
	T, S := len(p.ks), len(p.sum)
	if err := b.Plan(p.work); err != nil {
		return engine.Dist{}, err
	}
	if err := b.Need(engine.MulBytes(int64(S+1), engine.MulBytes(int64(p.sw), engine.FloatBytes)), engine.AdviceDice,
		"keeping a window of %d values (%d states × %d scores)", len(p.sum), S, p.sw); err != nil {
		return engine.Dist{}, err
	}
	maxN := slices.Max(p.ns)
	binom := make([][]float64, maxN+1)
	for r := range binom {
		binom[r] = make([]float64, r+1)
		binom[r][0], binom[r][r] = 1, 1
		for e := 1; e < r; e++ {
			binom[r][e] = binom[r-1][e-1] + binom[r-1][e]
		}
	}
	// below[j][i]: the mass of kind j below its value Lo+i.
	below := make([][]float64, T)
	for j, kd := range p.ks {
		c := make([]float64, len(kd.P)+1)
		for x, q := range kd.P {
			c[x+1] = c[x] + q
		}
		below[j] = c
	}
	cdf := func(j, v int) float64 { // mass at v or below
		kd := p.ks[j]
		switch {
		case v < kd.Lo:
			return 0
		case v > kd.Hi():
			return below[j][len(kd.P)]
		}
		return below[j][v-kd.Lo+1]
	}
	powTable := func(x float64, n int, t []float64) []float64 {
		t = t[:0]
		q := 1.0
		for range n + 1 {
			t = append(t, q)
			q *= x
		}
		return t
	}
	pv := make([][]float64, T) // pv[j][e]: P(X = v)^e
	fv := make([][]float64, T) // fv[j][r]: P(X ≤ v)^r
	fm := make([][]float64, T) // fm[j][r]: P(X < v)^r
	at := make([]float64, T)
	dead := make([]bool, T)
	data := make([][]float64, S)
	lo, hi := make([]int, S), make([]int, S)
	for s := range S {
		lo[s], hi[s] = p.sw, -1
	}
	res := make([]float64, p.sw)
	data[0] = make([]float64, p.sw)
	data[0][-p.sLo] = 1
	lo[0], hi[0] = -p.sLo, -p.sLo
	for _, v := range p.vs {
		gv := p.g(v)
		anyDead := false
		for j, kd := range p.ks {
			at[j] = 0
			if v >= kd.Lo && v <= kd.Hi() {
				at[j] = kd.P[v-kd.Lo]
			}
			f := cdf(j, v)
			dead[j] = f == 0
			anyDead = anyDead || dead[j]
			pv[j] = powTable(at[j], p.ns[j], pv[j])
			fv[j] = powTable(f, p.ns[j], fv[j])
			fm[j] = powTable(f-at[j], p.ns[j], fm[j])
		}
		if anyDead {
			// A state with an unplaced value that cannot show v or less
			// holds no outcome.
			for s := range S {
				if lo[s] > hi[s] {
					continue
				}
				for j := range T {
					if dead[j] && p.cnt[s*T+j] < p.ns[j] {
						clear(data[s][lo[s] : hi[s]+1])
						lo[s], hi[s] = p.sw, -1
						break
					}
				}
			}
		}
		for j := range T {
			if at[j] == 0 {
				continue
			}
			// Sources in descending order: a state's successors (later in
			// the order) have already stepped from their own masses.
			for s := S - 1; s >= 0; s-- {
				if lo[s] > hi[s] {
					continue
				}
				cnt := p.cnt[s*T : (s+1)*T]
				rem := p.ns[j] - cnt[j]
				if rem == 0 {
					continue
				}
				C := p.sum[s]
				src := data[s][lo[s] : hi[s]+1]
				if err := b.Tick(rem * (len(src) + kindsUnits)); err != nil {
					return engine.Dist{}, err
				}
				t := s
				for e := 1; e <= rem; e++ {
					coef := binom[rem][e] * pv[j][e]
					if C+e >= p.k {
						// The window fills at v: the unplaced values lie
						// below v (kinds stepped) or at v or below.
						f := coef * fm[j][rem-e]
						for j2 := range T {
							if j2 == j {
								continue
							}
							r := p.ns[j2] - cnt[j2]
							if j2 < j {
								f *= fm[j2][r]
							} else {
								f *= fv[j2][r]
							}
						}
						if f == 0 {
							continue
						}
						off := lo[s] + overlap(C, p.k, p.d, p.k)*gv
						axpy(res[off:off+len(src)], src, f)
						continue
					}
					t = p.up[t*T+j]
					if data[t] == nil {
						data[t] = make([]float64, p.sw)
					}
					off := lo[s] + overlap(C, C+e, p.d, p.k)*gv
					axpy(data[t][off:off+len(src)], src, coef)
					lo[t], hi[t] = min(lo[t], off), max(hi[t], off+len(src)-1)
				}
			}
		}
	}
	first, last := 0, len(res)-1
	for first <= last && res[first] == 0 {
		first++
	}
	for last >= first && res[last] == 0 {
		last--
	}
	if first > last {
		return engine.Dist{}, nil
	}
	return engine.Dist{Lo: p.sLo + first, P: res[first : last+1]}, nil
}

// axpy adds a·x to y (len(y) = len(x)), four at a time.
func axpy(y, x []float64, a float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xs, ys := x[i:i+4:i+4], y[i:i+4:i+4]
		ys[0] += a * xs[0]
		ys[1] += a * xs[1]
		ys[2] += a * xs[2]
		ys[3] += a * xs[3]
	}
	for ; i < len(x); i++ {
		y[i] += a * x[i]
	}
}
