package rules

// The oracle's grouped rolls (issue 26), read straight from the AST by
// enumeration, independently of the compiler:
//
//   - {A, B, …} with several expressions: every combination of the
//     expressions' values; keep and drop, left to right, select among the
//     values sorted; cs and cf count the selected values (+1 when a cs
//     condition holds, −1 when a cf one does); with neither, their sum;
//   - {A} with keep or drop: A is dice terms and constants added (a
//     constant may be subtracted); every combination of its dice, sorted,
//     selected by keep and drop, summed, plus the constants; cs and cf
//     then score that total;
//   - {A} otherwise: A, its total scored by cs and cf when they are there.
//
// Values must be whole; an expression that is not dice terms and
// constants added under a keep of one expression is refused, as is an
// exploding, kept or counted dice term there.

import (
	"math/big"
	"slices"

	"github.com/oddsmith/oddsmith/lang/notation"
)

// groupOps are a group's keeps and drops, left to right.
type groupOp struct {
	n         int64
	keep, top bool
}

func (o *oracle) groupParts(g *notation.Group) (ops []groupOp, score func(int64) int64, counted bool) {
	var cs, cf []func(int64) bool
	for _, m := range g.Mods {
		switch m := m.(type) {
		case *notation.Keep, *notation.Drop:
			var count notation.Expr
			op := groupOp{n: 1}
			switch m := m.(type) {
			case *notation.Keep:
				count, op.keep, op.top = m.Count, true, m.End == notation.High
			case *notation.Drop:
				count, op.top = m.Count, m.End == notation.High
			}
			if count != nil {
				op.n = o.intConst(count, "the number kept or dropped", 0, 100_000)
			}
			ops = append(ops, op)
		case *notation.CountSuccess:
			cs = append(cs, o.condTest(m.Cond, 0))
		case *notation.CountFail:
			cf = append(cf, o.condTest(m.Cond, 0))
		}
	}
	counted = len(cs)+len(cf) > 0
	score = func(v int64) int64 {
		s := int64(0)
		if slices.ContainsFunc(cs, func(f func(int64) bool) bool { return f(v) }) {
			s++
		}
		if slices.ContainsFunc(cf, func(f func(int64) bool) bool { return f(v) }) {
			s--
		}
		return s
	}
	return ops, score, counted
}

// selectSorted applies keeps and drops to sorted values.
func selectSorted(s []int64, ops []groupOp) []int64 {
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
	return s
}

// wholeValues lists a distribution's entries, refusing values that are
// not whole.
func wholeValues(d oDist) []*oEntry {
	es := d.entries()
	for _, e := range es {
		if !e.v.IsInt() {
			oFail(oRefused, "a group's expression with the value %s", e.v.RatString())
		}
	}
	return es
}

// combos enumerates every combination of independent distributions.
func (o *oracle) combos(ds [][]*oEntry, f func(vals []int64, p *big.Rat)) {
	vals := make([]int64, len(ds))
	var rec func(i int, p *big.Rat)
	rec = func(i int, p *big.Rat) {
		if i == len(ds) {
			o.step(1)
			f(vals, p)
			return
		}
		for _, e := range ds[i] {
			vals[i] = e.v.Num().Int64()
			rec(i+1, new(big.Rat).Mul(p, e.p))
		}
	}
	rec(0, big.NewRat(1, 1))
}

// groupDice collects the dice of a group of one expression kept die by
// die, and its constants.
func (o *oracle) groupDice(x notation.Expr, dice *[][]*oEntry, add *int64, sign int64) {
	switch x := x.(type) {
	case *notation.Binary:
		switch x.Op {
		case notation.Add:
			o.groupDice(x.X, dice, add, sign)
			o.groupDice(x.Y, dice, add, sign)
			return
		case notation.Sub:
			o.groupDice(x.X, dice, add, sign)
			if _, ok := x.Y.(*notation.Dice); ok || !o.isConst(x.Y) {
				oFail(oRefused, "subtracting a roll in a group kept die by die")
			}
			o.groupDice(x.Y, dice, add, -sign)
			return
		}
		oFail(oRefused, "%s in a group kept die by die", x.Op)
	case *notation.Dice:
		if sign < 0 {
			oFail(oRefused, "subtracting dice in a group kept die by die")
		}
		t := o.takeApart(x)
		t.fixed("a group kept die by die")
		if t.explode != nil || len(t.kd) > 0 || t.hasCount {
			oFail(oRefused, "a dice term that explodes, keeps or counts in a group kept die by die")
		}
		one := oDist{}
		for i, f := range t.die.faces {
			one.add(oInt(f), t.die.probs[i])
		}
		for range t.n {
			*dice = append(*dice, one.entries())
		}
		return
	}
	if !o.isConst(x) {
		oFail(oRefused, "%s in a group kept die by die", x)
	}
	v := o.constant(x, "a constant")
	if !v.IsInt() {
		oFail(oRefused, "the constant %s in a group kept die by die", v.RatString())
	}
	*add += sign * v.Num().Int64()
}

func (o *oracle) group(g *notation.Group) oDist {
	ops, score, counted := o.groupParts(g)
	out := oDist{}
	if len(g.Items) == 1 {
		if len(ops) == 0 {
			d := o.eval(g.Items[0])
			if !counted {
				return d
			}
			for _, e := range wholeValues(d) {
				out.add(oInt(score(e.v.Num().Int64())), e.p)
			}
			return out
		}
		var dice [][]*oEntry
		add := int64(0)
		o.groupDice(g.Items[0], &dice, &add, 1)
		o.combos(dice, func(vals []int64, p *big.Rat) {
			s := slices.Clone(vals)
			slices.Sort(s)
			total := add
			for _, v := range selectSorted(s, ops) {
				total += v
			}
			if counted {
				total = score(total)
			}
			out.add(oInt(total), p)
		})
		return out
	}
	var ds [][]*oEntry
	for _, x := range g.Items {
		ds = append(ds, wholeValues(o.eval(x)))
	}
	o.combos(ds, func(vals []int64, p *big.Rat) {
		s := slices.Clone(vals)
		slices.Sort(s)
		total := int64(0)
		for _, v := range selectSorted(s, ops) {
			if counted {
				v = score(v)
			}
			total += v
		}
		out.add(oInt(total), p)
	})
	return out
}

// groupCases are hand-picked grouped rolls for TestOracleCases.
var groupCases = []string{
	"{4d6, 3d8}kh1", "{2d6, d12}kl", "{2d6, 2d6, 2d6}dl1", "{3d4, 2d6, d8, 5}kh2", "{d6, d8, d10, d4}dl1dh1",
	"{d6, d8, d10}k(a)", "{2d6, d12}kh1 + 2", "({2d6, d12}kh1) >= 7", "{d6, d8} == 9", "{2d6, d4 + 3}",
	"{3d4+3d6}kh4", "{2d6+d8+2}kl2", "{2d4+1d6-1}dh1dl1", "{3d4}k2", "{2d6+3d4}d10", "{2dF+d{1,1,5}}kh2", "{d6ro1+d4}kh1",
	"{3d6+5, 2d8}cs>=12", "{3d6, 2d8, d20}cs>=10cf<=4", "{2d6, 2d6, 2d6}kh2cs>=8", "{3d4+2}cs>=9", "{3d4}cs>=7cf<5",
	"{3d4+2d6}kh3cs>=10", "{d6, {d4, d8}kl}kh", "-{d6, d8}kh1", "{d6 >= 4, d8 >= 4, d10 >= 4}kh2", "{d6 * d4, 2d6}kl",
	"{d6!{1}, d8}kh1", "{d6, d6 // 2}kh1",
	// Refused in both: a keep of one expression that is not dice added.
	"{4d6-2d8}k4", "{4d6!{1}}k2", "{2d6*2}k1", "{3d6cs>=5}kh1",
}
