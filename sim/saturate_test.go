package sim

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// oracleSaturating is f(x) for a sum x of dice and bursting dice, by
// following every sequence of rolls with exact rational probabilities until
// the sum can no longer stay below sat (then f(sat)) or every die has
// stopped: written apart from saturating's level-by-level integer counts.
func oracleSaturating(terms []mechanics.Node, f func(int) int, sat int) map[int]*big.Rat {
	lows := make([]int, len(terms)+1) // lows[i]: least total of terms i…
	for i := len(terms) - 1; i >= 0; i-- {
		var faces []int
		switch t := terms[i].(type) {
		case mechanics.Die:
			faces = t.Faces
		case mechanics.Explode:
			faces = t.Die.Faces
		case mechanics.Const:
			faces = []int{t.V}
		}
		lows[i] = lows[i+1] + slices.Min(faces)
	}
	out := map[int]*big.Rat{}
	add := func(v int, p *big.Rat) {
		if out[v] == nil {
			out[v] = new(big.Rat)
		}
		out[v].Add(out[v], p)
	}
	roll := func(d mechanics.Die, each func(face int, p *big.Rat)) {
		total := int64(0)
		for i := range d.Faces {
			total += d.Weight(i)
		}
		for i, fc := range d.Faces {
			each(fc, big.NewRat(d.Weight(i), total))
		}
	}
	// rec: terms before i are settled at partial; depth ≥ 0 means term i
	// has burst depth times and rolls again.
	var rec func(i, partial, depth int, p *big.Rat)
	rec = func(i, partial, depth int, p *big.Rat) {
		low := lows[i]
		if depth >= 0 && terms[i].(mechanics.Explode).Penetrate {
			low-- // an extra roll of a penetrating die counts one less
		}
		if partial+low >= sat {
			add(f(sat), p)
			return
		}
		if i == len(terms) {
			add(f(partial), p)
			return
		}
		switch t := terms[i].(type) {
		case mechanics.Const:
			rec(i+1, partial+t.V, -1, p)
		case mechanics.Die:
			roll(t, func(fc int, q *big.Rat) { rec(i+1, partial+fc, -1, new(big.Rat).Mul(p, q)) })
		case mechanics.Explode:
			d, v := max(depth, 0), 0
			if depth >= 0 && t.Penetrate {
				v = -1 // an extra roll counts one less than its face
			}
			roll(t.Die, func(fc int, q *big.Rat) {
				pq := new(big.Rat).Mul(p, q)
				if t.Bursts(fc) && (t.Limit == 0 || d < t.Limit) {
					rec(i, partial+fc+v, d+1, pq)
					return
				}
				rec(i+1, partial+fc+v, -1, pq)
			})
		}
	}
	rec(0, 0, -1, big.NewRat(1, 1))
	return out
}

func TestSaturatingAgainstOracle(t *testing.T) {
	d := func(n int) mechanics.Die { return mechanics.D(n) }
	ex := func(n int) mechanics.Explode { return mechanics.Explode{Die: d(n)} }
	thr := mechanics.Explode{Die: d(10), ByThreshold: true, Threshold: 9}
	limited := mechanics.Explode{Die: d(6), Limit: 2}
	weighted := mechanics.Explode{Die: mechanics.Die{Faces: []int{0, 1, 3}, Weights: []int64{3, 2, 1}}}
	missing := mechanics.Explode{Die: mechanics.Die{Faces: []int{1, 2, 4}, Weights: []int64{1, 1, 1}, Missing: 5}}
	negative := mechanics.Explode{Die: mechanics.Die{Faces: []int{-2, 0, 5}}}
	low := mechanics.Explode{Die: d(10), On: []int{1, 2}}
	pen := mechanics.Explode{Die: d(6), Penetrate: true}
	penSet := mechanics.Explode{Die: d(8), On: []int{2, 8}, Penetrate: true, Limit: 3}
	sums := map[string][]mechanics.Node{
		"d20+2d10!":         {d(20), ex(10), ex(10)},
		"d20+3d4!":          {d(20), ex(4), ex(4), ex(4)},
		"d6!":               {ex(6)},
		"d20+d10!>=9":       {d(20), thr},
		"d6!{2}+d6!{2}":     {limited, limited},
		"weighted!+d4":      {weighted, d(4)},
		"missing!+3":        {missing, mechanics.Const{V: 3}},
		"negative!+d8-7":    {negative, d(8), mechanics.Const{V: -7}},
		"d8+d6!+d12!-3":     {d(8), ex(6), ex(12), mechanics.Const{V: -3}},
		"2d20!+(d2 weight)": {ex(20), ex(20), mechanics.Die{Faces: []int{0, 1}, Weights: []int64{1, 3}}},
	}
	checked, skipped := 0, 0
	for name, terms := range sums {
		x := mechanics.Node(mechanics.Sum{Terms: terms})
		for _, op := range []mechanics.CmpOp{mechanics.GE, mechanics.GT, mechanics.LE, mechanics.LT, mechanics.EQ, mechanics.NE} {
			for _, tv := range []int{-5, 0, 3, 12, 15, 25, 31, 44, 60} {
				f := func(v int) int {
					if op.Holds(v, tv) {
						return 1
					}
					return 0
				}
				if compareTo(t, fmt.Sprintf("%s %v %d", name, op, tv), x, terms, f, tv+1) {
					checked++
				} else {
					skipped++
				}
			}
		}
		for _, c := range [][2]int{{0, 7}, {3, 30}, {-4, 2}, {5, 5}, {0, 80}} {
			lo, hi := c[0], c[1]
			f := func(v int) int { return min(max(v, lo), hi) }
			if compareTo(t, fmt.Sprintf("clamp(%s, %d, %d)", name, lo, hi), x, terms, f, hi) {
				checked++
			} else {
				skipped++
			}
		}
	}
	// Dice bursting on low faces or penetrating, against lower targets (a
	// chain of small bursts up to 60 outgrows the counts).
	for name, terms := range map[string][]mechanics.Node{
		"d20+d10!<=2":       {d(20), low},
		"2d6!p+d4":          {pen, pen, d(4)},
		"d8!p{2,8}{3}+d6!p": {penSet, pen},
	} {
		x := mechanics.Node(mechanics.Sum{Terms: terms})
		for _, tv := range []int{-1, 3, 8, 12, 17, 22} {
			f := func(v int) int {
				if v >= tv {
					return 1
				}
				return 0
			}
			if compareTo(t, fmt.Sprintf("%s >= %d", name, tv), x, terms, f, tv) {
				checked++
			} else {
				skipped++
			}
		}
	}
	// Counts past 2⁶² (many deep bursts of unlike dice) are left to the
	// dice rolled one by one; nearly every case here fits.
	if skipped > checked/20 {
		t.Errorf("%d cases not tabled, %d tabled", skipped, checked)
	}
	t.Logf("%d weighted tables equal to the oracle (%d too large)", checked, skipped)
}

// compareTo checks the weighted table of f(x) against the oracle; false
// when saturating declines it.
func compareTo(t *testing.T, name string, x mechanics.Node, terms []mechanics.Node, f func(int) int, sat int) bool {
	t.Helper()
	w, ok := saturating(x, f, sat)
	if !ok {
		return false
	}
	want := oracleSaturating(terms, f, sat)
	vals, ws, _ := weightedCountsOf(w)
	total := uint64(0)
	for _, n := range ws {
		total += n
	}
	got := map[int]*big.Rat{}
	for i, v := range vals {
		got[v] = big.NewRat(0, 1).SetFrac(new(big.Int).SetUint64(ws[i]), new(big.Int).SetUint64(total))
	}
	for v, p := range want {
		if p.Sign() == 0 {
			continue
		}
		if got[v] == nil || got[v].Cmp(p) != 0 {
			t.Fatalf("%s: P(%d) = %v, the oracle says %v", name, v, got[v], p)
		}
	}
	for v, p := range got {
		if want[v] == nil && p.Sign() != 0 {
			t.Fatalf("%s: P(%d) = %v, the oracle says 0", name, v, p)
		}
	}
	return true
}

// TestSaturatingCompile: comparisons and clamps of bursting sums compile to
// tables (counts up to tableMax) or weighted tables, and their draws follow
// the counts (binomial bounds at 5 standard deviations, fixed seed).
func TestSaturatingCompile(t *testing.T) {
	ex := func(n int) mechanics.Explode { return mechanics.Explode{Die: mechanics.D(n)} }
	x := mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), ex(10), ex(10)}}
	// 93 312 after reduction: past tableMax.
	big := mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), ex(6), ex(6), ex(6)}}
	for _, c := range []struct {
		n        mechanics.Node
		weighted bool
	}{
		// 417 and 1583 of 2000: a table.
		{mechanics.Compare{X: x, Op: mechanics.GT, T: 15}, false},
		// 2683 and 14 597 of 17 280: more than countsTablePer entries a value.
		{mechanics.Compare{X: mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), ex(12), ex(12)}}, Op: mechanics.GT, T: 15}, true},
		{mechanics.Compare{X: big, Op: mechanics.GT, T: 25}, true},
		{mechanics.Clamp{X: x, Lo: 0, Hi: 25}, true},
		{mechanics.Clamp{X: mechanics.Sum{Terms: []mechanics.Node{mechanics.D(4), mechanics.Explode{Die: mechanics.D(6)}}}, Lo: 0, Hi: 5}, false},
		// A weighted comparison beside a die: a weighted product.
		{mechanics.Combine{X: mechanics.Compare{X: big, Op: mechanics.GT, T: 25}, Y: mechanics.D(10), F: func(a, b int) int { return a * b }}, true},
		// Mapped: equal results merged, back to a table.
		{mechanics.Map{X: mechanics.Compare{X: big, Op: mechanics.GE, T: 26}, F: func(a int) int { return 3 }}, false},
		{mechanics.Map{X: mechanics.Compare{X: big, Op: mechanics.GE, T: 26}, F: func(a int) int { return 3 - a }}, true},
	} {
		s, err := compile(c.n)
		if err != nil {
			t.Fatal(err)
		}
		if _, w := s.(*weighted); w != c.weighted {
			t.Fatalf("%T compiled to %T", c.n, s)
		}
		if _, ok := asTable(s); !ok && !c.weighted {
			t.Fatalf("%T compiled to %T, not a table", c.n, s)
		}
		var src source
		src.Seed(7, 0)
		const draws = 200000
		seen := map[int]int{}
		for range draws {
			seen[s.sample(&src)]++
		}
		vals, ws, _ := weightedCountsOf(s)
		total := 0.0
		for _, n := range ws {
			total += float64(n)
		}
		for i, v := range vals {
			p := float64(ws[i]) / total
			sd := math.Sqrt(draws * p * (1 - p))
			if d := math.Abs(float64(seen[v]) - draws*p); d > 5*sd+1 {
				t.Errorf("%T: value %d drawn %d times, expected %.0f ± %.0f", c.n, v, seen[v], draws*p, sd)
			}
		}
	}
	// Not a sum of dice, or a cut too far: rolled as before.
	if _, ok := saturating(ex(6), func(v int) int { return v }, saturateMaxCut+10); ok {
		t.Error("a cut beyond saturateMaxCut was tabled")
	}
	if _, ok := saturating(mechanics.Sum{Terms: []mechanics.Node{mechanics.D(6), mechanics.D(6)}}, func(v int) int { return v }, 5); ok {
		t.Error("a sum without bursting dice went to a weighted table")
	}
}

// TestWeightedGuide: the guide finds the face of every U at and around
// each cumulative bound, for weights from 1 to 2⁶⁰ and 1 to 300 faces.
func TestWeightedGuide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 16, 17, 64, 300} {
		for _, top := range []int64{1, 7, 1 << 20, 1 << 52} {
			d := mechanics.Die{}
			for i := range n {
				d.Faces = append(d.Faces, i)
				d.Weights = append(d.Weights, 1+rng.Int64N(top))
			}
			w := newWeighted(d)
			check := func(u uint64) {
				if u >= w.total {
					return
				}
				want := sort.Search(len(w.cum), func(i int) bool { return w.cum[i] > u })
				if got := w.at(u); got != want {
					t.Fatalf("%d faces (weights to %d): U = %d drew face %d, want %d", n, top, u, got, want)
				}
			}
			prev := uint64(0)
			for _, c := range w.cum {
				for _, u := range []uint64{prev, prev + 1, (prev + c) / 2, c - 1, c} {
					check(u)
				}
				prev = c
			}
			for range 1000 {
				check(rng.Uint64N(w.total))
			}
		}
	}
}
