package kit

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Natural declares the record field holding a natural die roll 1..sides.
func Natural(name string, sides int) mechanics.Field {
	return mechanics.Int(name, 1, sides, fmt.Sprintf("natural d%d roll", sides))
}

// Encode turns a node's value v into the record whose field slot is v
// (every other field at its start value): the usual first step of a model
// whose outcome is one roll.
func Encode(rec *mechanics.Record, slot mechanics.Slot, x mechanics.Node) mechanics.Node {
	start := rec.Start()
	return mechanics.Map{X: x, Name: "record", F: func(v int) int { return slot.Set(start, v) }}
}

// Check is a roll of one die plus a bonus against a target: success when
// natural + Bonus Cmp Target, except that naturals ≤ AutoFail always fail
// and naturals ≥ AutoSucceed always succeed (set AutoFail to 0 and
// AutoSucceed above the die for no natural rules). The natural is read from
// the record field Field.
type Check struct {
	Field       string
	Sides       int
	Bonus       int
	Target      int
	Cmp         mechanics.CmpOp
	AutoFail    int
	AutoSucceed int
}

// Total is natural + Bonus.
func (c Check) Total() expr.Expr { return expr.Add(expr.F(c.Field), expr.K(int64(c.Bonus))) }

// Margin is total − Target.
func (c Check) Margin() expr.Expr { return expr.Sub(c.Total(), expr.K(int64(c.Target))) }

// Success is the check's success as an expression.
func (c Check) Success() expr.Expr {
	n := expr.F(c.Field)
	core := Compare(c.Total(), c.Cmp, expr.K(int64(c.Target)))
	if c.AutoFail > 0 {
		core = expr.And(expr.Gt(n, expr.K(int64(c.AutoFail))), core)
	}
	if c.AutoSucceed <= c.Sides {
		core = expr.Or(expr.Ge(n, expr.K(int64(c.AutoSucceed))), core)
	}
	return core
}

// Holds is Success for a natural n, in Go.
func (c Check) Holds(n int) bool {
	switch {
	case n >= c.AutoSucceed:
		return true
	case n <= c.AutoFail:
		return false
	}
	return c.Cmp.Holds(n+c.Bonus, c.Target)
}

// Compare is the expression x op y.
func Compare(x expr.Expr, op mechanics.CmpOp, y expr.Expr) expr.Expr {
	switch op {
	case mechanics.GE:
		return expr.Ge(x, y)
	case mechanics.GT:
		return expr.Gt(x, y)
	case mechanics.LE:
		return expr.Le(x, y)
	case mechanics.LT:
		return expr.Lt(x, y)
	case mechanics.EQ:
		return expr.Eq(x, y)
	}
	return expr.Ne(x, y)
}

// RollUnder is a roll-under check: success when natural ≤ Target (the
// score with its bonuses), with margin Target − natural ("succeeded by 2").
// Naturals ≤ AutoSucceed always succeed and naturals ≥ AutoFail always fail
// (0 and Sides+1 for none).
type RollUnder struct {
	Field       string
	Sides       int
	Target      int
	AutoSucceed int
	AutoFail    int
}

// Margin is Target − natural.
func (r RollUnder) Margin() expr.Expr { return expr.Sub(expr.K(int64(r.Target)), expr.F(r.Field)) }

// Success is the expression of success.
func (r RollUnder) Success() expr.Expr {
	n := expr.F(r.Field)
	core := expr.Le(n, expr.K(int64(r.Target)))
	if r.AutoFail <= r.Sides {
		core = expr.And(expr.Lt(n, expr.K(int64(r.AutoFail))), core)
	}
	if r.AutoSucceed > 0 {
		core = expr.Or(expr.Le(n, expr.K(int64(r.AutoSucceed))), core)
	}
	return core
}

// Holds is Success for a natural n, in Go.
func (r RollUnder) Holds(n int) bool {
	switch {
	case n <= r.AutoSucceed:
		return true
	case n >= r.AutoFail:
		return false
	}
	return n <= r.Target
}

//go:generate go tool stringer -type=Tie,Rounding -linecomment -output=enums_string.go

// Tie says who an opposed roll's tie goes to: nobody (TieStands: a tie is
// a tie), the acting side (TieToActor: match or beat) or the target
// (TieToTarget: the actor must beat).
type Tie int

// Tie rules.
const (
	TieStands   Tie = iota // tie
	TieToActor             // actor
	TieToTarget            // target
)

// Opposed results, as band indices.
const (
	Lose = iota
	Draw
	Win
)

// Opposed is the band (Lose, Draw, Win) of the difference d = actor −
// target under a tie rule.
func Opposed(d expr.Expr, tie Tie) expr.Expr {
	zero := expr.K(0)
	var atZero expr.Expr
	switch tie {
	case TieToActor:
		atZero = expr.K(Win)
	case TieToTarget:
		atZero = expr.K(Lose)
	default:
		atZero = expr.K(Draw)
	}
	return expr.Cond(expr.Gt(d, zero), expr.K(Win), expr.Cond(expr.Lt(d, zero), expr.K(Lose), atZero))
}

// OpposedOf is Opposed for a difference d, in Go.
func OpposedOf(d int, tie Tie) int {
	switch {
	case d > 0:
		return Win
	case d < 0:
		return Lose
	case tie == TieToActor:
		return Win
	case tie == TieToTarget:
		return Lose
	}
	return Draw
}

// Thresholds cut a value into len(Cuts)+1 bands: band k is reached when the
// value reaches Cuts[k-1] (≥, or > when Strict), so band 0 is below every
// cut. Cuts must be ascending; they may be rational (a halved threshold).
type Thresholds struct {
	Cuts   []expr.Rat
	Strict bool
	Labels []string
}

// Ints builds thresholds from integer cuts.
func Ints(strict bool, labels []string, cuts ...int) Thresholds {
	t := Thresholds{Strict: strict, Labels: labels}
	for _, c := range cuts {
		t.Cuts = append(t.Cuts, expr.Int(int64(c)))
	}
	return t
}

// Scale multiplies every cut by f (½ for an aimed head shot).
func (t Thresholds) Scale(f expr.Rat) Thresholds {
	out := Thresholds{Strict: t.Strict, Labels: t.Labels, Cuts: make([]expr.Rat, len(t.Cuts))}
	for i, c := range t.Cuts {
		out.Cuts[i] = c.Mul(f)
	}
	return out
}

// Band is the band index of x as an expression: the number of cuts x
// reaches.
func (t Thresholds) Band(x expr.Expr) expr.Expr {
	acc := expr.K(0)
	for _, c := range t.Cuts {
		reach := expr.Ge(x, expr.Lit{V: c})
		if t.Strict {
			reach = expr.Gt(x, expr.Lit{V: c})
		}
		acc = expr.Add(acc, reach)
	}
	return acc
}

// Of is the band index of x, in Go.
func (t Thresholds) Of(x expr.Rat) int {
	k := 0
	for _, c := range t.Cuts {
		d := x.Cmp(c)
		if d > 0 || (d == 0 && !t.Strict) {
			k++
		}
	}
	return k
}

// Rounding turns an exact rational game quantity into what the rules keep.
type Rounding int

// Roundings; the names are the option values the systems use (floor, ceil …).
const (
	Floor         Rounding = iota // floor
	Ceil                          // ceil
	RoundHalfUp                   // round_half_up
	ExactFraction                 // exact_fraction
)

// Round applies the rounding; ExactFraction keeps the value as it is.
func (r Rounding) Round(x expr.Rat) expr.Rat {
	switch r {
	case Floor:
		return expr.Int(x.Floor())
	case Ceil:
		return expr.Int(x.Ceil())
	case RoundHalfUp:
		return expr.Int(x.Add(expr.Frac(1, 2)).Floor())
	}
	return x
}

// AfterArmour is damage d less armour a, never below floor (0, or 1 where
// a hit always does at least 1).
func AfterArmour(d, a, floor int) int { return max(d-a, floor) }

// Resist multiplies damage by a resistance factor (½ for resistant, 2 for
// vulnerable) and rounds it.
func Resist(d int, factor expr.Rat, r Rounding) expr.Rat {
	return r.Round(expr.Int(int64(d)).Mul(factor))
}

// Binomial is the number of successes in n independent copies of a try that
// yields 1 or 0.
func Binomial(try mechanics.Node, n int) mechanics.Node { return mechanics.Repeat{X: try, N: n} }

// Success is the 0/1 node "x op t".
func Success(x mechanics.Node, op mechanics.CmpOp, t int) mechanics.Node {
	return mechanics.Compare{X: x, Op: op, T: t}
}

// TimeToEvent is the chain "try every step until the event happens": one
// transient state ("waiting") and one absorbing ("happened"). try(t) is the
// step-t try, a node that yields 1 when the event happens; with homogeneous
// set it must not depend on t. The spec reports the standard process
// outputs: the time PMF, S(t), P(happened within the horizon) and, for a
// homogeneous chain, the unlimited-horizon mean.
func TimeToEvent(unit string, horizon int, homogeneous bool, try func(t int) mechanics.Node) *mechanics.Spec {
	p := &mechanics.Process{Horizon: horizon, TimeUnit: unit, Homogeneous: homogeneous}
	p.Add(false, "waiting")
	p.Add(true, "happened")
	p.Kernel = try
	p.Move = func(_, _, x int) int {
		if x != 0 {
			return 1
		}
		return 0
	}
	return mechanics.ProcessSpec(p)
}

// Part is one field of a record and the independent node that rolls it.
type Part struct {
	Field string
	Node  mechanics.Node
}

// Roll is the record whose fields are the values of independent nodes,
// the fields not named staying at their start values.
func Roll(rec *mechanics.Record, parts ...Part) mechanics.Node {
	var acc mechanics.Node = mechanics.Const{V: rec.Start()}
	for _, p := range parts {
		s := rec.Slot(p.Field)
		acc = mechanics.Combine{X: acc, Y: p.Node, Name: p.Field, F: func(code, v int) int { return s.Set(code, v) }}
	}
	return acc
}
