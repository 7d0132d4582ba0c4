package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// Shorthands for the declarations of mechanics.
var (
	ip     = mechanics.IntParam
	opt    = mechanics.Switch
	choice = mechanics.Choice
)

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

// register adds mechanics to the registry, with the default ag outputs when
// none are given.
func register(ms ...*mechanics.Mechanic) {
	for _, m := range ms {
		mechanics.Register(m)
	}
}

// coreOpts are the §1.1 switches every single-roll ag mechanic offers.
var coreOpts = mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie)

func withCore(extra ...mechanics.Option) []mechanics.Option {
	return append(append([]mechanics.Option(nil), coreOpts...), extra...)
}

// ceilLog2 is ⌈log₂ g⌉ for g ≥ 1.
func ceilLog2(g int) int {
	k := 0
	for 1<<k < g {
		k++
	}
	return k
}
