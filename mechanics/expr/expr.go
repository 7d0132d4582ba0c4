package expr

import (
	"errors"
	"fmt"
	"strings"
)

// Expr is one expression node: Ref, Lit, Unary, Binary, If, Lookup or Func.
type Expr interface{ expr() }

// Ref is the value of a field of the outcome record.
type Ref struct{ Field string }

// Lit is a constant.
type Lit struct{ V Rat }

// UnOp is a unary operator.
type UnOp uint8

// Unary operators.
const (
	OpNeg UnOp = iota
	OpAbs
	OpFloor
	OpCeil
	OpNot
)

var unNames = [...]string{"-", "abs", "floor", "ceil", "not"}

func (o UnOp) String() string { return unNames[o] }

// Unary applies an operator to one operand.
type Unary struct {
	Op UnOp
	X  Expr
}

// BinOp is a binary operator.
type BinOp uint8

// Binary operators: arithmetic, min/max, comparisons (1 or 0) and logic.
const (
	OpAdd BinOp = iota
	OpSub
	OpMul
	OpDiv
	OpMin
	OpMax
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
)

var binNames = [...]string{"+", "-", "*", "/", "min", "max", "==", "!=", "<", "<=", ">", ">=", "and", "or"}

func (o BinOp) String() string { return binNames[o] }

// Binary applies an operator to two operands.
type Binary struct {
	Op   BinOp
	X, Y Expr
}

// If is Then when Cond is non-zero and Else otherwise.
type If struct{ Cond, Then, Else Expr }

// Lookup is Table[X − Lo]; X must be a whole number inside the table. It is
// how a value is read off a table computed when the model is built (the
// damage of each state of a chain, the label of each row).
type Lookup struct {
	X     Expr
	Lo    int64
	Table []Rat
}

// Func is the escape hatch: F receives the values of Args. Name says what it
// computes; describe prints it. Prefer the other nodes: a Func cannot be
// read, printed in full or written in the dice notation.
type Func struct {
	Name string
	Args []Expr
	F    func(args []Rat) Rat
}

func (Ref) expr()    {}
func (Lit) expr()    {}
func (Unary) expr()  {}
func (Binary) expr() {}
func (If) expr()     {}
func (Lookup) expr() {}
func (Func) expr()   {}

// Constructors, so that models read like formulas.

// F refers to a field.
func F(name string) Expr { return Ref{name} }

// K is the integer constant n.
func K(n int64) Expr { return Lit{Int(n)} }

// Q is the rational constant n/d.
func Q(n, d int64) Expr { return Lit{Frac(n, d)} }

func bin(op BinOp, x, y Expr) Expr { return Binary{op, x, y} }

// Add is x + y.
func Add(x, y Expr) Expr { return bin(OpAdd, x, y) }

// Sub is x − y.
func Sub(x, y Expr) Expr { return bin(OpSub, x, y) }

// Mul is x·y.
func Mul(x, y Expr) Expr { return bin(OpMul, x, y) }

// Div is x/y (an error where y = 0).
func Div(x, y Expr) Expr { return bin(OpDiv, x, y) }

// Min is the smaller of x and y.
func Min(x, y Expr) Expr { return bin(OpMin, x, y) }

// Max is the larger of x and y.
func Max(x, y Expr) Expr { return bin(OpMax, x, y) }

// Clamp is min(max(x, lo), hi).
func Clamp(x Expr, lo, hi int64) Expr { return Min(Max(x, K(lo)), K(hi)) }

// Eq is x == y.
func Eq(x, y Expr) Expr { return bin(OpEq, x, y) }

// Ne is x != y.
func Ne(x, y Expr) Expr { return bin(OpNe, x, y) }

// Lt is x < y.
func Lt(x, y Expr) Expr { return bin(OpLt, x, y) }

// Le is x <= y.
func Le(x, y Expr) Expr { return bin(OpLe, x, y) }

// Gt is x > y.
func Gt(x, y Expr) Expr { return bin(OpGt, x, y) }

// Ge is x >= y.
func Ge(x, y Expr) Expr { return bin(OpGe, x, y) }

// Neg is −x.
func Neg(x Expr) Expr { return Unary{OpNeg, x} }

// Abs is |x|.
func Abs(x Expr) Expr { return Unary{OpAbs, x} }

// Floor is ⌊x⌋.
func Floor(x Expr) Expr { return Unary{OpFloor, x} }

// Ceil is ⌈x⌉.
func Ceil(x Expr) Expr { return Unary{OpCeil, x} }

// Not is 1 where x is 0 and 0 otherwise.
func Not(x Expr) Expr { return Unary{OpNot, x} }

// And is 1 when every operand is non-zero (1 for no operands).
func And(xs ...Expr) Expr { return fold(OpAnd, K(1), xs) }

// Or is 1 when some operand is non-zero (0 for no operands).
func Or(xs ...Expr) Expr { return fold(OpOr, K(0), xs) }

func fold(op BinOp, empty Expr, xs []Expr) Expr {
	if len(xs) == 0 {
		return empty
	}
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = bin(op, acc, x)
	}
	return acc
}

// Cond is Then where c is non-zero, else Else.
func Cond(c, then, els Expr) Expr { return If{c, then, els} }

// Table is a lookup of x in integer values listed from lo.
func Table(x Expr, lo int64, values ...int64) Expr {
	t := make([]Rat, len(values))
	for i, v := range values {
		t[i] = Int(v)
	}
	return Lookup{X: x, Lo: lo, Table: t}
}

// Call is the escape hatch (see Func).
func Call(name string, f func(args []Rat) Rat, args ...Expr) Expr {
	return Func{Name: name, Args: args, F: f}
}

// Bool is 1 for true and 0 for false.
func Bool(b bool) Rat {
	if b {
		return Int(1)
	}
	return Int(0)
}

// String prints an expression in infix form ("damage >= 5 and not fumble").
func String(e Expr) string {
	var b strings.Builder
	printer{}.write(&b, e, 0)
	return b.String()
}

// Key is a canonical text of an expression that, unlike String, tells
// apart lookups of different tables over the same range: two expressions
// with the same Key compute the same thing.
func Key(e Expr) string {
	var b strings.Builder
	printer{full: true}.write(&b, e, 0)
	return b.String()
}

// precedence of binary operators for printing.
func prec(op BinOp) int {
	switch op {
	case OpOr:
		return 1
	case OpAnd:
		return 2
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 3
	case OpAdd, OpSub:
		return 4
	case OpMul, OpDiv:
		return 5
	}
	return 6 // min, max: function syntax
}

// printer writes expressions: full also writes every lookup table's
// entries (for Key).
type printer struct{ full bool }

func (pr printer) write(b *strings.Builder, e Expr, outer int) {
	switch e := e.(type) {
	case Ref:
		b.WriteString(e.Field)
	case Lit:
		b.WriteString(e.V.String())
	case Unary:
		if e.Op == OpNeg {
			b.WriteString("-")
			pr.write(b, e.X, 7)
			return
		}
		fmt.Fprintf(b, "%s(", e.Op)
		pr.write(b, e.X, 0)
		b.WriteString(")")
	case Binary:
		p := prec(e.Op)
		if p == 6 {
			fmt.Fprintf(b, "%s(", e.Op)
			pr.write(b, e.X, 0)
			b.WriteString(", ")
			pr.write(b, e.Y, 0)
			b.WriteString(")")
			return
		}
		if p < outer {
			b.WriteString("(")
		}
		pr.write(b, e.X, p)
		fmt.Fprintf(b, " %s ", e.Op)
		pr.write(b, e.Y, p+1)
		if p < outer {
			b.WriteString(")")
		}
	case If:
		if outer > 0 {
			b.WriteString("(")
		}
		b.WriteString("if ")
		pr.write(b, e.Cond, 0)
		b.WriteString(" then ")
		pr.write(b, e.Then, 0)
		b.WriteString(" else ")
		pr.write(b, e.Else, 0)
		if outer > 0 {
			b.WriteString(")")
		}
	case Lookup:
		b.WriteString("lookup(")
		pr.write(b, e.X, 0)
		fmt.Fprintf(b, ", table[%d..%d]", e.Lo, e.Lo+int64(len(e.Table))-1)
		if pr.full {
			fmt.Fprintf(b, "%v", e.Table)
		}
		b.WriteString(")")
	case Func:
		fmt.Fprintf(b, "%s(", e.Name)
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			pr.write(b, a, 0)
		}
		b.WriteString(")")
	case nil:
		b.WriteString("<nil>")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// Refs lists the fields an expression reads, each once, in order of
// appearance.
func Refs(e Expr) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Expr)
	walk = func(e Expr) {
		switch e := e.(type) {
		case Ref:
			if !seen[e.Field] {
				seen[e.Field] = true
				out = append(out, e.Field)
			}
		case Unary:
			walk(e.X)
		case Binary:
			walk(e.X)
			walk(e.Y)
		case If:
			walk(e.Cond)
			walk(e.Then)
			walk(e.Else)
		case Lookup:
			walk(e.X)
		case Func:
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	walk(e)
	return out
}

// Program is a compiled expression: a tree of closures over the field
// values of one outcome, indexed as the resolver said.
type Program struct {
	f func(vals []Rat) Rat
}

// evalError carries an evaluation failure through the closures.
type evalError struct{ err error }

// Compile resolves field names to indices (resolve returns false for an
// unknown field) and checks the expression's shape.
func Compile(e Expr, resolve func(name string) (int, bool)) (Program, error) {
	f, err := compile(e, resolve)
	if err != nil {
		return Program{}, err
	}
	return Program{f}, nil
}

// Eval computes the value for one outcome's field values. It returns the
// failures of the expression itself (Fail, a lookup without a case, a
// division by zero, an overflow) as errors; any other panic goes on.
func (p Program) Eval(vals []Rat) (r Rat, err error) {
	defer func() {
		if x := recover(); x != nil {
			if ee, ok := x.(evalError); ok {
				err = ee.err
				return
			}
			if IsOverflow(x) {
				err = ErrOverflow
				return
			}
			panic(x) // a bug, or a fault of a Call's function for its caller
		}
	}()
	return p.f(vals), nil
}

func fail(format string, a ...any) { panic(evalError{fmt.Errorf(format, a...)}) }

// Fail ends the evaluation of a Call's function with an error (a value
// the rule has no answer for), which Program.Eval returns: a failure of
// the model's input, not a crash.
func Fail(format string, a ...any) { fail(format, a...) }

func truth(r Rat) bool { return r.N != 0 }

func compile(e Expr, resolve func(string) (int, bool)) (func([]Rat) Rat, error) {
	switch e := e.(type) {
	case Ref:
		i, ok := resolve(e.Field)
		if !ok {
			return nil, fmt.Errorf("unknown field %q", e.Field)
		}
		return func(v []Rat) Rat { return v[i] }, nil
	case Lit:
		c := e.V.norm()
		return func([]Rat) Rat { return c }, nil
	case Unary:
		x, err := compile(e.X, resolve)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case OpNeg:
			return func(v []Rat) Rat { return x(v).Neg() }, nil
		case OpAbs:
			return func(v []Rat) Rat {
				r := x(v)
				if r.N < 0 {
					return r.Neg()
				}
				return r
			}, nil
		case OpFloor:
			return func(v []Rat) Rat { return Int(x(v).Floor()) }, nil
		case OpCeil:
			return func(v []Rat) Rat { return Int(x(v).Ceil()) }, nil
		case OpNot:
			return func(v []Rat) Rat { return Bool(!truth(x(v))) }, nil
		}
		return nil, fmt.Errorf("unknown unary operator %d", e.Op)
	case Binary:
		x, err := compile(e.X, resolve)
		if err != nil {
			return nil, err
		}
		y, err := compile(e.Y, resolve)
		if err != nil {
			return nil, err
		}
		return binary(e.Op, x, y)
	case If:
		c, err := compile(e.Cond, resolve)
		if err != nil {
			return nil, err
		}
		a, err := compile(e.Then, resolve)
		if err != nil {
			return nil, err
		}
		b, err := compile(e.Else, resolve)
		if err != nil {
			return nil, err
		}
		return func(v []Rat) Rat {
			if truth(c(v)) {
				return a(v)
			}
			return b(v)
		}, nil
	case Lookup:
		x, err := compile(e.X, resolve)
		if err != nil {
			return nil, err
		}
		lo, tab := e.Lo, e.Table
		return func(v []Rat) Rat {
			k := x(v)
			if !k.IsInt() || k.N < lo || k.N-lo >= int64(len(tab)) {
				fail("lookup of %s outside the table [%d, %d]", k, lo, lo+int64(len(tab))-1)
			}
			return tab[k.N-lo]
		}, nil
	case Func:
		if e.F == nil {
			return nil, fmt.Errorf("function %q has no body", e.Name)
		}
		args := make([]func([]Rat) Rat, len(e.Args))
		for i, a := range e.Args {
			f, err := compile(a, resolve)
			if err != nil {
				return nil, err
			}
			args[i] = f
		}
		f := e.F
		return func(v []Rat) Rat {
			buf := make([]Rat, len(args))
			for i, a := range args {
				buf[i] = a(v)
			}
			return f(buf)
		}, nil
	case nil:
		return nil, errors.New("missing expression")
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

func binary(op BinOp, x, y func([]Rat) Rat) (func([]Rat) Rat, error) {
	switch op {
	case OpAdd:
		return func(v []Rat) Rat { return x(v).Add(y(v)) }, nil
	case OpSub:
		return func(v []Rat) Rat { return x(v).Sub(y(v)) }, nil
	case OpMul:
		return func(v []Rat) Rat { return x(v).Mul(y(v)) }, nil
	case OpDiv:
		return func(v []Rat) Rat {
			q, ok := x(v).Div(y(v))
			if !ok {
				fail("division by zero")
			}
			return q
		}, nil
	case OpMin:
		return func(v []Rat) Rat {
			a, b := x(v), y(v)
			if a.Cmp(b) <= 0 {
				return a
			}
			return b
		}, nil
	case OpMax:
		return func(v []Rat) Rat {
			a, b := x(v), y(v)
			if a.Cmp(b) >= 0 {
				return a
			}
			return b
		}, nil
	case OpEq:
		return func(v []Rat) Rat { return Bool(x(v).Cmp(y(v)) == 0) }, nil
	case OpNe:
		return func(v []Rat) Rat { return Bool(x(v).Cmp(y(v)) != 0) }, nil
	case OpLt:
		return func(v []Rat) Rat { return Bool(x(v).Cmp(y(v)) < 0) }, nil
	case OpLe:
		return func(v []Rat) Rat { return Bool(x(v).Cmp(y(v)) <= 0) }, nil
	case OpGt:
		return func(v []Rat) Rat { return Bool(x(v).Cmp(y(v)) > 0) }, nil
	case OpGe:
		return func(v []Rat) Rat { return Bool(x(v).Cmp(y(v)) >= 0) }, nil
	case OpAnd:
		return func(v []Rat) Rat { return Bool(truth(x(v)) && truth(y(v))) }, nil
	case OpOr:
		return func(v []Rat) Rat { return Bool(truth(x(v)) || truth(y(v))) }, nil
	}
	return nil, fmt.Errorf("unknown binary operator %d", op)
}

// Abbreviate replaces every sub-expression of e whose Key is one of the
// keys of named (except the whole of e) by a reference to its name, so
// that a formula reads "mos >= 1" instead of repeating what mos stands for.
// It is for display: the result is equivalent where the names hold those
// values.
func Abbreviate(e Expr, named map[string]string) Expr {
	var walk func(e Expr, top bool) Expr
	walk = func(e Expr, top bool) Expr {
		if e == nil {
			return nil
		}
		if _, ok := e.(Ref); !ok && !top {
			if n, ok := named[Key(e)]; ok {
				return Ref{n}
			}
		}
		switch x := e.(type) {
		case Unary:
			return Unary{x.Op, walk(x.X, false)}
		case Binary:
			return Binary{x.Op, walk(x.X, false), walk(x.Y, false)}
		case If:
			return If{walk(x.Cond, false), walk(x.Then, false), walk(x.Else, false)}
		case Lookup:
			return Lookup{walk(x.X, false), x.Lo, x.Table}
		case Func:
			args := make([]Expr, len(x.Args))
			for i, a := range x.Args {
				args[i] = walk(a, false)
			}
			return Func{x.Name, args, x.F}
		}
		return e
	}
	return walk(e, true)
}
