package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
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

// TestEachRollsRefusals: what !e cannot do is refused in one line, and a
// window whose states would take too long is refused by the work plan
// before it runs (the plan counts the evaluator's states).
func TestEachRollsRefusals(t *testing.T) {
	for src, want := range map[string]string{
		"100d100!edl1":         "the exact computation would take minutes or more",
		"255d100!e>=2kh2":      "the exact computation would take minutes or more",
		"largest_set(6d100!e)": "at most 64 different faces",
		"highest(5d6!ekh1)":    "without keep, drop or counting",
		"d6!e>=1kh1":           "every face explodes",
	} {
		_, err := engineRun(src, 0)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v; want an error with %q", src, err, want)
		}
	}
	src := "[[rule]]\nid = \"t.each\"\nsummary = \"x\"\n[rule.let]\npool = \"5d10!e\"\n[rule.vars]\nbest = \"highest(pool, 2)\"\n"
	rs, err := ParseFile("each.toml", []byte(src))
	if err == nil {
		m := rs[0].Mechanic()
		_, err = m.Model(m.DefaultConfig())
	}
	if err == nil || !strings.Contains(err.Error(), "read only in place") {
		t.Errorf("a pool binding of !e dice: got %v; want a refusal", err)
	}
}
