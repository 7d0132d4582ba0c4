package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWindowEvalMatchesSorting runs windowEval over random rolls (up to 60,
// past its saturated count) and random keeps and drops, against sorting
// the rolls and applying the window.
func TestWindowEvalMatchesSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	faces := []int{-2, 1, 2, 3, 5, 8}
	score := func(f int) int { return f }
	for range 3000 {
		var ops []winOp
		for range 1 + r.IntN(3) {
			ops = append(ops, winOp{n: r.IntN(4), keep: r.IntN(2) == 0, top: r.IntN(2) == 0})
		}
		ev, err := windowEval(ops, faces, score, 200)
		if err != nil {
			t.Fatal(err)
		}
		m := r.IntN(61)
		if r.IntN(2) == 0 {
			m = r.IntN(12)
		}
		rolls := make([]int, m)
		for i := range rolls {
			rolls[i] = faces[r.IntN(len(faces))]
		}
		slices.Sort(rolls)
		s := ev.Start()
		for _, f := range faces {
			c := 0
			for _, x := range rolls {
				if x == f {
					c++
				}
			}
			s = ev.Next(s, f, c)
		}
		a, b := applyWindow(ops, m)
		want := 0
		for _, x := range rolls[a:b] {
			want += x
		}
		if got := ev.Final(s); got != want {
			t.Fatalf("ops %+v on %v: got %d, want %d", ops, rolls, got, want)
		}
	}
}
