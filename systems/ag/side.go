package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// side is one roller: pool size, attribute and modifier.
type side struct{ n, a, m int }

// sideOf reads "<prefix>skill", "<prefix>attribute", "<prefix>modifier".
func sideOf(c mechanics.Config, prefix string) side {
	return side{c.Int(prefix + "skill"), c.Int(prefix + "attribute"), c.Int(prefix + "modifier")}
}

func (s side) roll(o CoreOptions) mechanics.Node { return Pool(s.n, o) }
func (s side) total(r int) int                   { return rollTotal(r, s.a, s.m) }

// sideParams declares skill/attribute/modifier parameters with a prefix.
func sideParams(prefix, who string, skill, attr float64) []mechanics.Param {
	return []mechanics.Param{
		ip(prefix+"skill", skill, 0, 40, who+"'s skill (dice in the pool; 0 = two dice keep lowest)"),
		ip(prefix+"attribute", attr, 0, 20, who+"'s attribute"),
		ip(prefix+"modifier", 0, -20, 20, who+"'s situational modifiers"),
	}
}

// maxRollOf bounds the pool result R of n dice: n + 5 (all sixes) for n ≥ 1,
// 7 (double sixes) for the unskilled roll.
func maxRollOf(n int) int { return max(n, 2) + 5 }

// maxTotal bounds the side's total T = max(0, R + A + M).
func (s side) maxTotal() int { return max(0, maxRollOf(s.n)+s.a+s.m) }
