package benchmarks

import (
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// BenchmarkGroupExact: grouped rolls as one-line rules through the exact
// engine (compile, distributions, outputs); goal (issue 26): groups of up
// to 10 terms of up to 20 dice each in under 100 ms. Measured (2-core
// Xeon, one run): the ten mixed sums kh5 54 → 4.3 ms, dl1 64 → 7.9 ms
// (BenchmarkGroupKeepExact has the wider cases).
//
//	go test ./benchmarks -run '^$' -bench GroupExact
func BenchmarkGroupExact(b *testing.B) {
	for _, src := range []string{
		"{4d6, 3d8}kh1", "{4d6+3d8}kh4", "{2d6, 2d6, 2d6}dl1", "{3d20+5, 2d20}cs>=21",
		"{20d6, 20d8, 20d10, 20d12, 20d6, 20d8, 20d10, 20d12, 20d6, 20d8}kh5",
		"{20d6, 20d8, 20d10, 20d12, 20d6, 20d8, 20d10, 20d12, 20d6, 20d8}dl1",
		"{20d6, 20d6, 20d6, 20d6, 20d6, 20d6, 20d6, 20d6, 20d6, 20d6}kh5",
		"{20d6, 20d8, 20d10, 20d12, 20d6, 20d8, 20d10, 20d12, 20d6, 20d8}cs>=100",
		"{10d6+10d8}kh10",
	} {
		b.Run("task="+src, func(b *testing.B) {
			m := exprMechanic(b, src)
			c := m.DefaultConfig()
			for b.Loop() {
				if _, err := exact.Run(m, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGroupKeepExact: keeping some of a group's sums exactly
// (mechanics.KeepOf); goal (issue 26): groups of up to 10 terms of up to
// 20 dice (of up to d20) each in under 100 ms, any window, scored or not.
// The cases: sums of several kinds (some alike), nine alike and one
// other, ten unlike (20d20, 19d20, …, 11d20); windows at either end, in
// the middle, and scored (cs>=220 cf<=180 on the kept sums).
//
// Measured (2-core Xeon, one run, before → after the kinds DP of
// exact/keeptypes.go): mixed kh5 53 → 3.1 ms, kh9 65 → 7.6 ms; nine
// kh5 461 → 1.3 ms, kh9 721 → 4.5 ms, kl3 98 → 0.7 ms, dl2dh2 refused →
// 2.3 ms; unlike kh5 290 → 62 ms, kl3 61 → 27 ms, dl4dh4 refused → 34
// ms, dl2dh2 refused → 228 ms, kh9 404 → 362 ms (keepTop: ten unlike
// sums with one dropped stay about 3.6 times the goal; every window with
// fewer than five kinds is 50 to 500 times under it).
//
//	go test ./benchmarks -run '^$' -bench GroupKeepExact
func BenchmarkGroupKeepExact(b *testing.B) {
	mixed := [][2]int{{20, 6}, {20, 8}, {20, 10}, {20, 12}, {20, 6}, {20, 8}, {20, 10}, {20, 12}, {20, 6}, {20, 8}}
	nine := [][2]int{{20, 20}, {20, 20}, {20, 20}, {20, 20}, {20, 20}, {20, 20}, {20, 20}, {20, 20}, {20, 20}, {20, 12}}
	var unlike [][2]int
	for n := 20; n > 10; n-- {
		unlike = append(unlike, [2]int{n, 20})
	}
	score := func(x int) int {
		switch {
		case x >= 220:
			return 1
		case x <= 180:
			return -1
		}
		return 0
	}
	for _, c := range []struct {
		name   string
		dice   [][2]int
		lo, hi int
		scored bool
	}{
		{"mixed/kh5", mixed, 5, 10, false},
		{"mixed/kh1", mixed, 9, 10, false},
		{"mixed/kh9", mixed, 1, 10, false},
		{"nine/kh5", nine, 5, 10, false},
		{"nine/kh9", nine, 1, 10, false},
		{"nine/kl3", nine, 0, 3, false},
		{"nine/dl2dh2", nine, 2, 8, false},
		{"nine/kh5cs", nine, 5, 10, true},
		{"unlike/kh5", unlike, 5, 10, false},
		{"unlike/kh9", unlike, 1, 10, false},
		{"unlike/kh2", unlike, 8, 10, false},
		{"unlike/kl3", unlike, 0, 3, false},
		{"unlike/dl2dh2", unlike, 2, 8, false},
		{"unlike/dl4dh4", unlike, 4, 6, false},
		{"unlike/kh5cs", unlike, 5, 10, true},
	} {
		var terms []mechanics.Node
		for _, d := range c.dice {
			terms = append(terms, mechanics.Repeat{X: mechanics.D(d[1]), N: d[0]})
		}
		node := mechanics.KeepOf{Terms: terms, Lo: c.lo, Hi: c.hi}
		if c.scored {
			node.Score, node.Name = score, "successes"
		}
		b.Run("task="+c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := exact.Eval(node); err != nil {
					b.Skip(err)
				}
			}
		})
	}
}
