// Package ag registers the Autonomous Garden mechanics of mechanics.md §1:
// a pool of d6 keeps its highest die, each extra copy of a face adds +1 (a
// critical), all ones is a fumble, and the 0-clamped total is compared with a
// TN; the margin of success (MoS) falls into seven bands.
package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// Core options of §1.1; they apply to every ag roll.
var (
	optCritCount = mechanics.Option{Name: "ag.core.opt.crit_count", Values: []string{"extra_copies", "repeated_faces", "kept_only"},
		Doc: "extra_copies: +1 for every die beyond the first showing any face (n − distinct faces); repeated_faces: +1 per face value shown at least twice; kept_only: +1 per extra copy of the kept face only"}
	optFumbleCrit = mechanics.Option{Name: "ag.core.opt.fumble_crit", Values: []string{"suppress", "stack"},
		Doc: "suppress: a fumble (all ones) scores 1 with no crit bonus; stack: all ones also earns the crit bonus"}
	optUnskilledCrit = mechanics.Option{Name: "ag.core.opt.unskilled_crit", Values: []string{"apply", "none"},
		Doc: "apply: doubles on the unskilled (skill 0, two dice keep lowest) roll add +1; none: they do not"}
	optTie = mechanics.Option{Name: "ag.core.opt.tie", Values: []string{"band", "cost_accepted", "success", "failure"},
		Doc: "band: MoS 0 is the 'maybe, at a cost' band, not a success; cost_accepted: MoS 0 becomes MoS 1 (success with a downside); success: MoS 0 counts as a success; failure: MoS 0 counts as a failure"}
	optNegativePool = mechanics.Option{Name: "ag.core.opt.negative_pool", Values: []string{"unskilled", "auto_fail"},
		Doc: "a pool reduced to ≤ 0 dice (deception) rolls as skill 0 (unskilled) or fails automatically (auto_fail)"}
)

// CoreOptions are the §1.1 switches, read from a configuration.
type CoreOptions struct {
	CritCount, FumbleCrit, UnskilledCrit, Tie, NegativePool string
}

// coreOptionsOf reads whichever core options the mechanic declares; the rest
// keep their defaults.
func coreOptionsOf(c mechanics.Config) CoreOptions {
	get := func(o mechanics.Option) string {
		if v, ok := c.Options[o.Name]; ok {
			return v
		}
		return o.Default()
	}
	return CoreOptions{
		CritCount: get(optCritCount), FumbleCrit: get(optFumbleCrit), UnskilledCrit: get(optUnskilledCrit),
		Tie: get(optTie), NegativePool: get(optNegativePool),
	}
}

// A roll is packed as R·4 + crit + 2·fumble, R ≥ 0 the pool result (R is
// rollAutoFail for an automatic failure).
const (
	flagCrit   = 1
	flagFumble = 2
	// rollAutoFail is R for an automatic failure: T clamps to 0.
	rollAutoFail = -100
	// rollBase is the packing base of one roll in a two-roll outcome.
	rollBase = 256
)

// Roll result fields of a packed roll.
func rollValue(o int) int   { return o >> 2 }
func rollCrit(o int) bool   { return o&flagCrit != 0 }
func rollFumble(o int) bool { return o&flagFumble != 0 }

// poolEval is the ag pool as an Evaluator. Faces arrive in ascending order;
// the state keeps only what the options need, packed in bytes:
// kept face | distinct faces <<8 | faces seen twice or more <<16 | count of
// the kept face <<24.
type poolEval struct {
	n         int
	keepLow   bool
	critCount string
	stack     bool
	crits     bool
}

func (e poolEval) Start() uint64 { return 0 }

func (e poolEval) Next(s uint64, face, count int) uint64 {
	if count == 0 {
		return s
	}
	kept, distinct, rep, keptN := s&0xff, (s>>8)&0xff, (s>>16)&0xff, (s>>24)&0xff
	distinct++
	if count >= 2 && e.critCount == "repeated_faces" {
		rep++
	}
	if !e.keepLow || kept == 0 {
		kept = uint64(face)
		if e.critCount == "kept_only" {
			keptN = uint64(count)
		}
	}
	return kept | distinct<<8 | rep<<16 | keptN<<24
}

func (e poolEval) Final(s uint64) int {
	kept, distinct, rep, keptN := int(s&0xff), int((s>>8)&0xff), int((s>>16)&0xff), int((s>>24)&0xff)
	bonus := 0
	if e.crits {
		switch e.critCount {
		case "extra_copies":
			bonus = e.n - distinct
		case "repeated_faces":
			bonus = rep
		case "kept_only":
			bonus = keptN - 1
		}
	}
	if distinct == 1 && kept == 1 { // every die shows 1
		r := 1
		if e.stack {
			r += bonus
		}
		return r<<2 | flagFumble
	}
	o := (kept + bonus) << 2
	if bonus > 0 {
		o |= flagCrit
	}
	return o
}

// Pool is the model of one ag roll with n dice (§1.1): n ≥ 1 keeps the
// highest die, n = 0 (and n < 0 with negative_pool=unskilled) rolls two dice
// and keeps the lowest. The value is a packed roll (see rollValue).
func Pool(n int, o CoreOptions) mechanics.Node {
	if n < 0 && o.NegativePool == "auto_fail" {
		return mechanics.Const{V: rollAutoFail << 2}
	}
	ev := poolEval{n: n, critCount: o.CritCount, stack: o.FumbleCrit == "stack", crits: true}
	if n <= 0 {
		ev.n, ev.keepLow, ev.crits = 2, true, o.UnskilledCrit == "apply"
	}
	return mechanics.Pool{Die: mechanics.D(6), N: ev.n, Eval: ev}
}

// Total is T = max(0, R + A + M) of §1.1 for a packed roll.
func Total(roll, attr, mod int) int { return max(0, rollValue(roll)+attr+mod) }

// success applies ag.core.opt.tie to a MoS.
func success(mos int, tie string) bool {
	switch tie {
	case "cost_accepted", "success":
		return mos >= 0
	default:
		return mos >= 1
	}
}

// reportedMoS applies the cost_accepted reading (MoS 0 is taken as MoS 1).
func reportedMoS(mos int, tie string) int {
	if tie == "cost_accepted" && mos == 0 {
		return 1
	}
	return mos
}

// BandLabels are the seven MoS bands of §1.1, from worst to best.
var BandLabels = []string{
	"no_complication (MoS<=-3)", "no (MoS=-2)", "no_advantage (MoS=-1)", "maybe_at_cost (MoS=0)",
	"yes_complication (MoS=1)", "yes (MoS=2)", "yes_advantage (MoS>=3)",
}

// Band maps a MoS to its band index 0..6.
func Band(mos int) int { return min(max(mos, -3), 3) + 3 }

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

// testSpec reports a single roll against a TN: the outcome is the packed roll.
func testSpec(roll mechanics.Node, attr, mod, tn int, o CoreOptions) *mechanics.Spec {
	mos := func(r int) int { return reportedMoS(Total(r, attr, mod)-tn, o.Tie) }
	return &mechanics.Spec{
		Outcome: roll,
		Vars: []mechanics.Var{
			{Name: "mos", Doc: "margin of success T − TN", Of: mos},
			{Name: "total", Doc: "T = max(0, R + A + M)", Of: func(r int) int { return Total(r, attr, mod) }},
			{Name: "roll", Doc: "pool result R (highest die + crits)", Of: rollValue},
		},
		Events: []mechanics.Event{
			{Name: "success", Doc: "MoS ≥ 1 (or per the tie option)", Of: func(r int) bool { return success(mos(r), o.Tie) }},
			{Name: "tie", Doc: "raw MoS = 0", Of: func(r int) bool { return Total(r, attr, mod) == tn }},
			{Name: "success_or_cost", Doc: "MoS ≥ 0", Of: func(r int) bool { return mos(r) >= 0 }},
			{Name: "crit", Doc: "at least one extra copy, not a fumble", Of: rollCrit},
			{Name: "fumble", Doc: "every die shows 1", Of: rollFumble},
			{Name: "crit_and_success", Of: func(r int) bool { return rollCrit(r) && success(mos(r), o.Tie) }},
			{Name: "fumble_and_success", Of: func(r int) bool { return rollFumble(r) && success(mos(r), o.Tie) }},
		},
		Bands: []mechanics.Bands{{Name: "mos_band", Labels: BandLabels, Of: func(r int) int { return Band(mos(r)) }}},
	}
}

var testOutputs = []string{
	"distributions: mos (primary), total, roll",
	"events: success, tie, success_or_cost, crit, fumble, crit_and_success, fumble_and_success",
	"bands: mos_band (seven MoS bands)",
}

func init() {
	mechanics.Register(&mechanics.Mechanic{
		ID:      "ag.skill_test",
		Summary: "skill pool (keep highest d6, +1 per extra copy) + attribute + modifiers vs a TN",
		Doc: "Roll the skill pool (two dice keep lowest at skill 0), add the attribute and modifiers, clamp at 0, " +
			"compare with the TN: MoS = T − TN, success at MoS ≥ 1. A skill-1 character fumbles one roll in six; " +
			"a skill-3 character fumbles one in 216 but crits 44% of the time (mechanics.md §1.2).",
		Params:  []mechanics.Param{pSkill, pAttr, pModifier, pTN},
		Options: []mechanics.Option{optCritCount, optFumbleCrit, optUnskilledCrit, optTie},
		Outputs: testOutputs,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			return testSpec(Pool(c.Int("skill"), o), c.Int("attribute"), c.Int("modifier"), c.Int("tn"), o), nil
		},
	})
	mechanics.Register(&mechanics.Mechanic{
		ID:      "ag.attribute_test",
		Summary: "attribute roll: two dice keep highest (+1 on doubles) + attribute + modifiers vs a TN",
		Doc:     "Body, Psyche and other attribute tests roll exactly the two-dice pool R₂, add the attribute and modifiers, clamp at 0 and compare with the TN (mechanics.md §1.2).",
		Params:  []mechanics.Param{pAttr, pModifier, pTN},
		Options: []mechanics.Option{optCritCount, optFumbleCrit, optTie},
		Outputs: testOutputs,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			return testSpec(Pool(2, o), c.Int("attribute"), c.Int("modifier"), c.Int("tn"), o), nil
		},
	})
	mechanics.Register(&mechanics.Mechanic{
		ID:      "ag.opposed",
		Summary: "opposed test: actor's skill + attribute vs opponent's; the difference is the actor's MoS",
		Doc: "Both sides roll their own skill pool plus attribute and modifiers (each clamped at 0); MoS = T_actor − T_opponent (K5). " +
			"Ties are frequent in this system, which is why ag.core.opt.tie matters (mechanics.md §1.3).",
		Params: []mechanics.Param{
			named(pSkill, "skill", "actor's skill (dice in the pool; 0 = two dice keep lowest)"),
			named(pAttr, "attribute", "actor's attribute"),
			named(pModifier, "modifier", "actor's situational modifiers"),
			named(pSkill, "opp_skill", "opponent's skill (dice in the pool; 0 = two dice keep lowest)"),
			named(pAttr, "opp_attribute", "opponent's attribute"),
			named(pModifier, "opp_modifier", "opponent's situational modifiers"),
		},
		Options: []mechanics.Option{optCritCount, optFumbleCrit, optUnskilledCrit, optTie},
		Outputs: []string{
			"distributions: mos (actor's MoS, primary), actor_total, opponent_total",
			"events: success (actor wins), tie, opponent_wins, actor_crit, actor_fumble, opponent_crit, opponent_fumble",
			"bands: mos_band (the actor's seven MoS bands)",
		},
		Build: buildOpposed,
	})
}

func buildOpposed(c mechanics.Config) (*mechanics.Spec, error) {
	return opposedSpec(sideOf(c, ""), sideOf(c, "opp_"), coreOptionsOf(c)), nil
}

// opposedSpec is an opposed test of two sides (K5): the outcome packs both
// rolls, the MoS is T_a − T_b.
func opposedSpec(a, b side, o CoreOptions) *mechanics.Spec {
	pack := mechanics.Combine{X: a.roll(o), Y: b.roll(o), Name: "actor,opponent", F: func(x, y int) int { return x*rollBase + y }}
	actor := func(x int) int { return x / rollBase }
	opp := func(x int) int { return x % rollBase }
	raw := func(x int) int { return a.total(actor(x)) - b.total(opp(x)) }
	mos := func(x int) int { return reportedMoS(raw(x), o.Tie) }
	return &mechanics.Spec{
		Outcome: pack,
		Vars: []mechanics.Var{
			{Name: "mos", Doc: "actor's MoS T_actor − T_opponent", Of: mos},
			{Name: "actor_total", Of: func(x int) int { return a.total(actor(x)) }},
			{Name: "opponent_total", Of: func(x int) int { return b.total(opp(x)) }},
		},
		Events: []mechanics.Event{
			{Name: "success", Doc: "actor wins: MoS ≥ 1 (or per the tie option)", Of: func(x int) bool { return success(mos(x), o.Tie) }},
			{Name: "tie", Doc: "equal totals", Of: func(x int) bool { return raw(x) == 0 }},
			{Name: "opponent_wins", Doc: "MoS ≤ −1 (a tie too when the tie option is failure)", Of: func(x int) bool {
				return raw(x) <= -1 || (raw(x) == 0 && o.Tie == "failure")
			}},
			{Name: "actor_crit", Of: func(x int) bool { return rollCrit(actor(x)) }},
			{Name: "actor_fumble", Of: func(x int) bool { return rollFumble(actor(x)) }},
			{Name: "opponent_crit", Of: func(x int) bool { return rollCrit(opp(x)) }},
			{Name: "opponent_fumble", Of: func(x int) bool { return rollFumble(opp(x)) }},
		},
		Bands: []mechanics.Bands{{Name: "mos_band", Labels: BandLabels, Of: func(x int) int { return Band(mos(x)) }}},
	}
}
