package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

//go:generate go tool stringer -type=CritCount,FumbleCrit,UnskilledCrit,Tie,negativePool -linecomment -output=core_string.go

// CritCount is ag.core.opt.crit_count.
type CritCount int

// Values of ag.core.opt.crit_count.
const (
	CritExtraCopies   CritCount = iota // extra_copies
	CritRepeatedFaces                  // repeated_faces
	CritKeptOnly                       // kept_only
)

// FumbleCrit is ag.core.opt.fumble_crit.
type FumbleCrit int

// Values of ag.core.opt.fumble_crit.
const (
	FumbleSuppress FumbleCrit = iota // suppress
	FumbleStack                      // stack
)

// UnskilledCrit is ag.core.opt.unskilled_crit.
type UnskilledCrit int

// Values of ag.core.opt.unskilled_crit.
const (
	UnskilledApply UnskilledCrit = iota // apply
	UnskilledNone                       // none
)

// Tie is ag.core.opt.tie: how MoS 0 counts.
type Tie int

// Values of ag.core.opt.tie.
const (
	TieBand         Tie = iota // band
	TieCostAccepted            // cost_accepted
	TieSuccess                 // success
	TieFailure                 // failure
)

// negativePool is ag.core.opt.negative_pool.
type negativePool int

// Values of ag.core.opt.negative_pool.
const (
	negativeUnskilled negativePool = iota // unskilled
	negativeAutoFail                      // auto_fail
)

// The core roll's options (see the package doc).
var (
	optCritCount = mechanics.SwitchOf("ag.core", "crit_count",
		"extra_copies: +1 for every die beyond the first showing any face (n − distinct faces); repeated_faces: +1 per face value shown at least twice; kept_only: +1 per extra copy of the kept face only",
		CritExtraCopies, CritRepeatedFaces, CritKeptOnly)
	optFumbleCrit = mechanics.SwitchOf("ag.core", "fumble_crit",
		"suppress: a fumble (all ones) scores 1 with no crit bonus; stack: all ones also earns the crit bonus", FumbleSuppress, FumbleStack)
	optUnskilledCrit = mechanics.SwitchOf("ag.core", "unskilled_crit",
		"apply: doubles on the unskilled (skill 0, two dice keep lowest) roll add +1; none: they do not", UnskilledApply, UnskilledNone)
	optTie = mechanics.SwitchOf("ag.core", "tie",
		"band: MoS 0 is the 'maybe, at a cost' band, not a success; cost_accepted: MoS 0 becomes MoS 1 (success with a downside); success: MoS 0 counts as a success; failure: MoS 0 counts as a failure",
		TieBand, TieCostAccepted, TieSuccess, TieFailure)
	optNegativePool = mechanics.SwitchOf("ag.core", "negative_pool",
		"a pool reduced to ≤ 0 dice (deception) rolls as skill 0 (unskilled) or fails automatically (auto_fail)", negativeUnskilled, negativeAutoFail)
)

// CoreOptions are the core roll's switches (see the package doc), decoded
// from a configuration. The rule for a pool below zero dice
// (ag.core.opt.negative_pool) comes only from a configuration; its zero
// value rolls such a pool unskilled.
type CoreOptions struct {
	CritCount     CritCount
	FumbleCrit    FumbleCrit
	UnskilledCrit UnskilledCrit
	Tie           Tie
	negativePool  negativePool
}

// coreOptionsOf decodes whichever core options the mechanic declares; the
// rest keep their defaults.
func coreOptionsOf(c mechanics.Config) CoreOptions {
	return CoreOptions{
		CritCount: optCritCount.OrDefault(c), FumbleCrit: optFumbleCrit.OrDefault(c), UnskilledCrit: optUnskilledCrit.OrDefault(c),
		Tie: optTie.OrDefault(c), negativePool: optNegativePool.OrDefault(c),
	}
}

// coreOpts are the core roll's switches every single-roll ag mechanic
// offers.
var coreOpts = mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie)

func withCore(extra ...mechanics.Option) []mechanics.Option {
	return append(append([]mechanics.Option(nil), coreOpts...), extra...)
}

// coreWith is withCore for typed options: the core roll's switches, then
// extra.
func coreWith(extra ...mechanics.Declared) []mechanics.Option {
	return withCore(mechanics.Options(extra...)...)
}

// maxRoll bounds a pool result: the kept face plus one per extra die, for
// the largest pool a mechanic builds (skill 40 + aiming 40 = 80 dice).
const maxRoll = 6 + 79

// rollRecord is the outcome of one ag roll: the pool result R (highest die
// plus crits), whether it crit, whether it fumbled (every die a 1), and
// whether the pool failed automatically (negative_pool=auto_fail).
var rollRecord = mechanics.NewRecord(
	mechanics.Int("roll", 0, maxRoll, "pool result R: the kept die plus the crit bonus"),
	mechanics.Flag("crit", "at least one extra copy, not a fumble"),
	mechanics.Flag("fumble", "every die shows 1"),
	mechanics.Flag("auto_fail", "the pool was reduced below zero dice and fails automatically"),
)

var (
	slotRoll     = rollRecord.Slot("roll")
	slotCrit     = rollRecord.Slot("crit")
	slotFumble   = rollRecord.Slot("fumble")
	slotAutoFail = rollRecord.Slot("auto_fail")
	autoFailRoll = slotAutoFail.Set(rollRecord.Start(), 1)
)

// Roll result fields of a roll record.
func rollValue(o int) int   { return slotRoll.Get(o) }
func rollCrit(o int) bool   { return slotCrit.Bool(o) }
func rollFumble(o int) bool { return slotFumble.Bool(o) }

// poolEval is the ag pool as an Evaluator. Faces arrive in ascending order;
// the DP state keeps only what the options need, in the fields of
// poolState: the kept face, the distinct faces seen, the faces seen twice or
// more, and the count of the kept face.
type poolEval struct {
	n         int
	keepLow   bool
	critCount CritCount
	stack     bool
	crits     bool
}

var (
	poolState                               = mechanics.BitFields(8, 8, 8, 8)
	psKept, psDistinct, psRepeated, psKeptN = poolState[0], poolState[1], poolState[2], poolState[3]
)

func (e poolEval) Start() uint64 { return 0 }

func (e poolEval) Next(s uint64, face, count int) uint64 {
	if count == 0 {
		return s
	}
	s = psDistinct.Set(s, psDistinct.Get(s)+1)
	if count >= 2 && e.critCount == CritRepeatedFaces {
		s = psRepeated.Set(s, psRepeated.Get(s)+1)
	}
	if !e.keepLow || psKept.Get(s) == 0 {
		s = psKept.Set(s, face)
		if e.critCount == CritKeptOnly {
			s = psKeptN.Set(s, count)
		}
	}
	return s
}

func (e poolEval) Final(s uint64) int {
	kept, distinct := psKept.Get(s), psDistinct.Get(s)
	bonus := 0
	if e.crits {
		switch e.critCount {
		case CritExtraCopies:
			bonus = e.n - distinct
		case CritRepeatedFaces:
			bonus = psRepeated.Get(s)
		case CritKeptOnly:
			bonus = psKeptN.Get(s) - 1
		}
	}
	o := rollRecord.Start()
	if distinct == 1 && kept == 1 { // every die shows 1
		r := 1
		if e.stack {
			r += bonus
		}
		return slotFumble.Set(slotRoll.Set(o, r), 1)
	}
	return slotCrit.SetBool(slotRoll.Set(o, kept+bonus), bonus > 0)
}

// Pool is the model of one ag roll with n dice (the core roll of the
// package doc): n ≥ 1 keeps the
// highest die, n = 0 (and n < 0 with negative_pool=unskilled) rolls two dice
// and keeps the lowest. It yields rollRecord codes.
func Pool(n int, o CoreOptions) mechanics.Node {
	if n < 0 && o.negativePool == negativeAutoFail {
		return mechanics.Const{V: autoFailRoll}
	}
	ev := poolEval{n: n, critCount: o.CritCount, stack: o.FumbleCrit == FumbleStack, crits: true}
	if n <= 0 {
		ev.n, ev.keepLow, ev.crits = 2, true, o.UnskilledCrit == UnskilledApply
	}
	return mechanics.Pool{Die: mechanics.D(6), N: ev.n, Eval: ev}
}

// rollTotal is T = max(0, R + A + M) of the core roll for a roll record (0 for an
// automatic failure).
func rollTotal(roll, attr, mod int) int {
	if slotAutoFail.Bool(roll) {
		return 0
	}
	return max(0, rollValue(roll)+attr+mod)
}

// totalExpr is rollTotal as an expression over the fields prefix+"roll" and
// prefix+"auto_fail".
func totalExpr(prefix string, attr, mod int) expr.Expr {
	return expr.Cond(expr.F(prefix+"auto_fail"), expr.K(0), expr.Max(expr.K(0), expr.Add(expr.F(prefix+"roll"), expr.K(int64(attr+mod)))))
}

// success applies ag.core.opt.tie to a MoS.
func success(mos int, tie Tie) bool {
	switch tie {
	case TieCostAccepted, TieSuccess:
		return mos >= 0
	default:
		return mos >= 1
	}
}

// successExpr is success as an expression of a (reported) MoS.
func successExpr(mos expr.Expr, tie Tie) expr.Expr {
	if tie == TieCostAccepted || tie == TieSuccess {
		return expr.Ge(mos, expr.K(0))
	}
	return expr.Ge(mos, expr.K(1))
}

// reportedMoS applies the cost_accepted reading (MoS 0 is taken as MoS 1).
func reportedMoS(mos int, tie Tie) int {
	if tie == TieCostAccepted && mos == 0 {
		return 1
	}
	return mos
}

// reportedMoSExpr is reportedMoS as an expression of the raw MoS.
func reportedMoSExpr(raw expr.Expr, tie Tie) expr.Expr {
	if tie == TieCostAccepted {
		return expr.Cond(expr.Eq(raw, expr.K(0)), expr.K(1), raw)
	}
	return raw
}

// rollMoS is the reported MoS (with the tie option) of the roll
// record r for attribute a and modifier m against tn.
func rollMoS(r, a, m, tn int, tie Tie) int { return reportedMoS(rollTotal(r, a, m)-tn, tie) }

// mosExpr is rollMoS as an expression over the roll record fields
// prefix+"roll" and prefix+"auto_fail".
func mosExpr(prefix string, a, m, tn int, tie Tie) expr.Expr {
	return reportedMoSExpr(expr.Sub(totalExpr(prefix, a, m), expr.K(int64(tn))), tie)
}

// bandLabels are the seven MoS bands of the core roll, from worst to best.
var bandLabels = []string{
	"no_complication (MoS<=-3)", "no (MoS=-2)", "no_advantage (MoS=-1)", "maybe_at_cost (MoS=0)",
	"yes_complication (MoS=1)", "yes (MoS=2)", "yes_advantage (MoS>=3)",
}

// mosBand maps a MoS to its band index 0..6.
func mosBand(mos int) int { return min(max(mos, -3), 3) + 3 }

// bandExpr is mosBand as an expression.
func bandExpr(mos expr.Expr) expr.Expr { return expr.Add(expr.Clamp(mos, -3, 3), expr.K(3)) }

// ip is the shorthand for an integer parameter.
var ip = mechanics.IntParam

// bit is 1 when b holds.
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

var (
	pSkill    = mechanics.Param{Name: "skill", Default: 2, Min: 0, Max: 40, Doc: "skill level n = dice in the pool; 0 rolls two dice and keeps the lowest (sweep 0–8)"}
	pAttr     = mechanics.Param{Name: "attribute", Default: 2, Min: 0, Max: 20, Doc: "attribute A added to the roll [placeholder range; sweep 0–6]"}
	pModifier = mechanics.Param{Name: "modifier", Default: 0, Min: -20, Max: 20, Doc: "sum M of situational modifiers (wounds, actions, lighting, cover, assist…; sweep −6…+6)"}
	pTN       = mechanics.Param{Name: "tn", Default: 5, Min: 1, Max: 60, Doc: "target number: 1 effortless, 2 very easy, 3 easy, 4 moderate, 5 challenging, 6 difficult, 7 very difficult, 9 extremely difficult, 11 near impossible, 14+ divine intervention"}
)

func named(p mechanics.Param, name, doc string) mechanics.Param {
	p.Name, p.Doc = name, doc
	return p
}

// testSpec reports a single roll against a TN: the outcome is the roll
// record.
func testSpec(roll mechanics.Node, attr, mod, tn int, o CoreOptions) *mechanics.Spec {
	total, mos := expr.F("total"), expr.F("mos")
	raw := expr.Sub(total, expr.K(int64(tn)))
	ok := successExpr(mos, o.Tie)
	spec := &mechanics.Spec{Record: rollRecord, Outcome: roll}
	spec.Var("mos", "margin of success T − TN", reportedMoSExpr(raw, o.Tie)).
		Var("total", "T = max(0, R + A + M)", totalExpr("", attr, mod)).
		Var("roll", "pool result R (highest die + crits)", expr.F("roll")).
		Event("success", "MoS ≥ 1 (or per the tie option)", ok).
		Event("tie", "raw MoS = 0", expr.Eq(raw, expr.K(0))).
		Event("success_or_cost", "MoS ≥ 0", expr.Ge(mos, expr.K(0))).
		Event("crit", "at least one extra copy, not a fumble", expr.F("crit")).
		Event("fumble", "every die shows 1", expr.F("fumble")).
		Event("crit_and_success", "a crit and a success", expr.And(expr.F("crit"), ok)).
		Event("fumble_and_success", "a fumble that still succeeds", expr.And(expr.F("fumble"), ok)).
		Band("mos_band", "the seven MoS bands of the core roll", bandLabels, bandExpr(mos))
	return spec
}

// coreMechanics are the mechanics declared in core.go.
func coreMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		{
			ID:      "ag.skill_test",
			Summary: "skill pool (keep highest d6, +1 per extra copy) + attribute + modifiers vs a TN",
			Doc: "Roll the skill pool (two dice keep lowest at skill 0), add the attribute and modifiers, clamp at 0, " +
				"compare with the TN: MoS = T − TN, success at MoS ≥ 1. A skill-1 character fumbles one roll in six; " +
				"a skill-3 character fumbles one in 216 but crits 44% of the time.",
			Params:  []mechanics.Param{pSkill, pAttr, pModifier, pTN},
			Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie),
			Build: func(c mechanics.Config) (*mechanics.Spec, error) {
				o := coreOptionsOf(c)
				return testSpec(Pool(c.Int("skill"), o), c.Int("attribute"), c.Int("modifier"), c.Int("tn"), o), nil
			},
		},
		{
			ID:      "ag.attribute_test",
			Summary: "attribute roll: two dice keep highest (+1 on doubles) + attribute + modifiers vs a TN",
			Doc:     "Body, Psyche and other attribute tests roll exactly the two-dice pool R₂, add the attribute and modifiers, clamp at 0 and compare with the TN.",
			Params:  []mechanics.Param{pAttr, pModifier, pTN},
			Options: mechanics.Options(optCritCount, optFumbleCrit, optTie),
			Build: func(c mechanics.Config) (*mechanics.Spec, error) {
				o := coreOptionsOf(c)
				return testSpec(Pool(2, o), c.Int("attribute"), c.Int("modifier"), c.Int("tn"), o), nil
			},
		},
		{
			ID:      "ag.opposed",
			Summary: "opposed test: actor's skill + attribute vs opponent's; the difference is the actor's MoS",
			Doc: "Both sides roll their own skill pool plus attribute and modifiers (each clamped at 0); MoS = T_actor − T_opponent, the comparison of two independent totals. " +
				"Ties are frequent in this system, which is why ag.core.opt.tie matters.",
			Params: []mechanics.Param{
				named(pSkill, "skill", "actor's skill (dice in the pool; 0 = two dice keep lowest)"),
				named(pAttr, "attribute", "actor's attribute"),
				named(pModifier, "modifier", "actor's situational modifiers"),
				named(pSkill, "opp_skill", "opponent's skill (dice in the pool; 0 = two dice keep lowest)"),
				named(pAttr, "opp_attribute", "opponent's attribute"),
				named(pModifier, "opp_modifier", "opponent's situational modifiers"),
			},
			Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie),
			Build:   buildOpposed,
		},
	}
}

func buildOpposed(c mechanics.Config) (*mechanics.Spec, error) {
	return opposedSpec(sideOf(c, ""), sideOf(c, "opp_"), coreOptionsOf(c)), nil
}

// pairRecord is the outcome of two independent rolls: the actor's and the
// opponent's roll records side by side.
var (
	pairRecord   = mechanics.NewRecord(append(rollRecord.Prefixed("actor_"), rollRecord.Prefixed("opponent_")...)...)
	pairActor    = pairRecord.Embed("actor_", rollRecord)
	pairOpponent = pairRecord.Embed("opponent_", rollRecord)
)

// pairNode rolls both sides into a pairRecord.
func pairNode(a, b side, o CoreOptions) mechanics.Node {
	return mechanics.Joint(pairRecord, a.roll(o), pairActor, b.roll(o), pairOpponent)
}

// opposedSpec is an opposed test of two sides (two independent totals
// compared): the outcome is the pair
// of rolls, the MoS is T_a − T_b.
func opposedSpec(a, b side, o CoreOptions) *mechanics.Spec {
	raw := expr.Sub(expr.F("actor_total"), expr.F("opponent_total"))
	mos := expr.F("mos")
	lose := expr.Le(raw, expr.K(-1))
	if o.Tie == TieFailure {
		lose = expr.Le(raw, expr.K(0))
	}
	spec := &mechanics.Spec{Record: pairRecord, Outcome: pairNode(a, b, o)}
	spec.Var("mos", "actor's MoS T_actor − T_opponent", reportedMoSExpr(raw, o.Tie)).
		Var("actor_total", "the actor's T", totalExpr("actor_", a.a, a.m)).
		Var("opponent_total", "the opponent's T", totalExpr("opponent_", b.a, b.m)).
		Event("success", "actor wins: MoS ≥ 1 (or per the tie option)", successExpr(mos, o.Tie)).
		Event("tie", "equal totals", expr.Eq(raw, expr.K(0))).
		Event("opponent_wins", "MoS ≤ −1 (a tie too when the tie option is failure)", lose).
		Event("actor_crit", "the actor's roll crit", expr.F("actor_crit")).
		Event("actor_fumble", "the actor fumbled", expr.F("actor_fumble")).
		Event("opponent_crit", "the opponent's roll crit", expr.F("opponent_crit")).
		Event("opponent_fumble", "the opponent fumbled", expr.F("opponent_fumble")).
		Band("mos_band", "the actor's seven MoS bands", bandLabels, bandExpr(mos))
	return spec
}
