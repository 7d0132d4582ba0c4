package kit

import (
	"fmt"
	"math/bits"

	"github.com/oddsmith/oddsmith/mechanics"
)

// PoolStat is one statistic of a pool of dice that reads the whole roll
// (the highest die, how many dice match it, whether all show 1, the longest
// straight …), as icepool's multiset evaluators do. JointPool runs several
// over one roll of a pool, each in a few bits of one evaluator state.
type PoolStat interface {
	// Name describes the stat ("highest 3").
	Name() string
	// Fold prepares the stat for a pool of n dice whose distinct faces are
	// faces (ascending).
	Fold(n int, faces []int) StatFold
}

// StatFold is a stat prepared for one pool: its state is bits wide, starts
// at Start, takes every face in ascending order (face index i, count c,
// possibly 0) through next, and Final gives its value, within [Lo, Hi].
type StatFold struct {
	bits   uint
	Start  uint64
	next   func(s uint64, i, c int) uint64
	Final  func(s uint64) int
	Lo, Hi int
}

// PoolStats of a pool, for the notation's evaluators.
type (
	// PoolSum is the sum of every die.
	PoolSum struct{}
	// PoolHighest is the sum of the K highest dice (K ≥ 1; all of them if
	// there are fewer).
	PoolHighest struct{ K int }
	// PoolLowest is the sum of the K lowest dice.
	PoolLowest struct{ K int }
	// PoolCount counts the dice whose value satisfies Op T.
	PoolCount struct {
		Op mechanics.CmpOp
		T  int
	}
	// PoolAll is 1 when every die satisfies Op T.
	PoolAll struct {
		Op mechanics.CmpOp
		T  int
	}
	// PoolAny is 1 when at least one die satisfies Op T.
	PoolAny struct {
		Op mechanics.CmpOp
		T  int
	}
	// PoolCountHighest counts the dice that show the highest value rolled.
	PoolCountHighest struct{}
	// PoolCountLowest counts the dice that show the lowest value rolled.
	PoolCountLowest struct{}
	// PoolDistinct is the number of different values rolled.
	PoolDistinct struct{}
	// PoolLargestSet is the size of the largest set of matching dice.
	PoolLargestSet struct{}
	// PoolStraight is the length of the longest run of consecutive values
	// rolled (faces one apart).
	PoolStraight struct{}
)

// bitsFor is the width that holds 0…v.
func bitsFor(v int) uint { return uint(max(1, bits.Len(uint(v)))) }

// maxKeep bounds K of PoolHighest and PoolLowest in a joint pool (each kept
// die is 6 bits of the state).
const maxKeep = 9

func (PoolSum) Name() string { return "sum" }
func (PoolSum) Fold(n int, faces []int) StatFold {
	lo, hi := faces[0], faces[len(faces)-1]
	// The state is Σ (f − lowest face)·c, kept non-negative.
	return StatFold{bits: bitsFor(n * (hi - lo)),
		next:  func(s uint64, i, c int) uint64 { return s + uint64((faces[i]-lo)*c) },
		Final: func(s uint64) int { return int(s) + n*lo },
		Lo:    n * lo, Hi: n * hi}
}

// keepFold keeps up to k face indices (6 bits each, the last filled in the
// lowest bits) and how many are filled (4 bits): the k highest dice seen so
// far, or the first k.
func keepFold(n, k int, faces []int, highest bool) StatFold {
	k = min(k, n)
	mask := uint64(1)<<(6*uint(k)) - 1
	lo, hi := faces[0], faces[len(faces)-1]
	return StatFold{bits: 4 + 6*uint(k),
		next: func(st uint64, i, c int) uint64 {
			if c == 0 || k == 0 {
				return st
			}
			filled, slots := int(st&15), st>>4
			if highest {
				// The new face is above every face seen: it takes the
				// top min(c, k) places and pushes the rest down.
				m := min(c, k)
				for range m {
					slots = slots<<6 | uint64(i)
				}
				return (slots&mask)<<4 | uint64(min(filled+m, k))
			}
			for ; c > 0 && filled < k; c-- {
				slots |= uint64(i) << (6 * uint(filled))
				filled++
			}
			return slots<<4 | uint64(filled)
		},
		Final: func(st uint64) int {
			filled, slots, sum := int(st&15), st>>4, 0
			for j := range filled {
				sum += faces[slots>>(6*uint(j))&63]
			}
			return sum
		},
		Lo: k * lo, Hi: k * hi}
}

func (p PoolHighest) Name() string { return keepName("highest", p.K) }
func (p PoolHighest) Fold(n int, faces []int) StatFold {
	return keepFold(n, p.K, faces, true)
}
func (p PoolLowest) Name() string { return keepName("lowest", p.K) }
func (p PoolLowest) Fold(n int, faces []int) StatFold {
	return keepFold(n, p.K, faces, false)
}

func keepName(what string, k int) string {
	if k == 1 {
		return what
	}
	return fmt.Sprintf("%s %d", what, k)
}

func (p PoolCount) Name() string { return fmt.Sprintf("count %s %d", p.Op, p.T) }
func (p PoolCount) Fold(n int, faces []int) StatFold {
	return StatFold{bits: bitsFor(n),
		next: func(s uint64, i, c int) uint64 {
			if p.Op.Holds(faces[i], p.T) {
				return s + uint64(c)
			}
			return s
		},
		Final: func(s uint64) int { return int(s) },
		Lo:    0, Hi: n}
}

func (p PoolAll) Name() string { return fmt.Sprintf("all %s %d", p.Op, p.T) }
func (p PoolAll) Fold(n int, faces []int) StatFold {
	return StatFold{bits: 1, Start: 1,
		next: func(s uint64, i, c int) uint64 {
			if c > 0 && !p.Op.Holds(faces[i], p.T) {
				return 0
			}
			return s
		},
		Final: func(s uint64) int { return int(s) },
		Lo:    0, Hi: 1}
}

func (p PoolAny) Name() string { return fmt.Sprintf("any %s %d", p.Op, p.T) }
func (p PoolAny) Fold(n int, faces []int) StatFold {
	return StatFold{bits: 1,
		next: func(s uint64, i, c int) uint64 {
			if c > 0 && p.Op.Holds(faces[i], p.T) {
				return 1
			}
			return s
		},
		Final: func(s uint64) int { return int(s) },
		Lo:    0, Hi: 1}
}

func (PoolCountHighest) Name() string { return "count of the highest" }
func (PoolCountHighest) Fold(n int, faces []int) StatFold {
	return StatFold{bits: bitsFor(n),
		next: func(s uint64, i, c int) uint64 {
			if c > 0 {
				return uint64(c)
			}
			return s
		},
		Final: func(s uint64) int { return int(s) },
		Lo:    min(1, n), Hi: n}
}

func (PoolCountLowest) Name() string { return "count of the lowest" }
func (PoolCountLowest) Fold(n int, faces []int) StatFold {
	return StatFold{bits: bitsFor(n),
		next: func(s uint64, i, c int) uint64 {
			if s == 0 && c > 0 {
				return uint64(c)
			}
			return s
		},
		Final: func(s uint64) int { return int(s) },
		Lo:    min(1, n), Hi: n}
}

func (PoolDistinct) Name() string { return "distinct values" }
func (PoolDistinct) Fold(n int, faces []int) StatFold {
	return StatFold{bits: bitsFor(min(n, len(faces))),
		next: func(s uint64, i, c int) uint64 {
			if c > 0 {
				return s + 1
			}
			return s
		},
		Final: func(s uint64) int { return int(s) },
		Lo:    min(1, n), Hi: min(n, len(faces))}
}

func (PoolLargestSet) Name() string { return "largest set" }
func (PoolLargestSet) Fold(n int, faces []int) StatFold {
	return StatFold{bits: bitsFor(n),
		next:  func(s uint64, i, c int) uint64 { return max(s, uint64(c)) },
		Final: func(s uint64) int { return int(s) },
		Lo:    min(1, n), Hi: n}
}

func (PoolStraight) Name() string { return "longest straight" }
func (PoolStraight) Fold(n int, faces []int) StatFold {
	// The state: the current run (low w bits) and the best run (next w).
	longest := min(n, len(faces))
	w := bitsFor(longest)
	run := mechanics.BitFields(w, w)
	return StatFold{bits: 2 * w,
		next: func(s uint64, i, c int) uint64 {
			cur := run[0].Get(s)
			switch {
			case c == 0:
				cur = 0
			case i > 0 && faces[i] == faces[i-1]+1:
				cur++
			default:
				cur = 1
			}
			return run[1].Set(run[0].Set(s, cur), max(run[1].Get(s), cur))
		},
		Final: func(s uint64) int { return run[1].Get(s) },
		Lo:    min(1, n), Hi: longest}
}

// JointPool rolls n dice of die once and reports every stat of that roll
// jointly: a record with one field per stat (named by names) and the node
// that yields its codes. It refuses stats whose states do not fit 64 bits
// together.
func JointPool(die mechanics.Die, n int, names []string, stats []PoolStat) (mechanics.Node, *mechanics.Record, error) {
	if len(names) != len(stats) || len(stats) == 0 {
		return nil, nil, fmt.Errorf("a joint pool needs one name per stat")
	}
	faces := DistinctFaces(die)
	if len(faces) > 64 {
		return nil, nil, fmt.Errorf("a pool's die may have at most 64 different faces (this one has %d)", len(faces))
	}
	folds := make([]StatFold, len(stats))
	widths := make([]uint, len(stats))
	var total uint
	fields := make([]mechanics.Field, len(stats))
	for j, st := range stats {
		if k := keepOf(st); k > maxKeep {
			return nil, nil, fmt.Errorf("%s: a pool read several ways keeps at most %d dice", st.Name(), maxKeep)
		}
		folds[j] = st.Fold(n, faces)
		widths[j] = folds[j].bits
		total += widths[j]
		fields[j] = mechanics.Int(names[j], folds[j].Lo, folds[j].Hi, st.Name())
	}
	if total > 64 {
		return nil, nil, fmt.Errorf("the pool is read in too many ways at once (%d bits of state; 64 at most)", total)
	}
	rec := mechanics.NewRecord(fields...)
	bf := mechanics.BitFields(widths...)
	slots := make([]mechanics.Slot, len(stats))
	for j := range stats {
		slots[j] = rec.Slot(names[j])
	}
	index := faceIndex(faces)
	start := uint64(0)
	for j, f := range folds {
		start = bf[j].SetU(start, f.Start)
	}
	ev := mechanics.EvalFunc{
		StartF: func() uint64 { return start },
		NextF: func(s uint64, face, c int) uint64 {
			i := index(face)
			for j, f := range folds {
				s = bf[j].SetU(s, f.next(bf[j].GetU(s), i, c))
			}
			return s
		},
		FinalF: func(s uint64) int {
			code := rec.Start()
			for j, f := range folds {
				code = slots[j].Set(code, f.Final(bf[j].GetU(s)))
			}
			return code
		},
	}
	return mechanics.Pool{Die: die, N: n, Eval: ev}, rec, nil
}

// faceIndex is the position of a face among faces (distinct, ascending):
// a table over the faces' span when it is small, a map otherwise.
func faceIndex(faces []int) func(int) int {
	lo, hi := faces[0], faces[len(faces)-1]
	if hi-lo < 4096 {
		tab := make([]int, hi-lo+1)
		for i, f := range faces {
			tab[f-lo] = i
		}
		return func(f int) int { return tab[f-lo] }
	}
	m := make(map[int]int, len(faces))
	for i, f := range faces {
		m[f] = i
	}
	return func(f int) int { return m[f] }
}

// PoolOf is one stat of n dice of die as a plain node (its value): the
// highest or lowest K as the keep node, the sum as a sum of dice, the
// others as a pool.
func PoolOf(die mechanics.Die, n int, st PoolStat) (mechanics.Node, error) {
	switch s := st.(type) {
	case PoolHighest:
		return mechanics.Keep{Die: die, N: n, K: min(s.K, n), Highest: true}, nil
	case PoolLowest:
		return mechanics.Keep{Die: die, N: n, K: min(s.K, n)}, nil
	case PoolSum:
		return mechanics.Repeat{X: die, N: n}, nil
	}
	faces := DistinctFaces(die)
	if len(faces) > 64 {
		return nil, fmt.Errorf("a pool's die may have at most 64 different faces (this one has %d)", len(faces))
	}
	ev, _, err := StatEvaluator(st, n, faces)
	if err != nil {
		return nil, err
	}
	return mechanics.Pool{Die: die, N: n, Eval: ev}, nil
}

// StatEvaluator is one stat of up to n dice whose distinct faces are faces
// (ascending, at most 64) as an evaluator that sees the faces themselves,
// and the stat's fold (its range).
func StatEvaluator(st PoolStat, n int, faces []int) (mechanics.Evaluator, StatFold, error) {
	f := st.Fold(n, faces)
	if f.bits > 64 {
		return nil, f, fmt.Errorf("%s of %d dice needs more than 64 bits of state", st.Name(), n)
	}
	index := map[int]int{}
	for i, v := range faces {
		index[v] = i
	}
	return mechanics.EvalFunc{
		StartF: func() uint64 { return f.Start },
		NextF:  func(s uint64, face, c int) uint64 { return f.next(s, index[face], c) },
		FinalF: f.Final,
	}, f, nil
}

func keepOf(st PoolStat) int {
	switch s := st.(type) {
	case PoolHighest:
		return s.K
	case PoolLowest:
		return s.K
	}
	return 0
}

// DistinctFaces lists a die's different face values, ascending.
func DistinctFaces(d mechanics.Die) []int {
	seen := map[int]bool{}
	var out []int
	for _, f := range d.Faces {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
