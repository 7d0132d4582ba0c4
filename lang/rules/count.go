package rules

import (
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// A random number of dice: (1d4)d6 rolls 1d4, then that many d6
// (Foundry's (1d4)d6, Roll20's [[ [[1d4]]d6 ]], AnyDice's d4d6). The
// count is a roll of its own, written in place; the term is a
// mechanics.RandomCount over one die of the term: the die, the exploding
// die, or the die's score when the term counts successes.

// diceCount compiles the number of dice of a term: a whole number in
// 0..MaxDice, or a roll (count non-nil, n its most) whose values all lie
// there.
func (c *compiler) diceCount(e notation.Expr) (n int, count *value, err error) {
	v, err := c.compile(e)
	if err != nil {
		return 0, nil, err
	}
	if v.kind == det {
		if len(expr.Refs(v.e)) > 0 {
			return 0, nil, errAt(e.Pos(), "the number of dice may be a roll written in place, as in (1d4)d6, but not one read through a name or worked out from rolls: %s", e)
		}
		n, err := c.intConst(e, "the number of dice", 0, MaxDice)
		return n, nil, err
	}
	if v.lo < 0 {
		return 0, nil, errAt(e.Pos(), "the number of dice (%s) can be %d: a random number of dice must not be negative", e, v.lo)
	}
	if v.hi > MaxDice {
		return 0, nil, errAt(e.Pos(), "the number of dice (%s) can be up to %d: at most %d dice (bound it, or give an explosion a limit)", e, v.hi, MaxDice)
	}
	return v.hi, &v, nil
}

// fixedCount refuses a random number of dice where the dice are read one
// by one (what says what reads them) and so must be a fixed number.
func (t *term) fixedCount(d *notation.Dice, what string) error {
	if t.count == nil {
		return nil
	}
	return errAt(d.At, "a fixed number of dice is needed for %s, but %s rolls a random number of them (%s)", what, d, d.Count)
}

// randomCount is a dice term whose number of dice is a roll.
func (c *compiler) randomCount(t *term, d *notation.Dice) (value, error) {
	var what string
	switch {
	case len(t.kd) > 0:
		what = "keep and drop (kh, kl, dh, dl)"
	case t.unique != nil:
		what = "unique dice (u, uo)"
	case t.matches != nil:
		what = "counting matches (mt)"
	case t.capped:
		what = "a cap on the explosions of the whole term ({n in all})"
	case t.each:
		what = "reading every roll as a die (!e)"
	}
	if what != "" {
		return value{}, t.fixedCount(d, what)
	}
	one := mechanics.Node(t.die)
	lo, hi := dieRange(t.die)
	if t.explode != nil {
		one = *t.explode
		lo, hi = burstRange(*t.explode)
	}
	if t.hasCS || t.hasCF {
		score, err := c.scorer(t)
		if err != nil {
			return value{}, err
		}
		if t.explode != nil && !t.compound {
			if one, lo, hi, err = chainCount(*t.explode, score, t.at); err != nil {
				return value{}, err
			}
		} else {
			one, lo, hi = mechanics.Map{X: one, F: score, Name: "successes"}, 0, 0
			if t.hasCF {
				lo = -1
			}
			if t.hasCS {
				hi = 1
			}
		}
	}
	nlo, nhi := t.count.lo, t.count.hi
	node := mechanics.RandomCount{N: t.count.node, X: one}
	return rndV(node, min(nlo*lo, nhi*lo), max(nlo*hi, nhi*hi)), nil
}
