package notation

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// String prints an expression as canonical text: binary operators with a
// space on each side, ", " between arguments, the fewest parentheses the
// precedence needs (and around an if inside the condition or then branch of
// another), numbers in shortest decimal form, dice modifiers in their long
// forms (kh, dl, cs) with a bare value for "=" (r1). Parsing the text gives
// the same tree, positions aside, for every tree Parse returns. Trees built
// by hand print the same way; those Parse could not give (a negative Num
// outside a condition or face, 1/3 as a Num, a Filter outside count, all
// or any) may read back differently.
func String(e Expr) string {
	var p printer
	p.expr(e, lvlIf)
	return p.String()
}

// Precedence levels, loosest first (see the package doc).
const (
	lvlIf = iota
	lvlOr
	lvlAnd
	lvlNot
	lvlCmp
	lvlSum
	lvlProd
	lvlUnary
	lvlPow
	lvlAtom
)

func binLevel(op BinOp) int {
	switch op {
	case Add, Sub:
		return lvlSum
	case Pow:
		return lvlPow
	}
	return lvlProd
}

// printer writes the canonical text of expressions and dice modifiers.
type printer struct {
	strings.Builder
	// labelled, when set, is what stands for a labelled dice term.
	labelled func(*Dice) string
}

// StringLabels is String with each labelled dice term (2d6[Fire]) written
// as name(d) instead of the term (the term itself where name(d) is "").
func StringLabels(e Expr, name func(*Dice) string) string {
	p := printer{labelled: name}
	p.expr(e, lvlIf)
	return p.String()
}

// group writes what body writes, in parentheses when a node of level l
// sits where the surrounding context (outer) binds tighter.
func (p *printer) group(l, outer int, body func()) {
	if l < outer {
		p.WriteByte('(')
	}
	body()
	if l < outer {
		p.WriteByte(')')
	}
}

// infix writes x op y as a node of level l, its operands at the levels
// they need (lx, ly).
func (p *printer) infix(outer, l int, x Expr, lx int, op fmt.Stringer, y Expr, ly int) {
	p.group(l, outer, func() {
		p.expr(x, lx)
		fmt.Fprintf(p, " %s ", op)
		p.expr(y, ly)
	})
}

// expr writes e where the context binds as tightly as level outer.
func (p *printer) expr(e Expr, outer int) {
	switch e := e.(type) {
	case *Num:
		p.num(e, outer)
	case *Name:
		p.WriteString(e.Name)
	case *Dice:
		if p.labelled != nil && e.Label != "" {
			if s := p.labelled(e); s != "" {
				p.WriteString(s)
				break
			}
		}
		p.dice(e)
	case *Group:
		p.list('{', e.Items, '}')
		for _, m := range e.Mods {
			p.mod(m)
		}
	case *Neg:
		p.group(lvlUnary, outer, func() {
			p.WriteByte('-')
			if isNegative(e.X) {
				p.WriteByte('(')
				p.expr(e.X, lvlIf)
				p.WriteByte(')')
			} else {
				p.expr(e.X, lvlUnary)
			}
		})
	case *Binary:
		l := binLevel(e.Op)
		if e.Op == Pow {
			// Right-associative, tighter than a unary minus: -2 ^ 2 is
			// -(2 ^ 2), 2 ^ 3 ^ 2 is 2 ^ (3 ^ 2).
			p.infix(outer, l, e.X, lvlAtom, e.Op, e.Y, lvlUnary)
			break
		}
		p.infix(outer, l, e.X, l, e.Op, e.Y, l+1)
	case *Compare:
		p.infix(outer, lvlCmp, e.X, lvlSum, e.Op, e.Y, lvlSum)
	case *Filter:
		p.infix(outer, lvlCmp, e.Pool, lvlSum, e.Op, e.Value, lvlSum)
	case *Logic:
		l := lvlOr
		if e.Op == And {
			l = lvlAnd
		}
		p.infix(outer, l, e.X, l, e.Op, e.Y, l+1)
	case *Not:
		p.group(lvlNot, outer, func() {
			p.WriteString("not ")
			p.expr(e.X, lvlNot)
		})
	case *If:
		p.group(lvlIf, outer, func() {
			p.WriteString("if ")
			p.expr(e.Cond, lvlOr)
			p.WriteString(" then ")
			p.expr(e.Then, lvlOr)
			p.WriteString(" else ")
			p.expr(e.Else, lvlIf)
		})
	case *Call:
		p.call(e)
	case *Lookup:
		p.lookup(e)
	case nil:
		p.WriteString("<nil>")
	default:
		fmt.Fprintf(p, "<%T>", e)
	}
}

// num writes a number: in shortest decimal form (a negative one as a
// unary minus would be), or as a division when it has none.
func (p *printer) num(e *Num, outer int) {
	s, ok := numText(e.Value)
	switch {
	case !ok:
		fmt.Fprintf(p, "(%d / %d)", e.Value.N, e.Value.D)
	case strings.HasPrefix(s, "-"):
		p.group(lvlUnary, outer, func() { p.WriteString(s) })
	default:
		p.WriteString(s)
	}
}

// call writes a function call: name(arg, …).
func (p *printer) call(e *Call) {
	p.WriteString(e.Name)
	p.list('(', e.Args, ')')
}

// list writes expressions between open and close, separated by ", ".
func (p *printer) list(open byte, xs []Expr, close byte) {
	p.WriteByte(open)
	for i, x := range xs {
		if i > 0 {
			p.WriteString(", ")
		}
		p.expr(x, lvlIf)
	}
	p.WriteByte(close)
}

// lookup writes a lookup table: lookup(x, {case: value, …, _: default}).
func (p *printer) lookup(e *Lookup) {
	p.WriteString("lookup(")
	p.expr(e.X, lvlIf)
	p.WriteString(", {")
	for i, c := range e.Cases {
		if i > 0 {
			p.WriteString(", ")
		}
		p.WriteString(caseKey(c))
		p.WriteString(": ")
		p.expr(c.Value, lvlIf)
	}
	if e.Default != nil {
		if len(e.Cases) > 0 {
			p.WriteString(", ")
		}
		p.WriteString("_: ")
		p.expr(e.Default, lvlIf)
	}
	p.WriteString("})")
}

// isNegative reports a node that prints with a leading "-".
func isNegative(e Expr) bool {
	switch e := e.(type) {
	case *Neg:
		return true
	case *Num:
		s, ok := numText(e.Value)
		return ok && strings.HasPrefix(s, "-")
	}
	return false
}

// operand writes a count, sides or modifier count: a whole literal bare,
// anything else in parentheses.
func (p *printer) operand(e Expr) {
	if n, ok := e.(*Num); ok {
		if v := n.Value; (v.D == 1 || v.D == 0) && v.N >= 0 {
			p.WriteString(strconv.FormatInt(v.N, 10))
			return
		}
	}
	p.WriteByte('(')
	p.expr(e, lvlIf)
	p.WriteByte(')')
}

// dice writes a dice term: its count, its die, its modifiers.
func (p *printer) dice(d *Dice) {
	if d.Count != nil {
		p.operand(d.Count)
	}
	p.WriteByte('d')
	switch d.Kind {
	case Percent:
		p.WriteByte('%')
	case Fudge:
		p.WriteByte('F')
	case Custom:
		p.faces(d.Faces)
	default:
		p.operand(d.Sides)
	}
	for _, m := range d.Mods {
		p.mod(m)
	}
	if d.Label != "" {
		p.WriteString("[" + d.Label + "]")
	}
}

// onceMod writes a modifier that acts repeatedly or once (r, ro, u, uo)
// with its condition.
func (p *printer) onceMod(letter byte, once bool, c *Cond) {
	p.WriteByte(letter)
	if once {
		p.WriteByte('o')
	}
	p.cond(c)
}

// faces writes the faces of a die d{…}.
func (p *printer) faces(faces []*Num) {
	p.WriteByte('{')
	for i, f := range faces {
		if i > 0 {
			p.WriteString(", ")
		}
		if f == nil {
			p.WriteString("<nil>")
			continue
		}
		if s, ok := numText(f.Value); ok {
			p.WriteString(s)
		} else {
			p.WriteString(f.Value.String())
		}
	}
	p.WriteByte('}')
}

// modString is the canonical text of a dice modifier alone.
func modString(m Mod) string {
	var p printer
	p.mod(m)
	return p.String()
}

// mod writes a dice modifier in its long form (kh, dl, cs).
func (p *printer) mod(m Mod) {
	end := func(e End) string {
		if e == Low {
			return "l"
		}
		return "h"
	}
	switch m := m.(type) {
	case *Keep:
		p.WriteString("k" + end(m.End))
		if m.Count != nil {
			p.operand(m.Count)
		}
	case *Drop:
		p.WriteString("d" + end(m.End))
		if m.Count != nil {
			p.operand(m.Count)
		}
	case *Explode:
		p.WriteByte('!')
		if m.Compound {
			p.WriteByte('!')
		}
		if m.Penetrate {
			p.WriteByte('p')
		}
		if m.Each {
			p.WriteByte('e')
		}
		p.cond(m.Cond)
		if m.Limit != nil || m.Total != nil {
			p.WriteByte('{')
			if m.Limit != nil {
				p.expr(m.Limit, lvlIf)
			}
			if m.Total != nil {
				if m.Limit != nil {
					p.WriteString(", ")
				}
				p.expr(m.Total, lvlIf)
				p.WriteString(" in all")
			}
			p.WriteByte('}')
		}
	case *Reroll:
		p.onceMod('r', m.Once, m.Cond)
	case *CountSuccess:
		if m.Hash && m.Cond != nil {
			p.WriteByte('#')
		} else {
			p.WriteString("cs")
		}
		p.cond(m.Cond)
	case *CountFail:
		p.WriteString("cf")
		p.cond(m.Cond)
	case *FaceBound:
		if m.Max {
			p.WriteString("max")
		} else {
			p.WriteString("min")
		}
		p.value(m.Value)
	case *Unique:
		p.onceMod('u', m.Once, m.Cond)
	case *Matches:
		p.WriteString("mt")
		if m.Size != nil {
			p.operand(m.Size)
		}
		if c := m.Cond; c != nil && c.Op == Eq {
			// A bare number after mt is the size: "=" is written.
			p.WriteByte('=')
			p.value(c.Value)
		} else {
			p.cond(c)
		}
	default:
		fmt.Fprintf(p, "<%T>", m)
	}
}

// value writes a modifier's value: a number as it is (negative ones
// too: min-1), anything else in parentheses.
func (p *printer) value(e Expr) {
	if n, ok := e.(*Num); ok {
		if s, ok := numText(n.Value); ok {
			p.WriteString(s)
			return
		}
	}
	p.WriteByte('(')
	p.expr(e, lvlIf)
	p.WriteByte(')')
}

// condOps are the operators of dice conditions as written.
var condOps = [...]string{Eq: "=", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

// cond writes a modifier's condition: a bare value for "=" (r1), else its
// operator and value.
func (p *printer) cond(c *Cond) {
	if c == nil {
		return
	}
	op := "?"
	if int(c.Op) < len(condOps) {
		op = condOps[c.Op]
	}
	if n, ok := c.Value.(*Num); ok {
		if s, ok := numText(n.Value); ok {
			if c.Op != Eq || strings.HasPrefix(s, "-") {
				p.WriteString(op)
			}
			p.WriteString(s)
			return
		}
	}
	if c.Op != Eq {
		p.WriteString(op)
	}
	p.WriteByte('(')
	p.expr(c.Value, lvlIf)
	p.WriteByte(')')
}

// numText is the shortest decimal text of v, false when v is not a
// terminating decimal (1/3).
func numText(v expr.Rat) (string, bool) {
	n, d := v.N, v.D
	if d == 0 {
		d = 1
	}
	if d == 1 {
		return strconv.FormatInt(n, 10), true
	}
	if d < 0 {
		return "", false
	}
	rest, twos, fives := d, 0, 0
	for rest%2 == 0 {
		rest /= 2
		twos++
	}
	for rest%5 == 0 {
		rest /= 5
		fives++
	}
	if rest != 1 {
		return "", false
	}
	// n/d = n·2^(k-twos)·5^(k-fives) / 10^k.
	k := max(twos, fives)
	x := big.NewInt(n)
	x.Mul(x, new(big.Int).Exp(big.NewInt(2), big.NewInt(int64(k-twos)), nil))
	x.Mul(x, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k-fives)), nil))
	digits := x.String()
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= k {
		digits = strings.Repeat("0", k-len(digits)+1) + digits
	}
	s := sign + digits[:len(digits)-k] + "." + digits[len(digits)-k:]
	// A Num built by hand may not be reduced (5/10): drop trailing zeros.
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, "."), true
}
