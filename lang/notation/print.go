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
	var b strings.Builder
	write(&b, e, lvlIf)
	return b.String()
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
)

func binLevel(op BinOp) int {
	if op == Add || op == Sub {
		return lvlSum
	}
	return lvlProd
}

func write(b *strings.Builder, e Expr, outer int) {
	open := func(l int) {
		if l < outer {
			b.WriteByte('(')
		}
	}
	closeIf := func(l int) {
		if l < outer {
			b.WriteByte(')')
		}
	}
	switch e := e.(type) {
	case *Num:
		s, ok := numText(e.Value)
		switch {
		case !ok:
			fmt.Fprintf(b, "(%d / %d)", e.Value.N, e.Value.D)
		case strings.HasPrefix(s, "-"):
			open(lvlUnary)
			b.WriteString(s)
			closeIf(lvlUnary)
		default:
			b.WriteString(s)
		}
	case *Name:
		b.WriteString(e.Name)
	case *Dice:
		writeDice(b, e)
	case *Neg:
		open(lvlUnary)
		b.WriteByte('-')
		if isNegative(e.X) {
			b.WriteByte('(')
			write(b, e.X, lvlIf)
			b.WriteByte(')')
		} else {
			write(b, e.X, lvlUnary)
		}
		closeIf(lvlUnary)
	case *Binary:
		l := binLevel(e.Op)
		open(l)
		write(b, e.X, l)
		fmt.Fprintf(b, " %s ", e.Op)
		write(b, e.Y, l+1)
		closeIf(l)
	case *Compare:
		open(lvlCmp)
		write(b, e.X, lvlSum)
		fmt.Fprintf(b, " %s ", e.Op)
		write(b, e.Y, lvlSum)
		closeIf(lvlCmp)
	case *Filter:
		open(lvlCmp)
		write(b, e.Pool, lvlSum)
		fmt.Fprintf(b, " %s ", e.Op)
		write(b, e.Value, lvlSum)
		closeIf(lvlCmp)
	case *Logic:
		l := lvlOr
		if e.Op == And {
			l = lvlAnd
		}
		open(l)
		write(b, e.X, l)
		fmt.Fprintf(b, " %s ", e.Op)
		write(b, e.Y, l+1)
		closeIf(l)
	case *Not:
		open(lvlNot)
		b.WriteString("not ")
		write(b, e.X, lvlNot)
		closeIf(lvlNot)
	case *If:
		open(lvlIf)
		b.WriteString("if ")
		write(b, e.Cond, lvlOr)
		b.WriteString(" then ")
		write(b, e.Then, lvlOr)
		b.WriteString(" else ")
		write(b, e.Else, lvlIf)
		closeIf(lvlIf)
	case *Call:
		b.WriteString(e.Name)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, a, lvlIf)
		}
		b.WriteByte(')')
	case *Lookup:
		b.WriteString("lookup(")
		write(b, e.X, lvlIf)
		b.WriteString(", {")
		for i, c := range e.Cases {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(caseKey(c))
			b.WriteString(": ")
			write(b, c.Value, lvlIf)
		}
		if e.Default != nil {
			if len(e.Cases) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("_: ")
			write(b, e.Default, lvlIf)
		}
		b.WriteString("})")
	case nil:
		b.WriteString("<nil>")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
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

// writeOperand writes a count, sides or modifier count: a whole literal
// bare, anything else in parentheses.
func writeOperand(b *strings.Builder, e Expr) {
	if n, ok := e.(*Num); ok {
		if v := n.Value; (v.D == 1 || v.D == 0) && v.N >= 0 {
			b.WriteString(strconv.FormatInt(v.N, 10))
			return
		}
	}
	b.WriteByte('(')
	write(b, e, lvlIf)
	b.WriteByte(')')
}

func writeDice(b *strings.Builder, d *Dice) {
	if d.Count != nil {
		writeOperand(b, d.Count)
	}
	b.WriteByte('d')
	switch d.Kind {
	case Percent:
		b.WriteByte('%')
	case Fudge:
		b.WriteByte('F')
	case Custom:
		b.WriteByte('{')
		for i, f := range d.Faces {
			if i > 0 {
				b.WriteString(", ")
			}
			if f == nil {
				b.WriteString("<nil>")
				continue
			}
			if s, ok := numText(f.Value); ok {
				b.WriteString(s)
			} else {
				b.WriteString(f.Value.String())
			}
		}
		b.WriteByte('}')
	default:
		writeOperand(b, d.Sides)
	}
	for _, m := range d.Mods {
		writeMod(b, m)
	}
}

func modString(m Mod) string {
	var b strings.Builder
	writeMod(&b, m)
	return b.String()
}

func writeMod(b *strings.Builder, m Mod) {
	end := func(e End) string {
		if e == Low {
			return "l"
		}
		return "h"
	}
	switch m := m.(type) {
	case *Keep:
		b.WriteString("k" + end(m.End))
		if m.Count != nil {
			writeOperand(b, m.Count)
		}
	case *Drop:
		b.WriteString("d" + end(m.End))
		if m.Count != nil {
			writeOperand(b, m.Count)
		}
	case *Explode:
		b.WriteByte('!')
		if m.Compound {
			b.WriteByte('!')
		}
		writeCond(b, m.Cond)
		if m.Limit != nil {
			b.WriteByte('{')
			write(b, m.Limit, lvlIf)
			b.WriteByte('}')
		}
	case *Reroll:
		b.WriteByte('r')
		if m.Once {
			b.WriteByte('o')
		}
		writeCond(b, m.Cond)
	case *CountSuccess:
		b.WriteString("cs")
		writeCond(b, m.Cond)
	case *CountFail:
		b.WriteString("cf")
		writeCond(b, m.Cond)
	default:
		fmt.Fprintf(b, "<%T>", m)
	}
}

// condOps are the operators of dice conditions as written.
var condOps = [...]string{Eq: "=", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

func writeCond(b *strings.Builder, c *Cond) {
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
				b.WriteString(op)
			}
			b.WriteString(s)
			return
		}
	}
	if c.Op != Eq {
		b.WriteString(op)
	}
	b.WriteByte('(')
	write(b, c.Value, lvlIf)
	b.WriteByte(')')
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
