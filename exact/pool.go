package exact

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// PoolDist runs an evaluator over n rolls of a die as a dynamic program over
// faces (K2, the multiset DP): faces are taken in ascending order, and the c
// dice that show face f among the r not yet placed have the conditional
// binomial weight C(r,c)·q^c·(1−q)^(r−c), q = P(f | face ≥ f). The DP state is
// (evaluator state, dice left), with evaluator states interned per face, so
// the cost is O(F·S·n²) for F faces and S live states.
func PoolDist(ft faceTable, n int, ev mechanics.Evaluator) Dist {
	qs := ft.conditionals()
	w := n + 1
	type layer struct {
		states []uint64
		mass   []float64 // mass[i*w + r]
	}
	cur := layer{states: []uint64{ev.Start()}, mass: make([]float64, w)}
	cur.mass[n] = 1
	row := make([]float64, n+1)
	rows := make([][]float64, n+1) // rows[r] = binomial row for r dice left
	var buf []float64
	for fi, f := range ft.faces {
		buf = buf[:0]
		for r := 0; r <= n; r++ {
			binomRow(row, r, qs[fi])
			start := len(buf)
			buf = append(buf, row[:r+1]...)
			rows[r] = buf[start : start+r+1 : start+r+1]
		}
		index := make(map[uint64]int32, 2*len(cur.states))
		next := layer{}
		for si, s := range cur.states {
			m := cur.mass[si*w : (si+1)*w]
			rmax := -1
			for r := n; r >= 0; r-- {
				if m[r] != 0 {
					rmax = r
					break
				}
			}
			for c := 0; c <= rmax; c++ {
				ns := ev.Next(s, f, c)
				j, ok := index[ns]
				if !ok {
					j = int32(len(next.states))
					index[ns] = j
					next.states = append(next.states, ns)
					next.mass = append(next.mass, make([]float64, w)...)
				}
				out := next.mass[int(j)*w : int(j+1)*w]
				for r := c; r <= rmax; r++ {
					if p := m[r]; p != 0 {
						out[r-c] += p * rows[r][c]
					}
				}
			}
		}
		cur = next
	}
	res := map[int]float64{}
	for si, s := range cur.states {
		if p := cur.mass[si*w]; p != 0 {
			res[ev.Final(s)] += p
		}
	}
	d, _ := FromMap(res)
	return d
}
