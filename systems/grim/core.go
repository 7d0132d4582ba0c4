package grim

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// d20 is the natural die.
var d20 = mechanics.D(20)

// coreCheck is grim.core.check on the natural in field: success ⇔ N ≠ 1 ∧
// N + bonus ≥ TN (a natural 20 does not guarantee success).
func coreCheck(field string, bonus, tn int) kit.Check {
	return kit.Check{Field: field, Sides: 20, Bonus: bonus, Target: tn, Cmp: mechanics.GE, AutoFail: 1, AutoSucceed: 21}
}

// coreAttack is grim.core.attack on the natural in field: success ⇔ N = 20 ∨
// (N > f ∧ N + bonus ≥ TN).
func coreAttack(field string, bonus, tn, f int) kit.Check {
	return kit.Check{Field: field, Sides: 20, Bonus: bonus, Target: tn, Cmp: mechanics.GE, AutoFail: f, AutoSucceed: 20}
}

// Shorthands for the declarations of mechanics.
var ip = mechanics.IntParam

func attr(name, doc string, def float64) mechanics.Param { return ip(name, def, -10, 10, doc) }

var (
	pMod = ip("modifier", 0, -30, 30, "situational modifiers (drinking −2, burnout −1/−3/−5, stunned −3, sensory impairment −5, …)")
	pTN  = ip("tn", 11, 1, 40, "target number (typical 5–30)")
)

// Shorthands for output expressions.
var field = expr.F

func num(n int) expr.Expr { return expr.K(int64(n)) }

// naturals declares a record of d20 naturals, one field per name.
func naturals(names ...string) *mechanics.Record {
	fs := make([]mechanics.Field, len(names))
	for i, n := range names {
		fs[i] = kit.Natural(n, 20)
	}
	return mechanics.NewRecord(fs...)
}

// part is one field of a record and the independent node that rolls it.
type part = kit.Part

// rollNaturals is the record of naturals with every field rolled on a d20.
func rollNaturals(rec *mechanics.Record) mechanics.Node {
	parts := make([]part, len(rec.Fields))
	for i, fl := range rec.Fields {
		parts[i] = part{Field: fl.Name, Node: d20}
	}
	return kit.Roll(rec, parts...)
}

// round is a kit.Rounding as an expression (kit has only the Go form).
func round(r kit.Rounding, x expr.Expr) expr.Expr {
	switch r {
	case kit.Floor:
		return expr.Floor(x)
	case kit.Ceil:
		return expr.Ceil(x)
	case kit.RoundHalfUp:
		return expr.Floor(expr.Add(x, expr.Q(1, 2)))
	}
	return x
}

// coin is 1 with probability pct/100, else 0.
func coin(pct int) mechanics.Node {
	switch {
	case pct <= 0:
		return mechanics.Const{V: 0}
	case pct >= 100:
		return mechanics.Const{V: 1}
	}
	g := int64(gcd(pct, 100))
	return mechanics.Die{Faces: []int{1, 0}, Weights: []int64{int64(pct) / g, int64(100-pct) / g}}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// block is a run of process states, one per code of a record (added with
// Process.AddRecord): state base+code is the record with that code.
type block struct {
	base int
	rec  *mechanics.Record
}

func addBlock(p *mechanics.Process, absorbing bool, rec *mechanics.Record) block {
	return block{base: p.AddRecord(absorbing, rec), rec: rec}
}

// state is the process state of a record code.
func (b block) state(code int) int { return b.base + code }

// code is the record code of a state, and whether the state is in the block.
func (b block) code(s int) (int, bool) {
	c := s - b.base
	return c, c >= 0 && c < b.rec.Size()
}

// has reports whether state s is in the block.
func (b block) has(s int) bool { _, ok := b.code(s); return ok }

// checkSpec reports a single non-attack check on the natural die.
func checkSpec(a, m, tn int) *mechanics.Spec {
	rec := naturals("natural")
	chk := coreCheck("natural", a+m, tn)
	n := field("natural")
	spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
	spec.Var("total", "T = N + A + M", chk.Total()).
		Var("margin", "T − TN", chk.Margin()).
		Event("success", "N ≠ 1 and T ≥ TN", chk.Success()).
		Event("natural_1", "the die shows 1: always a failure", expr.Eq(n, num(1))).
		Event("flavour_20", "a natural 20 that still fails (a GM-granted side benefit)", expr.And(expr.Eq(n, num(20)), expr.Not(chk.Success())))
	return spec
}

// attackSpec reports a single attack roll with friendly-fire threshold f.
func attackSpec(a, m, tn, ff int) *mechanics.Spec {
	rec := naturals("natural")
	atk := coreAttack("natural", a+m, tn, ff)
	n := field("natural")
	spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
	spec.Var("total", "T = N + A + M", atk.Total()).
		Event("hit", "N = 20, or N > f and T ≥ TN", atk.Success()).
		Event("crit", "natural 20: hits, double damage", expr.Eq(n, num(20))).
		Event("friendly_fire_trigger", "natural ≤ f (and not 20): a miss that may hit someone else", expr.And(expr.Le(n, num(ff)), expr.Ne(n, num(20)))).
		Event("miss", "not a hit", expr.Not(atk.Success()))
	return spec
}

// coreMechanics are the mechanics declared in core.go.
func coreMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		{
			ID:      "grim.core.check",
			Summary: "non-attack check: d20 + attribute + modifiers ≥ TN; a natural 1 always fails, a natural 20 does not always succeed",
			Doc:     "N ~ d20, T = N + A + M; success ⇔ N ≠ 1 ∧ T ≥ TN. A natural 20 that fails is exported as the 'flavour 20' rate.",
			Params:  []mechanics.Param{attr("attribute", "the attribute (TOG, AGL, COR, MND, PER, RSN; at most 10, may be negative)", 2), pMod, pTN},
			Build: func(c mechanics.Config) (*mechanics.Spec, error) {
				return checkSpec(c.Int("attribute"), c.Int("modifier"), c.Int("tn")), nil
			},
		}, {
			ID:      "grim.core.attack",
			Summary: "attack roll: a natural 20 always hits and doubles damage; naturals ≤ f miss and risk friendly fire",
			Doc: fmt.Sprintf("Success ⇔ N = 20 ∨ (N > f ∧ N + A + M ≥ TN); f = 1 normally, 1 + the TOG deficit for a heavy weapon, +%d in frenzy. "+
				"Typical attack attribute: COR.", frenzyRange),
			Params: []mechanics.Param{attr("attribute", "attack attribute (COR)", 3), pMod, ip("tn", 14, 1, 40, "target number"),
				ip("ff_threshold", 1, 1, 20, "friendly-fire threshold f: naturals ≤ f miss and trigger the friendly-fire procedure")},
			Build: func(c mechanics.Config) (*mechanics.Spec, error) {
				return attackSpec(c.Int("attribute"), c.Int("modifier"), c.Int("tn"), c.Int("ff_threshold")), nil
			},
		},
	}
}

// bug reports a programming error in a model (a state outside its blocks).
func bug(format string, a ...any) { panic(fmt.Sprintf("grim: "+format, a...)) }
