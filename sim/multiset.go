package sim

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// A pool too large for one table of every roll (more than 7 six-sided
// dice) is still rolled die by die, but in groups: each group of g dice is
// one uniform index into the 6^g rolls of the group (drawn several per
// random word, four words at a time), mapped by one table shared by the
// groups to the group's face counts packed one byte per face, so that
// adding packed counts adds the groups. The evaluator is then run over the
// total counts as the state machine it is: it was folded beforehand over
// every count of every face, its reachable states numbered layer by layer
// (face by face), so a pool's value is one small table lookup per face.
// When an evaluator has too many states for that, the counts are ranked
// among all multisets of n dice (stars and bars) into a table of the
// evaluator's values. Every die is rolled; nothing is drawn from the exact
// engine's answer.
//
// Pools are rolled poolBlock trials at a time into a buffer of values (the
// trials of a block do not depend on one another, so the processor overlaps
// their table lookups); the buffer is dropped when the source is re-seeded,
// so a chunk's values depend on that chunk's stream alone.

// groupMax bounds the rolls of one group of dice (its table of packed
// counts should stay in the fast caches).
const groupMax = 1 << 11

// maxMultisets bounds the result table of a multiset pool (C(n+S−1, S−1)
// entries: 1.2 million for 40d6).
const maxMultisets = 1 << 21

// maxFoldEntries bounds the state tables of a folded evaluator (entries
// over all faces: states × (n+1) counts each).
const maxFoldEntries = 1 << 17

// poolBlock is the number of pool values rolled at a time.
const poolBlock = 128

type multisetPool struct {
	n     int
	slots int
	// Dice are rolled in nFull groups of the same size (one table of the
	// packed counts of its rolls, indices drawn by full) and at most one
	// smaller group (part, nil counts when there is none).
	nFull      int
	full, part batch
	fullCounts []uint64
	partCounts []uint64
	fullDraw   []uint64 // the packed counts of nFull·poolBlock groups (rounded up to 4·k)
	partDraw   []uint64
	acc        []uint64 // packed counts of each trial of a block

	// The evaluator folded face by face: fold[i][o+c] is the state reached
	// from the state at offset o by c dice on face i, as the offset of its
	// row in fold[i+1] (a state's row holds one entry per count, 0..n);
	// the first two faces are one table (fold[1][c0·(n+1)+c1]: the start
	// state is known), and the last face's table holds the values
	// (last). Nil when the evaluator has too many states (then the rank
	// table).
	fold [][]uint16
	last []int

	binom [][]int32 // binom[q][k] = C(q, k)
	// rankStep[i*(n+S)+p+i] = C(p+i, i+1): the rank terms, flat.
	rankStep []int32
	stride   int
	// With six faces the rank is two table lookups: head[c0,c1,c2] holds
	// the terms of the first three partial sums, tail[p2,c3,c4] those of
	// the last two (nil otherwise).
	head, tail []int32
	base       int      // n+1
	result     []uint16 // by multiset rank: an index into values

	values []int
	out    []int // the block of values
	pos    int
	epoch  uint64
}

// newMultisetPool builds the sampler, or returns nil when the pool does not
// suit it (more than 8 distinct faces, more than 255 dice, too many
// multisets and states, more than 2¹⁶ values).
func newMultisetPool(faces, slot, distinct []int, n int, ev mechanics.Evaluator) *multisetPool {
	S := len(distinct)
	if S > 8 || n > 255 || n < 1 || len(faces) < 2 || len(faces) > 1<<16 {
		return nil
	}
	m := &multisetPool{n: n, slots: S}
	index := map[int]uint16{}
	valueIndex := func(v int) (uint16, bool) {
		k, ok := index[v]
		if !ok {
			if len(m.values) == 1<<16 {
				return 0, false
			}
			k = uint16(len(m.values))
			index[v] = k
			m.values = append(m.values, v)
		}
		return k, true
	}
	if fold, last, ok := foldStates(distinct, n, ev); ok {
		m.fold, m.last = fold, last
	} else {
		m.values, index = nil, map[int]uint16{}
		if !m.buildRank(distinct, n, ev, valueIndex) {
			return nil
		}
	}
	// Groups: as many dice as a table of rolls that stays in the fast
	// caches holds (6⁴ rolls for d6).
	g := 1
	for p := len(faces); p*len(faces) <= groupMax; p *= len(faces) {
		g++
	}
	g = min(g, n)
	counts := func(size int) []uint64 {
		rolls := 1
		for range size {
			rolls *= len(faces)
		}
		out := make([]uint64, rolls)
		for idx := range out {
			var c uint64
			x := idx
			for range size {
				c += 1 << (8 * slot[x%len(faces)])
				x /= len(faces)
			}
			out[idx] = c
		}
		return out
	}
	m.nFull = n / g
	m.fullCounts = counts(g)
	m.full = newLeanBatch(uint64(len(m.fullCounts)))
	m.fullDraw = padded[uint64](roundUp(m.nFull*poolBlock, 4*m.full.k))
	if r := n % g; r > 0 {
		m.partCounts = counts(r)
		m.part = newLeanBatch(uint64(len(m.partCounts)))
		m.partDraw = padded[uint64](roundUp(poolBlock, 4*m.part.k))
	}
	m.acc = padded[uint64](poolBlock)
	m.out = padded[int](poolBlock)
	m.pos = len(m.out)
	return m
}

func roundUp(x, k int) int { return (x + k - 1) / k * k }

// foldStates numbers the evaluator's reachable states face by face and
// tables its transitions (see multisetPool.fold), or reports false when a
// face's table would need more than 2¹⁶ entries or all of them more than
// maxFoldEntries. A state is kept with the set of dice counts (prefix sums)
// that reach it, so that the last face is folded only with the count that
// completes n dice.
func foldStates(distinct []int, n int, ev mechanics.Evaluator) ([][]uint16, []int, bool) {
	type prefixes [4]uint64 // a set of prefix sums 0..255
	W := n + 1
	states := []uint64{ev.Start()}
	reach := []prefixes{{1}}
	fold := make([][]uint16, len(distinct)-1)
	entries := 0
	for i, face := range distinct[:len(distinct)-1] {
		var next []uint64
		var nextReach []prefixes
		seen := map[uint64]int{}
		tbl := make([]uint16, len(states)*W)
		for a, s := range states {
			for p := 0; p <= n; p++ {
				if reach[a][p/64]>>(p%64)&1 == 0 {
					continue
				}
				for c := 0; p+c <= n; c++ {
					t := ev.Next(s, face, c)
					j, ok := seen[t]
					if !ok {
						j = len(next)
						if (j+1)*W > 1<<16 {
							return nil, nil, false
						}
						seen[t] = j
						next = append(next, t)
						nextReach = append(nextReach, prefixes{})
					}
					tbl[a*W+c] = uint16(j * W)
					q := p + c
					nextReach[j][q/64] |= 1 << (q % 64)
				}
			}
		}
		if entries += len(next) * W; entries > maxFoldEntries {
			return nil, nil, false
		}
		fold[i] = tbl
		states, reach = next, nextReach
	}
	last := make([]int, len(states)*W)
	face := distinct[len(distinct)-1]
	for a, s := range states {
		for p := 0; p <= n; p++ {
			if reach[a][p/64]>>(p%64)&1 != 0 {
				last[a*W+n-p] = ev.Final(ev.Next(s, face, n-p))
			}
		}
	}
	if len(fold) >= 2 { // the first two faces in one table
		f01 := make([]uint16, W*W)
		for c0 := 0; c0 <= n; c0++ {
			for c1 := 0; c0+c1 <= n; c1++ {
				f01[c0*W+c1] = fold[1][int(fold[0][c0])+c1]
			}
		}
		fold[0], fold[1] = nil, f01
	}
	return fold, last, true
}

// buildRank tables the evaluator's value of every multiset by its rank, or
// reports false when there are too many multisets or values.
func (m *multisetPool) buildRank(distinct []int, n int, ev mechanics.Evaluator, valueIndex func(int) (uint16, bool)) bool {
	S := len(distinct)
	// binomials up to C(n+S, S)
	binom := make([][]int32, n+S+1)
	for q := range binom {
		binom[q] = make([]int32, S+1)
		binom[q][0] = 1
		for k := 1; k <= S && k <= q; k++ {
			v := int64(binom[q-1][k-1])
			if k <= q-1 {
				v += int64(binom[q-1][k])
			}
			if v > maxMultisets*4 {
				v = maxMultisets * 4 // only sizes are compared past this
			}
			binom[q][k] = int32(v)
		}
	}
	total := int(binom[n+S-1][S-1])
	if total > maxMultisets {
		return false
	}
	m.binom = binom
	m.stride = n + S
	m.rankStep = make([]int32, (S-1)*m.stride)
	for i := 0; i < S-1; i++ {
		for q := i; q <= n+i && q < len(binom); q++ {
			m.rankStep[i*m.stride+q] = binom[q][i+1]
		}
	}
	if S == 6 && (n+1)*(n+1)*(n+1) <= 1<<17 {
		b := n + 1
		m.base = b
		m.head = make([]int32, b*b*b)
		m.tail = make([]int32, b*b*b)
		for c0 := 0; c0 <= n; c0++ {
			for c1 := 0; c0+c1 <= n; c1++ {
				for c2 := 0; c0+c1+c2 <= n; c2++ {
					p0, p1, p2 := c0, c0+c1, c0+c1+c2
					m.head[(c0*b+c1)*b+c2] = binom[p0][1] + binom[p1+1][2] + binom[p2+2][3]
				}
			}
		}
		for p2 := 0; p2 <= n; p2++ {
			for c3 := 0; p2+c3 <= n; c3++ {
				for c4 := 0; p2+c3+c4 <= n; c4++ {
					p3, p4 := p2+c3, p2+c3+c4
					m.tail[(p2*b+c3)*b+c4] = binom[p3+3][4] + binom[p4+4][5]
				}
			}
		}
	}
	// The value of every multiset, by rank: 16-bit indices into the
	// pool's few distinct values keep the table in the caches.
	m.result = make([]uint16, total)
	counts := make([]int, S)
	ok := true
	var walk func(i, left int)
	walk = func(i, left int) {
		if !ok {
			return
		}
		if i == S-1 {
			counts[i] = left
			s := ev.Start()
			for f, c := range counts {
				s = ev.Next(s, distinct[f], c)
			}
			var k uint16
			k, ok = valueIndex(ev.Final(s))
			m.result[m.rankOf(counts)] = k
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			walk(i+1, left-c)
		}
	}
	walk(0, n)
	return ok
}

// rankOf is the rank of a count vector among the multisets of its size:
// with partial sums p_i and q_i = p_i + i (strictly increasing), the
// combination {q_0, …, q_{S−2}} in the colexicographic order.
func (m *multisetPool) rankOf(counts []int) int {
	p, r := 0, 0
	for i := 0; i < m.slots-1; i++ {
		p += counts[i]
		r += int(m.binom[p+i][i+1])
	}
	return r
}

func (m *multisetPool) sample(r *source) int {
	if m.epoch != r.epoch {
		m.epoch = r.epoch
		m.pos = len(m.out)
	}
	if m.pos == len(m.out) {
		m.roll(r)
		m.pos = 0
	}
	v := m.out[m.pos]
	m.pos++
	return v
}

// roll fills the block of values: the groups' rolls first (as packed
// counts), then the counts of every trial, then their values.
func (m *multisetPool) roll(r *source) {
	for j, k4 := 0, 4*m.full.k; j < len(m.fullDraw); j += k4 {
		m.full.fillCounts(r, m.fullCounts, m.fullDraw[j:j+k4])
	}
	acc := m.acc[:poolBlock]
	if m.partCounts != nil {
		for j, k4 := 0, 4*m.part.k; j < len(m.partDraw); j += k4 {
			m.part.fillCounts(r, m.partCounts, m.partDraw[j:j+k4])
		}
		copy(acc, m.partDraw[:poolBlock])
	} else {
		clear(acc)
	}
	g := m.nFull
	d := m.fullDraw[:g*poolBlock]
	switch g {
	case 1:
		for t := range acc {
			acc[t] += d[t]
		}
	case 2:
		for t := range acc {
			i := d[2*t : 2*t+2]
			acc[t] += i[0] + i[1]
		}
	case 3:
		for t := range acc {
			i := d[3*t : 3*t+3]
			acc[t] += i[0] + i[1] + i[2]
		}
	default:
		for t := range acc {
			i := d[g*t : g*t+g]
			a, b := i[0]+i[1], i[2]+i[3]
			for _, x := range i[4:] {
				a += x
			}
			acc[t] += a + b
		}
	}
	m.evaluate(acc, m.out[:poolBlock])
}

// evaluate writes the pool's value for each vector of packed counts.
func (m *multisetPool) evaluate(acc []uint64, out []int) {
	out = out[:len(acc)]
	vals := m.values
	switch {
	case m.fold != nil && m.slots == 6:
		W := m.n + 1
		f1, f2, f3, f4, f5 := m.fold[1], m.fold[2], m.fold[3], m.fold[4], m.last
		for t, a := range acc {
			o := int(f1[int(a&0xff)*W+int(a>>8&0xff)])
			o = int(f2[o+int(a>>16&0xff)])
			o = int(f3[o+int(a>>24&0xff)])
			o = int(f4[o+int(a>>32&0xff)])
			out[t] = f5[o+int(a>>40&0xff)]
		}
	case m.fold != nil:
		W := m.n + 1
		for t, a := range acc {
			o := 0
			i := 0
			if len(m.fold) >= 2 {
				o = int(m.fold[1][int(a&0xff)*W+int(a>>8&0xff)])
				a >>= 16
				i = 2
			}
			for _, f := range m.fold[i:] {
				o = int(f[o+int(a&0xff)])
				a >>= 8
			}
			out[t] = m.last[o+int(a&0xff)]
		}
	case m.head != nil:
		b := m.base
		for t, a := range acc {
			c0, c1, c2 := int(a&0xff), int(a>>8&0xff), int(a>>16&0xff)
			c3, c4 := int(a>>24&0xff), int(a>>32&0xff)
			rank := m.head[(c0*b+c1)*b+c2] + m.tail[((c0+c1+c2)*b+c3)*b+c4]
			out[t] = vals[m.result[rank]]
		}
	default:
		for t, a := range acc {
			p, rank, row := 0, 0, 0
			for i := 0; i < m.slots-1; i++ {
				p += int(a >> (8 * i) & 0xff)
				rank += int(m.rankStep[row+p+i])
				row += m.stride
			}
			out[t] = vals[m.result[rank]]
		}
	}
}

// fillCounts is batch.fillWide writing cnt[index] for each index drawn:
// four words' indices at once, len(out) = 4·b.k.
func (b *batch) fillCounts(s *source, cnt []uint64, out []uint64) { fillLookup(b, s, cnt, out) }
