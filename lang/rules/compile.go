package rules

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/internal/suggest"
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Limits of what one rule may ask for; past them the rule is refused with
// a clear error rather than left to exhaust memory.
const (
	// MaxDice bounds the dice of one term that is summed (1000d6).
	MaxDice = 100_000
	// MaxPoolDice bounds the dice of a term read die by die (keep, drop,
	// pools, counting).
	MaxPoolDice = 255
	// MaxSides bounds the sides of a die.
	MaxSides = 100_000
	// MaxExplodeLimit bounds a written explosion limit ("!{n}").
	MaxExplodeLimit = 1000
	// maxFiniteBurst bounds the values of an exploding die made finite (a
	// limited explosion under keep or a pool).
	maxFiniteBurst = 1 << 16
)

// Error is a problem with a rule's text: where (the expression's line and
// column) and what.
type Error struct {
	Pos notation.Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
}

func errAt(p notation.Pos, format string, a ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, a...)}
}

// kind is what an expression's value is while a rule is compiled.
type kind int

const (
	// det is a deterministic function of the record's fields and the
	// parameters: an output expression.
	det kind = iota
	// rnd is a fresh random integer, independent of every field so far: a
	// node, not yet a field.
	rnd
)

type value struct {
	kind  kind
	e     expr.Expr      // det
	node  mechanics.Node // rnd
	lo    int            // rnd: bounds of the node's values
	hi    int
	event bool // a truth value (0 or 1)
	// from is the notation a random value was written as: an anonymous
	// field's description, so errors name "d6 - 1", not "_r1".
	from notation.Expr
}

func detV(e expr.Expr) value                  { return value{kind: det, e: e} }
func rndV(n mechanics.Node, lo, hi int) value { return value{kind: rnd, node: n, lo: lo, hi: hi} }

// asEvent marks a value a truth value.
func asEvent(v value) value { v.event = true; return v }

// component is one independent random part of the outcome record: a node
// and the fields it fills (one field holding the node's value, or the
// fields of a joint pool, decoded from its sub-record).
type component struct {
	node   mechanics.Node
	fields []mechanics.Field
	sub    *mechanics.Record // joint pools: the node yields sub-record codes
}

// compiler holds one compilation of a rule at one configuration.
type compiler struct {
	params map[string]expr.Rat
	// binds are the bindings compiled so far; pools the bindings that are
	// pools (read die by die), with the field of each statistic used.
	binds     map[string]value
	bindOrder []string
	pools     map[string]*poolBinding
	comps     []component
	used      map[string]bool // field names
	anon      int
	names     []string // every name visible, for suggestions
	// knownAt caches known's answers (by expression) while pools are
	// collected: each condition is asked about once per pass.
	knownAt map[notation.Expr]knownValue
}

type knownValue struct {
	v  expr.Rat
	ok bool
}

// poolBinding is a named pool: its dice and the statistics the rule reads,
// each a field of one joint component.
type poolBinding struct {
	die   mechanics.Die
	n     int
	stats []kit.PoolStat
	keys  []string          // stat keys, parallel to stats
	field map[string]string // stat key → field name
	// faces are the die's distinct faces, ascending, when known before
	// the pool is bound (nil otherwise).
	faces []int
}

func newCompiler(params map[string]expr.Rat) *compiler {
	c := &compiler{params: params, binds: map[string]value{}, pools: map[string]*poolBinding{}, used: map[string]bool{}}
	for n := range params {
		c.names = append(c.names, n)
		c.used[n] = true
	}
	slices.Sort(c.names)
	return c
}

// fresh reserves a field name for an anonymous random part.
func (c *compiler) fresh(hint string) string {
	for {
		c.anon++
		n := fmt.Sprintf("_%s%d", hint, c.anon)
		if !c.used[n] {
			c.used[n] = true
			return n
		}
	}
}

// field makes a random value a field of the record (name it as given, or
// anonymously) and returns the expression that reads it.
func (c *compiler) field(v value, name, doc string) value {
	if v.kind == det {
		return v
	}
	if name == "" {
		name = c.fresh("r")
		if doc == "" && v.from != nil {
			doc = notation.String(v.from)
		}
	}
	c.used[name] = true
	f := mechanics.Int(name, v.lo, v.hi, doc)
	if v.event {
		f = mechanics.Flag(name, doc)
	}
	c.comps = append(c.comps, component{node: v.node, fields: []mechanics.Field{f}})
	out := detV(expr.F(name))
	out.event = v.event
	return out
}

// asDet turns any value into an expression (a random one becomes a field).
func (c *compiler) asDet(v value) expr.Expr { return c.field(v, "", "").e }

// constant evaluates an expression that must not depend on any roll
// (dice counts and sides, keep counts, limits): a rational.
func (c *compiler) constant(e notation.Expr, what string) (expr.Rat, error) {
	v, err := c.compile(e)
	if err != nil {
		return expr.Rat{}, err
	}
	if v.kind != det || len(expr.Refs(v.e)) > 0 {
		return expr.Rat{}, errAt(e.Pos(), "%s must not depend on a roll: %s", what, e)
	}
	r, err := evalConst(v.e)
	if errors.Is(err, expr.ErrOverflow) {
		return expr.Rat{}, errAt(e.Pos(), "%s is too large for exact arithmetic (over 64 bits)", what)
	}
	if err != nil {
		return expr.Rat{}, errAt(e.Pos(), "%s: %v", what, err)
	}
	return r, nil
}

// intConst is constant for a whole number in [lo, hi].
func (c *compiler) intConst(e notation.Expr, what string, lo, hi int64) (int, error) {
	r, err := c.constant(e, what)
	if err != nil {
		return 0, err
	}
	if !r.IsInt() {
		return 0, errAt(e.Pos(), "%s must be a whole number, got %s (%s)", what, r, e)
	}
	if r.N < lo || r.N > hi {
		return 0, errAt(e.Pos(), "%s = %d is out of range [%d, %d]", what, r.N, lo, hi)
	}
	return int(r.N), nil
}

// evalConst evaluates an expression without fields. Program.Eval returns
// what the expression's own arithmetic fails on (a division by zero, a
// lookup without a case, an overflow) as an error; any other panic is a
// bug and is not recovered here.
func evalConst(e expr.Expr) (expr.Rat, error) {
	p, err := expr.Compile(e, func(string) (int, bool) { return 0, false })
	if err != nil {
		return expr.Rat{}, err
	}
	return p.Eval(nil)
}

// compile turns one expression into a value.
func (c *compiler) compile(e notation.Expr) (value, error) {
	v, err := c.compileNode(e)
	if err == nil && v.kind == rnd && v.from == nil {
		v.from = e
	}
	return v, err
}

// compilePair compiles two operands, x first.
func (c *compiler) compilePair(x, y notation.Expr) (value, value, error) {
	vx, err := c.compile(x)
	if err != nil {
		return value{}, value{}, err
	}
	vy, err := c.compile(y)
	return vx, vy, err
}

func (c *compiler) compileNode(e notation.Expr) (value, error) {
	switch e := e.(type) {
	case *notation.Num:
		return detV(expr.Lit{V: e.Value}), nil
	case *notation.Name:
		return c.name(e)
	case *notation.Dice:
		return c.dice(e)
	case *notation.Group:
		return c.group(e)
	case *notation.Neg:
		x, err := c.compile(e.X)
		if err != nil {
			return value{}, err
		}
		if x.kind == rnd {
			return rndV(mechanics.Scale{X: x.node, K: -1}, -x.hi, -x.lo), nil
		}
		return detV(expr.Neg(x.e)), nil
	case *notation.Binary:
		return c.binary(e)
	case *notation.Compare:
		return c.compare(e)
	case *notation.Logic:
		x, y, err := c.compilePair(e.X, e.Y)
		if err != nil {
			return value{}, err
		}
		if e.Op == notation.And {
			return asEvent(detV(expr.And(c.asDet(x), c.asDet(y)))), nil
		}
		return asEvent(detV(expr.Or(c.asDet(x), c.asDet(y)))), nil
	case *notation.Not:
		x, err := c.compile(e.X)
		if err != nil {
			return value{}, err
		}
		return asEvent(detV(expr.Not(c.asDet(x)))), nil
	case *notation.If:
		return c.ifThen(e)
	case *notation.Call:
		return c.call(e)
	case *notation.Filter:
		return value{}, errAt(e.At, "a pool comparison (%s) belongs inside count, all or any", e)
	case *notation.Lookup:
		return c.lookup(e)
	}
	return value{}, errAt(e.Pos(), "unsupported expression %s", e)
}

func (c *compiler) name(e *notation.Name) (value, error) {
	if p, ok := c.params[e.Name]; ok {
		return detV(expr.Lit{V: p}), nil
	}
	if pb, ok := c.pools[e.Name]; ok {
		// A pool read as a number is its sum.
		return detV(expr.F(pb.field[statKey(kit.PoolSum{})])), nil
	}
	if v, ok := c.binds[e.Name]; ok {
		return v, nil
	}
	msg := fmt.Sprintf("unknown name %q", e.Name)
	if s := suggest.Closest(e.Name, append(slices.Clone(c.names), c.bindOrder...)); s != "" {
		msg += fmt.Sprintf(" — did you mean %q?", s)
	}
	return value{}, errAt(e.At, "%s", msg)
}

// binary is arithmetic: on independent random parts it stays a node (a
// sum, a scaled roll, a combination); with fields or rational results it
// becomes an output expression.
func (c *compiler) binary(e *notation.Binary) (value, error) {
	x, y, err := c.compilePair(e.X, e.Y)
	if err != nil {
		return value{}, err
	}
	if e.Op == notation.Pow {
		return c.power(e, x, y)
	}
	if x.kind == rnd || y.kind == rnd {
		if v, ok := c.rndBinary(e.Op, x, y); ok {
			return v, nil
		}
	}
	a, b := c.asDet(x), c.asDet(y)
	switch e.Op {
	case notation.Add:
		return detV(expr.Add(a, b)), nil
	case notation.Sub:
		return detV(expr.Sub(a, b)), nil
	case notation.Mul:
		return detV(expr.Mul(a, b)), nil
	case notation.Div:
		return detV(expr.Div(a, b)), nil
	case notation.FloorDiv:
		return detV(expr.Floor(expr.Div(a, b))), nil
	case notation.Modulo:
		return detV(expr.Sub(a, expr.Mul(b, expr.Floor(expr.Div(a, b))))), nil
	}
	return value{}, errAt(e.OpAt, "unsupported operator %s", e.Op)
}

// MaxPower bounds the exponent of ^.
const MaxPower = 64

// power is x ^ k: the exponent must be a constant whole number from 0 to
// MaxPower; on a roll it is the roll's value to that power (3d6 ^ 2 is
// the square of the total), which must stay within ±2³¹.
func (c *compiler) power(e *notation.Binary, x, y value) (value, error) {
	if y.kind == rnd {
		return value{}, errAt(e.Y.Pos(), "the exponent of ^ must be a constant (a number or a parameter), not a roll: %s", e.Y.String())
	}
	r, err := constOf(y)
	if err != nil {
		return value{}, errAt(e.Y.Pos(), "the exponent of ^ must be a constant: %s %v", e.Y.String(), err)
	}
	if !r.IsInt() || r.N < 0 || r.N > MaxPower {
		return value{}, errAt(e.Y.Pos(), "the exponent of ^ must be a whole number from 0 to %d, found %s", MaxPower, r)
	}
	k := int(r.N)
	if x.kind == rnd {
		pow := func(a int) int {
			v := 1
			for range k {
				v *= a
			}
			return v
		}
		lo, hi := pow(x.lo), pow(x.hi)
		lo, hi = min(lo, hi), max(lo, hi)
		if x.lo < 0 && x.hi > 0 && k > 0 {
			lo = min(lo, 0)
		}
		for _, b := range []int{x.lo, x.hi} {
			if math.Abs(math.Pow(float64(b), float64(k))) > math.MaxInt32 {
				return value{}, errAt(e.OpAt, "%s can reach %d ^ %d, past ±2³¹", e.String(), b, k)
			}
		}
		return rndV(mechanics.Map{X: x.node, F: pow, Name: fmt.Sprintf("^ %d", k)}, lo, hi), nil
	}
	a := c.asDet(x)
	out := expr.Expr(expr.Lit{V: expr.Int(1)})
	if k > 0 {
		out = a
		for range k - 1 {
			out = expr.Mul(out, a)
		}
	}
	return detV(out), nil
}

// intOf is the value of a constant det expression when it is a whole
// number.
func intOf(v value) (int, bool) {
	r, err := constOf(v)
	if err != nil || !r.IsInt() || r.N > math.MaxInt32 || r.N < math.MinInt32 {
		return 0, false
	}
	return int(r.N), true
}

// rndBinary keeps arithmetic on independent random parts (and whole
// constants) a node where that is exact in integers.
func (c *compiler) rndBinary(op notation.BinOp, x, y value) (value, bool) {
	kx, xConst := intOf(x)
	ky, yConst := intOf(y)
	switch {
	case x.kind == rnd && y.kind == rnd:
		switch op {
		case notation.Add:
			return rndV(mechanics.Sum{Terms: []mechanics.Node{x.node, y.node}}, x.lo+y.lo, x.hi+y.hi), true
		case notation.Sub:
			return rndV(mechanics.Sum{Terms: []mechanics.Node{x.node, mechanics.Scale{X: y.node, K: -1}}}, x.lo-y.hi, x.hi-y.lo), true
		case notation.Mul:
			lo, hi := corners(x.lo, x.hi, y.lo, y.hi)
			return rndV(mechanics.Combine{X: x.node, Y: y.node, F: func(a, b int) int { return a * b }, Name: "×"}, lo, hi), true
		}
	case x.kind == rnd && yConst:
		switch op {
		case notation.Add:
			return rndV(mechanics.Sum{Terms: []mechanics.Node{x.node, mechanics.Const{V: ky}}}, x.lo+ky, x.hi+ky), true
		case notation.Sub:
			return rndV(mechanics.Sum{Terms: []mechanics.Node{x.node, mechanics.Const{V: -ky}}}, x.lo-ky, x.hi-ky), true
		case notation.Mul:
			lo, hi := corners(x.lo, x.hi, ky, ky)
			return rndV(mechanics.Scale{X: x.node, K: ky}, lo, hi), true
		case notation.FloorDiv:
			if ky > 0 {
				return rndV(mechanics.Map{X: x.node, F: func(a int) int { return floorDiv(a, ky) }, Name: fmt.Sprintf("// %d", ky)},
					floorDiv(x.lo, ky), floorDiv(x.hi, ky)), true
			}
		case notation.Modulo:
			if ky > 0 {
				return rndV(mechanics.Map{X: x.node, F: func(a int) int { return a - ky*floorDiv(a, ky) }, Name: fmt.Sprintf("%% %d", ky)},
					0, ky-1), true
			}
		}
	case y.kind == rnd && xConst:
		switch op {
		case notation.Add:
			return rndV(mechanics.Sum{Terms: []mechanics.Node{mechanics.Const{V: kx}, y.node}}, kx+y.lo, kx+y.hi), true
		case notation.Sub:
			return rndV(mechanics.Sum{Terms: []mechanics.Node{mechanics.Const{V: kx}, mechanics.Scale{X: y.node, K: -1}}}, kx-y.hi, kx-y.lo), true
		case notation.Mul:
			lo, hi := corners(y.lo, y.hi, kx, kx)
			return rndV(mechanics.Scale{X: y.node, K: kx}, lo, hi), true
		}
	}
	return value{}, false
}

func corners(a, b, c, d int) (lo, hi int) {
	ps := []int{a * c, a * d, b * c, b * d}
	return slices.Min(ps), slices.Max(ps)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

var cmpOps = map[notation.CmpOp]mechanics.CmpOp{
	notation.Eq: mechanics.EQ, notation.Ne: mechanics.NE, notation.Lt: mechanics.LT,
	notation.Le: mechanics.LE, notation.Gt: mechanics.GT, notation.Ge: mechanics.GE,
}

func (c *compiler) compare(e *notation.Compare) (value, error) {
	x, y, err := c.compilePair(e.X, e.Y)
	if err != nil {
		return value{}, err
	}
	op := cmpOps[e.Op]
	if x.kind == rnd {
		if k, ok := intOf(y); ok {
			return asEvent(rndV(mechanics.Compare{X: x.node, Op: op, T: k}, 0, 1)), nil
		}
		if y.kind == rnd {
			return asEvent(rndV(mechanics.Combine{X: x.node, Y: y.node, F: func(a, b int) int { return b2i(op.Holds(a, b)) }, Name: op.String()}, 0, 1)), nil
		}
	}
	return asEvent(detV(kit.Compare(c.asDet(x), op, c.asDet(y)))), nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (c *compiler) ifThen(e *notation.If) (value, error) {
	cond, err := c.compile(e.Cond)
	if err != nil {
		return value{}, err
	}
	if k, err := constOf(cond); err == nil {
		// A condition on the parameters alone: only its branch is rolled.
		if k.N != 0 {
			return c.compile(e.Then)
		}
		return c.compile(e.Else)
	}
	th, err := c.compile(e.Then)
	if err != nil {
		return value{}, err
	}
	el, err := c.compile(e.Else)
	if err != nil {
		return value{}, err
	}
	if cond.kind == rnd && th.kind == rnd && el.kind == rnd {
		// Three independent parts: a two-way mixture.
		v := rndV(mechanics.Cond{If: cond.node, Then: th.node, Else: el.node}, min(th.lo, el.lo), max(th.hi, el.hi))
		v.event = th.event && el.event
		return v, nil
	}
	v := detV(expr.Cond(c.asDet(cond), c.asDet(th), c.asDet(el)))
	v.event = th.event && el.event
	return v, nil
}

// caseOf is the value a lookup gives a known key: its case's, the
// default's, or nil when neither holds it.
func caseOf(e *notation.Lookup, k expr.Rat) notation.Expr {
	for _, cs := range e.Cases {
		if (cs.Lo == nil || k.Cmp(expr.Int(*cs.Lo)) >= 0) && (cs.Hi == nil || k.Cmp(expr.Int(*cs.Hi)) <= 0) {
			return cs.Value
		}
	}
	return e.Default
}

func (c *compiler) lookup(e *notation.Lookup) (value, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return value{}, err
	}
	if k, err := constOf(x); err == nil {
		// A key of the parameters alone: only its case is rolled.
		if v := caseOf(e, k); v != nil {
			return c.compile(v)
		}
		return value{}, errAt(e.At, "the lookup has no case for %s", k)
	}
	xe := c.asDet(x)
	// Built from the last case back: if x in case then value else (…).
	var out expr.Expr
	if e.Default != nil {
		d, err := c.compile(e.Default)
		if err != nil {
			return value{}, err
		}
		out = c.asDet(d)
	} else {
		// No default: a value outside every case is an error of the rule,
		// found when it happens.
		out = expr.Call("no case of the lookup", func([]expr.Rat) expr.Rat {
			expr.Fail("%s: the lookup has no case for this value", e.At)
			return expr.Rat{}
		})
	}
	for i := len(e.Cases) - 1; i >= 0; i-- {
		cs := e.Cases[i]
		v, err := c.compile(cs.Value)
		if err != nil {
			return value{}, err
		}
		var in expr.Expr = expr.K(1)
		if cs.Lo != nil {
			in = expr.And(in, expr.Ge(xe, expr.K(*cs.Lo)))
		}
		if cs.Hi != nil {
			in = expr.And(in, expr.Le(xe, expr.K(*cs.Hi)))
		}
		out = expr.Cond(in, c.asDet(v), out)
	}
	return detV(out), nil
}

// call is a function: abs, floor, ceil, round, min, max, clamp, or a pool
// evaluator.
func (c *compiler) call(e *notation.Call) (value, error) {
	if notation.PoolFunction(e.Name) {
		return c.poolCall(e)
	}
	args := make([]value, len(e.Args))
	for i, a := range e.Args {
		v, err := c.compile(a)
		if err != nil {
			return value{}, err
		}
		args[i] = v
	}
	allRnd := true
	for _, a := range args {
		allRnd = allRnd && a.kind == rnd
	}
	switch e.Name {
	case "abs":
		x := args[0]
		if x.kind == rnd {
			return rndV(mechanics.Map{X: x.node, F: func(a int) int { return max(a, -a) }, Name: "abs"},
				max(0, x.lo, -x.hi), max(x.hi, -x.lo)), nil
		}
		return detV(expr.Abs(x.e)), nil
	case "floor", "ceil", "round":
		if args[0].kind == rnd {
			return args[0], nil // whole already
		}
		x := args[0].e
		switch e.Name {
		case "floor":
			return detV(expr.Floor(x)), nil
		case "ceil":
			return detV(expr.Ceil(x)), nil
		}
		// Halves away from zero: sign(x)·floor(|x| + 1/2).
		half := expr.Floor(expr.Add(expr.Abs(x), expr.Q(1, 2)))
		return detV(expr.Cond(expr.Lt(x, expr.K(0)), expr.Neg(half), half)), nil
	case "min", "max":
		if allRnd {
			terms := make([]mechanics.Node, len(args))
			lo, hi := args[0].lo, args[0].hi
			for i, a := range args {
				terms[i] = a.node
				if e.Name == "min" {
					lo, hi = min(lo, a.lo), min(hi, a.hi)
				} else {
					lo, hi = max(lo, a.lo), max(hi, a.hi)
				}
			}
			if e.Name == "min" {
				return rndV(mechanics.Min{Terms: terms}, lo, hi), nil
			}
			return rndV(mechanics.Max{Terms: terms}, lo, hi), nil
		}
		out := c.asDet(args[0])
		for _, a := range args[1:] {
			if e.Name == "min" {
				out = expr.Min(out, c.asDet(a))
			} else {
				out = expr.Max(out, c.asDet(a))
			}
		}
		return detV(out), nil
	case "clamp":
		lo, okLo := intOf(args[1])
		hi, okHi := intOf(args[2])
		if args[0].kind == rnd && okLo && okHi {
			// min(max(x, lo), hi): crossed bounds give hi, as for numbers.
			lo = min(lo, hi)
			x := args[0]
			return rndV(mechanics.Clamp{X: x.node, Lo: lo, Hi: hi}, min(max(x.lo, lo), hi), min(max(x.hi, lo), hi)), nil
		}
		return detV(expr.Min(expr.Max(c.asDet(args[0]), c.asDet(args[1])), c.asDet(args[2]))), nil
	}
	return value{}, errAt(e.At, "unknown function %q", e.Name)
}

// statKey names a statistic for field names and sharing.
func statKey(s kit.PoolStat) string { return statKeys.Replace(s.Name()) }

var statKeys = strings.NewReplacer(" ", "_", ">=", "ge", "<=", "le", "==", "eq", "!=", "ne", ">", "gt", "<", "lt", "-", "m")
