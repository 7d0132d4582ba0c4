package d20w

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// d20 is the die every roll of the system uses.
var d20 = mechanics.D(20)

// take10 is what a non-player character counts instead of a d20: NPCs
// never roll (the take-10 rule of the package doc).
const take10 = 10

// side is one party of a contest: the record field holding its natural
// d20, or "" when it takes 10 (an NPC), and the bonus it adds.
type side struct {
	field string
	bonus int
}

func (s side) rolls() bool { return s.field != "" }

// total is T = N + bonus, or 10 + bonus when the side takes 10.
func (s side) total() expr.Expr {
	if !s.rolls() {
		return num(take10 + s.bonus)
	}
	return expr.Add(expr.F(s.field), num(s.bonus))
}

// totalOf is total for the natural n (ignored when the side takes 10).
func (s side) totalOf(n int) int {
	if !s.rolls() {
		return take10 + s.bonus
	}
	return n + s.bonus
}

// contest is the success inequality of the system for an acting side
// against an opposing side: the actor succeeds on a match or a beat,
//
//	T_actor ≥ T_target,
//
// so when an NPC acts against a PC the PC resists only by strictly beating
// the NPC's 10 + bonus. Natural rules, where they apply, are read off the
// roll that decides: the actor's die when the actor rolls (a natural 20
// succeeds unless no20 is set, a natural 1 fails); when the actor takes 10,
// the target's die mirrored (a natural 20 always resists, a natural 1
// always fails to resist unless no20 is set).
type contest struct {
	actor, target side
	// actorNaturals applies the natural rule to the actor's die (when it
	// rolls); targetNaturals the mirrored rule to the target's die (when
	// the actor takes 10 and the target rolls).
	actorNaturals, targetNaturals bool
	// no20 drops the automatic success (escaping bonds).
	no20 bool
}

// useActor and useTarget say which natural rule is in force.
func (c contest) useActor() bool  { return c.actorNaturals && c.actor.rolls() }
func (c contest) useTarget() bool { return c.targetNaturals && !c.actor.rolls() && c.target.rolls() }

// margin is T_actor − T_target.
func (c contest) margin() expr.Expr { return expr.Sub(c.actor.total(), c.target.total()) }

// success is the actor's success as an expression.
func (c contest) success() expr.Expr {
	core := expr.Ge(c.actor.total(), c.target.total()) // match or beat
	switch {
	case c.useActor():
		n := expr.F(c.actor.field)
		core = expr.And(expr.Ne(n, num(1)), core)
		if !c.no20 {
			core = expr.Or(expr.Eq(n, num(20)), core)
		}
	case c.useTarget():
		n := expr.F(c.target.field)
		core = expr.And(expr.Ne(n, num(20)), core)
		if !c.no20 {
			core = expr.Or(expr.Eq(n, num(1)), core)
		}
	}
	return core
}

// holds is success for the naturals na (actor) and nt (target), in Go.
func (c contest) holds(na, nt int) bool {
	switch {
	case c.useActor() && na == 20 && !c.no20:
		return true
	case c.useActor() && na == 1:
		return false
	case c.useTarget() && nt == 1 && !c.no20:
		return true
	case c.useTarget() && nt == 20:
		return false
	}
	return c.actor.totalOf(na) >= c.target.totalOf(nt)
}

// deterministic reports a contest in which nobody rolls.
func (c contest) deterministic() bool { return !c.actor.rolls() && !c.target.rolls() }

// fields lists the natural-die fields of the sides that roll.
func (c contest) fields() []mechanics.Field {
	var out []mechanics.Field
	for _, s := range []side{c.actor, c.target} {
		if s.rolls() {
			out = append(out, mechanics.Int(s.field, 1, 20, "natural d20 of "+fieldWho[s.field]))
		}
	}
	return out
}

// fieldWho names the party whose natural a field holds, for docs.
var fieldWho = map[string]string{
	"roll_a":       "the acting side",
	"roll_o":       "the opposing side",
	"attack_roll":  "the attacker's attack roll",
	"defence_roll": "the defender's Defence roll",
	"save_roll":    "the target's saving throw",
	"cma_roll":     "the attacker's manoeuvre roll (d20 + CMA)",
	"cmd_roll":     "the defender's manoeuvre defence roll (d20 + CMD)",
}

// num is the integer constant n.
func num(n int) expr.Expr { return expr.K(int64(n)) }

// rollNaturals is the record whose named fields (all of them when none is
// named), every one a natural d20, are rolled independently; the others
// stay at their start values.
func rollNaturals(rec *mechanics.Record, names ...string) mechanics.Node {
	if len(names) == 0 {
		for _, f := range rec.Fields {
			names = append(names, f.Name)
		}
	}
	var acc mechanics.Node = mechanics.Const{V: rec.Start()}
	for _, name := range names {
		s := rec.Slot(name)
		acc = mechanics.Combine{X: acc, Y: d20, Name: name, F: func(code, v int) int { return s.Set(code, v) }}
	}
	return acc
}

// signed prints a modifier with its sign ("+3", "-1").
func signed(n int) string { return fmt.Sprintf("%+d", n) }

// bit is 1 when b holds.
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

var ip = mechanics.IntParam

// node is 1 when the actor succeeds and 0 when it fails, from its own dice.
func (c contest) node() mechanics.Node {
	f := func(na, nt int) int { return bit(c.holds(na, nt)) }
	switch {
	case c.actor.rolls() && c.target.rolls():
		return mechanics.Combine{X: d20, Y: d20, Name: "contest", F: f}
	case c.actor.rolls():
		return mechanics.Map{X: d20, Name: "contest", F: func(n int) int { return f(n, 0) }}
	case c.target.rolls():
		return mechanics.Map{X: d20, Name: "contest", F: func(n int) int { return f(0, n) }}
	}
	return mechanics.Const{V: f(0, 0)}
}

// marginNode is T_actor − T_target from the contest's own dice, and the
// range of its values.
func (c contest) marginNode() (n mechanics.Node, lo, hi int) {
	f := func(na, nt int) int { return c.actor.totalOf(na) - c.target.totalOf(nt) }
	lo, hi = f(1, 20), f(20, 1)
	switch {
	case c.actor.rolls() && c.target.rolls():
		return mechanics.Combine{X: d20, Y: d20, Name: "margin", F: f}, lo, hi
	case c.actor.rolls():
		return mechanics.Map{X: d20, Name: "margin", F: func(n int) int { return f(n, 0) }}, lo, hi
	case c.target.rolls():
		return mechanics.Map{X: d20, Name: "margin", F: func(n int) int { return f(0, n) }}, lo, hi
	}
	return mechanics.Const{V: f(0, 0)}, lo, hi
}
