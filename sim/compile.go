package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/oddsmith/oddsmith/mechanics"
)

// sampler draws one value of a compiled node. Samplers are built per worker
// (they own scratch buffers) and never allocate while sampling.
type sampler interface {
	sample(r *source) int
}

// tableMax bounds the lookup tables the compiler builds. A node whose whole
// randomness is at most tableMax equally likely index values (a die, a small
// pool, two small pools combined, any function of those) becomes a table:
// one uniform index per trial, then a lookup. Tables are built by rolling
// every combination of dice through the model's own node functions and pool
// evaluators, so a table is a simulation of the dice, not of the exact
// engine's answer.
const tableMax = 1 << 16

// poolTableMax bounds the table of every roll of a pool on its own: larger
// than tableMax, since a pool's table is the whole of many models (7d6 is
// 279 936 rolls, one index per trial); a larger pool is rolled in groups
// (multisetPool).
const poolTableMax = 1 << 19

// table samples vals[U], U uniform on [0, len(vals)).
type table struct {
	vals []int
}

func (t *table) sample(r *source) int { return t.vals[r.Index(uint64(len(t.vals)))] }

func asTable(s sampler) (*table, bool) {
	t, ok := s.(*table)
	return t, ok
}

// product fuses two independent tables into one by f, if it fits.
func product(a, b *table, f func(x, y int) int) (*table, bool) {
	if len(a.vals)*len(b.vals) > tableMax {
		return nil, false
	}
	out := make([]int, 0, len(a.vals)*len(b.vals))
	for _, x := range a.vals {
		for _, y := range b.vals {
			out = append(out, f(x, y))
		}
	}
	return &table{vals: out}, true
}

func mapTable(t *table, f func(int) int) *table {
	out := make([]int, len(t.vals))
	for i, v := range t.vals {
		out[i] = f(v)
	}
	return &table{vals: out}
}

func compile(n mechanics.Node) (sampler, error) {
	switch n := n.(type) {
	case mechanics.Die:
		if n.TotalWeight() <= tableMax {
			return &table{vals: dieFaces(n)}, nil
		}
		if u, ok := uniformDie(n); ok {
			return u, nil
		}
		return newWeighted(n), nil
	case mechanics.Const:
		return &table{vals: []int{n.V}}, nil
	case mechanics.Sum:
		return compileSum(n.Terms)
	case mechanics.Repeat:
		return compileRepeat(n)
	case mechanics.RandomCount:
		return compileRandomCount(n)
	case mechanics.Max:
		return compileFold(n.Terms, func(x, y int) int { return max(x, y) })
	case mechanics.Min:
		return compileFold(n.Terms, func(x, y int) int { return min(x, y) })
	case mechanics.Scale:
		k := n.K
		return compileCheapMap(n.X, func(x int) int { return k * x })
	case mechanics.Clamp:
		return compileClamp(n)
	case mechanics.Compare:
		return compileCompare(n)
	case mechanics.Map:
		return compileMap(n.X, n.F)
	case mechanics.Combine:
		s, err := compileAll(n.X, n.Y)
		if err != nil {
			return nil, err
		}
		return fuse(s[0], s[1], n.F), nil
	case mechanics.KeepOf:
		return compileKeepOf(n)
	case mechanics.Keep:
		return compilePool(n.Die, n.N, keepEval{n: n.N, k: n.K, highest: n.Highest})
	case mechanics.Pool:
		return compilePool(n.Die, n.N, n.Eval)
	case mechanics.Unique:
		return compileUnique(n)
	case mechanics.Cond:
		s, err := compileAll(n.If, n.Then, n.Else)
		if err != nil {
			return nil, err
		}
		return &condSampler{s[0], s[1], s[2]}, nil
	case mechanics.Mixture:
		return compileMixture(n)
	case mechanics.Explode:
		return compileExplode(n)
	case mechanics.ExplodeRolls:
		return compileRolls(n)
	case mechanics.CappedExplode:
		return compileCapped(n)
	default:
		return nil, fmt.Errorf("sim: unsupported node %T", n)
	}
}

// compileAll compiles nodes in order.
func compileAll(ns ...mechanics.Node) ([]sampler, error) {
	out := make([]sampler, len(ns))
	for i, n := range ns {
		s, err := compile(n)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// compileRepeat is the sum of n.N copies of n.X: a table while the sums
// fit one, else n.N draws a trial.
func compileRepeat(n mechanics.Repeat) (sampler, error) {
	if n.N == 0 {
		return &table{vals: []int{0}}, nil
	}
	x, err := compile(n.X)
	if err != nil {
		return nil, err
	}
	if t, ok := asTable(x); ok {
		acc := t
		for i := 1; i < n.N; i++ {
			if acc, ok = product(acc, t, func(a, b int) int { return a + b }); !ok {
				break
			}
		}
		if acc != nil {
			return acc, nil
		}
	}
	return &repeatSampler{x: x, n: n.N}, nil
}

// compileClamp clamps a node's values. A clamp of a sum of bursting dice,
// whose values no longer change above the clamp, is a weighted table where
// it can be (see saturating).
func compileClamp(n mechanics.Clamp) (sampler, error) {
	lo, hi := n.Lo, n.Hi
	f := func(x int) int { return min(max(x, lo), hi) }
	if w, ok := saturating(n.X, f, hi); ok {
		return w, nil
	}
	return compileCheapMap(n.X, f)
}

// compileCompare is 1 where a node's value holds the comparison, else 0;
// like a clamp, a weighted table where it can be, for every comparison is
// settled above its threshold.
func compileCompare(n mechanics.Compare) (sampler, error) {
	op, t := n.Op, n.T
	f := func(x int) int {
		if op.Holds(x, t) {
			return 1
		}
		return 0
	}
	if t < math.MaxInt {
		if w, ok := saturating(n.X, f, t+1); ok {
			return w, nil
		}
	}
	return compileCheapMap(n.X, f)
}

// compileMixture draws which node to sample by the weights.
func compileMixture(n mechanics.Mixture) (sampler, error) {
	var pick mechanics.Die
	branches := make([]sampler, len(n.Of))
	for i, b := range n.Of {
		s, err := compile(b)
		if err != nil {
			return nil, err
		}
		branches[i] = s
		if n.Weights[i] > 0 {
			pick.Faces = append(pick.Faces, i)
			pick.Weights = append(pick.Weights, n.Weights[i])
		}
	}
	p, err := compile(pick)
	if err != nil {
		return nil, err
	}
	return &mixSampler{pick: p, of: branches}, nil
}

// compileExplode rolls a bursting die: from its table several faces a
// word, or, for heavy weights, one face at a time.
func compileExplode(n mechanics.Explode) (sampler, error) {
	if n.Limit == 0 && n.TopProbability() >= 1 {
		return nil, fmt.Errorf("a die that bursts on every roll (%s) never stops", n.BurstFaces())
	}
	if n.Die.TotalWeight() <= tableMax {
		return newBurstDice(n, 1), nil
	}
	d, err := compile(n.Die)
	if err != nil {
		return nil, err
	}
	depth := n.Limit
	if depth == 0 {
		depth = mechanics.MaxBursts
	}
	return &explodeSampler{die: d, bursts: n.Burster(), pen: penalty(n), depth: depth, unlimited: n.Limit == 0}, nil
}

// penalty is what each extra roll of an explosion counts less than its
// face: 1 when it penetrates.
func penalty(e mechanics.Explode) int {
	if e.Penetrate {
		return 1
	}
	return 0
}

// dieFaces lists a die's faces, each repeated by its weight.
func dieFaces(d mechanics.Die) []int {
	var out []int
	for i, f := range d.Faces {
		for w := int64(0); w < d.Weight(i); w++ {
			out = append(out, f)
		}
	}
	return out
}

func compileMap(x mechanics.Node, f func(int) int) (sampler, error) {
	return compileMapped(x, f, false)
}

// compileCheapMap is compileMap for a function cheaper than a lookup in a
// cachedMap's window (a comparison, a clamp, a scale): past a table it is
// called on every draw, so that thousands of such nodes (one a state of a
// chain) keep no window each.
func compileCheapMap(x mechanics.Node, f func(int) int) (sampler, error) {
	return compileMapped(x, f, true)
}

func compileMapped(x mechanics.Node, f func(int) int, cheap bool) (sampler, error) {
	s, err := compile(x)
	if err != nil {
		return nil, err
	}
	if t, ok := asTable(s); ok {
		return mapTable(t, f), nil
	}
	if w, ok := s.(*weighted); ok {
		return w.mapped(f), nil
	}
	if cheap {
		return &mapSampler{x: s, f: f}, nil
	}
	return &cachedMap{x: s, f: f}, nil
}

func fuse(x, y sampler, f func(a, b int) int) sampler {
	if tx, ok := asTable(x); ok {
		if ty, ok := asTable(y); ok {
			if t, ok := product(tx, ty, f); ok {
				return t
			}
			if p, ok := newPairTable(tx, ty, f); ok {
				return p
			}
		}
	}
	if w, ok := weightedProduct(x, y, f); ok {
		return w
	}
	return &pairSampler{x, y, f}
}

// pairTable combines two tables too large to multiply out (a 6d6 pool
// beside a damage roll) whose values are few: each side draws the index of
// its value, and f is read from a table over the distinct value pairs,
// computed once instead of on every trial.
type pairTable struct {
	x, y  *table // values are indices into the distinct values
	ny    int
	joint []int
}

func (p *pairTable) sample(r *source) int {
	return p.joint[p.x.sample(r)*p.ny+p.y.sample(r)]
}

// indexed replaces a table's values by indices into its distinct values.
func indexed(t *table) (*table, []int) {
	distinct := append([]int(nil), t.vals...)
	sort.Ints(distinct)
	distinct = dedup(distinct)
	idx := make([]int, len(t.vals))
	for i, v := range t.vals {
		idx[i] = sort.SearchInts(distinct, v)
	}
	return &table{vals: idx}, distinct
}

func newPairTable(tx, ty *table, f func(a, b int) int) (*pairTable, bool) {
	ix, dx := indexed(tx)
	iy, dy := indexed(ty)
	if len(dx)*len(dy) > tableMax {
		return nil, false
	}
	joint := make([]int, 0, len(dx)*len(dy))
	for _, a := range dx {
		for _, b := range dy {
			joint = append(joint, f(a, b))
		}
	}
	return &pairTable{x: ix, y: iy, ny: len(dy), joint: joint}, true
}

func compileFold(terms []mechanics.Node, f func(x, y int) int) (sampler, error) {
	var acc sampler
	for _, t := range terms {
		s, err := compile(t)
		if err != nil {
			return nil, err
		}
		if acc == nil {
			acc = s
			continue
		}
		acc = fuse(acc, s, f)
	}
	if acc == nil {
		return &table{vals: []int{0}}, nil
	}
	return acc, nil
}

// compilePool tables small pools by rolling every combination of dice
// through the evaluator; larger pools roll their dice each trial.
func compilePool(die mechanics.Die, n int, ev mechanics.Evaluator) (sampler, error) {
	if die.TotalWeight() > tableMax {
		return newWeightedPool(die, n, ev), nil
	}
	faces := dieFaces(die)
	distinct := append([]int(nil), faces...)
	sort.Ints(distinct)
	distinct = dedup(distinct)
	slot := make([]int, len(faces)) // index into distinct of each weighted face
	for i, f := range faces {
		slot[i] = sort.SearchInts(distinct, f)
	}
	total := 1
	fits := true
	for i := 0; i < n; i++ {
		total *= len(faces)
		if total > poolTableMax {
			fits = false
			break
		}
	}
	ps := &poolSampler{n: n, radix: uint64(len(faces)), slot: slot, faces: distinct, ev: ev, counts: padded[int](len(distinct))}
	if !fits {
		if m := newMultisetPool(faces, slot, distinct, n, ev); m != nil {
			return m, nil
		}
		ps.batch = newBatch(ps.radix)
		ps.buf = padded[uint64](ps.batch.k)
		return ps, nil
	}
	vals := make([]int, total)
	for idx := range vals {
		clear(ps.counts)
		x := idx
		for i := 0; i < n; i++ {
			ps.counts[slot[x%len(faces)]]++
			x /= len(faces)
		}
		vals[idx] = ps.fold()
	}
	return &table{vals: vals}, nil
}

func dedup(s []int) []int {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// poolSampler rolls n dice, several per 64-bit word, counts the faces and
// folds the counts through the evaluator in ascending face order.
type poolSampler struct {
	n      int
	radix  uint64
	slot   []int
	faces  []int
	ev     mechanics.Evaluator
	counts []int
	batch  batch
	buf    []uint64
}

func (p *poolSampler) fold() int {
	s := p.ev.Start()
	for i, f := range p.faces {
		s = p.ev.Next(s, f, p.counts[i])
	}
	return p.ev.Final(s)
}

func (p *poolSampler) sample(r *source) int {
	clear(p.counts)
	for left := p.n; left > 0; {
		p.batch.fill(r, p.buf)
		for _, u := range p.buf[:min(left, len(p.buf))] {
			p.counts[p.slot[u]]++
		}
		left -= len(p.buf)
	}
	return p.fold()
}

// keepEval is the sim's own keep-highest/lowest evaluator: it folds counts
// into (dice seen, kept sum) like exact.KeepEvaluator, written separately so
// the cross-check compares two implementations of the rule.
type keepEval struct {
	n, k    int
	highest bool
}

func (e keepEval) Start() uint64 { return 1 << 31 }
func (e keepEval) Next(s uint64, face, c int) uint64 {
	seen := int(s >> 32)
	sum := int64(s & 0xffffffff)
	for i := seen; i < seen+c; i++ { // ascending rank i
		if (e.highest && i >= e.n-e.k) || (!e.highest && i < e.k) {
			sum += int64(face)
		}
	}
	return uint64(seen+c)<<32 | uint64(sum)
}
func (e keepEval) Final(s uint64) int { return int(int64(s&0xffffffff) - 1<<31) }

// uniformRange is a die of equally likely faces lo, lo+1, …, lo+n−1 too
// large for a table (d100000): one draw, no search.
type uniformRange struct {
	lo int
	n  uint64
}

func (u *uniformRange) sample(r *source) int { return u.lo + int(r.Index(u.n)) }

func uniformDie(d mechanics.Die) (*uniformRange, bool) {
	if d.Weights != nil {
		return nil, false
	}
	for i, f := range d.Faces {
		if f != d.Faces[0]+i {
			return nil, false
		}
	}
	return &uniformRange{lo: d.Faces[0], n: uint64(len(d.Faces))}, true
}

// weighted draws faces[i] with probability (cum[i] − cum[i−1]) / total: one
// uniform U below total, then the first cumulative bound above U, found
// from a guide indexed by U's top bits (Chen and Asau's guide table: at
// least two buckets a face, so about one comparison a draw).
type weighted struct {
	faces []int
	cum   []uint64
	total uint64
	guide []uint32 // guide[b]: the first i with cum[i] > b << shift
	shift uint
}

func newWeighted(d mechanics.Die) *weighted {
	w := &weighted{}
	for i, f := range d.Faces {
		w.total += uint64(d.Weight(i))
		w.faces = append(w.faces, f)
		w.cum = append(w.cum, w.total)
	}
	w.index()
	return w
}

// index builds the guide, once faces and cum are set.
func (w *weighted) index() {
	L := uint(bits.Len64(w.total - 1)) // U < 2^L
	g := uint(bits.Len(uint(len(w.cum)))) + 1
	w.shift = 0
	if L > g {
		w.shift = L - g
	}
	w.guide = make([]uint32, 1<<(L-w.shift))
	i := 0
	for b := range w.guide {
		for i < len(w.cum)-1 && w.cum[i] <= uint64(b)<<w.shift {
			i++
		}
		w.guide[b] = uint32(i)
	}
}

func (w *weighted) sample(r *source) int { return w.faces[w.at(r.Index(w.total))] }

// at is the index of the face that U = u draws.
func (w *weighted) at(u uint64) int {
	i := int(w.guide[u>>w.shift])
	for w.cum[i] <= u {
		i++
	}
	return i
}

// counts is the weight of each value.
func (w *weighted) counts() ([]int, []uint64) {
	ws := make([]uint64, len(w.cum))
	prev := uint64(0)
	for i, c := range w.cum {
		ws[i], prev = c-prev, c
	}
	return w.faces, ws
}

// mapped is f of the weighted values, equal results merged.
func (w *weighted) mapped(f func(int) int) sampler {
	vals, ws := w.counts()
	byVal := map[int]uint64{}
	for i, v := range vals {
		byVal[f(v)] += ws[i]
	}
	return fromCounts(byVal)
}

// weightedCountsOf is a table's or a weighted table's values with their
// weights.
func weightedCountsOf(s sampler) ([]int, []uint64, bool) {
	switch s := s.(type) {
	case *table:
		v, w := distinctCounts(s.vals)
		return v, w, true
	case *weighted:
		v, w := s.counts()
		return v, w, true
	}
	return nil, nil, false
}

// weightedProductMax bounds the value pairs a weighted product reads.
const weightedProductMax = 1 << 12

// weightedProduct combines two independent samplers, one of them a
// weighted table and the other a table or one too, into the weighted table
// of f over every pair of their values, if it is small enough.
func weightedProduct(x, y sampler, f func(a, b int) int) (sampler, bool) {
	_, wx := x.(*weighted)
	_, wy := y.(*weighted)
	if !wx && !wy {
		return nil, false
	}
	vx, cx, okx := weightedCountsOf(x)
	vy, cy, oky := weightedCountsOf(y)
	if !okx || !oky || len(vx)*len(vy) > weightedProductMax {
		return nil, false
	}
	tx, ty := uint64(0), uint64(0)
	for _, c := range cx {
		tx += c
	}
	for _, c := range cy {
		ty += c
	}
	if _, ok := mulCheck(tx, ty); !ok {
		return nil, false
	}
	byVal := map[int]uint64{}
	for i, a := range vx {
		for j, b := range vy {
			byVal[f(a, b)] += cx[i] * cy[j]
		}
	}
	return fromCounts(byVal), true
}

type mapSampler struct {
	x sampler
	f func(int) int
}

func (m *mapSampler) sample(r *source) int { return m.f(m.x.sample(r)) }

// cachedMap is a Map over a sampler without a table (an unbounded sum, a
// bursting die): f's values are kept for a window of mapCache inputs
// around the first one drawn, filled as they are met (f is a pure function
// of its input; a worker owns its samplers), and computed afresh outside it.
type cachedMap struct {
	x     sampler
	f     func(int) int
	lo    int
	cache []int
}

// mapCache is the window of a cachedMap; unset entries hold unknown. 512
// inputs (4 kB) hold the common values of a bursting sum; a chain with a
// node of its own at each of thousands of states keeps one window a state,
// and 4096 (32 kB each) took it out of the caches (a rule-file track of
// 2000 states: 9.3 s, 475 MB → 7.0 s, 110 MB with cheap maps unwindowed).
const (
	mapCache = 1 << 9
	unknown  = math.MinInt
)

func (m *cachedMap) sample(r *source) int {
	v := m.x.sample(r)
	i := uint(v - m.lo)
	if i < uint(len(m.cache)) {
		if y := m.cache[i]; y != unknown {
			return y
		}
		y := m.f(v)
		m.cache[i] = y
		return y
	}
	if m.cache == nil {
		m.lo = v - mapCache/4
		m.cache = make([]int, mapCache)
		for j := range m.cache {
			m.cache[j] = unknown
		}
		i := v - m.lo
		m.cache[i] = m.f(v)
		return m.cache[i]
	}
	return m.f(v)
}

type pairSampler struct {
	x, y sampler
	f    func(a, b int) int
}

func (p *pairSampler) sample(r *source) int { return p.f(p.x.sample(r), p.y.sample(r)) }

type condSampler struct{ c, a, b sampler }

func (c *condSampler) sample(r *source) int {
	if c.c.sample(r) != 0 {
		return c.a.sample(r)
	}
	return c.b.sample(r)
}

type mixSampler struct {
	pick sampler
	of   []sampler
}

func (m *mixSampler) sample(r *source) int { return m.of[m.pick.sample(r)].sample(r) }

// burstDice rolls k copies of one bursting die and sums them. Die faces
// are drawn several per 64-bit word into a buffer that lives within one
// chunk (it is dropped when the source is reseeded). An unlimited die rolls
// on while it shows its maximum; reaching MaxBursts (impossible for a fair
// die in practice) stops the run with an error rather than a silently cut
// value.
type burstDice struct {
	faces     []int  // the die's faces, each repeated by its weight
	bursts    []bool // whether each of faces bursts
	pen       int    // what each extra roll counts less (penetrating)
	k         int
	depth     int
	unlimited bool
	b         batch
	buf       []uint64
	pos       int
	epoch     uint64
}

func newBurstDice(e mechanics.Explode, k int) *burstDice {
	faces := dieFaces(e.Die)
	bursts := make([]bool, len(faces))
	burster := e.Burster()
	for i, f := range faces {
		bursts[i] = burster(f)
	}
	depth := e.Limit
	if depth == 0 {
		depth = mechanics.MaxBursts
	}
	g := &burstDice{faces: faces, bursts: bursts, pen: penalty(e), k: k, depth: depth, unlimited: e.Limit == 0, b: newBatch(uint64(len(faces)))}
	g.buf = padded[uint64](g.b.k)
	g.pos = len(g.buf)
	return g
}

func (g *burstDice) sample(r *source) int {
	if g.epoch != r.epoch {
		g.epoch, g.pos = r.epoch, len(g.buf)
	}
	sum := 0
	for range g.k {
		for j := 0; ; j++ {
			if g.pos == len(g.buf) {
				g.b.fill(r, g.buf)
				g.pos = 0
			}
			i := g.buf[g.pos]
			g.pos++
			sum += g.faces[i]
			if !g.bursts[i] {
				break
			}
			if j == g.depth {
				if g.unlimited {
					mechanics.Raise("sim: a die burst %d times in a row; the simulation stops rather than cut it short", g.depth)
				}
				break
			}
			sum -= g.pen // the extra roll counts one less
		}
	}
	return sum
}

// explodeSampler rolls a bursting die with heavy weights (too many to
// expand into a table) one face at a time.
type explodeSampler struct {
	die        sampler
	bursts     func(int) bool
	pen, depth int
	unlimited  bool
}

func (e *explodeSampler) sample(r *source) int {
	sum := 0
	for j := 0; ; j++ {
		v := e.die.sample(r)
		sum += v
		if !e.bursts(v) {
			return sum
		}
		if j == e.depth {
			if e.unlimited {
				mechanics.Raise("sim: a die burst %d times in a row; the simulation stops rather than cut it short", e.depth)
			}
			return sum
		}
		sum -= e.pen // the extra roll counts one less
	}
}

// sameExplode reports two explosions of the same die with the same rule.
func sameExplode(a, b mechanics.Explode) bool {
	if a.Limit != b.Limit || a.Penetrate != b.Penetrate || !slices.Equal(dieFaces(a.Die), dieFaces(b.Die)) {
		return false
	}
	ab, bb := a.Burster(), b.Burster()
	for _, f := range a.Die.Faces {
		if ab(f) != bb(f) {
			return false
		}
	}
	return true
}

// compileSum compiles a sum. When its bursting dice are all of one kind,
// the first roll of every die and the other terms (when they are tables)
// are drawn together from tables of their joint first rolls, each entry
// holding the sum and how many dice showed their maximum; only those dice
// roll on. Most trials are then one or two table draws. Otherwise the
// bursting dice are rolled together and added to the other terms.
func compileSum(terms []mechanics.Node) (sampler, error) {
	var rest []mechanics.Node
	var groups []*burstDice
	var kinds []mechanics.Explode
	for _, t := range terms {
		e, ok := t.(mechanics.Explode)
		if !ok || e.Die.TotalWeight() > tableMax {
			rest = append(rest, t)
			continue
		}
		found := false
		for i, k := range kinds {
			if sameExplode(k, e) {
				groups[i].k++
				found = true
				break
			}
		}
		if !found {
			kinds = append(kinds, e)
			groups = append(groups, newBurstDice(e, 1))
		}
	}
	if len(groups) == 0 {
		return compileFold(terms, func(x, y int) int { return x + y })
	}
	var base sampler
	if len(rest) > 0 {
		var err error
		if base, err = compileFold(rest, func(x, y int) int { return x + y }); err != nil {
			return nil, err
		}
	}
	if len(groups) == 1 {
		if bt, ok := base.(*table); ok || base == nil {
			return newFirstRolls(bt, kinds[0], groups[0].k), nil
		}
	}
	s := &sumSampler{base: base, groups: groups}
	if t, ok := asTable(base); ok && len(t.vals) > 1 {
		s.table = newBatchedTable(t)
	}
	return s, nil
}

// firstRolls is a sum of a table (or nothing) and k dice of one bursting
// kind, drawn as tables of joint first rolls plus the bursts that go on.
type firstRolls struct {
	parts []*batchedTable // values: index into sums/bursts of that part
	sums  [][]int
	tops  [][]uint8
	cont  *burstDice // the roll after a maximum: a fresh die, one burst fewer
}

func newFirstRolls(base *table, e mechanics.Explode, k int) sampler {
	faces := dieFaces(e.Die)
	bursts, pen := e.Burster(), penalty(e)
	f := &firstRolls{}
	vals, tops := []int{0}, []uint8{0}
	if base != nil {
		vals, tops = append([]int(nil), base.vals...), make([]uint8, len(base.vals))
	}
	flush := func() {
		idx := make([]int, len(vals))
		for i := range idx {
			idx[i] = i
		}
		f.parts = append(f.parts, newBatchedTable(&table{vals: idx}))
		f.sums, f.tops = append(f.sums, vals), append(f.tops, tops)
	}
	for range k {
		if len(vals)*len(faces) > tableMax {
			flush()
			vals, tops = []int{0}, []uint8{0}
		}
		nv, nt := make([]int, 0, len(vals)*len(faces)), make([]uint8, 0, len(vals)*len(faces))
		for i, v := range vals {
			for _, fc := range faces {
				t := tops[i]
				if bursts(fc) {
					t++
					fc -= pen // the extra roll it brings counts one less
				}
				nv = append(nv, v+fc)
				nt = append(nt, t)
			}
		}
		vals, tops = nv, nt
	}
	flush()
	// After a maximum comes a fresh roll with one burst fewer allowed: for
	// a rule's limit of one extra roll, a plain roll that does not burst.
	f.cont = newBurstDice(e, 1)
	if e.Limit > 0 {
		f.cont.depth = e.Limit - 1
	}
	return f
}

func (f *firstRolls) sample(r *source) int {
	v, bursts := 0, 0
	for i, p := range f.parts {
		j := p.sample(r)
		v += f.sums[i][j]
		bursts += int(f.tops[i][j])
	}
	for range bursts {
		v += f.cont.sample(r)
	}
	return v
}

// batchedTable draws a table's entries several indices per random word,
// buffered within a chunk like burstDice.
type batchedTable struct {
	vals  []int
	b     batch
	buf   []uint64
	pos   int
	epoch uint64
}

func newBatchedTable(t *table) *batchedTable {
	bt := &batchedTable{vals: t.vals, b: newBatch(uint64(len(t.vals)))}
	bt.buf = padded[uint64](bt.b.k)
	bt.pos = len(bt.buf)
	return bt
}

func (t *batchedTable) sample(r *source) int {
	if t.epoch != r.epoch {
		t.epoch, t.pos = r.epoch, len(t.buf)
	}
	if t.pos == len(t.buf) {
		t.b.fill(r, t.buf)
		t.pos = 0
	}
	v := t.vals[t.buf[t.pos]]
	t.pos++
	return v
}

// sumSampler adds a base (the terms that are not bursting dice) and groups
// of bursting dice.
type sumSampler struct {
	base   sampler
	table  *batchedTable // the base, when it is a table
	groups []*burstDice
}

func (s *sumSampler) sample(r *source) int {
	v := 0
	switch {
	case s.table != nil:
		v = s.table.sample(r)
	case s.base != nil:
		v = s.base.sample(r)
	}
	for _, g := range s.groups {
		v += g.sample(r)
	}
	return v
}

type repeatSampler struct {
	x sampler
	n int
}

func (p *repeatSampler) sample(r *source) int {
	s := 0
	for i := 0; i < p.n; i++ {
		s += p.x.sample(r)
	}
	return s
}

// compileKeepOf draws every term, sorts the values and sums the score of
// those in the window (KeepOf: grouped rolls).
func compileKeepOf(n mechanics.KeepOf) (sampler, error) {
	terms, err := compileAll(n.Terms...)
	if err != nil {
		return nil, err
	}
	return &keepOfSampler{terms: terms, lo: n.Lo, hi: n.Hi, score: n.Score, vals: make([]int, len(terms))}, nil
}

type keepOfSampler struct {
	terms  []sampler
	lo, hi int
	score  func(int) int
	vals   []int // scratch: the values of one trial
}

func (k *keepOfSampler) sample(r *source) int {
	v := k.vals
	for i, t := range k.terms {
		// Insertion sort as the values come: groups are small.
		x := t.sample(r)
		j := i
		for j > 0 && v[j-1] > x {
			v[j] = v[j-1]
			j--
		}
		v[j] = x
	}
	s := 0
	for _, x := range v[k.lo:k.hi] {
		if k.score != nil {
			x = k.score(x)
		}
		s += x
	}
	return s
}
