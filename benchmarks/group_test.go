package benchmarks

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// BenchmarkGroupExact: grouped rolls as one-line rules through the exact
// engine (compile, distributions, outputs); goal (issue 26): groups of up
// to 10 terms of up to 20 dice each in under 100 ms.
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

// BenchmarkGroupKeepExact: keeping some of a group's unlike sums exactly
// (mechanics.KeepOf); goal (issue 26): groups of up to 10 terms of up to
// 20 dice each in under 100 ms.
//
//	go test ./benchmarks -run '^$' -bench GroupKeepExact
func BenchmarkGroupKeepExact(b *testing.B) {
	for _, c := range []struct {
		sides []int
		lo    int
	}{
		{[]int{6, 8, 10, 12, 6, 8, 10, 12, 6, 8}, 5},
		{[]int{6, 8, 10, 12, 6, 8, 10, 12, 6, 8}, 9},
		{[]int{6, 8, 10, 12, 6, 8, 10, 12, 6, 8}, 1},
		{[]int{20, 20, 20, 20, 20, 20, 20, 20, 20, 12}, 5},
		{[]int{20, 20, 20, 20, 20, 20, 20, 20, 20, 12}, 1},
	} {
		var terms []mechanics.Node
		for _, s := range c.sides {
			terms = append(terms, mechanics.Repeat{X: mechanics.D(s), N: 20})
		}
		node := mechanics.KeepOf{Terms: terms, Lo: c.lo, Hi: len(terms)}
		b.Run(fmt.Sprintf("task=20d%v/kh%d", c.sides, len(terms)-c.lo), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := exact.Eval(node); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
