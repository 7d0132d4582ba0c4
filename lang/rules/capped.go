package rules

import (
	"fmt"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Exploding dice with a cap on the extra rolls of the whole term
// (5d10!>=8{2 in all}, Foundry's 5d10x2>=8; with a per-die limit,
// 5d10!>=8{1, 2 in all}, Foundry's xo2>=8): the rolls are looked at in
// the order rolled, the dice first and then each extra roll, and once the
// cap is reached no roll explodes. The term is the sum of every roll, or
// with cs and cf the count over every roll (each extra roll a die of its
// own, as Foundry counts), through mechanics.CappedExplode. Which dice
// explode depends on the order, so keep, drop, pools, !! (a die's extra
// rolls as one die), unique dice and matches are refused.

// cappedTerm compiles a dice term whose explosion has a cap on the whole
// term.
func (c *compiler) cappedTerm(t *term) (value, error) {
	capText := fmt.Sprintf("{%d in all}", t.total)
	switch {
	case t.compound:
		return value{}, errAt(t.at, "a cap on the explosions of the whole term (%s) is written with ! (every extra roll a die of its own, as Foundry's x%d rolls them), not !!", capText, t.total)
	case len(t.kd) > 0:
		return value{}, errAt(t.at, "a cap on the explosions of the whole term (%s) goes with the sum or a count of successes (cs, cf) of the dice, not with keep or drop", capText)
	case t.unique != nil || t.matches != nil:
		return value{}, errAt(t.at, "a cap on the explosions of the whole term (%s) does not combine with unique dice (u, uo) or matches (mt)", capText)
	}
	node := mechanics.CappedExplode{Explode: *t.explode, N: t.n, Total: t.total}
	if t.hasCS || t.hasCF {
		score, err := c.scorer(t)
		if err != nil {
			return value{}, err
		}
		node.Score = score
	}
	lo, hi := 0, 0
	for i, f := range t.die.Faces {
		a, b := node.Value(f, false), node.Value(f, true)
		if i == 0 {
			lo, hi = min(a, b), max(a, b)
		}
		lo, hi = min(lo, a, b), max(hi, a, b)
	}
	extra := node.MaxRolls() - t.n
	return rndV(node, t.n*lo+extra*min(0, lo), t.n*hi+extra*max(0, hi)), nil
}

// cappedPool is the refusal of a pool of dice whose explosions have a cap
// on the whole term.
func cappedPool(d *notation.Dice) string {
	return fmt.Sprintf("a pool reads its dice one by one, and a cap on the explosions of the whole term ({n in all}) makes which dice explode depend on their order: write %s as a term of its own (its sum, or cs to count)", d)
}
