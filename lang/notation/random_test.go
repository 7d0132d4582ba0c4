package notation

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// gen builds random trees of the shapes Parse gives, to check that String
// prints every one of them as text that parses back to it: the byte-level
// fuzzer seldom reaches deep, well-formed trees.
type gen struct{ r *rand.Rand }

func (g gen) num() *Num {
	switch g.r.IntN(4) {
	case 0:
		return &Num{Value: expr.Frac(g.r.Int64N(1000), []int64{1, 2, 4, 5, 8, 10, 100, 1000}[g.r.IntN(8)])}
	case 1:
		return &Num{Value: expr.Int(g.r.Int64())}
	}
	return &Num{Value: expr.Int(g.r.Int64N(21))}
}

func (g gen) signedNum() *Num {
	n := g.num()
	if g.r.IntN(2) == 0 {
		n.Value = n.Value.Neg()
	}
	return n
}

func (g gen) name() *Name {
	return &Name{Name: []string{"a", "bonus", "tn", "_", "pool", "d", "dex", "max", "lookup", "x1", "iff"}[g.r.IntN(11)]}
}

func (g gen) wholeOrExpr(depth int) Expr {
	if g.r.IntN(2) == 0 {
		return &Num{Value: expr.Int(g.r.Int64N(30))}
	}
	return g.expr(depth - 1)
}

func (g gen) cond(depth int) *Cond {
	if g.r.IntN(3) == 0 {
		return nil
	}
	c := &Cond{Op: []CmpOp{Eq, Lt, Le, Gt, Ge}[g.r.IntN(5)]}
	if g.r.IntN(2) == 0 {
		c.Value = g.signedNum()
	} else {
		c.Value = g.expr(depth - 1)
	}
	return c
}

func (g gen) dice(depth int) *Dice {
	d := &Dice{}
	if g.r.IntN(3) > 0 {
		d.Count = g.wholeOrExpr(depth)
	}
	d.Kind = DieKind(g.r.IntN(4))
	switch d.Kind {
	case Sided:
		d.Sides = g.wholeOrExpr(depth)
	case Custom:
		for range 1 + g.r.IntN(4) {
			d.Faces = append(d.Faces, g.signedNum())
		}
	}
	exploded := false
	for range g.r.IntN(4) {
		var m Mod
		switch g.r.IntN(9) {
		case 6:
			m = &FaceBound{Max: g.r.IntN(2) == 0, Value: g.modValue(depth)}
		case 7:
			m = &Unique{Once: g.r.IntN(2) == 0, Cond: g.cond(depth)}
		case 8:
			m = &Matches{Size: g.optional(func() Expr { return g.wholeOrExpr(depth) }), Cond: g.cond(depth)}
		case 0:
			m = &Keep{End: End(g.r.IntN(2)), Count: g.optional(func() Expr { return g.wholeOrExpr(depth) })}
		case 1:
			m = &Drop{End: End(g.r.IntN(2)), Count: g.optional(func() Expr { return g.wholeOrExpr(depth) })}
		case 2:
			if exploded {
				continue
			}
			exploded = true
			x := &Explode{Compound: g.r.IntN(2) == 0, Penetrate: g.r.IntN(3) == 0, Cond: g.cond(depth), Limit: g.optional(func() Expr { return g.expr(depth - 1) })}
			if g.r.IntN(3) == 0 {
				x.Total = g.expr(depth - 1) // {n in all}, {m, n in all}
			}
			m = x
		case 3:
			m = &Reroll{Once: g.r.IntN(2) == 0, Cond: g.cond(depth)}
		case 4:
			m = &CountSuccess{Cond: g.cond(depth)}
		default:
			m = &CountFail{Cond: g.cond(depth)}
		}
		d.Mods = append(d.Mods, m)
	}
	return d
}

// modValue is the value of min or max: a signed number or an expression.
func (g gen) modValue(depth int) Expr {
	if g.r.IntN(3) == 0 {
		return g.expr(depth - 1)
	}
	return g.signedNum()
}

func (g gen) optional(f func() Expr) Expr {
	if g.r.IntN(2) == 0 {
		return nil
	}
	return f()
}

func (g gen) pool(depth int) Expr {
	if g.r.IntN(2) == 0 {
		return g.name()
	}
	return g.dice(depth)
}

func (g gen) expr(depth int) Expr {
	if depth <= 0 {
		if g.r.IntN(2) == 0 {
			return g.num()
		}
		return g.name()
	}
	sub := func() Expr { return g.expr(depth - 1) }
	switch g.r.IntN(14) {
	case 0:
		return g.num()
	case 1:
		return g.name()
	case 2, 3:
		return g.dice(depth)
	case 4:
		return &Neg{X: sub()}
	case 5:
		return &Binary{Op: BinOp(g.r.IntN(6)), X: sub(), Y: sub()}
	case 6:
		return &Compare{Op: CmpOp(g.r.IntN(6)), X: sub(), Y: sub()}
	case 7:
		return &Logic{Op: LogicOp(g.r.IntN(2)), X: sub(), Y: sub()}
	case 8:
		return &Not{X: sub()}
	case 9:
		return &If{Cond: sub(), Then: sub(), Else: sub()}
	case 10:
		switch name := []string{"abs", "min", "max", "clamp", "highest", "lowest", "count", "any", "straight"}[g.r.IntN(9)]; name {
		case "abs":
			return &Call{Name: name, Args: []Expr{sub()}}
		case "min", "max":
			return &Call{Name: name, Args: []Expr{sub(), sub(), sub()}[:2+g.r.IntN(2)]}
		case "clamp":
			return &Call{Name: name, Args: []Expr{sub(), sub(), sub()}}
		case "highest", "lowest":
			return &Call{Name: name, Args: []Expr{g.pool(depth), sub()}[:1+g.r.IntN(2)]}
		case "count", "any":
			return &Call{Name: name, Args: []Expr{&Filter{Pool: g.pool(depth), Op: CmpOp(g.r.IntN(6)), Value: sub()}}}
		default:
			return &Call{Name: name, Args: []Expr{g.pool(depth)}}
		}
	case 11:
		lk := &Lookup{X: sub()}
		lo := g.r.Int64N(10) - 5
		for range g.r.IntN(4) {
			c := Case{Value: sub()}
			l, h := lo, lo+g.r.Int64N(3)
			c.Lo, c.Hi = &l, &h
			if len(lk.Cases) == 0 && g.r.IntN(3) == 0 {
				c.Lo = nil
			}
			lo = h + 1
			lk.Cases = append(lk.Cases, c)
		}
		if n := len(lk.Cases); n > 0 && lk.Cases[n-1].Lo != nil && g.r.IntN(3) == 0 {
			lk.Cases[n-1].Hi = nil
		}
		if len(lk.Cases) == 0 || g.r.IntN(2) == 0 {
			lk.Default = sub()
		}
		return lk
	}
	return g.expr(depth - 1)
}

var randomTrees, randomSeed = 3000, uint64(1)

func TestRandomTrees(t *testing.T) {
	t.Parallel()
	g := gen{rand.New(rand.NewPCG(randomSeed, 2))}
	for i := range randomTrees {
		e := g.expr(1 + i%6)
		s := String(e)
		e2, err := Parse(s)
		if err != nil {
			t.Fatalf("tree %s prints as %q, which does not parse: %v", tree(e), s, err)
		}
		if !reflect.DeepEqual(e, clearPos(e2)) {
			t.Fatalf("%q parses to another tree:\n%s\n%s", s, tree(e), tree(e2))
		}
		if s2 := String(e2); s2 != s {
			t.Fatalf("%q reprints as %q", s, s2)
		}
	}
}
