package bd

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// ladder is the rank ladder of bonus dice (see the package doc): d4, d6, d8
// (ordinary), d10 (heroic, where bonus dice start), d12, d20.
var ladder = [...]int{4, 6, 8, 10, 12, 20}

// top is the index of the highest rung.
const top = len(ladder) - 1

// heroic is the rung of heroic quality (d10).
const heroic = 3

// rungOf is the ladder index of a die size, or an error for a size that is
// not on the ladder.
func rungOf(name string, sides int) (int, error) {
	for i, s := range ladder {
		if s == sides {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s=%d is not on the rank ladder: use %s (d%d … d%d)", name, sides, ladderSizes(), ladder[0], ladder[top])
}

// The switches of the core roll (bd.core), shared by every mechanic that
// rolls bonus dice.
var (
	optVsCompare = mechanics.SwitchOf("bd.core", "vs_compare",
		"at_least: a total succeeds against a victory sum when T ≥ VS (the seed does not say; Guard is always strict); greater_than: T > VS",
		atLeast, greaterThan)
	optAboveD20 = mechanics.SwitchOf("bd.core", "above_d20",
		"cap: steps up past d20 do nothing; extra_die: each step past d20 adds one more bursting d20 to a roll that has bonus dice",
		aboveCap, aboveExtraDie)
	optWoundedCancellable = mechanics.SwitchOf("bd.core", "wounded_cancellable",
		"yes: the wound step counts like a challenge, so a charge cancels it; no: the wound takes one step off the top of what "+
			"charges and challenges built, after the steps past d20 that do nothing are dropped: with above_d20=cap a wounded "+
			"roll is at most d12; with extra_die it loses one extra d20 (or one rung below d20), as under yes",
		yes, no)
)

// ladderRules turns a roll's base rank and the steps on it into its bonus dice:
// the one place where the ladder and its options are applied.
type ladderRules struct {
	above       aboveD20
	cancellable yesNo
}

// ladderOf decodes the ladder switches of a mechanic (their defaults where
// the mechanic does not declare them).
func ladderOf(c mechanics.Config) ladderRules {
	return ladderRules{above: optAboveD20.OrDefault(c), cancellable: optWoundedCancellable.OrDefault(c)}
}

// steps are what moves a roll's bonus dice on the ladder.
type steps struct {
	charges, challenges int
	wounded             bool
}

// bonusDice is the bonus dice of one roll: n bursting dice with sides faces.
type bonusDice struct{ n, sides int }

// bonus is the bonus dice of a roll with k dice of base rung base:
// index = clamp(base + charges − challenges − wounded, d4, d20), per the
// options. The step applies to all k dice; extra d20s (extra_die) come only
// to a roll that has bonus dice. A wound that charges cannot cancel
// (wounded_cancellable=no) takes one step off the top of what was built:
// under cap the steps past d20 are dropped first (they do nothing), under
// extra_die each of them is an extra d20 and the wound takes one.
func (l ladderRules) bonus(k, base int, s steps) bonusDice {
	p := base + s.charges - s.challenges
	extraDice := l.above == aboveExtraDie && k > 0
	if s.wounded {
		if l.cancellable == no && !extraDice {
			p = min(p, top)
		}
		p--
	}
	extra := 0
	if extraDice {
		extra = max(0, p-top)
	}
	return bonusDice{n: k + extra, sides: ladder[min(max(p, 0), top)]}
}

// String is the dice in the usual notation ("2d10!").
func (b bonusDice) String() string {
	if b.n == 0 {
		return "no bonus dice"
	}
	return fmt.Sprintf("%dd%d!", b.n, b.sides)
}

// die is one bursting bonus die.
func (b bonusDice) die() mechanics.Explode { return mechanics.Explode{Die: mechanics.D(b.sides)} }

// terms are the bonus dice as terms of a sum.
func (b bonusDice) terms() []mechanics.Node {
	out := make([]mechanics.Node, b.n)
	for i := range out {
		out[i] = b.die()
	}
	return out
}

// burstMax is the most one bursting die of the given size can show in a
// simulation (mechanics.MaxBursts maxima in a row, then a last roll).
func burstMax(sides int) int { return sides * (mechanics.MaxBursts + 1) }

// max is the most the bonus dice can total in a simulation.
func (b bonusDice) max() int { return b.n * burstMax(b.sides) }

// d20 is the action die.
var d20 = mechanics.D(20)

// actionRoll is T = N20 + Σ X_i: the action die plus the bonus dice.
func actionRoll(b bonusDice) mechanics.Node {
	return mechanics.Sum{Terms: append([]mechanics.Node{d20}, b.terms()...)}
}

// totalField declares a field holding an action roll's total (from 1: the
// bonus dice are added to the action die one by one).
func totalField(name, doc string, b bonusDice) mechanics.Field {
	return mechanics.Int(name, 1, 20+b.max(), doc)
}

// withBursts is the record rec (fields "bursts" and total, total last, its
// range from base's least value up) of base plus the bonus dice b: the
// total and how many of the bonus dice burst (showed their maximum at
// least once).
//
// Each bonus die is rolled as what it is, X = S·J + R: J maxima in a row
// (each roll is the maximum with probability 1/S: a bursting coin that
// counts them), then a last roll R uniform on 1…S−1; the die bursts when
// J ≥ 1. Keeping the maxima apart from the last rolls until the end keeps
// the joint (bursts, total) small for the exact engine: the maxima are a
// few dozen values per die, and the last rolls an ordinary sum.
func withBursts(rec *mechanics.Record, base mechanics.Node, b bonusDice, total string) mechanics.Node {
	sB, sT := rec.Slot("bursts"), rec.Slot(total)
	start := rec.Start()
	if b.n == 0 {
		return mechanics.Map{X: base, Name: total, F: func(v int) int { return sT.Set(start, v) }}
	}
	S := b.sides
	maxima := mechanics.NewRecord(mechanics.Int("bursts", 0, b.n, "bonus dice that burst"),
		mechanics.Int("maxima", 0, b.n*(mechanics.MaxBursts+1), "maxima rolled on the bonus dice"))
	mB, mM := maxima.Slot("bursts"), maxima.Slot("maxima")
	coin := mechanics.Explode{Die: mechanics.Die{Faces: []int{0, 1}, Weights: []int64{int64(S - 1), 1}}}
	var acc mechanics.Node = mechanics.Const{V: maxima.Start()}
	for range b.n {
		acc = mechanics.Combine{X: acc, Y: coin, Name: "maxima of a bonus die", F: func(m, j int) int {
			if j > 0 {
				m = mB.Set(m, mB.Get(m)+1)
			}
			return mM.Set(m, mM.Get(m)+j)
		}}
	}
	lasts := []mechanics.Node{base}
	for range b.n {
		lasts = append(lasts, mechanics.D(S-1))
	}
	return mechanics.Combine{X: acc, Y: mechanics.Sum{Terms: lasts}, Name: total, F: func(m, r int) int {
		return sT.Set(sB.Set(start, mB.Get(m)), r+S*mM.Get(m))
	}}
}

// Shorthands for declarations and expressions.
var (
	ip    = mechanics.IntParam
	field = expr.F
)

func num(n int) expr.Expr { return expr.K(int64(n)) }

// Parameters shared by the mechanics (each mechanic lists those it reads).
var (
	pK = ip("k", 2, 0, 10, "bonus dice on the roll (from ability scores, skills, talents)")
	// pRank is a die size; Build refuses sizes off the ladder.
	pRank = ip("rank", 10, 4, 20, fmt.Sprintf("die of the bonus dice before any step: %s (d%d = heroic, where bonus dice start; d%d = ordinary)",
		ladderSizes(), ladder[heroic], ladder[ordinary]))
	pCharges    = ip("charges", 0, 0, 10, "charges on the roll: each steps every bonus die one rank up (charges and challenges cancel one for one)")
	pChallenges = ip("challenges", 0, 0, 10, "challenges on the roll: each steps every bonus die one rank down")
	pWounded    = ip("wounded", 0, 0, 1, "1: the roller is wounded (Durability 0), which steps its bonus dice one rank down")
	pVS         = ip("vs", 20, 0, 500, "victory sum VS")
	pGuard      = ip("guard", 15, 0, 200, "the target's Guard: 15 + its armour and ability bonuses")
)

// stepsOf reads charges, challenges and wounded.
func stepsOf(c mechanics.Config) steps {
	return steps{charges: c.Int("charges"), challenges: c.Int("challenges"), wounded: c.Int("wounded") == 1}
}

// bonusOf reads k, rank and the steps of a roll and gives its bonus dice.
func bonusOf(c mechanics.Config, extraChallenges int) (bonusDice, error) {
	base, err := rungOf("rank", c.Int("rank"))
	if err != nil {
		return bonusDice{}, err
	}
	s := stepsOf(c)
	s.challenges += extraChallenges
	return ladderOf(c).bonus(c.Int("k"), base, s), nil
}

// meetsVS is success against a victory sum (docs/mechanics.md#bd-core-check):
// T ≥ VS, or T > VS.
func meetsVS(t expr.Expr, vs int, cmp vsCompare) expr.Expr {
	if cmp == greaterThan {
		return kit.Compare(t, mechanics.GT, num(vs))
	}
	return kit.Compare(t, mechanics.GE, num(vs))
}

// beatsGuard is success against Guard: strictly higher (stated in the seed).
func beatsGuard(t expr.Expr, guard int) expr.Expr { return kit.Compare(t, mechanics.GT, num(guard)) }

func params(ps ...mechanics.Param) []mechanics.Param { return ps }

// coreMechanics are the mechanics declared in core.go.
func coreMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{coreBurst(), coreCheck(), check()}
}

func coreBurst() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.core.burst",
		Summary: "one bursting bonus die dS!: a maximum adds another roll of the same die, without limit",
		Doc: fmt.Sprintf("X = S·J + R: J ≥ 0 maxima, then a last roll R in 1…S−1, so P(X = S·j + r) = S^−(j+1), E[X] = S(S+1)/(2(S−1)) "+
			"(d%d!: %.4g) and X is never a multiple of S. The die is the rank stepped on the ladder d%d…d%d by charges, "+
			"challenges and being wounded (one die: steps past d20 stay d20). Exact up to a dropped tail of at most 1e-12, "+
			"reported as truncated mass.", ladder[heroic], expectedBurst(ladder[heroic]), ladder[0], ladder[top]),
		Params:  params(pRank, pCharges, pChallenges, pWounded),
		Options: mechanics.Options(optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			base, err := rungOf("rank", c.Int("rank"))
			if err != nil {
				return nil, err
			}
			b := ladderOf(c).bonus(1, base, stepsOf(c))
			S := b.sides
			rec := mechanics.NewRecord(mechanics.Int("value", 1, burstMax(S), fmt.Sprintf("X, the total of one d%d!", S)))
			x := field("value")
			j := expr.Floor(expr.Div(x, num(S)))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("value"), b.die())}
			spec.Var("value", fmt.Sprintf("X = %d·J + R, the die's total", S), x).
				Var("bursts", "J = ⌊X/S⌋: how many times the die showed its maximum", j).
				Var("last_roll", "R = X − S·J: the last roll, 1…S−1", expr.Sub(x, expr.Mul(num(S), j))).
				Event("burst", "the die showed its maximum at least once (X > S)", expr.Gt(x, num(S)))
			return spec, nil
		},
	}
}

func coreCheck() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.core.check",
		Summary: "action roll: d20 + k bursting bonus dice against a victory sum VS",
		Doc: "T = N20 + Σ_{i=1..k} X_i with X_i bursting bonus dice of the stepped rank; success ⇔ T ≥ VS (bd.core.opt.vs_compare; " +
			"against Guard see bd.attack: T > Guard). No natural-roll rules; with at least one bonus die no VS is out of reach " +
			"(with k = 0, T is the d20 alone, at most 20). Rank index = " +
			"clamp(rank + charges − challenges − wounded, d4, d20) for all bonus dice of the roll (bd.core.opt.above_d20 and " +
			"bd.core.opt.wounded_cancellable say what steps past d20 do and whether a charge cancels the wound).",
		Params:  params(pK, pRank, pVS, pCharges, pChallenges, pWounded),
		Options: mechanics.Options(optVsCompare, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			b, err := bonusOf(c, 0)
			if err != nil {
				return nil, err
			}
			vs, cmp := c.Int("vs"), optVsCompare.Of(c)
			rec := mechanics.NewRecord(totalField("total", "T = d20 + "+b.String(), b))
			t := field("total")
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("total"), actionRoll(b))}
			spec.Var("total", "T = d20 + "+b.String(), t).
				Var("margin", "T − VS", expr.Sub(t, num(vs))).
				Event("success", successDoc(cmp), meetsVS(t, vs, cmp))
			return spec, nil
		},
	}
}

func successDoc(cmp vsCompare) string {
	if cmp == greaterThan {
		return "T > VS"
	}
	return "T ≥ VS"
}

var optVisibility = mechanics.ChoiceOf("bd.check", "visibility",
	"raises the VS of driving, navigation and ranged attacks: "+visibilityPenalties(false),
	visNormal, visReduced, visLow, visZero)

func check() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.check",
		Summary: "skill, resistance and initiative rolls: d20 + bonus dice vs VS, with visibility and overwatch",
		Doc: "Skill and resistance checks are d20 plus the relevant bonus dice against a VS; reduced, low and zero visibility raise " +
			"the VS of driving, navigation and ranged attacks by " + visibilityPenalties(true) + ". Initiative is the same roll; an overwatching " +
			"combatant gets one more bonus die on the first turn (overwatch=1). With at least one bonus die no VS is ever out of " +
			"reach: the bursting tail has no end (with none, T is the d20 alone, at most 20). Also reported: how many bonus dice burst.",
		Params: params(pK, pRank, pVS, ip("overwatch", 0, 0, 1, "1: overwatch, +1 bonus die (initiative on the first turn, attack from the expected vector)"),
			pCharges, pChallenges, pWounded),
		Options: mechanics.Options(optVisibility, optVsCompare, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			base, err := rungOf("rank", c.Int("rank"))
			if err != nil {
				return nil, err
			}
			b := ladderOf(c).bonus(c.Int("k")+c.Int("overwatch"), base, stepsOf(c))
			vs, cmp := c.Int("vs")+optVisibility.Of(c).penalty(), optVsCompare.Of(c)
			rec := mechanics.NewRecord(mechanics.Int("bursts", 0, b.n, "bonus dice that burst"), totalField("total", "T = d20 + "+b.String(), b))
			t, bursts := field("total"), field("bursts")
			spec := &mechanics.Spec{Record: rec, Outcome: withBursts(rec, d20, b, "total")}
			spec.Var("total", "T = d20 + "+b.String(), t).
				Var("margin", fmt.Sprintf("T − VS (VS %d with the visibility)", vs), expr.Sub(t, num(vs))).
				Report("bursts").
				Event("success", successDoc(cmp)+" (VS with the visibility penalty)", meetsVS(t, vs, cmp)).
				Event("any_burst", "at least one bonus die burst", expr.Ge(bursts, num(1)))
			return spec, nil
		},
	}
}
