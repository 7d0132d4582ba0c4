package exact

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// RatDist is an exact distribution with rational probabilities (math/big),
// for tests and small cases: 6¹⁰⁰ outcomes need no rounding here.
type RatDist map[int]*big.Rat

// Values returns the support in ascending order.
func (r RatDist) Values() []int {
	vs := make([]int, 0, len(r))
	for v, p := range r {
		if p.Sign() != 0 {
			vs = append(vs, v)
		}
	}
	sort.Ints(vs)
	return vs
}

// Prob returns P(X = v) (a fresh zero when v is outside the support).
func (r RatDist) Prob(v int) *big.Rat {
	if p, ok := r[v]; ok {
		return p
	}
	return new(big.Rat)
}

func (r RatDist) add(v int, p *big.Rat) {
	if q, ok := r[v]; ok {
		q.Add(q, p)
		return
	}
	r[v] = new(big.Rat).Set(p)
}

func ratMap(d RatDist, f func(int) int) RatDist {
	out := RatDist{}
	for v, p := range d {
		out.add(f(v), p)
	}
	return out
}

func ratCombine(bg *engine.Budget, x, y RatDist, f func(a, b int) int) (RatDist, error) {
	out := RatDist{}
	t := new(big.Rat)
	for a, p := range x {
		if err := bg.Tick(64 * len(y)); err != nil {
			return nil, err
		}
		for b, q := range y {
			out.add(f(a, b), t.Mul(p, q))
		}
	}
	return out, nil
}

func ratDie(d mechanics.Die) RatDist {
	out := RatDist{}
	tot := d.TotalWeight()
	for i, f := range d.Faces {
		out.add(f, big.NewRat(d.Weight(i), tot))
	}
	return out
}

func ratMix(ws []*big.Rat, ds []RatDist) RatDist {
	out := RatDist{}
	t := new(big.Rat)
	for i, d := range ds {
		for v, p := range d {
			out.add(v, t.Mul(ws[i], p))
		}
	}
	return out
}

func ratOrder(bg *engine.Budget, ds []RatDist, isMax bool) (RatDist, error) {
	pick := func(a, b int) int { return min(a, b) }
	if isMax {
		pick = func(a, b int) int { return max(a, b) }
	}
	acc := ds[0]
	for _, d := range ds[1:] {
		var err error
		if acc, err = ratCombine(bg, acc, d, pick); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// EvalRat computes a node's distribution with exact rationals. It supports
// every node type; it is meant for small cases (its cost is not tuned).
func EvalRat(n mechanics.Node) (RatDist, error) {
	if err := mechanics.Validate(n); err != nil {
		return nil, err
	}
	return evalRat(nil, n)
}

func evalRatAll(b *engine.Budget, ns []mechanics.Node) ([]RatDist, error) {
	out := make([]RatDist, len(ns))
	for i, c := range ns {
		d, err := evalRat(b, c)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// evalRat is evalNode with rational probabilities: every technique by
// direct enumeration of the values' combinations.
func evalRat(b *engine.Budget, n mechanics.Node) (RatDist, error) {
	if err := b.Alive(); err != nil {
		return nil, err
	}
	switch n := n.(type) {
	case mechanics.Die:
		return ratDie(n), nil
	case mechanics.Const:
		return RatDist{n.V: big.NewRat(1, 1)}, nil
	case mechanics.Sum:
		ds, err := evalRatAll(b, n.Terms)
		if err != nil {
			return nil, err
		}
		return ratSum(b, ds)
	case mechanics.Repeat:
		d, err := evalRat(b, n.X)
		if err != nil {
			return nil, err
		}
		return ratSum(b, slices.Repeat([]RatDist{d}, n.N))
	case mechanics.RandomCount:
		return ratRandomCount(b, n)
	case mechanics.Scale, mechanics.Clamp, mechanics.Map, mechanics.Compare:
		return ratMapped(b, n)
	case mechanics.Combine:
		ds, err := evalRatAll(b, []mechanics.Node{n.X, n.Y})
		if err != nil {
			return nil, err
		}
		return ratCombine(b, ds[0], ds[1], n.F)
	case mechanics.Max:
		ds, err := evalRatAll(b, n.Terms)
		if err != nil {
			return nil, err
		}
		return ratOrder(b, ds, true)
	case mechanics.Min:
		ds, err := evalRatAll(b, n.Terms)
		if err != nil {
			return nil, err
		}
		return ratOrder(b, ds, false)
	case mechanics.KeepOf:
		ds, err := evalRatAll(b, n.Terms)
		if err != nil {
			return nil, err
		}
		return ratKeepOf(b, ds, n.Lo, n.Hi, n.Score)
	case mechanics.Keep:
		return ratKeep(b, n)
	case mechanics.Pool:
		return ratPool(b, n.Die, n.N, n.Eval, false)
	case mechanics.Unique:
		return uniqueRat(b, n)
	case mechanics.ExplodeRolls:
		return ratRolls(b, n)
	case mechanics.CappedExplode:
		return cappedRat(b, n)
	case mechanics.Cond:
		ds, err := evalRatAll(b, []mechanics.Node{n.If, n.Then, n.Else})
		if err != nil {
			return nil, err
		}
		pz := ds[0].Prob(0)
		pnz := new(big.Rat).Sub(big.NewRat(1, 1), pz)
		return ratMix([]*big.Rat{pnz, pz}, ds[1:]), nil
	case mechanics.Mixture:
		return ratMixture(b, n)
	case mechanics.Explode:
		if n.Limit == 0 && n.TopProbability() >= 1 {
			return nil, fmt.Errorf("a die that bursts on every roll (%s) never stops", n.BurstFaces())
		}
		return ratExplode(n, n.ExactDepth(), n.Limit > 0), nil
	default:
		return nil, fmt.Errorf("exact: unsupported node %T", n)
	}
}

// ratKeepOf is a KeepOf over every combination of its terms' values.
func ratKeepOf(bg *engine.Budget, ds []RatDist, lo, hi int, score func(int) int) (RatDist, error) {
	n := len(ds)
	vals := make([]int, n)
	sorted := make([]int, n)
	out := RatDist{}
	p := make([]*big.Rat, n+1)
	p[0] = big.NewRat(1, 1)
	for i := 1; i <= n; i++ {
		p[i] = new(big.Rat)
	}
	var walk func(i int) error
	walk = func(i int) error {
		if i == n {
			copy(sorted, vals)
			slices.Sort(sorted)
			s := 0
			for _, v := range sorted[lo:hi] {
				if score != nil {
					v = score(v)
				}
				s += v
			}
			out.add(s, p[n])
			return nil
		}
		if err := bg.Tick(64 * n); err != nil {
			return err
		}
		for _, v := range ds[i].Values() {
			vals[i] = v
			p[i+1].Mul(p[i], ds[i][v])
			if err := walk(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(0)
}

// ratSum is the sum of independent variables.
func ratSum(b *engine.Budget, ds []RatDist) (RatDist, error) {
	acc := RatDist{0: big.NewRat(1, 1)}
	for _, d := range ds {
		var err error
		if acc, err = ratCombine(b, acc, d, func(a, b int) int { return a + b }); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// ratMapped is a node whose values are a function of another node's:
// Scale, Clamp, Map or Compare.
func ratMapped(b *engine.Budget, n mechanics.Node) (RatDist, error) {
	var x mechanics.Node
	var f func(int) int
	switch n := n.(type) {
	case mechanics.Scale:
		x, f = n.X, func(v int) int { return n.K * v }
	case mechanics.Clamp:
		x, f = n.X, func(v int) int { return min(max(v, n.Lo), n.Hi) }
	case mechanics.Map:
		x, f = n.X, n.F
	case mechanics.Compare:
		x, f = n.X, func(v int) int {
			if n.Op.Holds(v, n.T) {
				return 1
			}
			return 0
		}
	}
	d, err := evalRat(b, x)
	return ratMap(d, f), err
}

// ratMixture is one of the mixture's nodes, drawn by weight.
func ratMixture(b *engine.Budget, n mechanics.Mixture) (RatDist, error) {
	ds, err := evalRatAll(b, n.Of)
	if err != nil {
		return nil, err
	}
	var tot int64
	for _, w := range n.Weights {
		tot += w
	}
	ws := make([]*big.Rat, len(ds))
	for i, w := range n.Weights {
		ws[i] = big.NewRat(w, tot)
	}
	return ratMix(ws, ds), nil
}

// ratOp is the work one operation on big rationals counts for (their
// numerators and denominators grow with the dice).
const ratOp = 256

// ratKeep is keepDist with rational probabilities: every die kept is their
// sum, one kept the largest or smallest (ratKeepOne), the rest the pool
// DP, in which a state with every die placed is settled at once.
func ratKeep(b *engine.Budget, n mechanics.Keep) (RatDist, error) {
	switch {
	case n.K == 0 || n.N == 0:
		return RatDist{0: big.NewRat(1, 1)}, nil
	case n.K >= n.N:
		if err := b.Tick(ratOp * len(n.Die.Faces)); err != nil {
			return nil, err
		}
		return ratSum(b, slices.Repeat([]RatDist{ratDie(n.Die)}, n.N))
	case n.K == 1:
		return ratKeepOne(b, n.Die, n.N, n.Highest)
	}
	return ratPool(b, n.Die, n.N, KeepEvaluator(n.N, n.K, n.Highest), true)
}

// ratKeepOne is the highest (or lowest) of n rolls of a die: P(X = x) =
// cⁿ − c'ⁿ with c the probability of a face at most x (at least x) and c'
// that of a face below x (above x).
func ratKeepOne(b *engine.Budget, die mechanics.Die, n int, highest bool) (RatDist, error) {
	d := ratDie(die)
	vs := d.Values()
	if !highest {
		slices.Reverse(vs)
	}
	if err := b.Tick(ratOp * 2 * len(vs) * n); err != nil {
		return nil, err
	}
	out := RatDist{}
	c, prev := new(big.Rat), new(big.Rat) // c' and c'ⁿ
	for _, v := range vs {
		c.Add(c, d[v])
		cn := ratPow(c, n)
		out[v] = new(big.Rat).Sub(cn, prev)
		prev = cn
	}
	return out, nil
}

// ratPool is the multiset DP of poolDist with rational weights. With
// settled, a state with every die placed is final (the evaluator does not
// change it for the faces that follow, as Keep's does not): its value goes
// to the result at once instead of through every later face.
func ratPool(b *engine.Budget, die mechanics.Die, n int, ev mechanics.Evaluator, settled bool) (RatDist, error) {
	tot := die.TotalWeight()
	wts := map[int]int64{}
	for i, f := range die.Faces {
		wts[f] += die.Weight(i)
	}
	faces := make([]int, 0, len(wts))
	for f := range wts {
		faces = append(faces, f)
	}
	sort.Ints(faces)
	type key struct {
		s uint64
		r int
	}
	out := RatDist{}
	cur := map[key]*big.Rat{{ev.Start(), n}: big.NewRat(1, 1)}
	rest := tot
	// weights[r][c] = C(r,c)·q^c·(1−q)^(r−c) for this face, made when a
	// state with r dice left first needs them.
	weights := make([][]*big.Rat, n+1)
	for _, f := range faces {
		q := big.NewRat(wts[f], rest) // P(f | face ≥ f)
		q1 := new(big.Rat).Sub(big.NewRat(1, 1), q)
		rest -= wts[f]
		clear(weights)
		next := map[key]*big.Rat{}
		for k, p := range cur {
			if err := b.Tick(ratOp * (k.r + 1)); err != nil {
				return nil, err
			}
			if weights[k.r] == nil {
				if err := b.Tick(ratOp * 3 * (k.r + 1)); err != nil {
					return nil, err
				}
				ws := make([]*big.Rat, k.r+1)
				for c := range ws {
					w := new(big.Rat).SetInt(new(big.Int).Binomial(int64(k.r), int64(c)))
					w.Mul(w, ratPow(q, c))
					ws[c] = w.Mul(w, ratPow(q1, k.r-c))
				}
				weights[k.r] = ws
			}
			for c, wc := range weights[k.r] {
				if wc.Sign() == 0 {
					continue
				}
				w := new(big.Rat).Mul(wc, p)
				nk := key{ev.Next(k.s, f, c), k.r - c}
				if settled && nk.r == 0 {
					out.add(ev.Final(nk.s), w)
					continue
				}
				if old, ok := next[nk]; ok {
					old.Add(old, w)
				} else {
					next[nk] = w
				}
			}
		}
		cur = next
	}
	for k, p := range cur {
		if k.r == 0 {
			out.add(ev.Final(k.s), p)
		}
	}
	return out, nil
}

func ratPow(q *big.Rat, k int) *big.Rat {
	out := big.NewRat(1, 1)
	for i := 0; i < k; i++ {
		out.Mul(out, q)
	}
	return out
}

// ratExplode is explode in exact fractions: the sum so far of the rolls
// that burst, carried one extra roll at a time.
func ratExplode(e mechanics.Explode, depth int, limited bool) RatDist {
	d := ratDie(e.Die)
	vs := d.Values()
	bursts := e.Burster()
	out := RatDist{}
	cur := RatDist{0: big.NewRat(1, 1)}
	for j := 0; j <= depth && len(cur) > 0; j++ {
		next := RatDist{}
		for _, s := range cur.Values() {
			for _, f := range vs {
				q := new(big.Rat).Mul(cur[s], d[f])
				if bursts(f) && (j < depth || !limited) {
					next.add(s+e.BurstAdds(f), q) // bursts again, or (unlimited, past depth) dropped
				} else {
					out.add(s+f, q)
				}
			}
		}
		cur = next
	}
	return out
}

// KeepEvaluator is the evaluator form of Keep: the sum of the k highest (or
// lowest) of n dice. The state packs (dice seen, kept sum + 2³¹).
func KeepEvaluator(n, k int, highest bool) mechanics.Evaluator {
	const off = 1 << 31
	return mechanics.EvalFunc{
		StartF: func() uint64 { return off },
		NextF: func(s uint64, face, c int) uint64 {
			m := int(s >> 32)
			sum := int64(s&0xffffffff) + int64(face*mechanics.KeptCount(n, k, m, c, highest))
			return uint64(m+c)<<32 | uint64(sum)
		},
		FinalF: func(s uint64) int { return int(int64(s&0xffffffff) - off) },
	}
}

// combinations estimates how many equally weighted dice outcomes a node
// spans (the work of exact rational arithmetic and of brute enumeration).
func combinations(n mechanics.Node) float64 {
	switch n := n.(type) {
	case mechanics.Die:
		return float64(len(n.Faces))
	case mechanics.Const:
		return 1
	case mechanics.Sum:
		return prodCombos(n.Terms)
	case mechanics.Max:
		return prodCombos(n.Terms)
	case mechanics.Min:
		return prodCombos(n.Terms)
	case mechanics.KeepOf:
		// Every combination of the terms' values, sorted.
		return prodCombos(n.Terms) * float64(len(n.Terms))
	case mechanics.Repeat:
		return math.Pow(combinations(n.X), float64(n.N))
	case mechanics.RandomCount:
		return randomCountCombinations(n)
	case mechanics.Scale:
		return combinations(n.X)
	case mechanics.Clamp:
		return combinations(n.X)
	case mechanics.Map:
		return combinations(n.X)
	case mechanics.Compare:
		return combinations(n.X)
	case mechanics.Combine:
		return combinations(n.X) * combinations(n.Y)
	case mechanics.Keep:
		return math.Pow(float64(len(n.Die.Faces)), float64(n.N))
	case mechanics.Pool:
		return math.Pow(float64(len(n.Die.Faces)), float64(n.N))
	case mechanics.Unique:
		return uniqueCombinations(n)
	case mechanics.Cond:
		return combinations(n.If) * (combinations(n.Then) + combinations(n.Else))
	case mechanics.Mixture:
		s := 0.0
		for _, c := range n.Of {
			s += combinations(c)
		}
		return s
	case mechanics.Explode:
		return math.Pow(float64(len(n.Die.Faces)), float64(n.ExactDepth()+1))
	case mechanics.ExplodeRolls:
		if n.Explode.Limit == 0 {
			return math.Inf(1)
		}
		return math.Pow(float64(len(n.Explode.Die.Faces)), float64(n.MaxRolls()))
	case mechanics.CappedExplode:
		return math.Pow(float64(len(n.Explode.Die.Faces)), float64(n.MaxRolls()))
	}
	return math.Inf(1)
}

func prodCombos(ns []mechanics.Node) float64 {
	p := 1.0
	for _, c := range ns {
		p *= combinations(c)
	}
	return p
}

// rationalLimit bounds Combinations for which exact.Run adds rationals.
const rationalLimit = 1e6

// ratEntryBytes is about what one value of a RatDist costs: its map entry
// and a big.Rat of a few words.
const ratEntryBytes = 256

// addRationals fills the Exact fractions of the variables, events and
// bands of small models.
// They are an extra: a model whose rational tables would not fit what is
// left of the budget goes without them. Only a cancellation is an error.
func addRationals(b *engine.Budget, spec *mechanics.Spec, res *engine.Result) error {
	if spec.Outcome == nil {
		return nil
	}
	combos := combinations(spec.Outcome)
	if combos > rationalLimit {
		return nil
	}
	// Every intermediate table has at most as many values as the
	// combinations it spans; a few are live at once.
	if !b.Fits(int64(4 * combos * ratEntryBytes)) {
		return nil
	}
	if err := mechanics.Validate(spec.Outcome); err != nil {
		return nil
	}
	rd, err := evalRat(b, spec.Outcome)
	if err != nil {
		if engine.Stopped(err) {
			return err
		}
		return nil
	}
	outs, err := spec.Compile()
	if err != nil {
		return nil
	}
	vals := make([][]expr.Rat, 0, len(rd.Values()))
	defs := make([][]bool, 0, len(rd.Values()))
	// givens: whether each variable's condition (Var.Given) holds, kept
	// only for a model with a conditional variable.
	var givens [][]bool
	conditional := slices.ContainsFunc(spec.Vars, func(v mechanics.Var) bool { return v.Given != nil })
	codes := rd.Values()
	vars, events, bands := make([]expr.Rat, len(spec.Vars)), make([]bool, len(spec.Events)), make([]int, len(spec.Bands))
	defined := make([]bool, len(spec.Vars))
	evs := make([][]bool, 0, len(codes))
	bds := make([][]int, 0, len(codes))
	for _, code := range codes {
		if err := b.Tick(64); err != nil {
			return err
		}
		if outs.Eval(code, vars, events, bands, defined) != nil {
			return nil
		}
		vals = append(vals, append([]expr.Rat(nil), vars...))
		defs = append(defs, append([]bool(nil), defined...))
		if conditional {
			g := make([]bool, len(spec.Vars))
			for k := range g {
				g[k] = outs.InGiven(k)
			}
			givens = append(givens, g)
		}
		evs = append(evs, append([]bool(nil), events...))
		bds = append(bds, append([]int(nil), bands...))
	}
	num, den := overCommonDenominator(rd, codes)
	frac := func(q *big.Int) string {
		if q == nil {
			return "0"
		}
		return new(big.Rat).SetFrac(q, den).RatString()
	}
	// The events and bands, as the distributions below: the sum of the
	// numerators of the outcomes where each holds.
	if len(res.Events) == len(spec.Events) && len(res.Bands) == len(spec.Bands) {
		if err := b.Tick(64 * len(codes) * (len(spec.Events) + len(spec.Bands))); err != nil {
			return err
		}
		for k := range spec.Events {
			var sum *big.Int
			for i := range codes {
				if evs[i][k] {
					if sum == nil {
						sum = new(big.Int)
					}
					sum.Add(sum, num[i])
				}
			}
			res.Events[k].Exact = frac(sum)
		}
		for k := range spec.Bands {
			br := &res.Bands[k]
			sum := make([]*big.Int, len(br.Labels))
			ok := true
			for i := range codes {
				j := bds[i][k]
				if j < 0 || j >= len(sum) {
					ok = false
					break
				}
				if sum[j] == nil {
					sum[j] = new(big.Int)
				}
				sum[j].Add(sum[j], num[i])
			}
			if ok {
				br.Exact = make([]string, len(sum))
				for j, q := range sum {
					br.Exact[j] = frac(q)
				}
			}
		}
	}
	for k := range spec.Vars {
		vr := &res.Vars[k]
		sum := make([]*big.Int, len(vr.P))
		if err := b.Tick(64 * len(codes)); err != nil {
			return err
		}
		// A conditional variable's fractions are over the mass of its
		// condition (num over it; den cancels), the others' over den.
		over := den
		if spec.Vars[k].Given != nil {
			over = new(big.Int)
			for i := range codes {
				if givens[i][k] {
					over.Add(over, num[i])
				}
			}
			if over.Sign() == 0 {
				continue // never given: no values
			}
		}
		for i := range codes {
			if !defs[i][k] || (conditional && !givens[i][k]) {
				continue
			}
			j, ok := vr.Index(vals[i][k])
			if !ok {
				return nil
			}
			if sum[j] == nil {
				sum[j] = new(big.Int)
			}
			sum[j].Add(sum[j], num[i])
		}
		vr.Exact = make([]string, len(vr.P))
		for j, q := range sum {
			if q == nil {
				vr.Exact[j] = "0"
			} else {
				vr.Exact[j] = new(big.Rat).SetFrac(q, over).RatString()
			}
		}
	}
	return nil
}

// overCommonDenominator writes the probabilities of codes as num[i]/den
// over their least common denominator. The probabilities of a model's
// outcomes share few denominators (products of dice sizes), so a
// variable's mass at a value is then a sum of integers, reduced once,
// instead of a sum of fractions reduced at every step; the fractions are
// the same.
func overCommonDenominator(rd RatDist, codes []int) (num []*big.Int, den *big.Int) {
	den = big.NewInt(1)
	var last *big.Int // the last denominator folded in (most repeat)
	for _, code := range codes {
		d := rd.Prob(code).Denom()
		if last != nil && d.Cmp(last) == 0 {
			continue
		}
		last = d
		if new(big.Int).Rem(den, d).Sign() != 0 {
			g := new(big.Int).GCD(nil, nil, den, d)
			den.Mul(den.Quo(den, g), d)
		}
	}
	num = make([]*big.Int, len(codes))
	for i, code := range codes {
		p := rd.Prob(code)
		num[i] = new(big.Int).Quo(den, p.Denom())
		num[i].Mul(num[i], p.Num())
	}
	return num, den
}
