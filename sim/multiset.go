package sim

import "github.com/oddsmith/oddsmith/mechanics"

// A pool too large for one table of every roll (more than 6 six-sided
// dice) is still rolled die by die, but in groups: each group of g dice is
// one uniform index into the 6^g rolls of the group (drawn several per
// random word), mapped by a table to the group's face counts packed one
// byte per face, so that adding packed counts adds the groups. The total
// counts are then ranked among all multisets of n dice (stars and bars),
// and a table built by folding every multiset through the evaluator gives
// the pool's value. Every die is rolled; nothing is drawn from the exact
// engine's answer.

// groupMax bounds the rolls of one group of dice (its table of packed
// counts should stay in the fast caches).
const groupMax = 1 << 11

// maxMultisets bounds the result table of a multiset pool (C(n+S−1, S−1)
// entries: 1.2 million for 40d6).
const maxMultisets = 1 << 21

type multisetPool struct {
	groups []multisetGroup
	binom  [][]int32 // binom[q][k] = C(q, k)
	// rankStep[i*(n+S)+p+i] = C(p+i, i+1): the rank terms, flat.
	rankStep []int32
	stride   int
	slots    int
	// With six faces the rank is two table lookups: head[c0,c1,c2] holds
	// the terms of the first three partial sums, tail[p2,c3,c4] those of
	// the last two (nil otherwise).
	head, tail []int32
	base       int      // n+1
	result     []uint16 // by multiset rank: an index into values
	values     []int
	epoch      uint64
}

type multisetGroup struct {
	counts []uint64 // packed face counts of each roll of the group
	b      batch
	buf    []uint64
	pos    int
}

// newMultisetPool builds the sampler, or returns nil when the pool does not
// suit it (more than 8 distinct faces, more than 255 dice, too many
// multisets, values beyond int32).
func newMultisetPool(faces, slot, distinct []int, n int, ev mechanics.Evaluator) *multisetPool {
	S := len(distinct)
	if S > 8 || n > 255 || n < 1 {
		return nil
	}
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
		return nil
	}
	m := &multisetPool{binom: binom, slots: S}
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
	// Groups: as many dice as a table of rolls that stays in the fast
	// caches holds (6⁴ rolls for d6).
	g := 1
	for p := len(faces); p*len(faces) <= groupMax; p *= len(faces) {
		g++
	}
	for left := n; left > 0; left -= g {
		size := min(g, left)
		rolls := 1
		for range size {
			rolls *= len(faces)
		}
		grp := multisetGroup{counts: make([]uint64, rolls), b: newBatch(uint64(rolls))}
		for idx := range grp.counts {
			var c uint64
			x := idx
			for range size {
				c += 1 << (8 * slot[x%len(faces)])
				x /= len(faces)
			}
			grp.counts[idx] = c
		}
		grp.buf = padded[uint64](grp.b.k)
		grp.pos = len(grp.buf)
		m.groups = append(m.groups, grp)
	}
	// The value of every multiset, by rank.
	vals := make([]int, total)
	counts := make([]int, S)
	var walk func(i, left int)
	walk = func(i, left int) {
		if i == S-1 {
			counts[i] = left
			s := ev.Start()
			for f, c := range counts {
				s = ev.Next(s, distinct[f], c)
			}
			vals[m.rankOf(counts)] = ev.Final(s)
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			walk(i+1, left-c)
		}
	}
	walk(0, n)
	// Pools have few distinct values: the table holds 16-bit indices into
	// them, which keeps it in the caches.
	index := map[int]uint16{}
	m.result = make([]uint16, total)
	for i, v := range vals {
		k, ok := index[v]
		if !ok {
			if len(m.values) == 1<<16 {
				return nil
			}
			k = uint16(len(m.values))
			index[v] = k
			m.values = append(m.values, v)
		}
		m.result[i] = k
	}
	return m
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

func (m *multisetPool) sample(r *Source) int {
	if m.epoch != r.epoch {
		m.epoch = r.epoch
		for i := range m.groups {
			m.groups[i].pos = len(m.groups[i].buf)
		}
	}
	var acc uint64
	for i := range m.groups {
		g := &m.groups[i]
		if g.pos == len(g.buf) {
			g.b.fill(r, g.buf)
			g.pos = 0
		}
		acc += g.counts[g.buf[g.pos]]
		g.pos++
	}
	if m.head != nil {
		b := m.base
		c0, c1, c2 := int(acc&0xff), int(acc>>8&0xff), int(acc>>16&0xff)
		c3, c4 := int(acc>>24&0xff), int(acc>>32&0xff)
		rank := m.head[(c0*b+c1)*b+c2] + m.tail[((c0+c1+c2)*b+c3)*b+c4]
		return m.values[m.result[rank]]
	}
	p, rank, row := 0, 0, 0
	for i := 0; i < m.slots-1; i++ {
		p += int(acc >> (8 * i) & 0xff)
		rank += int(m.rankStep[row+p+i])
		row += m.stride
	}
	return m.values[m.result[rank]]
}
