package benchmarks

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

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
