package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// ip is the shorthand for an integer parameter.
var ip = mechanics.IntParam

// side is one roller: pool size, attribute and modifier.
type side struct{ n, a, m int }

// sideOf reads "<prefix>skill", "<prefix>attribute", "<prefix>modifier".
func sideOf(c mechanics.Config, prefix string) side {
	return side{c.Int(prefix + "skill"), c.Int(prefix + "attribute"), c.Int(prefix + "modifier")}
}

func (s side) roll(o CoreOptions) mechanics.Node { return Pool(s.n, o) }
func (s side) total(r int) int                   { return Total(r, s.a, s.m) }

// sideParams declares skill/attribute/modifier parameters with a prefix.
func sideParams(prefix, who string, skill, attr float64) []mechanics.Param {
	return []mechanics.Param{
		ip(prefix+"skill", skill, 0, 40, who+"'s skill (dice in the pool; 0 = two dice keep lowest)"),
		ip(prefix+"attribute", attr, 0, 20, who+"'s attribute"),
		ip(prefix+"modifier", 0, -20, 20, who+"'s situational modifiers"),
	}
}

// bit is 1 when b holds.
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// coreOpts are the §1.1 switches every single-roll ag mechanic offers.
var coreOpts = mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie)

func withCore(extra ...mechanics.Option) []mechanics.Option {
	return append(append([]mechanics.Option(nil), coreOpts...), extra...)
}

// coreWith is withCore for typed options: the §1.1 switches, then extra.
func coreWith(extra ...mechanics.Declared) []mechanics.Option {
	return withCore(mechanics.Options(extra...)...)
}

// maxRollOf bounds the pool result R of n dice: n + 5 (all sixes) for n ≥ 1,
// 7 (double sixes) for the unskilled roll.
func maxRollOf(n int) int { return max(n, 2) + 5 }

// maxTotal bounds the side's total T = max(0, R + A + M).
func (s side) maxTotal() int { return max(0, maxRollOf(s.n)+s.a+s.m) }

// rollMoS is the reported MoS (§1.1, with the tie option) of the roll
// record r for attribute a and modifier m against tn.
func rollMoS(r, a, m, tn int, tie Tie) int { return reportedMoS(Total(r, a, m)-tn, tie) }

// mosExpr is rollMoS as an expression over the roll record fields
// prefix+"roll" and prefix+"auto_fail".
func mosExpr(prefix string, a, m, tn int, tie Tie) expr.Expr {
	return reportedMoSExpr(expr.Sub(totalExpr(prefix, a, m), expr.K(int64(tn))), tie)
}

// tabulateMove sets p.Move to a table of move(s, x) over every state and
// every kernel value x in [lo, hi], built once when the model is built: a
// step then costs one lookup. Absorbing states map to themselves (the
// engines never move from them). Move panics on a kernel value outside
// [lo, hi].
func tabulateMove(p *mechanics.Process, lo, hi int, move func(s, x int) int) {
	w := hi - lo + 1
	tab := make([]int32, len(p.States)*w)
	for s := range p.States {
		for x := lo; x <= hi; x++ {
			next := s
			if !p.Absorbing[s] {
				next = move(s, x)
			}
			tab[s*w+x-lo] = int32(next)
		}
	}
	p.Move = func(_, s, x int) int {
		if uint(x-lo) >= uint(w) {
			panic(fmt.Sprintf("ag: kernel value %d outside its declared range [%d, %d]", x, lo, hi))
		}
		return int(tab[s*w+x-lo])
	}
}

// ceilLog2 is ⌈log₂ g⌉ for g ≥ 1.
func ceilLog2(g int) int {
	k := 0
	for 1<<k < g {
		k++
	}
	return k
}
