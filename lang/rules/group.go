package rules

import (
	"fmt"
	"math"
	"slices"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Grouped rolls {A, B, …} (Roll20's grouped rolls, Foundry's dice pools),
// in oddsmith's own spelling:
//
//   - with several expressions, each is rolled on its own and is one sum;
//     keep and drop (kh, kl, k, dh, dl, d, applied left to right to the sums
//     still kept) keep whole sums; cs and cf count the kept sums that meet
//     their condition (+1 each; cf −1); with none of them the group is
//     the sum of its sums;
//   - with a single expression, keep and drop read the dice of its dice
//     terms together ({4d6+3d8}kh4 keeps the 4 highest of the 7 dice; the
//     expression is dice terms and constants added, the constants added
//     after), and cs and cf compare its total (1, 0 or −1).
//
// Comparisons keep their meaning: {3d20+5, 2d20} >= 21 compares the
// group's total; cs>=21 counts sums.

// maxGroupItems bounds the expressions of one group.
const maxGroupItems = MaxPoolDice

// group compiles a grouped roll.
func (c *compiler) group(g *notation.Group) (value, error) {
	if len(g.Items) > maxGroupItems {
		return value{}, errAt(g.At, "a group has at most %d expressions, found %d", maxGroupItems, len(g.Items))
	}
	var kd []notation.Mod
	var success, fail []*notation.Cond
	for _, m := range g.Mods {
		switch m := m.(type) {
		case *notation.Keep, *notation.Drop:
			kd = append(kd, m)
		case *notation.CountSuccess:
			success = append(success, m.Cond)
		case *notation.CountFail:
			fail = append(fail, m.Cond)
		default:
			return value{}, errAt(m.Pos(), "a group takes keep, drop, cs and cf, not %s", m)
		}
	}
	score, slo, shi, err := c.groupScore(success, fail)
	if err != nil {
		return value{}, err
	}
	if len(g.Items) == 1 {
		return c.groupOfOne(g, kd, score, slo, shi)
	}
	terms := make([]mechanics.Node, len(g.Items))
	los, his := make([]int, len(g.Items)), make([]int, len(g.Items))
	for i, x := range g.Items {
		if terms[i], los[i], his[i], err = c.groupItem(x); err != nil {
			return value{}, err
		}
	}
	a, b, err := c.window(kd, len(terms))
	if err != nil {
		return value{}, err
	}
	if a == b {
		return rndV(mechanics.Const{V: 0}, 0, 0), nil
	}
	node := mechanics.KeepOf{Terms: terms, Lo: a, Hi: b}
	if score != nil {
		node.Score, node.Name = score, "successes"
		return rndV(node, (b-a)*slo, (b-a)*shi), nil
	}
	// The window's least and most: the ranked bounds of its terms.
	slices.Sort(los)
	slices.Sort(his)
	lo, hi := 0, 0
	for i := a; i < b; i++ {
		lo, hi = lo+los[i], hi+his[i]
	}
	return rndV(node, lo, hi), nil
}

// groupItem compiles one expression of a group to a node with its bounds:
// a roll, or a constant.
func (c *compiler) groupItem(x notation.Expr) (mechanics.Node, int, int, error) {
	v, err := c.compile(x)
	if err != nil {
		return nil, 0, 0, err
	}
	if v.kind == rnd {
		return v.node, v.lo, v.hi, nil
	}
	if k, ok := intOf(v); ok {
		return mechanics.Const{V: k}, k, k, nil
	}
	if _, err := constOf(v); err == nil {
		return nil, 0, 0, errAt(x.Pos(), "an expression of a group must have whole values: %s", x)
	}
	return nil, 0, 0, errAt(x.Pos(), "an expression of a group must be a whole-number roll of its own or a constant: %s is not (a division by a number, or a roll bound elsewhere; a rule file can bind the group instead)", x)
}

// groupScore is the score of a sum under a group's cs and cf: +1 when it
// meets a cs condition, −1 when it meets a cf condition (both: 0); nil
// when there are none. lo and hi bound it.
func (c *compiler) groupScore(success, fail []*notation.Cond) (score func(int) int, lo, hi int, err error) {
	if len(success) == 0 && len(fail) == 0 {
		return nil, 0, 0, nil
	}
	tests := func(cs []*notation.Cond) ([]func(int) bool, error) {
		var out []func(int) bool
		for _, cd := range cs {
			f, _, err := c.faceCond(cd, 0)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
		return out, nil
	}
	ss, err := tests(success)
	if err != nil {
		return nil, 0, 0, err
	}
	fs, err := tests(fail)
	if err != nil {
		return nil, 0, 0, err
	}
	hit := func(ts []func(int) bool, v int) int {
		for _, t := range ts {
			if t(v) {
				return 1
			}
		}
		return 0
	}
	score = func(v int) int { return hit(ss, v) - hit(fs, v) }
	if len(fs) > 0 {
		lo = -1
	}
	if len(ss) > 0 {
		hi = 1
	}
	return score, lo, hi, nil
}

// groupOfOne compiles a group of a single expression: keep and drop read
// the dice of its dice terms together, cs and cf its total.
func (c *compiler) groupOfOne(g *notation.Group, kd []notation.Mod, score func(int) int, slo, shi int) (value, error) {
	x := g.Items[0]
	var v value
	if len(kd) == 0 {
		var err error
		if v, err = c.compile(x); err != nil {
			return value{}, err
		}
	} else {
		var dice []mechanics.Node
		var dlo, dhi []int
		add := 0
		if err := c.groupDice(x, &dice, &dlo, &dhi, &add); err != nil {
			return value{}, err
		}
		if len(dice) > MaxPoolDice {
			return value{}, errAt(g.At, "keep and drop on a group of one expression read its dice one by one: at most %d dice, found %d", MaxPoolDice, len(dice))
		}
		a, b := 0, 0
		if len(dice) > 0 {
			var err error
			if a, b, err = c.window(kd, len(dice)); err != nil {
				return value{}, err
			}
		}
		slices.Sort(dlo)
		slices.Sort(dhi)
		lo, hi := add, add
		for i := a; i < b; i++ {
			lo, hi = lo+dlo[i], hi+dhi[i]
		}
		var node mechanics.Node = mechanics.Const{V: 0}
		if a < b {
			node = mechanics.KeepOf{Terms: dice, Lo: a, Hi: b}
		}
		if add != 0 {
			node = mechanics.Sum{Terms: []mechanics.Node{node, mechanics.Const{V: add}}}
		}
		v = rndV(node, lo, hi)
	}
	if score == nil {
		return v, nil
	}
	if v.kind != rnd {
		k, ok := intOf(v)
		if !ok {
			return value{}, errAt(x.Pos(), "cs and cf on a group compare whole values: %s", x)
		}
		s := score(k)
		return rndV(mechanics.Const{V: s}, s, s), nil
	}
	return rndV(mechanics.Map{X: v.node, F: score, Name: "successes"}, slo, shi), nil
}

// groupDice collects the dice of a group of one expression kept or dropped
// die by die: its dice terms, one die each, and its constants added
// (subtracted) into add. Anything else has no dice to rank.
func (c *compiler) groupDice(x notation.Expr, dice *[]mechanics.Node, lo, hi *[]int, add *int) error {
	const need = "keep and drop on a group of one expression rank its dice together, so it must be dice terms and constants added ({4d6+3d8+2}kh4)"
	switch x := x.(type) {
	case *notation.Binary:
		switch x.Op {
		case notation.Add:
			if err := c.groupDice(x.X, dice, lo, hi, add); err != nil {
				return err
			}
			return c.groupDice(x.Y, dice, lo, hi, add)
		case notation.Sub:
			if err := c.groupDice(x.X, dice, lo, hi, add); err != nil {
				return err
			}
			k, err := c.groupConst(x.Y, need)
			if err != nil {
				return err
			}
			*add -= k
			return nil
		}
		return errAt(x.OpAt, "%s; found %s", need, x.Op)
	case *notation.Dice:
		t, err := c.takeApart(x)
		if err != nil {
			return err
		}
		if err := t.fixedCount(x, "keep and drop on a group of one expression"); err != nil {
			return err
		}
		if t.explode != nil || len(t.kd) > 0 || t.hasCS || t.hasCF {
			return errAt(x.At, "%s; %s explodes, keeps, drops or counts its dice on its own — write its dice plainly (rerolls are fine), or give the group several expressions to keep whole sums", need, x)
		}
		if len(*dice)+t.n > MaxPoolDice {
			return errAt(x.At, "keep and drop on a group of one expression read its dice one by one: at most %d dice", MaxPoolDice)
		}
		dl, dh := dieRange(t.die)
		for range t.n {
			*dice = append(*dice, t.die)
			*lo, *hi = append(*lo, dl), append(*hi, dh)
		}
		return nil
	}
	k, err := c.groupConst(x, need)
	if err != nil {
		return err
	}
	*add += k
	return nil
}

// groupConst is a constant whole number in a group of one expression
// kept die by die.
func (c *compiler) groupConst(x notation.Expr, need string) (int, error) {
	if _, ok := x.(*notation.Dice); ok {
		return 0, errAt(x.Pos(), "%s; subtracting dice (- %s) is not supported here", need, x)
	}
	v, err := c.compile(x)
	if err != nil {
		return 0, err
	}
	if v.kind == det {
		if r, err := constOf(v); err == nil {
			if !r.IsInt() || r.N > math.MaxInt32 || r.N < math.MinInt32 {
				return 0, errAt(x.Pos(), "%s; %s is not a whole number", need, x)
			}
			return int(r.N), nil
		}
	}
	return 0, errAt(x.Pos(), "%s; found %s", need, fmt.Sprint(x))
}
