package rules

// An independent oracle for one-line expressions: a brute-force
// interpreter of the notation's tree (notation.Parse's AST, walked here,
// never the compiler) that enumerates every roll of every die — every
// chain of an exploding die, every combination of the dice a keep, drop or
// pool reads — with exact big.Rat probabilities, for small cases. The
// exact engine's distributions are compared with it exactly (its Exact
// fractions where it gives them, else to oFloatTol), over thousands of random
// small expressions (TestOracleRandom), a list of hand-picked ones
// (TestOracleCases) and a fuzz test (FuzzOracle).
//
// The semantics are docs/language.md's:
//   - every dice term is a fresh roll (a one-liner has no bindings), except
//     that count(pool == highest(pool)) reads one roll twice;
//   - rerolls change the die before anything else (r: the die without the
//     rerolled faces; ro: a rerolled face is replaced by one more roll);
//     an exploding, rerolled die explodes on the rerolled die;
//   - an exploding die rolls again on a roll that meets its condition
//     (any faces: !=5, !<=3; none: the highest face), at most n times with
//     !{n}; a penetrating die (!p) counts every roll after the first one
//     less than its face, the condition still read on the face; a sum,
//     keep, drop or pool reads each die's chain as one die (its value);
//     success counting with ! counts every roll of the chain as a die (a
//     penetrating roll scored on its face less one), with !! the chain's
//     value once; with !e a keep, drop or pool reads every roll of every
//     chain as a die of its own;
//   - cs counts a die once when any cs condition holds, cf subtracts one
//     when any cf condition holds;
//   - a one-liner reports the variable value, or for a comparison at the
//     top the variable total (its left side) and the event success, or for
//     and/or/not/all/any at the top the event value.
//
// Unbounded explosions are not enumerated (the oracle skips them). What the
// engine refuses by design (the docs' errors: keep more dice than rolled,
// reroll every face, explode on every face without a limit, a pool compared with a roll,
// counting among kept dice, …) the oracle refuses too, and the engine must
// then fail; likewise a division by zero or a lookup without a case that
// happens with positive probability.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/lang/notation"
)

// ---------------------------------------------------------------------------
// Distributions.

type oEntry struct{ v, p *big.Rat }

// oDist is a distribution over rationals: value key → value, probability.
type oDist map[string]*oEntry

func (d oDist) add(v, p *big.Rat) {
	if p.Sign() == 0 {
		return
	}
	k := v.RatString()
	if e, ok := d[k]; ok {
		e.p.Add(e.p, p)
		return
	}
	d[k] = &oEntry{v: new(big.Rat).Set(v), p: new(big.Rat).Set(p)}
}

func oPoint(v *big.Rat) oDist { d := oDist{}; d.add(v, big.NewRat(1, 1)); return d }

func oInt(n int64) *big.Rat { return big.NewRat(n, 1) }

var (
	oOne  = big.NewRat(1, 1)
	oZero = new(big.Rat)
)

func oBool(b bool) *big.Rat {
	if b {
		return oOne
	}
	return oZero
}

// entries lists a distribution in ascending order of value.
func (d oDist) entries() []*oEntry {
	out := make([]*oEntry, 0, len(d))
	for _, e := range d {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].v.Cmp(out[j].v) < 0 })
	return out
}

// pTrue is P(value ≠ 0).
func (d oDist) pTrue() *big.Rat {
	p := new(big.Rat)
	for _, e := range d {
		if e.v.Sign() != 0 {
			p.Add(p, e.p)
		}
	}
	return p
}

// ---------------------------------------------------------------------------
// Errors: a skip (the oracle will not enumerate this: too big, unbounded),
// a refusal (the language refuses the expression: the engine must fail to
// compile it), or a runtime failure with positive probability (division by
// zero, a lookup without a case: the engine must fail too).

type oKind int

const (
	oSkip oKind = iota
	oRefused
	oRuntime
)

type oErr struct {
	kind oKind
	msg  string
}

func (e *oErr) Error() string {
	return [...]string{"skip", "refused", "runtime"}[e.kind] + ": " + e.msg
}

func oFail(kind oKind, format string, a ...any) { panic(&oErr{kind, fmt.Sprintf(format, a...)}) }

// scorer is a value's score under a term's counting: +1 for a success
// (cs, #), −1 for a failure (cf).
func (o *oracle) scorer(t *oTerm) func(int64) int64 {
	top, bottom := t.die.hi(), t.die.lo()
	var tests, fails []func(int64) bool
	for _, c := range t.cs {
		tests = append(tests, o.condTest(c, top))
	}
	for _, c := range t.cf {
		fails = append(fails, o.condTest(c, bottom))
	}
	return func(v int64) int64 {
		s := int64(0)
		if slices.ContainsFunc(tests, func(f func(int64) bool) bool { return f(v) }) {
			s++
		}
		if slices.ContainsFunc(fails, func(f func(int64) bool) bool { return f(v) }) {
			s--
		}
		return s
	}
}

// ---------------------------------------------------------------------------
// The interpreter.

type oracle struct {
	params map[string]*big.Rat
	work   int // elementary steps so far; past maxWork the oracle skips
	max    int
}

const oMaxWork = 400_000

func (o *oracle) step(n int) {
	o.work += n
	if o.work > o.max {
		oFail(oSkip, "more than %d steps", o.max)
	}
}

// try evaluates a sub-expression whose runtime failures matter only if it
// is reached with positive probability (an if branch, a lookup case).
// Refusals and skips are raised at once: the engine compiles every branch
// of a condition that depends on a roll.
func (o *oracle) try(x notation.Expr) (d oDist, rt *oErr) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*oErr); ok && e.kind == oRuntime {
				rt = e
				return
			}
			panic(r)
		}
	}()
	return o.eval(x), nil
}

// isConst reports an expression that does not depend on a roll: no dice,
// or dice only in the branches an if or a lookup on constants does not
// take (the engine compiles only the branch taken).
func (o *oracle) isConst(x notation.Expr) bool {
	switch x := x.(type) {
	case *notation.Num, *notation.Name:
		return true
	case *notation.Dice, *notation.Filter:
		return false
	case *notation.Neg:
		return o.isConst(x.X)
	case *notation.Binary:
		return o.isConst(x.X) && o.isConst(x.Y)
	case *notation.Compare:
		return o.isConst(x.X) && o.isConst(x.Y)
	case *notation.Logic:
		return o.isConst(x.X) && o.isConst(x.Y)
	case *notation.Not:
		return o.isConst(x.X)
	case *notation.If:
		if !o.isConst(x.Cond) {
			return false
		}
		if o.eval(x.Cond).pTrue().Sign() != 0 {
			return o.isConst(x.Then)
		}
		return o.isConst(x.Else)
	case *notation.Lookup:
		if !o.isConst(x.X) {
			return false
		}
		for _, e := range o.eval(x.X) {
			for _, c := range x.Cases {
				if caseHolds(c, e.v) {
					return o.isConst(c.Value)
				}
			}
		}
		return x.Default == nil || o.isConst(x.Default)
	case *notation.Call:
		switch x.Name {
		case "highest", "lowest", "sum", "count", "all", "any", "distinct", "largest_set", "straight":
			return false
		}
		for _, a := range x.Args {
			if !o.isConst(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constant is the value of an expression that must not depend on a roll
// (counts, sides, limits, conditions' values).
func (o *oracle) constant(x notation.Expr, what string) *big.Rat {
	if !o.isConst(x) {
		oFail(oRefused, "%s depends on a roll", what)
	}
	d := o.eval(x)
	if len(d) != 1 {
		oFail(oRefused, "%s is not one value", what)
	}
	for _, e := range d {
		return e.v
	}
	return nil
}

func (o *oracle) intConst(x notation.Expr, what string, lo, hi int64) int64 {
	v := o.constant(x, what)
	if !v.IsInt() || !v.Num().IsInt64() {
		oFail(oRefused, "%s is not a whole number: %s", what, v.RatString())
	}
	n := v.Num().Int64()
	if n < lo || n > hi {
		oFail(oRefused, "%s = %d out of [%d, %d]", what, n, lo, hi)
	}
	return n
}

func (o *oracle) unary(a oDist, f func(*big.Rat) *big.Rat) oDist {
	out := oDist{}
	o.step(len(a))
	for _, e := range a {
		out.add(f(e.v), e.p)
	}
	return out
}

func (o *oracle) binary(a, b oDist, f func(x, y *big.Rat) *big.Rat) oDist {
	o.step(len(a) * len(b))
	out := oDist{}
	p := new(big.Rat)
	for _, x := range a {
		for _, y := range b {
			out.add(f(x.v, y.v), p.Mul(x.p, y.p))
		}
	}
	return out
}

func ratFloor(v *big.Rat) *big.Rat {
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(v.Num(), v.Denom(), m) // Euclidean: m ≥ 0 for a positive denominator, so q is the floor
	return new(big.Rat).SetInt(q)
}

func ratCeil(v *big.Rat) *big.Rat { return new(big.Rat).Neg(ratFloor(new(big.Rat).Neg(v))) }

func (o *oracle) eval(x notation.Expr) oDist {
	o.step(1)
	switch x := x.(type) {
	case *notation.Num:
		return oPoint(big.NewRat(x.Value.N, x.Value.D))
	case *notation.Name:
		if v, ok := o.params[x.Name]; ok {
			return oPoint(v)
		}
		return oPoint(oZero) // a parameter not set is 0
	case *notation.Dice:
		return o.dice(x)
	case *notation.Group:
		return o.group(x)
	case *notation.Neg:
		return o.unary(o.eval(x.X), func(v *big.Rat) *big.Rat { return new(big.Rat).Neg(v) })
	case *notation.Binary:
		if x.Op == notation.Pow {
			if !o.isConst(x.Y) {
				oFail(oRefused, "a random exponent")
			}
			k := o.constant(x.Y, "an exponent")
			if !k.IsInt() || k.Sign() < 0 || k.Num().Int64() > 64 {
				oFail(oRefused, "the exponent %s", k)
			}
			return o.unary(o.eval(x.X), func(v *big.Rat) *big.Rat {
				r := big.NewRat(1, 1)
				for range k.Num().Int64() {
					r.Mul(r, v)
				}
				return r
			})
		}
		a, b := o.both(x.X, x.Y)
		return o.binary(a, b, func(p, q *big.Rat) *big.Rat {
			switch x.Op {
			case notation.Add:
				return new(big.Rat).Add(p, q)
			case notation.Sub:
				return new(big.Rat).Sub(p, q)
			case notation.Mul:
				return new(big.Rat).Mul(p, q)
			}
			if q.Sign() == 0 {
				oFail(oRuntime, "division by zero")
			}
			r := new(big.Rat).Quo(p, q)
			switch x.Op {
			case notation.Div:
				return r
			case notation.FloorDiv:
				return ratFloor(r)
			case notation.Modulo:
				return new(big.Rat).Sub(p, new(big.Rat).Mul(q, ratFloor(r)))
			}
			panic("operator")
		})
	case *notation.Compare:
		a, b := o.both(x.X, x.Y)
		return o.binary(a, b, func(p, q *big.Rat) *big.Rat { return oBool(cmpHolds(x.Op, p.Cmp(q))) })
	case *notation.Logic:
		// and, or read their right side only when the left does not
		// decide (a failure on the right matters only then).
		a, ra := o.try(x.X)
		b, rt := o.try(x.Y)
		if ra != nil {
			panic(ra)
		}
		decided := oBool(x.Op == notation.Or)
		p := new(big.Rat)
		out := oDist{}
		for _, e := range a {
			if (e.v.Sign() != 0) == (x.Op == notation.Or) {
				out.add(decided, e.p)
				continue
			}
			if rt != nil {
				panic(rt)
			}
			bt := b.pTrue()
			out.add(oOne, p.Mul(e.p, bt))
			out.add(oZero, p.Mul(e.p, new(big.Rat).Sub(oOne, bt)))
		}
		o.step(len(a) + len(b))
		return out
	case *notation.Not:
		return o.unary(o.eval(x.X), func(v *big.Rat) *big.Rat { return oBool(v.Sign() == 0) })
	case *notation.If:
		return o.ifThen(x)
	case *notation.Lookup:
		return o.lookup(x)
	case *notation.Call:
		return o.call(x)
	case *notation.Filter:
		oFail(oRefused, "a filter outside count/all/any")
	}
	oFail(oSkip, "unknown node %T", x)
	return nil
}

// both evaluates the two sides of an operator; a runtime failure of the
// left one is raised after the right one is read, so that a refusal on
// the right (which the engine meets when it compiles) comes first.
func (o *oracle) both(x, y notation.Expr) (oDist, oDist) {
	a, ra := o.try(x)
	b := o.eval(y)
	if ra != nil {
		panic(ra)
	}
	return a, b
}

func cmpHolds(op notation.CmpOp, c int) bool {
	switch op {
	case notation.Eq:
		return c == 0
	case notation.Ne:
		return c != 0
	case notation.Lt:
		return c < 0
	case notation.Le:
		return c <= 0
	case notation.Gt:
		return c > 0
	case notation.Ge:
		return c >= 0
	}
	panic("cmp")
}

// mix is Σ w_i · d_i.
func (o *oracle) mix(out oDist, w *big.Rat, d oDist) {
	o.step(len(d))
	p := new(big.Rat)
	for _, e := range d {
		out.add(e.v, p.Mul(w, e.p))
	}
}

func (o *oracle) ifThen(x *notation.If) oDist {
	cond := o.eval(x.Cond)
	pt := cond.pTrue()
	pf := new(big.Rat).Sub(oOne, pt)
	if o.isConst(x.Cond) {
		// A condition on the parameters alone: only its branch exists.
		if pt.Sign() != 0 {
			return o.eval(x.Then)
		}
		return o.eval(x.Else)
	}
	th, rtT := o.try(x.Then)
	el, rtE := o.try(x.Else)
	out := oDist{}
	if pt.Sign() != 0 {
		if rtT != nil {
			panic(rtT)
		}
		o.mix(out, pt, th)
	}
	if pf.Sign() != 0 {
		if rtE != nil {
			panic(rtE)
		}
		o.mix(out, pf, el)
	}
	return out
}

func caseHolds(c notation.Case, v *big.Rat) bool {
	return (c.Lo == nil || v.Cmp(oInt(*c.Lo)) >= 0) && (c.Hi == nil || v.Cmp(oInt(*c.Hi)) <= 0)
}

func (o *oracle) lookup(x *notation.Lookup) oDist {
	key := o.eval(x.X)
	if o.isConst(x.X) {
		for _, e := range key {
			for _, c := range x.Cases {
				if caseHolds(c, e.v) {
					return o.eval(c.Value)
				}
			}
			if x.Default != nil {
				return o.eval(x.Default)
			}
			oFail(oRefused, "the constant key %s has no case", e.v.RatString())
		}
	}
	vals := make([]oDist, len(x.Cases)+1)
	rts := make([]*oErr, len(x.Cases)+1)
	for i, c := range x.Cases {
		vals[i], rts[i] = o.try(c.Value)
	}
	if x.Default != nil {
		vals[len(x.Cases)], rts[len(x.Cases)] = o.try(x.Default)
	}
	out := oDist{}
	for _, e := range key.entries() {
		i := slices.IndexFunc(x.Cases, func(c notation.Case) bool { return caseHolds(c, e.v) })
		if i < 0 {
			if x.Default == nil {
				oFail(oRuntime, "the lookup has no case for %s", e.v.RatString())
			}
			i = len(x.Cases)
		}
		if rts[i] != nil {
			panic(rts[i])
		}
		o.mix(out, e.p, vals[i])
	}
	return out
}

// ---------------------------------------------------------------------------
// Dice.

// oDie is a die: faces with probabilities (a face may repeat).
type oDie struct {
	faces []int64
	probs []*big.Rat
}

func (d oDie) lo() int64 { return slices.Min(d.faces) }
func (d oDie) hi() int64 { return slices.Max(d.faces) }

// oTerm is a dice term taken apart.
type oTerm struct {
	n        int64
	die      oDie // after rerolls
	explode  *notation.Explode
	bursts   func(int64) bool // whether a roll showing the face rolls again
	limit    int64
	capped   bool // {n in all}: at most total extra rolls in the whole term
	total    int64
	kd       []notation.Mod // keeps and drops, in order
	cs, cf   []*notation.Cond
	hasCount bool
	unique   *notation.Unique
	matches  *notation.Matches
	// count is the distribution of a number of dice that is a roll
	// ((1d4)d6): the term is then rolled for each of its values.
	count oDist
}

// fixed refuses a random number of dice where the dice are read one by
// one (pools, groups kept die by die).
func (t *oTerm) fixed(what string) {
	if t.count != nil {
		oFail(oRefused, "%s of a random number of dice", what)
	}
}

func (o *oracle) baseDie(d *notation.Dice) oDie {
	var faces []int64
	switch d.Kind {
	case notation.Percent:
		for f := int64(1); f <= 100; f++ {
			faces = append(faces, f)
		}
	case notation.Fudge:
		faces = []int64{-1, 0, 1}
	case notation.Custom:
		for _, f := range d.Faces {
			v := big.NewRat(f.Value.N, f.Value.D)
			if !v.IsInt() || f.Value.N > math.MaxInt32 || f.Value.N < math.MinInt32 {
				oFail(oRefused, "a face must be whole: %s", v.RatString())
			}
			faces = append(faces, f.Value.N)
		}
		if len(faces) == 0 {
			oFail(oRefused, "a custom die without faces")
		}
		if len(faces) > 100 {
			oFail(oSkip, "a custom die with %d faces", len(faces))
		}
	default:
		s := o.intConst(d.Sides, "the number of sides", 1, 100_000)
		if s > 100 {
			oFail(oSkip, "%d sides", s)
		}
		for f := int64(1); f <= s; f++ {
			faces = append(faces, f)
		}
	}
	die := oDie{faces: faces}
	for range faces {
		die.probs = append(die.probs, big.NewRat(1, int64(len(faces))))
	}
	return die
}

// condTest reads a dice condition; nil is "the face dflt".
func (o *oracle) condTest(c *notation.Cond, dflt int64) func(int64) bool {
	if c == nil {
		return func(f int64) bool { return f == dflt }
	}
	v := o.intConst(c.Value, "a dice condition's value", math.MinInt32, math.MaxInt32)
	op := c.Op
	return func(f int64) bool {
		switch {
		case f < v:
			return cmpHolds(op, -1)
		case f > v:
			return cmpHolds(op, 1)
		}
		return cmpHolds(op, 0)
	}
}

// oReroll applies one reroll to a die: r is the die given that the face
// fails the test (it is rolled until it does); ro replaces a face that
// passes by one fresh roll: P'(g) = P(g)·[g fails] + P(pass)·P(g).
func oReroll(d oDie, test func(int64) bool, once bool) oDie {
	pass := new(big.Rat)
	for i, f := range d.faces {
		if test(f) {
			pass.Add(pass, d.probs[i])
		}
	}
	if pass.Sign() == 0 {
		return d
	}
	out := oDie{}
	if !once {
		if pass.Cmp(oOne) == 0 {
			oFail(oRefused, "every face is rerolled")
		}
		keep := new(big.Rat).Sub(oOne, pass)
		for i, f := range d.faces {
			if !test(f) {
				out.faces = append(out.faces, f)
				out.probs = append(out.probs, new(big.Rat).Quo(d.probs[i], keep))
			}
		}
		return out
	}
	for i, f := range d.faces {
		p := new(big.Rat).Mul(pass, d.probs[i])
		if !test(f) {
			p.Add(p, d.probs[i])
		}
		out.faces = append(out.faces, f)
		out.probs = append(out.probs, p)
	}
	return out
}

func (o *oracle) takeApart(d *notation.Dice) *oTerm {
	t := &oTerm{n: 1}
	switch {
	case d.Count != nil && !o.isConst(d.Count):
		// A roll: every value a whole number from 0 to 100 000.
		t.count = o.eval(d.Count)
		for _, e := range t.count.entries() {
			if !e.v.IsInt() || e.v.Sign() < 0 || e.v.Cmp(oInt(100_000)) > 0 {
				oFail(oRefused, "the number of dice can be %s", e.v.RatString())
			}
			if e.v.Cmp(oInt(12)) > 0 {
				oFail(oSkip, "up to %s dice", e.v.RatString())
			}
		}
	case d.Count != nil:
		t.n = o.intConst(d.Count, "the number of dice", 0, 100_000)
		if t.n > 12 {
			oFail(oSkip, "%d dice", t.n)
		}
	}
	die := o.baseDie(d)
	for _, m := range d.Mods {
		switch m := m.(type) {
		case *notation.Reroll:
			die = oReroll(die, o.condTest(m.Cond, die.lo()), m.Once)
		case *notation.FaceBound:
			// Every face past the bound shows the bound.
			v := o.intConst(m.Value, "min or max", math.MinInt32, math.MaxInt32)
			out := oDie{probs: die.probs}
			for _, f := range die.faces {
				if m.Max && f > v || !m.Max && f < v {
					f = v
				}
				out.faces = append(out.faces, f)
			}
			die = out
		}
	}
	t.die = die
	for _, m := range d.Mods {
		switch m := m.(type) {
		case *notation.Unique:
			if t.unique != nil {
				oFail(oRefused, "two u on one term")
			}
			t.unique = m
		case *notation.Matches:
			if t.matches != nil {
				oFail(oRefused, "two mt on one term")
			}
			t.matches = m
		case *notation.Explode:
			t.explode = m
			t.bursts = o.condTest(m.Cond, die.hi())
			if m.Limit != nil {
				t.limit = o.intConst(m.Limit, "an explosion's limit", 1, 1000)
			}
			if m.Total != nil {
				t.total, t.capped = o.intConst(m.Total, "an explosion's cap on the whole term", 0, 1000), true
			}
			if !slices.ContainsFunc(die.faces, t.bursts) {
				oFail(oRefused, "the die never explodes")
			}
			if m.Limit == nil && !t.capped {
				if !slices.ContainsFunc(die.faces, func(f int64) bool { return !t.bursts(f) }) {
					oFail(oRefused, "every face explodes")
				}
				oFail(oSkip, "an unbounded explosion")
			}
		case *notation.Keep, *notation.Drop:
			t.kd = append(t.kd, m)
		case *notation.CountSuccess:
			t.cs, t.hasCount = append(t.cs, m.Cond), true
		case *notation.CountFail:
			t.cf, t.hasCount = append(t.cf, m.Cond), true
		}
	}
	return t
}

// chains enumerates every chain of rolls of one die of the term: each
// roll that meets the explosion's condition rolls again, up to the limit;
// f sees the rolls (the faces shown) and the chain's probability.
func (o *oracle) chains(t *oTerm, f func(rolls []int64, p *big.Rat)) {
	var rec func(rolls []int64, p *big.Rat)
	rec = func(rolls []int64, p *big.Rat) {
		for i, face := range t.die.faces {
			o.step(1)
			q := new(big.Rat).Mul(p, t.die.probs[i])
			next := append(slices.Clone(rolls), face)
			if t.explode != nil && t.bursts(face) && int64(len(rolls)) < t.limit {
				rec(next, q)
				continue
			}
			f(next, q)
		}
	}
	rec(nil, big.NewRat(1, 1))
}

// perDie is the distribution of one die's value under g (of its chain).
func (o *oracle) perDie(t *oTerm, g func(rolls []int64) int64) oDist {
	out := oDist{}
	o.chains(t, func(rolls []int64, p *big.Rat) { out.add(oInt(g(rolls)), p) })
	return out
}

func chainSum(rolls []int64) int64 {
	s := int64(0)
	for _, r := range rolls {
		s += r
	}
	return s
}

// counted is what each roll of a chain counts: its face, or for a
// penetrating die every roll after the first one less.
func (t *oTerm) counted(rolls []int64) []int64 {
	if t.explode == nil || !t.explode.Penetrate {
		return rolls
	}
	out := slices.Clone(rolls)
	for j := 1; j < len(out); j++ {
		out[j]--
	}
	return out
}

// chainValue is a chain's value: the sum of what its rolls count.
func (t *oTerm) chainValue(rolls []int64) int64 { return chainSum(t.counted(rolls)) }

// tuples enumerates every combination of n independent dice of one
// distribution (grouped by value): f sees the values and the probability.
func (o *oracle) tuples(one oDist, n int64, f func(vals []int64, p *big.Rat)) {
	es := one.entries()
	vals := make([]int64, n)
	var rec func(j int64, p *big.Rat)
	rec = func(j int64, p *big.Rat) {
		if j == n {
			o.step(1)
			f(vals, p)
			return
		}
		for _, e := range es {
			vals[j] = e.v.Num().Int64()
			rec(j+1, new(big.Rat).Mul(p, e.p))
		}
	}
	rec(0, big.NewRat(1, 1))
}

// each reports an explosion written !e.
func (t *oTerm) each() bool { return t.explode != nil && t.explode.Each }

// readDice enumerates the dice a keep, drop or pool reads: each die's
// chain as one value (its sum), or with !e every roll of every chain.
func (o *oracle) readDice(t *oTerm, f func(vals []int64, p *big.Rat)) {
	if !t.each() {
		o.tuples(o.perDie(t, t.chainValue), t.n, f)
		return
	}
	// As documented: !e reads rolls one by one only for dice that explode
	// on their highest faces, and not penetrating ones.
	if t.explode.Penetrate {
		oFail(oRefused, "!pe is not supported")
	}
	for _, a := range t.die.faces {
		for _, b := range t.die.faces {
			if t.bursts(a) && !t.bursts(b) && b > a {
				oFail(oRefused, "!e reads every roll as a die only for dice that explode on their highest faces")
			}
		}
	}
	type chain struct {
		rolls []int64
		p     *big.Rat
	}
	var chains []chain
	o.chains(t, func(rolls []int64, p *big.Rat) { chains = append(chains, chain{rolls, p}) })
	var rec func(j int64, vals []int64, p *big.Rat)
	rec = func(j int64, vals []int64, p *big.Rat) {
		if j == t.n {
			o.step(len(vals))
			f(vals, p)
			return
		}
		for _, c := range chains {
			rec(j+1, append(slices.Clone(vals), c.rolls...), new(big.Rat).Mul(p, c.p))
		}
	}
	rec(0, nil, big.NewRat(1, 1))
}

func (o *oracle) sumN(one oDist, n int64) oDist {
	acc := oPoint(oZero)
	for range n {
		acc = o.binary(acc, one, func(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) })
	}
	return acc
}

func (o *oracle) dice(d *notation.Dice) oDist {
	return o.term(o.takeApart(d))
}

// term is a dice term taken apart; a random number of dice is the mixture,
// over the count's values, of the term rolled with that many dice (keep,
// drop, u, mt, !e and a cap on the whole term are refused: they read a
// fixed number of dice).
func (o *oracle) term(t *oTerm) oDist {
	if t.count != nil {
		switch {
		case len(t.kd) > 0, t.unique != nil, t.matches != nil, t.capped, t.each():
			oFail(oRefused, "keep, drop, u, mt, !e or a cap over a random number of dice")
		}
		out := oDist{}
		for _, e := range t.count.entries() {
			one := *t
			one.count, one.n = nil, e.v.Num().Int64()
			o.mix(out, e.p, o.term(&one))
		}
		return out
	}
	if t.n == 0 {
		// 0d6 is 0, whatever its keep, drop or counting (as the engine has
		// it: 0d6kh1 is 0 although 1 of 0 dice cannot be kept).
		return oPoint(oZero)
	}
	if t.capped {
		return o.capped(t)
	}
	if t.unique != nil || t.matches != nil {
		return o.uniqueOrMatches(t)
	}
	if len(t.kd) > 0 {
		// Each keep or drop applies to the dice still kept, left to
		// right (4d6dl1kh2: drop the lowest, then keep the highest two of
		// the other three). Keeping more dice than there are keeps them
		// all; dropping more drops them all.
		count := func(x notation.Expr) int64 {
			if x == nil {
				return 1
			}
			return o.intConst(x, "the number of dice kept or dropped", 0, 100_000)
		}
		type op struct {
			n         int64
			keep, top bool
		}
		var ops []op
		for _, m := range t.kd {
			switch m := m.(type) {
			case *notation.Keep:
				ops = append(ops, op{count(m.Count), true, m.End == notation.High})
			case *notation.Drop:
				ops = append(ops, op{count(m.Count), false, m.End == notation.High})
			}
		}
		out := oDist{}
		score := o.scorer(t)
		o.readDice(t, func(vals []int64, p *big.Rat) {
			s := slices.Clone(vals)
			slices.Sort(s)
			for _, op := range ops {
				n := min(op.n, int64(len(s)))
				switch {
				case op.keep && op.top:
					s = s[int64(len(s))-n:]
				case op.keep:
					s = s[:n]
				case op.top:
					s = s[:int64(len(s))-n]
				default:
					s = s[n:]
				}
			}
			if t.hasCount {
				// Successes counted among the kept dice (each an
				// exploded die's total).
				n := int64(0)
				for _, v := range s {
					n += score(v)
				}
				out.add(oInt(n), p)
				return
			}
			out.add(oInt(chainSum(s)), p)
		})
		return out
	}
	if t.hasCount {
		score := o.scorer(t)
		var one oDist
		if t.explode != nil && !t.explode.Compound {
			// Every roll of the chain counts as a die, scored on what it
			// counts (a penetrating extra roll: its face less one); the
			// faces that explode must all count the same, as rolls that
			// explode again after the first (for a penetrating die, only
			// when a second extra roll can come).
			seen := map[int64]bool{}
			for _, f := range t.die.faces {
				switch {
				case !t.bursts(f):
				case !t.explode.Penetrate:
					seen[score(f)] = true
				case t.limit > 1:
					seen[score(f-1)] = true
				}
			}
			if len(seen) > 1 {
				oFail(oRefused, "exploding faces that count differently")
			}
			one = o.perDie(t, func(rolls []int64) int64 {
				s := int64(0)
				for _, r := range t.counted(rolls) {
					s += score(r)
				}
				return s
			})
		} else {
			one = o.perDie(t, func(rolls []int64) int64 { return score(t.chainValue(rolls)) })
		}
		return o.sumN(one, t.n)
	}
	one := o.perDie(t, t.chainValue)
	return o.sumN(one, t.n)
}

// capped is a term whose explosion has a cap on the whole term, followed
// literally: the n dice are rolled, then the rolls are looked at in
// order, each that meets the condition — while fewer than total extra
// rolls were made, and (with a per-die limit) while its die has extra
// rolls left — rolling one more at the end. The term is the sum of what
// every roll counts (a penetrating extra roll one less), or with cs and
// cf the count over every roll, each scored on what it counts.
func (o *oracle) capped(t *oTerm) oDist {
	switch {
	case t.explode.Compound:
		oFail(oRefused, "a cap on the whole term with !!")
	case len(t.kd) > 0:
		oFail(oRefused, "a cap on the whole term with keep or drop")
	case t.unique != nil || t.matches != nil:
		oFail(oRefused, "a cap on the whole term with u or mt")
	}
	score := func(v int64) int64 { return v }
	if t.hasCount {
		score = o.scorer(t)
	}
	out := oDist{}
	type roll struct{ face, depth int64 }
	var look func(rolls []roll, i int, extra int64, p *big.Rat)
	// roll1 rolls one die more at the end of the rolls.
	roll1 := func(rolls []roll, depth int64, p *big.Rat, then func([]roll, *big.Rat)) {
		for k, f := range t.die.faces {
			o.step(1)
			then(append(slices.Clone(rolls), roll{f, depth}), new(big.Rat).Mul(p, t.die.probs[k]))
		}
	}
	look = func(rolls []roll, i int, extra int64, p *big.Rat) {
		if i == len(rolls) {
			s := int64(0)
			for _, r := range rolls {
				v := r.face
				if r.depth > 0 && t.explode.Penetrate {
					v--
				}
				s += score(v)
			}
			out.add(oInt(s), p)
			return
		}
		r := rolls[i]
		if extra < t.total && (t.limit == 0 || r.depth < t.limit) && t.bursts(r.face) {
			roll1(rolls, r.depth+1, p, func(rs []roll, q *big.Rat) { look(rs, i+1, extra+1, q) })
			return
		}
		look(rolls, i+1, extra, p)
	}
	var first func(rolls []roll, p *big.Rat)
	first = func(rolls []roll, p *big.Rat) {
		if int64(len(rolls)) == t.n {
			look(rolls, 0, 0, p)
			return
		}
		roll1(rolls, 0, p, first)
	}
	first(nil, big.NewRat(1, 1))
	return out
}

// rolls enumerates the dice of a term with u or uo rolled one after
// another: a die showing a face an earlier die shows (one the condition
// holds for) is rolled again, once with uo, else until it shows a face
// that is new or fails the condition — a geometric number of times, so
// that from the first reroll on the die stops on each such face g with
// probability p(g) / (1 − p(rerolled again)). f sees the faces in roll
// order and their probability. Without u the dice are independent.
func (o *oracle) rolls(t *oTerm, f func(vals []int64, p *big.Rat)) {
	again := func(int64) bool { return true }
	if t.unique != nil && t.unique.Cond != nil {
		again = o.condTest(t.unique.Cond, 0)
	}
	vals := make([]int64, 0, t.n)
	var rec func(p *big.Rat)
	rec = func(p *big.Rat) {
		if int64(len(vals)) == t.n {
			o.step(1)
			f(vals, p)
			return
		}
		rerolled := func(v int64) bool { return t.unique != nil && slices.Contains(vals, v) && again(v) }
		// next: the die's final face → probability, from the first roll.
		next := map[int64]*big.Rat{}
		addTo := func(v int64, q *big.Rat) {
			if next[v] == nil {
				next[v] = new(big.Rat)
			}
			next[v].Add(next[v], q)
		}
		// bad: the chance one roll shows a face that is rerolled.
		bad := new(big.Rat)
		for i, g := range t.die.faces {
			if rerolled(g) {
				bad.Add(bad, t.die.probs[i])
			}
		}
		for i, g := range t.die.faces {
			o.step(1)
			pg := t.die.probs[i]
			if !rerolled(g) {
				addTo(g, pg)
				continue
			}
			if t.unique.Once {
				// One more roll, whatever it shows.
				for k, h := range t.die.faces {
					addTo(h, new(big.Rat).Mul(pg, t.die.probs[k]))
				}
				continue
			}
			if bad.Cmp(oOne) == 0 {
				oFail(oRefused, "unique dice that reroll forever")
			}
			// Rolled again until the face is kept.
			for k, h := range t.die.faces {
				if !rerolled(h) {
					q := new(big.Rat).Mul(pg, t.die.probs[k])
					addTo(h, q.Quo(q, new(big.Rat).Sub(oOne, bad)))
				}
			}
		}
		keys := slices.Sorted(maps.Keys(next))
		for _, v := range keys {
			vals = append(vals, v)
			rec(new(big.Rat).Mul(p, next[v]))
			vals = vals[:len(vals)-1]
		}
	}
	rec(big.NewRat(1, 1))
}

// uniqueOrMatches is a term with u, uo or mt: its dice enumerated in
// order (rolls), then summed, kept, dropped, counted, or their matched
// sets counted: the faces at least size dice show (that meet mt's
// condition).
func (o *oracle) uniqueOrMatches(t *oTerm) oDist {
	if t.explode != nil {
		oFail(oRefused, "u or mt with an explosion")
	}
	if t.unique != nil && !t.unique.Once {
		// u that rerolls every face of a die with fewer faces than dice
		// never ends.
		distinct := map[int64]bool{}
		all := true
		again := func(int64) bool { return true }
		if t.unique.Cond != nil {
			again = o.condTest(t.unique.Cond, 0)
		}
		for _, f := range t.die.faces {
			distinct[f] = true
			all = all && again(f)
		}
		if all && t.n > int64(len(distinct)) {
			oFail(oRefused, "%d unique dice of %d faces", t.n, len(distinct))
		}
	}
	size, match := int64(2), func(int64) bool { return true }
	if t.matches != nil {
		if len(t.kd) > 0 || t.hasCount {
			oFail(oRefused, "mt with keep, drop or counting")
		}
		if t.matches.Size != nil {
			size = o.intConst(t.matches.Size, "the size of a set", 1, 255)
		}
		if t.matches.Cond != nil {
			match = o.condTest(t.matches.Cond, 0)
		}
	}
	count := func(x notation.Expr) int64 {
		if x == nil {
			return 1
		}
		return o.intConst(x, "the number of dice kept or dropped", 0, 100_000)
	}
	score := o.scorer(t)
	out := oDist{}
	o.rolls(t, func(vals []int64, p *big.Rat) {
		if t.matches != nil {
			seen := map[int64]int64{}
			for _, v := range vals {
				seen[v]++
			}
			sets := int64(0)
			for v, c := range seen {
				if c >= size && match(v) {
					sets++
				}
			}
			out.add(oInt(sets), p)
			return
		}
		s := slices.Clone(vals)
		slices.Sort(s)
		for _, m := range t.kd {
			switch m := m.(type) {
			case *notation.Keep:
				n := min(count(m.Count), int64(len(s)))
				if m.End == notation.High {
					s = s[int64(len(s))-n:]
				} else {
					s = s[:n]
				}
			case *notation.Drop:
				n := min(count(m.Count), int64(len(s)))
				if m.End == notation.High {
					s = s[:int64(len(s))-n]
				} else {
					s = s[n:]
				}
			}
		}
		total := int64(0)
		for _, v := range s {
			if t.hasCount {
				total += score(v)
			} else {
				total += v
			}
		}
		out.add(oInt(total), p)
	})
	return out
}

// ---------------------------------------------------------------------------
// Functions and pools.

func (o *oracle) call(x *notation.Call) oDist {
	switch x.Name {
	case "highest", "lowest", "sum", "count", "all", "any", "distinct", "largest_set", "straight":
		return o.pool(x)
	}
	args := make([]oDist, len(x.Args))
	for i, a := range x.Args {
		args[i] = o.eval(a)
	}
	switch x.Name {
	case "abs":
		return o.unary(args[0], func(v *big.Rat) *big.Rat { return new(big.Rat).Abs(v) })
	case "floor":
		return o.unary(args[0], ratFloor)
	case "ceil":
		return o.unary(args[0], ratCeil)
	case "round":
		return o.unary(args[0], func(v *big.Rat) *big.Rat {
			h := ratFloor(new(big.Rat).Add(new(big.Rat).Abs(v), big.NewRat(1, 2)))
			if v.Sign() < 0 {
				h.Neg(h)
			}
			return h
		})
	case "min", "max":
		acc := args[0]
		for _, a := range args[1:] {
			acc = o.binary(acc, a, func(p, q *big.Rat) *big.Rat {
				if (p.Cmp(q) < 0) == (x.Name == "min") {
					return p
				}
				return q
			})
		}
		return acc
	case "clamp":
		lo := o.binary(args[0], args[1], func(p, q *big.Rat) *big.Rat {
			if p.Cmp(q) < 0 {
				return q
			}
			return p
		})
		return o.binary(lo, args[2], func(p, q *big.Rat) *big.Rat {
			if p.Cmp(q) > 0 {
				return q
			}
			return p
		})
	}
	oFail(oSkip, "function %s", x.Name)
	return nil
}

func (o *oracle) pool(x *notation.Call) oDist {
	arg := x.Args[0]
	var poolX notation.Expr = arg
	if f, ok := arg.(*notation.Filter); ok {
		poolX = f.Pool
	}
	pd, ok := poolX.(*notation.Dice)
	if !ok {
		oFail(oRefused, "a pool that is not a dice term: %s", poolX)
	}
	t := o.takeApart(pd)
	t.fixed("a pool")
	if len(t.kd) > 0 || t.hasCount || t.unique != nil || t.matches != nil {
		oFail(oRefused, "a pool with keep, drop, counting, u or mt")
	}
	if t.capped {
		oFail(oRefused, "a pool whose explosions have a cap on the whole term")
	}
	one := o.perDie(t, t.chainValue)
	// The documented limit: a pool's die has at most 64 different faces
	// (highest, lowest and sum, read as keep and sum nodes, go without it
	// unless the die explodes; with !e the die's own faces, and sum is
	// the exploding dice summed).
	if t.each() {
		if len(uniq(t.die.faces)) > 64 && x.Name != "sum" {
			oFail(oRefused, "a pool's die with %d faces", len(uniq(t.die.faces)))
		}
	} else if len(one) > 64 && (t.explode != nil || !slices.Contains([]string{"highest", "lowest", "sum"}, x.Name)) {
		oFail(oRefused, "a pool's die with %d faces", len(one))
	}
	k := int64(1)
	if (x.Name == "highest" || x.Name == "lowest") && len(x.Args) > 1 {
		k = o.intConst(x.Args[1], "the number of dice read", 1, 255)
	}
	var stat func(vals []int64) int64
	switch x.Name {
	case "highest", "lowest":
		stat = func(vals []int64) int64 {
			s := slices.Clone(vals)
			slices.Sort(s)
			if x.Name == "highest" {
				slices.Reverse(s)
			}
			return chainSum(s[:min(k, int64(len(s)))])
		}
	case "sum":
		stat = chainSum
	case "distinct":
		stat = func(vals []int64) int64 { return int64(len(uniq(vals))) }
	case "largest_set":
		stat = func(vals []int64) int64 {
			best := int64(0)
			for _, v := range vals {
				best = max(best, int64(countOf(vals, v)))
			}
			return best
		}
	case "straight":
		stat = func(vals []int64) int64 {
			u := uniq(vals)
			best, run := int64(0), int64(0)
			for i := range u {
				if i > 0 && u[i] == u[i-1]+1 {
					run++
				} else {
					run = 1
				}
				best = max(best, run)
			}
			return best
		}
	case "count", "all", "any":
		f, ok := arg.(*notation.Filter)
		if !ok {
			oFail(oRefused, "%s without a comparison", x.Name)
		}
		if c, ok := f.Value.(*notation.Call); ok && (c.Name == "highest" || c.Name == "lowest") && len(c.Args) == 1 &&
			notation.String(c.Args[0]) == notation.String(f.Pool) {
			// The same dice written twice are one roll.
			if x.Name != "count" || f.Op != notation.Eq {
				oFail(oRefused, "against the pool's own %s only ==", c.Name)
			}
			stat = func(vals []int64) int64 {
				if len(vals) == 0 {
					return 0
				}
				m := slices.Max(vals)
				if c.Name == "lowest" {
					m = slices.Min(vals)
				}
				return int64(countOf(vals, m))
			}
			break
		}
		v := o.intConst(f.Value, "the value a pool is compared with", math.MinInt32, math.MaxInt32)
		holds := func(d int64) bool {
			switch {
			case d < v:
				return cmpHolds(f.Op, -1)
			case d > v:
				return cmpHolds(f.Op, 1)
			}
			return cmpHolds(f.Op, 0)
		}
		stat = func(vals []int64) int64 {
			c := int64(0)
			for _, d := range vals {
				if holds(d) {
					c++
				}
			}
			switch x.Name {
			case "all":
				return int64(boolInt(c == int64(len(vals))))
			case "any":
				return int64(boolInt(c > 0))
			}
			return c
		}
	}
	if stat == nil {
		oFail(oSkip, "pool function %s", x.Name)
	}
	if t.n == 0 {
		return oPoint(oInt(stat(nil)))
	}
	out := oDist{}
	o.readDice(t, func(vals []int64, p *big.Rat) { out.add(oInt(stat(vals)), p) })
	return out
}

func uniq(vals []int64) []int64 {
	u := slices.Clone(vals)
	slices.Sort(u)
	return slices.Compact(u)
}

func countOf(vals []int64, v int64) int {
	c := 0
	for _, x := range vals {
		if x == v {
			c++
		}
	}
	return c
}

// ---------------------------------------------------------------------------
// What a one-liner reports, by the oracle and by the engine.

// oReport is a one-liner's outputs: variables and events.
type oReport struct {
	vars   map[string]oDist
	events map[string]*big.Rat
}

// oracleReport evaluates a one-liner as FromExpr reports it. The report
// is never nil.
func oracleReport(x notation.Expr, params map[string]*big.Rat, maxWork int) (rep *oReport, err error) {
	o := &oracle{params: params, max: maxWork}
	rep = &oReport{vars: map[string]oDist{}, events: map[string]*big.Rat{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*oErr)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	// A labelled dice term is reported on its own too: the label, lower
	// case, is the variable of the sum of the terms carrying it.
	var labels []string
	byLabel := map[string][]*notation.Dice{}
	notation.Walk(x, func(e notation.Expr) bool {
		if _, ok := e.(*notation.Group); ok {
			return false
		}
		if d, ok := e.(*notation.Dice); ok && d.Label != "" {
			n := strings.ToLower(d.Label)
			if byLabel[n] == nil {
				labels = append(labels, n)
			}
			byLabel[n] = append(byLabel[n], d)
		}
		return true
	})
	for _, n := range labels {
		sum := oPoint(oInt(0))
		for _, d := range byLabel[n] {
			sum = o.binary(sum, o.eval(d), func(p, q *big.Rat) *big.Rat { return new(big.Rat).Add(p, q) })
		}
		rep.vars[n] = sum
	}
	switch t := x.(type) {
	case *notation.Compare:
		d, y := o.eval(t.X), o.eval(t.Y)
		rep.vars["total"] = d
		cmp := o.binary(d, y, func(p, q *big.Rat) *big.Rat { return oBool(cmpHolds(t.Op, p.Cmp(q))) })
		rep.events["success"] = cmp.pTrue()
		return rep, nil
	case *notation.Logic, *notation.Not:
		rep.events["value"] = o.eval(x).pTrue()
		return rep, nil
	case *notation.Call:
		if t.Name == "all" || t.Name == "any" {
			rep.events["value"] = o.eval(x).pTrue()
			return rep, nil
		}
	}
	rep.vars["value"] = o.eval(x)
	return rep, nil
}

// oParams are the parameters the random expressions read.
var oParams = map[string]string{"a": "2", "b": "0.5", "c": "-1"}

func oParamValues() map[string]*big.Rat {
	out := map[string]*big.Rat{}
	for k, v := range oParams {
		r, _ := new(big.Rat).SetString(v)
		out[k] = r
	}
	return out
}

// engineRun runs the exact engine on a one-liner with the oracle's
// parameters, within timeout when it is not 0 (past it, the expression is
// skipped as an engine limit).
func engineRun(src string, timeout time.Duration) (*engine.Result, error) {
	r, err := FromExpr(src)
	if err != nil {
		return nil, err
	}
	var sets []string
	for _, p := range r.Params {
		if v, ok := oParams[p.Name]; ok {
			sets = append(sets, p.Name+"="+v)
		}
	}
	m := r.Mechanic()
	c, err := m.Configure(sets)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return exact.RunContext(ctx, m, c, exact.Options{MemoryBytes: 256 << 20})
}

// engineLimit reports an engine error that is one of its documented
// limits (not a disagreement: the oracle just has nothing to compare).
func engineLimit(err error) bool {
	s := err.Error()
	for _, w := range []string{"64 bits", "62 bits", "memory budget", "minutes or more", "deadline exceeded", "too large"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// oVerdict is one comparison's outcome.
type oVerdict int

const (
	vAgree oVerdict = iota
	vSkip
	vDisagree
	vBothFail // both refuse the expression, or both fail on it
)

// checkOracle compares the engine with the oracle on one expression: ok,
// skipped (the oracle or an engine limit declines), or a disagreement
// described by msg.
func checkOracle(src string, maxWork int, timeout time.Duration) (oVerdict, string) {
	x, err := notation.Parse(src)
	if err != nil {
		return vSkip, "parse: " + err.Error()
	}
	want, oerr := oracleReport(x, oParamValues(), maxWork)
	var oe *oErr
	if oerr != nil && errors.As(oerr, &oe) && oe.kind == oSkip {
		return vSkip, oerr.Error()
	}
	return compareEngine(src, want, oerr, timeout)
}

// compareEngine runs the engine and compares it with the oracle's report
// (or error).
func compareEngine(src string, want *oReport, oerr error, timeout time.Duration) (oVerdict, string) {
	res, err := engineRun(src, timeout)
	if oerr != nil {
		if err == nil {
			return vDisagree, fmt.Sprintf("the engine gives a result where the oracle says %v", oerr)
		}
		return vBothFail, oerr.Error() + " | engine: " + err.Error()
	}
	if err != nil {
		if engineLimit(err) {
			return vSkip, err.Error()
		}
		return vDisagree, fmt.Sprintf("the engine fails (%v) where the oracle gives %s", err, want.String())
	}
	if res.Truncated != 0 {
		return vDisagree, fmt.Sprintf("truncated mass %g for bounded dice", res.Truncated)
	}
	var msgs []string
	for name, d := range want.vars {
		v := res.Var(name)
		if v == nil {
			msgs = append(msgs, "no variable "+name)
			continue
		}
		if m := compareVar(v, d); m != "" {
			msgs = append(msgs, name+": "+m)
		}
	}
	for name, p := range want.events {
		e := res.Event(name)
		if e == nil {
			msgs = append(msgs, "no event "+name)
			continue
		}
		f, _ := p.Float64()
		if math.Abs(e.P-f) > oFloatTol {
			msgs = append(msgs, fmt.Sprintf("P(%s) = %.15g, enumeration %s = %.15g", name, e.P, p.RatString(), f))
		}
	}
	if len(res.Vars) != len(want.vars) || len(res.Events) != len(want.events) {
		msgs = append(msgs, fmt.Sprintf("the engine reports %d variables and %d events, the oracle %d and %d", len(res.Vars), len(res.Events), len(want.vars), len(want.events)))
	}
	if len(msgs) > 0 {
		return vDisagree, strings.Join(msgs, "; ")
	}
	return vAgree, ""
}

func (r *oReport) String() string {
	var parts []string
	for name, d := range r.vars {
		parts = append(parts, name+" "+d.String())
	}
	for name, p := range r.events {
		parts = append(parts, fmt.Sprintf("P(%s) = %s", name, p.RatString()))
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

func (d oDist) String() string {
	var b strings.Builder
	b.WriteString("{")
	for i, e := range d.entries() {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == 12 {
			fmt.Fprintf(&b, "… %d more", len(d)-12)
			break
		}
		fmt.Fprintf(&b, "%s: %s", e.v.RatString(), e.p.RatString())
	}
	b.WriteString("}")
	return b.String()
}

// oFloatTol bounds the difference of a probability in floating point from
// the enumeration's fraction: the engine's float arithmetic over a model
// of a few hundred thousand outcomes drifts by a few 1e-12
// (d%%d2%d%%d20: P(0) = 0.764875000002894 against 6119/8000).
const oFloatTol = 1e-10

// compareVar compares an engine variable with the oracle's distribution:
// exactly against its fractions when it has them, else to oFloatTol.
func compareVar(v *engine.VarResult, want oDist) string {
	if v.Undefined != 0 {
		return fmt.Sprintf("undefined with P = %g", v.Undefined)
	}
	got := map[string]*big.Rat{}
	gotF := map[string]float64{}
	for i, p := range v.P {
		if p == 0 && (v.Exact == nil || v.Exact[i] == "0" || v.Exact[i] == "") {
			continue
		}
		x := v.Rat(i)
		k := big.NewRat(x.N, max(x.D, 1)).RatString()
		gotF[k] = p
		if v.Exact != nil {
			r, ok := new(big.Rat).SetString(v.Exact[i])
			if !ok {
				return fmt.Sprintf("bad exact fraction %q", v.Exact[i])
			}
			if r.Sign() != 0 {
				got[k] = r
			}
		}
	}
	var diffs []string
	for _, e := range want.entries() {
		k := e.v.RatString()
		if v.Exact != nil {
			if g := got[k]; g == nil || g.Cmp(e.p) != 0 {
				gs := "0"
				if g != nil {
					gs = g.RatString()
				}
				diffs = append(diffs, fmt.Sprintf("P(%s) = %s, enumeration %s", k, gs, e.p.RatString()))
			}
		} else {
			f, _ := e.p.Float64()
			if math.Abs(gotF[k]-f) > oFloatTol {
				diffs = append(diffs, fmt.Sprintf("P(%s) = %.15g, enumeration %s", k, gotF[k], e.p.RatString()))
			}
		}
	}
	for k, p := range gotF {
		if want[k] == nil && (p > 1e-15 || got[k] != nil) {
			diffs = append(diffs, fmt.Sprintf("P(%s) = %.15g, enumeration 0", k, p))
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 6 {
		diffs = append(diffs[:6], fmt.Sprintf("… %d more", len(diffs)-6))
	}
	return strings.Join(diffs, ", ")
}

// ---------------------------------------------------------------------------
// Random small expressions.

// Precedence levels of the printed text (docs: the notation's grammar).
const (
	pIf = iota + 1
	pOr
	pAnd
	pNot
	pCmp
	pSum
	pProd
	pNeg
	pAtom
)

type oGen struct {
	r *rand.Rand
}

func (g *oGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// wrap parenthesises s when its level is below need (and sometimes anyway).
func (g *oGen) wrap(s string, prec, need int) string {
	if prec < need || (prec < pAtom && g.r.IntN(12) == 0) {
		return "(" + s + ")"
	}
	return s
}

// weighted picks an index by weights.
func (g *oGen) weighted(ws ...int) int {
	t := 0
	for _, w := range ws {
		t += w
	}
	n := g.r.IntN(t)
	for i, w := range ws {
		if n < w {
			return i
		}
		n -= w
	}
	return len(ws) - 1
}

// die is a random die: its text and its faces (before rerolls).
func (g *oGen) die() (string, []int64) {
	switch g.weighted(14, 2, 4, 1) {
	case 0:
		s := int64(1 + g.r.IntN(6))
		if s == 1 && g.r.IntN(2) == 0 {
			s = 2 + int64(g.r.IntN(5))
		}
		faces := make([]int64, s)
		for i := range faces {
			faces[i] = int64(i) + 1
		}
		return fmt.Sprint(s), faces
	case 1:
		return "F", []int64{-1, 0, 1}
	case 2:
		n := 1 + g.r.IntN(4)
		var parts []string
		var faces []int64
		for range n {
			if g.r.IntN(6) == 0 {
				a := int64(g.r.IntN(4) - 1)
				b := a + int64(g.r.IntN(3))
				parts = append(parts, fmt.Sprintf("%d..%d", a, b))
				for f := a; f <= b; f++ {
					faces = append(faces, f)
				}
				continue
			}
			f := int64(g.r.IntN(8) - 2)
			parts = append(parts, fmt.Sprint(f))
			faces = append(faces, f)
		}
		return "{" + strings.Join(parts, ", ") + "}", faces
	}
	// Sides from a parameter: a = 2.
	switch g.r.IntN(3) {
	case 0:
		return "(a)", []int64{1, 2}
	case 1:
		return "(a + 1)", []int64{1, 2, 3}
	}
	return "(a * 2)", []int64{1, 2, 3, 4}
}

// cond is a random dice condition around the faces.
func (g *oGen) cond(faces []int64, bareOK bool) string {
	lo, hi := int64(1), int64(6)
	if len(faces) > 0 {
		lo, hi = slices.Min(faces), slices.Max(faces)
	}
	v := lo + int64(g.r.IntN(int(hi-lo)+2)) - int64(g.r.IntN(2))
	op := g.pick("", "=", "<", "<=", ">", ">=", ">=", ">")
	if op == "" && (!bareOK || v < 0) {
		op = "="
	}
	if g.r.IntN(25) == 0 {
		return op + "(a)"
	}
	return op + fmt.Sprint(v)
}

// dice is a random dice term (N ≤ 3 dice of at most 6 faces); pool
// terms carry no keep, drop or counting.
func (g *oGen) dice(pool bool) string {
	var b strings.Builder
	n := 1
	switch g.weighted(5, 12, 2) {
	case 0:
		if pool {
			b.WriteString(fmt.Sprint(n))
		}
	case 1:
		n = g.r.IntN(4)
		if n == 0 && (pool || g.r.IntN(3) > 0) {
			n = 1 + g.r.IntN(3)
		}
		b.WriteString(fmt.Sprint(n))
	case 2:
		n = 2
		b.WriteString("(a)")
	}
	sides, faces := g.die()
	b.WriteString("d" + sides)
	var mods []string
	if g.r.IntN(4) == 0 {
		m := g.pick("r", "ro")
		lo := slices.Min(faces)
		switch g.r.IntN(5) {
		case 0, 1:
		case 2:
			m += g.pick("<=", "<", "=") + fmt.Sprint(lo+1)
		case 3:
			m += fmt.Sprint(max(lo, 0))
		default:
			m += g.cond(faces, true)
		}
		mods = append(mods, m)
	}
	if g.r.IntN(3) == 0 {
		m := g.pick("!", "!", "!!", "!e", "!p", "!!p")
		switch g.r.IntN(6) {
		case 0, 1:
		case 2:
			hi := slices.Max(faces)
			if hi >= 0 && g.r.IntN(2) == 0 {
				m += fmt.Sprint(hi)
			} else {
				m += fmt.Sprintf("=%d", hi)
			}
		default:
			c := g.cond(faces, false)
			if g.r.IntN(4) > 0 {
				// Mostly the top faces: >= or >.
				lo, hi := slices.Min(faces), slices.Max(faces)
				v := lo + 1 + int64(g.r.IntN(int(hi-lo)+1))
				if v > hi {
					v = hi
				}
				if g.r.IntN(8) == 0 {
					v = lo - 1 + int64(g.r.IntN(int(hi-lo)+3))
				}
				c = g.pick(">=", ">=", ">") + fmt.Sprint(v)
				if strings.HasPrefix(c, ">") && !strings.HasPrefix(c, ">=") {
					c = ">" + fmt.Sprint(v-1)
				}
			}
			m += c
		}
		if pool {
			m += "{1}"
		} else {
			m += g.pick("{1}", "{1}", "{2}", "{(a)}", "{2 in all}", "{1, 2 in all}", "{(a) in all}")
		}
		mods = append(mods, m)
	}
	if g.r.IntN(6) == 0 {
		// Per-die min or max, anywhere among the faces (or past them).
		lo, hi := slices.Min(faces), slices.Max(faces)
		mods = append(mods, g.pick("min", "max")+fmt.Sprint(lo-1+int64(g.r.IntN(int(hi-lo)+3))))
	}
	if !pool && g.r.IntN(8) == 0 {
		m := g.pick("u", "u", "uo")
		if g.r.IntN(3) == 0 {
			m += g.cond(faces, true)
		}
		mods = append(mods, m)
	}
	if !pool && g.r.IntN(10) == 0 {
		m := "mt" + g.pick("", "", "1", "3", "(a)")
		if g.r.IntN(3) == 0 {
			m += g.pick(">=", "<", "=") + fmt.Sprint(slices.Min(faces)+int64(g.r.IntN(3)))
		}
		mods = append(mods, m)
	}
	if !pool {
		switch g.weighted(10, 4, 3) {
		case 1:
			m := g.pick("kh", "kl", "k", "dh", "dl", "d")
			switch g.r.IntN(5) {
			case 0:
			case 1:
				m += "(a)"
			default:
				k := g.r.IntN(n + 1)
				if g.r.IntN(10) == 0 {
					k = n + 1 // refused: more than the dice rolled
				}
				m += fmt.Sprint(k)
			}
			mods = append(mods, m)
		case 2:
			if g.r.IntN(3) > 0 {
				mods = append(mods, g.pick("cs", "cs", "#")+g.cond(faces, true))
				if mods[len(mods)-1] == "#" {
					mods[len(mods)-1] += ">=3"
				}
			}
			if g.r.IntN(2) == 0 {
				mods = append(mods, "cf"+g.cond(faces, true))
			}
			if g.r.IntN(6) == 0 {
				mods = append(mods, "cs"+g.cond(faces, true))
			}
		}
	}
	g.r.Shuffle(len(mods), func(i, j int) { mods[i], mods[j] = mods[j], mods[i] })
	for i, m := range mods {
		// A bare condition value must not run into a following modifier
		// that begins with a digit or "(" (none does), nor a dice term's
		// "d" drop into "h"/"l" (none begins so).
		b.WriteString(m)
		_ = i
	}
	return b.String()
}

func (g *oGen) literal() string {
	if g.r.IntN(6) == 0 {
		return g.pick("0.5", "1.5", "2.25", "0.1")
	}
	return fmt.Sprint(g.r.IntN(7))
}

// num is a random number-valued expression and its level.
func (g *oGen) num(depth int) (string, int) {
	if depth <= 0 {
		switch g.weighted(6, 2, 1) {
		case 0:
			return g.dice(false), pAtom
		case 1:
			return g.literal(), pAtom
		}
		return g.pick("a", "b", "c"), pAtom
	}
	switch g.weighted(16, 6, 2, 18, 3, 8, 10, 4, 4, 3, 1) {
	case 0:
		return g.dice(false), pAtom
	case 1:
		return g.literal(), pAtom
	case 2:
		return g.pick("a", "b", "c"), pAtom
	case 3:
		op := g.pick("+", "+", "-", "-", "*", "*", "/", "//", "%")
		x, px := g.num(depth - 1)
		y, py := g.num(depth - 1)
		if op == "+" || op == "-" {
			return g.wrap(x, px, pSum) + " " + op + " " + g.wrap(y, py, pSum+1), pSum
		}
		return g.wrap(x, px, pProd) + " " + op + " " + g.wrap(y, py, pProd+1), pProd
	case 4:
		x, px := g.num(depth - 1)
		return "-" + g.wrap(x, px, pAtom), pNeg
	case 5:
		switch g.r.IntN(6) {
		case 0, 1:
			args := []string{}
			for range 2 + g.r.IntN(2) {
				a, _ := g.num(depth - 1)
				args = append(args, a)
			}
			return g.pick("min", "max") + "(" + strings.Join(args, ", ") + ")", pAtom
		case 2:
			x, _ := g.num(depth - 1)
			lo := g.r.IntN(5) - 1
			hi := lo + g.r.IntN(5)
			if g.r.IntN(20) == 0 {
				lo, hi = hi+1, lo // the bounds crossed
			}
			return fmt.Sprintf("clamp(%s, %d, %d)", x, lo, hi), pAtom
		case 3:
			x, _ := g.num(depth - 1)
			return "abs(" + x + ")", pAtom
		default:
			x, px := g.num(depth - 1)
			y := g.pick("2", "3", "4", "(a + 1)")
			return g.pick("floor", "ceil", "round") + "(" + g.wrap(x, px, pProd) + " / " + y + ")", pAtom
		}
	case 6:
		return g.poolCall(), pAtom
	case 7:
		c, _ := g.boolean(depth - 1)
		x, _ := g.num(depth - 1)
		y, _ := g.num(depth - 1)
		return "if " + c + " then " + x + " else " + y, pIf
	case 8:
		return g.lookup(depth), pAtom
	case 9:
		c, _ := g.cmp(depth - 1)
		return "(" + c + ")", pAtom
	}
	c, _ := g.boolean(depth - 1)
	return "(" + c + ")", pAtom
}

func (g *oGen) cmp(depth int) (string, int) {
	x, px := g.num(depth)
	var y string
	py := pAtom
	if g.r.IntN(2) == 0 {
		y = fmt.Sprint(g.r.IntN(12))
	} else {
		y, py = g.num(depth)
	}
	op := g.pick("==", "!=", "<", "<=", ">", ">=")
	return g.wrap(x, px, pSum) + " " + op + " " + g.wrap(y, py, pSum), pCmp
}

func (g *oGen) boolean(depth int) (string, int) {
	if depth <= 0 {
		return g.cmp(0)
	}
	switch g.weighted(10, 4, 2, 3) {
	case 0:
		return g.cmp(depth - 1)
	case 1:
		x, px := g.boolean(depth - 1)
		y, py := g.boolean(depth - 1)
		if g.r.IntN(2) == 0 {
			return g.wrap(x, px, pAnd) + " and " + g.wrap(y, py, pNot), pAnd
		}
		return g.wrap(x, px, pOr) + " or " + g.wrap(y, py, pAnd), pOr
	case 2:
		x, px := g.boolean(depth - 1)
		return "not " + g.wrap(x, px, pCmp), pNot
	}
	return g.poolFilter(g.pick("all", "any")), pAtom
}

func (g *oGen) poolFilter(fn string) string {
	p := g.dice(true)
	op := g.pick("==", "!=", "<", "<=", ">", ">=")
	if fn == "count" && g.r.IntN(5) == 0 {
		return fmt.Sprintf("count(%s == %s(%s))", p, g.pick("highest", "lowest"), p)
	}
	v := g.r.IntN(8) - 1
	return fmt.Sprintf("%s(%s %s %d)", fn, p, op, v)
}

func (g *oGen) poolCall() string {
	switch g.r.IntN(8) {
	case 0, 1:
		fn := g.pick("highest", "lowest")
		p := g.dice(true)
		if g.r.IntN(3) == 0 {
			n := 1
			if i := strings.Index(p, "d"); i > 0 && p[0] >= '0' && p[0] <= '9' {
				fmt.Sscan(p[:i], &n)
			}
			return fmt.Sprintf("%s(%s, %d)", fn, p, 1+g.r.IntN(max(n, 1)))
		}
		return fn + "(" + p + ")"
	case 2:
		return "sum(" + g.dice(true) + ")"
	case 3, 4:
		return g.poolFilter(g.pick("count", "count", "all", "any"))
	}
	return g.pick("distinct", "largest_set", "straight") + "(" + g.dice(true) + ")"
}

func (g *oGen) lookup(depth int) string {
	key, _ := g.num(0)
	if g.r.IntN(2) == 0 {
		key = g.dice(false)
	}
	cuts := map[int]bool{}
	for range 1 + g.r.IntN(4) {
		cuts[g.r.IntN(14)-3] = true
	}
	var cs []int
	for c := range cuts {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	var cases []string
	val := func() string { v, _ := g.num(depth - 1); return v }
	for i, c := range cs {
		end := c
		if i+1 < len(cs) && g.r.IntN(2) == 0 {
			end = cs[i+1] - 1
		}
		var k string
		switch {
		case i == 0 && g.r.IntN(4) == 0:
			k = fmt.Sprintf("..%d", end)
		case i == len(cs)-1 && g.r.IntN(3) == 0:
			k = fmt.Sprintf("%d..", c)
		case end == c:
			k = fmt.Sprint(c)
		default:
			k = fmt.Sprintf("%d..%d", c, end)
		}
		cases = append(cases, k+": "+val())
	}
	if g.r.IntN(3) > 0 {
		cases = append(cases, g.pick("_", "else")+": "+val())
	}
	return "lookup(" + key + ", {" + strings.Join(cases, ", ") + "})"
}

// expr is a random one-liner.
func (g *oGen) expr() string {
	depth := 1 + g.r.IntN(3)
	switch g.weighted(12, 4, 3, 1) {
	case 0:
		s, _ := g.num(depth)
		return s
	case 1:
		s, _ := g.cmp(depth - 1)
		return s
	case 2:
		s, _ := g.boolean(depth)
		return s
	}
	return g.poolFilter(g.pick("all", "any"))
}

// ---------------------------------------------------------------------------
// The tests.

// oracleCases are hand-picked expressions the engine must agree on with
// the enumeration (or refuse, where the oracle refuses).
var oracleCases = []string{
	"4d6kh3", "4d6dl", "3d6dh1", "2d20kl", "3d6kh0", "3d4k(a)", "0d6", "(a)d6", "d(a + 1)",
	"d6!{2}", "d6!!{2}", "3d6!{2}kh2", "2d6!>=5{1}", "2d6!>4{2}", "d6!6{1}", "d6!=6{1}", "dF!{2}", "d{1,1,2,3}!{2}",
	"d6r6!{1}", "d6ro6!{2}", "3d6r<=2kh2", "d6ro", "d6r", "d{-1,0,0,5}ro<=0 + dF", "d{1..3, 5}",
	"8d6cs>=5", "3d6cs", "3d6cf", "3d6cs>=5cf1", "3d6cs>=2cs<=1", "2d6#>=4", "d6!{2}cs>=5cf1", "2d6!!{2}cs>=8",
	"3d6!{1}cs6", "2d6!>=5{2}cs>=5", "dF!{2}cs", "2dFcf", "3d4ro1cs4",
	"3d6!e{2}kh2", "4d4!e{1}dl1", "3d6!e{2}kh1cs>=5", "highest(3d4!e{2}, 2)", "3d6!e>=5{1}dl1kh2", "3d4!e{2}dh1cf1",
	"lowest(2d6!e>=5{2}, 2)", "count(3d4!e{1} >= 3)", "count(3d4!e{2} == highest(3d4!e{2}))", "sum(2d6!e{2})", "2d6!e{2}", "2d6!e{1}cs>=5",
	// Exploding on any faces, penetrating.
	"d6!=5{3}", "d6!5{2}", "2d4!<=1{2}", "2d4!<2{2}", "d6!<=3{2}", "d6!=1{3} + d4", "dF!=-1{3}", "2dF!<=0{2}", "d{-1,0,1}!=-1{3}",
	"d{-2,-1,3}!<0{2}", "d6!p{3}", "3d6!p{2}kh2", "d6!!p{2}", "d6!p>=5{2}", "d6!p>4{2}", "d6!p=1{3}", "dF!p{2}", "dF!p=-1{2}",
	"2d6!p{1}", "d4!p<=2{3}dl0", "4d4!p{2}dl1kh2", "sum(2d6!p{1})", "highest(3d4!=2{1})", "count(2d6!p{1} >= 6)",
	"3d6!=5{2}cs>=5", "3d6!<=2{2}cs<=2", "3d6!p{2}cs>=5", "3d6!p{1}cs>=6", "3d6!p>=5{3}cs>=5", "2d6!p{2}cs6cf1",
	"2d6!!p{2}cs>=8", "3d6!p{2}kh2cs>=6", "d6!p{2} > d6!{2}", "3d{1,1,2}!p=1{2}#>=1",
	"highest(3d6)", "highest(3d6, 2)", "lowest(3d6, 2)", "sum(2d6!{1})", "count(3d6 >= 5)", "count(3d6 == highest(3d6))",
	"count(3d6 == lowest(3d6))", "all(3d6 >= 2)", "any(3d6 == 6)", "distinct(3d6)", "largest_set(3d4)", "straight(3d6)",
	"straight(3dF)", "count(2d6!{1} >= 6)", "highest(2d6ro1)", "all(2d{1,1,2} == 1)",
	"d6 - d6", "abs(d6 - d6)", "max(d20, d20)", "min(d6, d6, d6)", "clamp(2d6 - 5, 0, 4)", "round(d6 / 4)", "ceil(d6 / 4)",
	"floor(-d6 / 4)", "round(-d6 / 2)", "(d20 + 3) // 2", "-7 // 2 + d2", "d6 % 4", "-d6 % 4", "d6 % -4", "d6 % (d3 - 4)",
	"3d6 / 2", "d6 / d4", "d6 / (d3 - 2)", "d6 // (d2 - 1)", "1 / (d2 - 1) * 0",
	"d20 + 5 >= 15", "d6 + b >= 3.5", "d6 * b", "d(a) * c", "2d6 != 7", "d6 == d6", "(d6 >= 4) + (d6 >= 4)",
	"d20 >= 11 and d6 == 6", "not d20 == 1", "d6 > 3 or d6 > 3", "d6 - 3 and d6", "not d6 - 3",
	"if d20 >= 11 then 2d6 else d6", "if a then d6 else d4", "if c > 0 then d6 else d4", "if d6 then 1 else 2",
	"if d6 > 6 then 1 / 0 else 2", "if d6 >= 1 then 1 else 1 / (d2 - 1)", "clamp(d6 / 2, 3, 1)", "clamp(d6 + b, 3, 1)",
	"d6r1r2", "d6ro1ro2", "d{1,2,3}ro1ro2", "highest(2d6, 3)", "lowest(1d6, 2)", "0d6kh1", "0d6cs", "any(0d6 >= 1)", "highest(0d6)",
	"d6 > 3 or lookup(d6, {1..3: 1}) > 0", "d6 > 6 and lookup(d6, {1..3: 1}) > 0", "d6 >= 1 or 1 / 0 > 0",
	"lookup(d10, {1..3: 1d6, 4..9: 2d6, 10..: 3d6})", "lookup(d20, {1: 0, 2..10: 1, _: 2})", "lookup(d6, {..2: 0, 3..: 1})",
	"lookup(d6 / 2, {1..2: 1, else: 0})", "lookup(d6, {1..3: 1})", "lookup(d3, {1..3: 1, 4: 1 / 0})", "lookup(a, {2: d6, _: 1 / 0})",
	"lookup(d6 - 3, {-2..0: d4, _: -1})",
	// Division by a die (issue 26): few values, far apart on their
	// lattice (1/232792560 for d20/d20; none in 64 bits for 1/d70).
	"d20/d20", "2d10/d20", "5/6d6", "d6/(d6-1)", "(d6-1)/d6", "1/d70", "d70/d70 + 1", "d20/d20 >= 1", "2 * d12/d11 - d3/d7",
	// Comments are left out; a labelled dice term is a variable of its
	// own too (issue 26).
	"2d6[Fire] + 1d4[Cold] # burn", "# only a comment\n3d4kh2[best] # two of three", "(d6 + 1)[x] * 2",
	"d6[fire] + d4[fire] + d6[cold]", "d6[hit] >= 4", "highest(3d4[pool], 2)", "d4[x] * d4[y]", "{d6[fire], d4}kh1 + d4[cold]",
	// Foundry's Fudge variants (issue 26).
	"3dF.1", "2dF.2 + dF.1", "4dF.1kh2", "3dF.1cs",
	// Powers (issue 26): a constant exponent, on rolls and constants.
	"3d6^2", "d6**2", "-d4^2", "(d6 - 3)^3", "2^3^2", "d4^0", "(d2 - 1)^0", "d6^(a + 1)", "2^d4", "d6^-1",
	"(2d4)^2 - 2d4", "d6^2 / 4", "b^2 + d4", "max(d4, d4)^2",
	// Several keeps and drops on one term, left to right (issue 26).
	"4d6dl1kh2", "4d6kh3dl1", "4d6kh3kl1", "5d6dl1dh1", "4d6dl2dh2", "3d6dh1kl1cs>=3", "4d4kh3kh2kh1",
	"5d{-2..3}dl1dh2", "4d6kl3dh1cs>=4cf1", "3d6!{1}dl1kh1", "4dFdl1dh1", "4d6dl(a)kh(a + 1)", "3d6k5dl1", "2d6d3kh1",
	"4d{1,1,2,3}dh1dl1",
	// Per-die min and max, unique dice and matched sets (issue 26).
	"4d6min3", "3d6max4kh2", "4dFmin0", "d20max15", "d6min3r3", "d6r3min3", "2d6max4!{2}", "d6min(a + 1)", "3d6max2cs>=2",
	"d{-3..3}min-1max1", "d6min8", "3d6min2max5u", "4d6min3kh3", "d20max15!{2}", "2d6min3cs",
	"3d6u", "3d6ukh2", "2d4uo", "4d6u>4", "4d6uo3", "3d{1,1,2,3}u", "3d{1,1,2,3}uo", "4d4ucs>=3", "6d6u<3kh3",
	"4d6ur1", "3d6udl1dh1", "3dFu", "4dFuo", "5d6u>=4", "7d6u", "7d6uo", "4d6u<=6kl2", "3d6u=(a + 3)",
	"6d6mt", "5d6mt3", "4d6mt>=4", "5d6mt=1", "6d{1,1,2}mt3", "4d6umt", "4d6uomt", "3d6min4mt", "4dFmt", "5d6mt(a)",
	"6d6mt + 1", "2d6mt", "4d6mtkh3", "3d6!{2}mt", "3d6!!{1}u", "highest(3d6u)", "count(3d6mt == 1)",
	// A cap on the explosions of the whole term (Foundry's x2>=8, xo2>=8).
	"3d4!>=3{2 in all}", "3d6!=6{1 in all}cs>=5", "4d4!>=4{1, 2 in all}", "2d4!p>=3{3 in all}", "3d4!>=2{2, 3 in all}",
	"3d3!>=1{2 in all}", "2d4!>=3{(a) in all}cf<2cs>=3", "d6!{0 in all}", "2dF!=-1{2 in all} + 1", "3d4!e>=3{2 in all}",
	"2d6r1!>=5{2 in all}", "3d4!p{2 in all}cs>=3", "0d6!{2 in all}",
	// A random number of dice ((1d4)d6: roll 1d4, then that many d6).
	"(d4)d6", "(1d4)d6", "(d3)d4!{1}", "(d4)d6cs>=5", "(2d2-2)d6", "(d4)d{-1,0,1}", "((d2)d2)d4",
	"(d3)d4!!{1}cs>=4", "(d3)d4!{2}cs4", "(d3)d4!p{2}", "(d2)d6r1 + (d2-1)d4", "(d6 >= 5)d6", "(d3)dFcf",
	"(d3)d6kh1", "(d3)d6u", "(d3)d6mt", "(d3)d4!e{1}", "(d3)d4!{1 in all}", "(d4 - 2)d6", "highest((d3)d6)", "{(d2)d6}kh1",
}

// TestOracleCases compares the engine with the enumeration on the cases
// above; every one must be compared, so none runs under a deadline (a slow
// machine must not turn into a skip, and a skip into a failure).
func TestOracleCases(t *testing.T) {
	t.Parallel()
	for _, src := range append(slices.Clone(oracleCases), groupCases...) {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			switch v, msg := checkOracle(src, 2_000_000, 0); v {
			case vDisagree:
				t.Errorf("%s: %s", src, msg)
			case vSkip:
				t.Errorf("%s: the oracle declines: %s", src, msg)
			case vBothFail:
				t.Logf("%s: refused or failing in both: %s", src, msg)
			}
		})
	}
}

// TestOracleRandom compares the engine with the enumeration over random
// small expressions (a fixed seed: the same expressions every run).
func TestOracleRandom(t *testing.T) {
	t.Parallel()
	n := 30_000
	if testing.Short() {
		n = 1_500
	}
	g := &oGen{r: rand.New(rand.NewPCG(20240611, 7))}
	var agree, both, skip, bad int
	skips, fails := map[string]int{}, map[string]int{}
	for range n {
		src := g.expr()
		v, msg := checkOracle(src, oMaxWork, 5*time.Second)
		switch v {
		case vAgree:
			agree++
		case vBothFail:
			both++
			fails[strings.Join(strings.Fields(msg)[1:min(6, len(strings.Fields(msg)))], " ")]++
		case vSkip:
			skip++
			skips[strings.SplitN(msg, ":", 2)[0]+":"+firstWords(msg)]++
		default:
			bad++
			if bad <= 20 {
				t.Errorf("%s: %s", src, msg)
			}
		}
	}
	t.Logf("%d expressions: %d agree, %d refused or failing in both, %d skipped (the oracle or an engine limit declines), %d disagree",
		n, agree, both, skip, bad)
	t.Logf("skips: %v", skips)
	t.Logf("refused or failing in both: %v", fails)
	if agree < n/2 {
		t.Errorf("only %d of %d expressions compared", agree, n)
	}
}

// FuzzOracle: any one-liner the oracle can enumerate quickly, the engine
// must agree with. Seeds are in testdata/fuzz/FuzzOracle.
func FuzzOracle(f *testing.F) {
	for _, s := range oracleCases[:20] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 300 {
			return
		}
		if v, msg := checkOracle(src, 100_000, 3*time.Second); v == vDisagree {
			t.Fatalf("%q: %s", src, msg)
		}
	})
}

// engineBugs are the engine bugs the oracle found, fixed, kept as
// regressions: expression → the bug.
var engineBugs = []struct{ src, bug string }{
	{"d6!>=1{2}", "a die exploding on every face with a limit failed in the exact engine"},
	{"2d4!>=1{1}cs>=1", "a die exploding on every face with a limit failed in the exact engine"},
	{"d{-1, -2, 2, 3}!!>=-1{2} == 5", "a summed die exploding on negative faces left its declared range"},
	{"d{-3, -2}!{1} + 0 >= -5", "a summed die exploding on negative faces left its declared range"},
	{"all(0d6 >= 1)", "all() of a pool of no dice was 0"},
	{"all((c + 1)d6 == 3) + 1", "all() of a pool of no dice was 0"},
	{"clamp(d6, 3, 1)", "clamp(roll, 3, 1) was refused"},
}

func TestOracleEngineBugs(t *testing.T) {
	t.Parallel()
	for _, c := range engineBugs {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			if v, msg := checkOracle(c.src, 2_000_000, 0); v != vAgree {
				t.Errorf("%s (%s): %s", c.src, c.bug, msg)
			}
		})
	}
}

func firstWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[1:min(len(f), 4)], " ")
}
