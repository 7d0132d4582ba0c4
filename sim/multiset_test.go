package sim

import (
	"sort"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// distinctEval is an ag-like pool value: the highest face, plus the dice
// beyond the distinct faces shown, plus 1000 when some face shows three
// times or more (a state machine of a few states per face).
type distinctEval struct{ n int }

func (distinctEval) Start() uint64 { return 0 }
func (distinctEval) Next(s uint64, face, count int) uint64 {
	if count == 0 {
		return s
	}
	s = s&^0xff | uint64(face)
	s += 1 << 8
	if count >= 3 {
		s |= 1 << 16
	}
	return s
}
func (e distinctEval) Final(s uint64) int {
	return int(s&0xff) + e.n - int(s>>8&0xff) + 1000*int(s>>16&1)
}

// TestMultisetFoldMatchesEvaluator checks the state tables and the rank
// tables of a multiset pool against the evaluator run directly, on every
// multiset of the pool's dice.
func TestMultisetFoldMatchesEvaluator(t *testing.T) {
	dice := map[string]mechanics.Die{
		"d6":       mechanics.D(6),
		"d8":       mechanics.D(8),
		"d3":       mechanics.D(3),
		"weighted": {Faces: []int{1, 2, 2, 5}, Weights: []int64{1, 2, 1, 3}},
		"two":      {Faces: []int{1, 4}, Weights: []int64{1, 2}},
		"one":      {Faces: []int{3, 3}},
	}
	for dname, die := range dice {
		for _, n := range []int{1, 8, 13, 40} {
			for ename, ev := range map[string]mechanics.Evaluator{
				"sum": mechanics.SumEval{}, "maxcount": maxCountEval{}, "distinct": distinctEval{n: n},
			} {
				if dname == "d8" && n == 40 {
					continue // too many multisets to walk in a test
				}
				faces := dieFaces(die)
				distinct := append([]int(nil), faces...)
				sort.Ints(distinct)
				distinct = dedup(distinct)
				slot := make([]int, len(faces))
				for i, f := range faces {
					slot[i] = sort.SearchInts(distinct, f)
				}
				m := newMultisetPool(faces, slot, distinct, n, ev)
				if m == nil {
					t.Fatalf("%s %dx %s: no multiset pool", ename, n, dname)
				}
				if m.fold == nil {
					t.Errorf("%s %dx %s: not folded", ename, n, dname)
				}
				r := &multisetPool{n: n, slots: len(distinct)}
				index := map[int]uint16{}
				if !r.buildRank(distinct, n, ev, func(v int) (uint16, bool) {
					k, ok := index[v]
					if !ok {
						k = uint16(len(r.values))
						index[v] = k
						r.values = append(r.values, v)
					}
					return k, true
				}) {
					t.Fatalf("%s %dx %s: no rank table", ename, n, dname)
				}
				S := len(distinct)
				counts := make([]int, S)
				var accs []uint64
				var want []int
				var walk func(i, left int)
				walk = func(i, left int) {
					if i == S-1 {
						counts[i] = left
						s := ev.Start()
						var a uint64
						for f, c := range counts {
							s = ev.Next(s, distinct[f], c)
							a += uint64(c) << (8 * f)
						}
						accs = append(accs, a)
						want = append(want, ev.Final(s))
						return
					}
					for c := 0; c <= left; c++ {
						counts[i] = c
						walk(i+1, left-c)
					}
				}
				walk(0, n)
				for name, p := range map[string]*multisetPool{"fold": m, "rank": r} {
					got := make([]int, len(accs))
					p.evaluate(accs, got)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s %dx %s, %s: counts %x give %d, want %d", ename, n, dname, name, accs[i], got[i], want[i])
						}
					}
				}
			}
		}
	}
}
