package notation

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Pos is a place in the source: Line and Col count from 1 (Col in
// characters), Off is the byte offset from 0. Nodes built by hand may leave
// it zero.
type Pos struct{ Line, Col, Off int }

// String is "line L, column C".
func (p Pos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Col) }

// Expr is one node of an expression: *Num, *Name, *Dice, *Group, *Neg,
// *Binary, *Compare, *Logic, *Not, *If, *Call, *Filter or *Lookup. Pos is where the
// node's text begins; String prints the node as canonical text.
type Expr interface {
	Pos() Pos
	String() string
	exprNode()
}

// Num is a number literal: an integer or a decimal, kept exact (0.5 is
// 1/2). Parse gives non-negative values, except for the faces of a custom
// die and the values of dice conditions, where a minus sign is part of the
// literal ("d{-1, 0, 1}", "r<-1"); elsewhere -3 is a Neg of 3.
type Num struct {
	At    Pos
	Value expr.Rat
}

// Name is an identifier: a parameter of the rule or a binding ("bonus",
// "tn", "pool"). The parser does not resolve names; see Names.
type Name struct {
	At   Pos
	Name string
}

// DieKind tells what a Dice term's dice are.
type DieKind uint8

// The kinds of dice.
const (
	Sided   DieKind = iota // dS, d(expr): faces 1..Sides
	Percent                // d%: faces 1..100
	Fudge                  // dF: faces -1, 0, +1
	Custom                 // d{…}: the listed Faces
)

var dieKindNames = [...]string{"sided", "percent", "fudge", "custom"}

func (k DieKind) String() string {
	if int(k) < len(dieKindNames) {
		return dieKindNames[k]
	}
	return fmt.Sprintf("DieKind(%d)", k)
}

// Dice is a dice term: Count dice of one kind, then modifiers. On its own
// it is the sum of its dice after the modifiers (the count of successes
// with CountSuccess or CountFail); as a pool argument its dice are read
// individually.
type Dice struct {
	At    Pos
	Count Expr    // nil when not written: "d6" is one die
	Kind  DieKind // what the dice are
	Sides Expr    // Kind == Sided: the number of sides (a *Num, or an expression written in parentheses)
	Faces []*Num  // Kind == Custom: the faces, in written order (repeats weight a face)
	Mods  []Mod   // modifiers, in written order
	// End is where the term's text ends (the position just past it);
	// zero in a node built by hand.
	End Pos
	// Label is the text of a label written after the term (2d6[Fire]:
	// "Fire"), or "". It changes nothing the term computes; a one-line
	// rule reports each labelled term as a variable of its own.
	Label string
}

// Group is a grouped roll {A, B, …} (Roll20's grouped rolls, Foundry's
// dice pools): Items, the sub-expressions, each rolled on its own, then
// Mods in written order, which read the items as whole values (keep and
// drop whole sums, count the sums that meet a condition) — or, with a
// single item, keep and drop read its dice ({4d6+3d8}kh4). Mods are *Keep,
// *Drop, *CountSuccess and *CountFail, each with a count or a condition.
type Group struct {
	At    Pos
	Items []Expr
	Mods  []Mod
	// End is where the group's text ends (the position just past its
	// modifiers); zero in a node built by hand.
	End Pos
}

// Neg is -X.
type Neg struct {
	At Pos
	X  Expr
}

// BinOp is an arithmetic operator.
type BinOp uint8

// Arithmetic operators.
const (
	Add      BinOp = iota // +
	Sub                   // -
	Mul                   // *
	Div                   // /: exact rational division
	FloorDiv              // //: floor(X / Y)
	Modulo                // %: X - Y * floor(X / Y), with the sign of Y
	Pow                   // ^ (or **): X to the power Y, a constant whole number ≥ 0
)

var binOpNames = [...]string{"+", "-", "*", "/", "//", "%", "^"}

func (o BinOp) String() string {
	if int(o) < len(binOpNames) {
		return binOpNames[o]
	}
	return fmt.Sprintf("BinOp(%d)", o)
}

// Binary is X Op Y, arithmetic. At is where X begins, OpAt the operator.
type Binary struct {
	At, OpAt Pos
	Op       BinOp
	X, Y     Expr
}

// CmpOp is a comparison operator, in comparisons, filters and dice
// conditions.
type CmpOp uint8

// Comparison operators. Dice conditions use all but Ne.
const (
	Eq CmpOp = iota // ==, or = (or nothing) in a dice condition
	Ne              // !=
	Lt              // <
	Le              // <=
	Gt              // >
	Ge              // >=
)

var cmpOpNames = [...]string{"==", "!=", "<", "<=", ">", ">="}

func (o CmpOp) String() string {
	if int(o) < len(cmpOpNames) {
		return cmpOpNames[o]
	}
	return fmt.Sprintf("CmpOp(%d)", o)
}

// Compare is the event X Op Y. At is where X begins, OpAt the operator.
type Compare struct {
	At, OpAt Pos
	Op       CmpOp
	X, Y     Expr
}

// LogicOp is and or or.
type LogicOp uint8

// Logic operators.
const (
	And LogicOp = iota
	Or
)

func (o LogicOp) String() string {
	switch o {
	case And:
		return "and"
	case Or:
		return "or"
	}
	return fmt.Sprintf("LogicOp(%d)", o)
}

// Logic is X and Y, or X or Y, on events. At is where X begins, OpAt the
// keyword.
type Logic struct {
	At, OpAt Pos
	Op       LogicOp
	X, Y     Expr
}

// Not is the event "X is false".
type Not struct {
	At Pos
	X  Expr
}

// If is Then when Cond holds and Else otherwise.
type If struct {
	At               Pos
	Cond, Then, Else Expr
}

// Call is a function or pool evaluator applied to Args: one of abs, floor,
// ceil, round, min, max, clamp, highest, lowest, sum, count, all, any,
// distinct, largest_set, straight (the package doc says what each means).
// The parser checks the name and the number of arguments. The pool argument
// of an evaluator (the first) is a *Dice or a *Name; the only argument of
// count, all and any is a *Filter.
type Call struct {
	At   Pos
	Name string
	Args []Expr
}

// Filter is the argument of count, all and any: the dice of Pool (a *Dice
// or a *Name bound to one) that satisfy "die Op Value". Value is any
// expression and may read the pool as a whole: in count(pool ==
// highest(pool)), Value is highest(pool).
type Filter struct {
	At, OpAt Pos
	Pool     Expr
	Op       CmpOp
	Value    Expr
}

// Lookup is the value of the first case whose range holds X, or Default
// when none does (nil when there is no default: X outside every case is an
// error of the rule). The parser checks that the cases are not empty and do
// not overlap.
type Lookup struct {
	At      Pos
	X       Expr
	Cases   []Case
	Default Expr
}

// Case is one entry of a lookup table: Lo..Hi (both included) → Value. A
// nil end is open (10.. has Hi nil); a single value has Lo and Hi equal.
type Case struct {
	At     Pos
	Lo, Hi *int64
	Value  Expr
}

func (*Num) exprNode()     {}
func (*Name) exprNode()    {}
func (*Dice) exprNode()    {}
func (*Group) exprNode()   {}
func (*Neg) exprNode()     {}
func (*Binary) exprNode()  {}
func (*Compare) exprNode() {}
func (*Logic) exprNode()   {}
func (*Not) exprNode()     {}
func (*If) exprNode()      {}
func (*Call) exprNode()    {}
func (*Filter) exprNode()  {}
func (*Lookup) exprNode()  {}

// Pos is where the node's text begins.
func (e *Num) Pos() Pos { return e.At }

// Pos is where the node's text begins.
func (e *Name) Pos() Pos { return e.At }

// Pos is where the node's text begins (the count, or "d" without one).
func (e *Dice) Pos() Pos { return e.At }

// Pos is where the node's text begins (its "{").
func (e *Group) Pos() Pos { return e.At }

// Pos is where the node's text begins.
func (e *Neg) Pos() Pos { return e.At }

// Pos is where the node's text begins (its left operand).
func (e *Binary) Pos() Pos { return e.At }

// Pos is where the node's text begins (its left operand).
func (e *Compare) Pos() Pos { return e.At }

// Pos is where the node's text begins (its left operand).
func (e *Logic) Pos() Pos { return e.At }

// Pos is where the node's text begins.
func (e *Not) Pos() Pos { return e.At }

// Pos is where the node's text begins.
func (e *If) Pos() Pos { return e.At }

// Pos is where the node's text begins (the function's name).
func (e *Call) Pos() Pos { return e.At }

// Pos is where the node's text begins (the pool).
func (e *Filter) Pos() Pos { return e.At }

// Pos is where the node's text begins ("lookup").
func (e *Lookup) Pos() Pos { return e.At }

func (e *Num) String() string     { return String(e) }
func (e *Name) String() string    { return String(e) }
func (e *Dice) String() string    { return String(e) }
func (e *Group) String() string   { return String(e) }
func (e *Neg) String() string     { return String(e) }
func (e *Binary) String() string  { return String(e) }
func (e *Compare) String() string { return String(e) }
func (e *Logic) String() string   { return String(e) }
func (e *Not) String() string     { return String(e) }
func (e *If) String() string      { return String(e) }
func (e *Call) String() string    { return String(e) }
func (e *Filter) String() string  { return String(e) }
func (e *Lookup) String() string  { return String(e) }

// Mod is one modifier of a dice term: *Keep, *Drop, *Explode, *Reroll,
// *CountSuccess, *CountFail, *FaceBound, *Unique or *Matches.
type Mod interface {
	Pos() Pos
	String() string
	modNode()
}

// End says which dice keep and drop select.
type End uint8

// The ends of a sorted roll.
const (
	High End = iota
	Low
)

func (e End) String() string {
	switch e {
	case High:
		return "high"
	case Low:
		return "low"
	}
	return fmt.Sprintf("End(%d)", e)
}

// Keep keeps the Count highest (kh) or lowest (kl) dice. Count is nil when
// not written (one die), else a *Num or an expression written in
// parentheses.
type Keep struct {
	At    Pos
	End   End
	Count Expr
}

// Drop drops the Count highest (dh) or lowest (dl) dice; Count as for Keep.
type Drop struct {
	At    Pos
	End   End
	Count Expr
}

// Explode rolls another die of the same kind for each die that meets Cond
// (nil: shows its highest face), and again for each new die that does.
// Cond may name any faces ("!=5", "!<=3"). Limit nil is unbounded
// (bursting, Roll20's "!"); otherwise it is the most extra rolls per die
// ("!{3}"). Compound ("!!") adds the extra rolls to the die that exploded,
// which stays one die. Penetrate ("!p", "!!p", written right after the
// "!" or "!!" and before the condition: "d6!p>=5{3}") counts every extra
// roll one less than it shows; whether it explodes again is judged on the
// face shown. Each ("!e", "!pe") makes every extra roll a die of its own
// for keep, drop and pools (Roll20's and Foundry's reading of 5d10!k2); a
// plain sum is the same either way. Total nil is no cap on the whole
// term; otherwise ("!>=8{2 in all}", "!>=8{1, 2 in all}" with a Limit
// too, Foundry's x2>=8 and xo2>=8) it is the most extra rolls of all the
// dice together, the rolls looked at in the order rolled: the dice
// first, then each extra roll in the order it was added.
type Explode struct {
	At        Pos
	Compound  bool
	Penetrate bool
	Each      bool
	Cond      *Cond
	Limit     Expr
	Total     Expr
}

// Reroll rerolls a die that meets Cond (nil: shows its lowest face):
// repeatedly (r), or at most once (ro), keeping the last roll.
type Reroll struct {
	At   Pos
	Once bool
	Cond *Cond
}

// CountSuccess (cs, #) makes the term the number of dice that meet Cond
// (nil: show their highest face), less any CountFail. Hash says it was
// written # (which no other dice tool reads as cs, see Readings).
type CountSuccess struct {
	At   Pos
	Cond *Cond
	Hash bool
}

// CountFail (cf) subtracts from the term the number of dice that meet Cond
// (nil: show their lowest face).
type CountFail struct {
	At   Pos
	Cond *Cond
}

// Cond is a dice condition: a die's face Op Value (never Ne). Value is a
// *Num (possibly negative) or an expression written in parentheses.
type Cond struct {
	At    Pos
	Op    CmpOp
	Value Expr
}

// FaceBound changes the die itself, as a reroll does: with min (4d6min3)
// a face below Value counts as Value, with max (d20max15, Max set) a face
// above it does. Value is a *Num (possibly negative) or an expression
// written in parentheses.
type FaceBound struct {
	At    Pos
	Max   bool
	Value Expr
}

// Unique rerolls a die whose face an earlier die of the term already
// shows (rpg-dice-roller's u): until its face is new (u) or at most once
// (uo, Once). With Cond only a repeated face that meets it is rerolled
// (u=5, u>3), and the reroll stops at a face that does not.
type Unique struct {
	At   Pos
	Once bool
	Cond *Cond
}

// Matches (mt, Roll20's matches) makes the term the number of faces that
// at least Size dice show (nil: 2); with Cond only faces that meet it
// count (mt>3). Cond is always written with its operator (mt=5), since a
// bare number after mt is the size (mt3).
type Matches struct {
	At   Pos
	Size Expr
	Cond *Cond
}

func (*Keep) modNode()         {}
func (*Drop) modNode()         {}
func (*Explode) modNode()      {}
func (*Reroll) modNode()       {}
func (*CountSuccess) modNode() {}
func (*CountFail) modNode()    {}
func (*FaceBound) modNode()    {}
func (*Unique) modNode()       {}
func (*Matches) modNode()      {}

// Pos is where the modifier begins.
func (m *Keep) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *Drop) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *Explode) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *Reroll) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *CountSuccess) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *CountFail) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *FaceBound) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *Unique) Pos() Pos { return m.At }

// Pos is where the modifier begins.
func (m *Matches) Pos() Pos { return m.At }

func (m *Keep) String() string         { return modString(m) }
func (m *Drop) String() string         { return modString(m) }
func (m *Explode) String() string      { return modString(m) }
func (m *Reroll) String() string       { return modString(m) }
func (m *CountSuccess) String() string { return modString(m) }
func (m *CountFail) String() string    { return modString(m) }
func (m *FaceBound) String() string    { return modString(m) }
func (m *Unique) String() string       { return modString(m) }
func (m *Matches) String() string      { return modString(m) }

// Walk calls f on e and, when f returns true, on each of its
// sub-expressions in the order they are written (depth first). The
// expressions inside a dice term (count, sides, faces, the counts, values
// and limits of its modifiers) and a lookup's cases are visited too.
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Dice:
		Walk(e.Count, f)
		Walk(e.Sides, f)
		for _, x := range e.Faces {
			if x != nil {
				Walk(x, f)
			}
		}
		for _, m := range e.Mods {
			walkMod(m, f)
		}
	case *Group:
		for _, x := range e.Items {
			Walk(x, f)
		}
		for _, m := range e.Mods {
			walkMod(m, f)
		}
	case *Neg:
		Walk(e.X, f)
	case *Binary:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Compare:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Logic:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Not:
		Walk(e.X, f)
	case *If:
		Walk(e.Cond, f)
		Walk(e.Then, f)
		Walk(e.Else, f)
	case *Call:
		for _, a := range e.Args {
			Walk(a, f)
		}
	case *Filter:
		Walk(e.Pool, f)
		Walk(e.Value, f)
	case *Lookup:
		Walk(e.X, f)
		for _, c := range e.Cases {
			Walk(c.Value, f)
		}
		Walk(e.Default, f)
	}
}

func walkMod(m Mod, f func(Expr) bool) {
	cond := func(c *Cond) {
		if c != nil {
			Walk(c.Value, f)
		}
	}
	switch m := m.(type) {
	case *Keep:
		Walk(m.Count, f)
	case *Drop:
		Walk(m.Count, f)
	case *Explode:
		cond(m.Cond)
		Walk(m.Limit, f)
		Walk(m.Total, f)
	case *Reroll:
		cond(m.Cond)
	case *CountSuccess:
		cond(m.Cond)
	case *CountFail:
		cond(m.Cond)
	case *FaceBound:
		Walk(m.Value, f)
	case *Unique:
		cond(m.Cond)
	case *Matches:
		Walk(m.Size, f)
		cond(m.Cond)
	}
}

// Names lists the names an expression reads (parameters and bindings), each
// once, in order of first appearance. Every name is free: the notation has
// no binders of its own.
func Names(e Expr) []string {
	var out []string
	seen := map[string]bool{}
	Walk(e, func(x Expr) bool {
		if n, ok := x.(*Name); ok && !seen[n.Name] {
			seen[n.Name] = true
			out = append(out, n.Name)
		}
		return true
	})
	return out
}

// constInt is the whole number x is written as (dflt when x is nil);
// false when x is not a literal whole number.
func constInt(x Expr, dflt int64) (int64, bool) {
	if x == nil {
		return dflt, true
	}
	n, ok := x.(*Num)
	if !ok || !n.Value.IsInt() {
		return 0, false
	}
	return n.Value.N, true
}
