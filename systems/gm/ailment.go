package gm

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Ailments (poison, disease, drugs): docs/mechanics.md#gm-ailment-simple,
// #gm-ailment-chronic, #gm-ailment-inescapable and
// #gm-ailment-chronic_inescapable. A reaction roll at a penalty of the
// ailment's strength s resists it: p(s) = clamp((R − s)/20, 0, 1). An
// occurrence of the effect is n dX of something (injuries, minutes asleep
// or paralysed, penalty points); the four types differ in how often it
// recurs:
//
//   - simple: one roll, the effect at most once;
//   - chronic: once contracted, a health roll every action time throws it
//     off, each failure brings the effect again, the strength fading by one
//     per action time;
//   - inescapable: a roll every action time in the area, each failure the
//     effect again;
//   - chronic inescapable: rolls in the area at a strength growing by one
//     per action time until the first failure, then the effect every action
//     time in the area with no roll, then after leaving chronic throw-offs
//     from the base strength.
//
// The chains are exact. The chronic chain carries the total effect in its
// state and reads the number of effects off the time of the cure, so the
// compound (random-count) total Σ_{i ≤ N} E_i, N and the time are joint.
// The counting chains (inescapable, chronic inescapable) follow the count,
// and a random effect's total in a second part of the model, or, with
// injury_penalty=on and an effect in injuries (the total is then the
// penalty of the later rolls: a feedback chain), in the same state as the
// count. Chains whose exact computation would be too large are refused
// with advice; the exact engine refuses on its own a joint chain past its
// memory budget.

// presetData is one row of the seed's example table. Cells the seed leaves
// blank (the strength of the black widow and of sleep gas, every type but
// the chronic ones) are filled in: strength 0, the type from the text
// (the preset option's doc lists the table).
type presetData struct {
	kind     string // the seed's type
	strength int
	tau      tau
	effect   effectKind
	n, x     int // n dX per occurrence
	what     string
}

var presets = map[preset]presetData{
	presetCustom:        {"custom", 0, tauPreset, effectInjuries, 1, 1, "1 injury"},
	presetAlcohol:       {"chronic", -1, tau20Minutes, effectPenalty, 1, 1, "−1 agility, concentration, evasion, fortitude"},
	presetCommonCold:    {"chronic", 1, tauDay, effectPenalty, 1, 1, "−1 concentration, evasion, fortitude"},
	presetFoodPoisoning: {"chronic", 3, tauHour, effectInjuries, 1, 1, "1 injury"},
	presetBlackWidow:    {"simple", 0, tau30Minutes, effectInjuries, 1, 2, "d2 injuries"},
	presetGiantSpider:   {"simple", 4, tauRound, effectParalysis, 1, 4, "d4 minutes paralysis"},
	presetHugeSpider:    {"simple", 2, tauRound, effectInjuries, 1, 3, "d3 injuries"},
	presetLargeSpider:   {"simple", 1, tauRound, effectInjuries, 1, 2, "d2 injuries"},
	presetShadowSpider:  {"simple", 1, tau2Rounds, effectInjuries, 1, 6, "d6 injuries"},
	presetSleepGas:      {"inescapable", 0, tauRound, effectSleep, 2, 10, "sleep 2d10 minutes"},
}

// presetsDoc lists the preset library for the docs.
func presetsDoc() string {
	var b strings.Builder
	for p := presetAlcohol; p <= presetSleepGas; p++ {
		d := presets[p]
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%s, strength %d, %s, %s)", p, d.kind, d.strength, d.tau.unit(), d.what)
	}
	return b.String()
}

// unit names one action time, for the time axis of a chain.
func (t tau) unit() string {
	return [...]string{tauPreset: "action time", tauRound: "round", tau2Rounds: "2-round span", tauMinute: "minute",
		tau10Minutes: "10-minute span", tau20Minutes: "20-minute span", tau30Minutes: "30-minute span", tauHour: "hour", tauDay: "day"}[t]
}

// unit names what an effect is counted in.
func (e effectKind) unit() string {
	return [...]string{effectPreset: "", effectInjuries: "injuries", effectSleep: "minutes asleep", effectParalysis: "minutes paralysed",
		effectPenalty: "penalty points"}[e]
}

// incapacitates reports an effect that leaves the victim unable to act.
func (e effectKind) incapacitates() bool { return e == effectSleep || e == effectParalysis }

// fromPreset marks a parameter left to the preset.
const (
	fromPreset         = -1
	strengthFromPreset = -99
)

// The shared parameters of the ailments.
var (
	pR = score("R", 10, "reaction score of the roll to resist an unwilling victim: perception when knowing could avoid it (poisoned wine); "+
		"evasion when forced on them (a poisoned sword); a willing victim rolls on H (opt.willing_roll)")
	// pHealth is H of the ailments without throw-offs, pH that of those
	// with them.
	pHealth = score("H", 10, "health reaction score: the roll of a willing victim (willing=1 with opt.willing_roll=health; unused otherwise)")
	pH      = score("H", 10, "health reaction score: the throw-off rolls, and the roll to contract of a willing victim "+
		"(willing=1 with opt.willing_roll=health)")
	pS0      = fromThePreset(ip("s0", strengthFromPreset, strengthFromPreset, 20, "strength s0: a penalty on the reaction rolls (−4…+4 typical, 0 most poisons); −99, the default, takes the preset's"), strengthFromPreset)
	pWilling = ip("willing", 0, 0, 1, "1: the victim drinks, injects or accepts it: a penalty of 4 on the roll to contract, which is then a health roll (on H; "+
		"opt.willing_roll=reaction keeps R)")
	pInj   = ip("injuries", 0, 0, 60, "injuries the victim already has (a penalty on every roll with injury_penalty=on)")
	pDice  = fromThePreset(ip("effect_dice", fromPreset, fromPreset, 4, "n of the effect per occurrence, n dX (0: no effect); −1, the default, takes the preset's"), fromPreset)
	pSides = fromThePreset(ip("effect_sides", 0, 0, 20, "X of the effect per occurrence, n dX (1: a fixed n); 0, the default, takes the preset's"), 0)
	pL     = ip("L", 5, 1, 50, "action times spent in the area (the first roll at entry)")
)

// fromThePreset declares v, p's default, as the sentinel that takes the
// preset's value.
func fromThePreset(p mechanics.Param, v float64) mechanics.Param {
	p.Sentinels = map[float64]string{v: "the preset's"}
	return p
}

func pHorizon(doc string) mechanics.Param {
	return ip("horizon", 100, 1, 100, doc)
}

// ailmentOptions are the choices every ailment mechanic declares, named
// after it.
type ailmentOptions struct {
	preset  mechanics.OptionOf[preset]
	tau     mechanics.OptionOf[tau]
	effect  mechanics.OptionOf[effectKind]
	willing mechanics.OptionOf[willingRoll]
}

func ailmentOptionsOf(id string, def preset) ailmentOptions {
	order := []preset{def}
	for p := presetCustom; p <= presetSleepGas; p++ {
		if p != def {
			order = append(order, p)
		}
	}
	return ailmentOptions{
		preset: mechanics.ChoiceOf(id, "preset", "an ailment of the seed's table: it gives the strength, the action time and the effect "+
			"wherever s0, tau, effect_kind, effect_dice or effect_sides is left at its default (−99, preset, preset, −1, 0): "+presetsDoc()+"; custom: strength 0, 1 injury", order...),
		tau: mechanics.ChoiceOf(id, "tau", "the action time: when an effect comes, and the step of the chains (a label, except against "+
			"the minutes of an incapacitating effect with gm.ailment.inescapable.opt.incapacitation=auto_fail_when_incapacitated, a "+
			"round being a sixth of a minute; preset: the preset's)",
			tauPreset, tauRound, tau2Rounds, tauMinute, tau10Minutes, tau20Minutes, tau30Minutes, tauHour, tauDay),
		effect: mechanics.ChoiceOf(id, "effect_kind", "what an occurrence is counted in (only injuries feed the injury penalty back; "+
			"preset: the preset's)", effectPreset, effectInjuries, effectSleep, effectParalysis, effectPenalty),
		willing: mechanics.SwitchOf(id, "willing_roll", "the reaction a willing victim (willing=1) rolls to contract it on: health "+
			"(H), as the rules say (\"the reaction is health\" when the character accepts the ailment); reaction: R, the reaction of an "+
			"unwilling victim, for a designer who sets R to the health score or wants another reaction", willingRollHealth, willingRollReaction),
	}
}

func (o ailmentOptions) declared(extra ...mechanics.Declared) []mechanics.Option {
	return mechanics.Options(append([]mechanics.Declared{o.preset, o.tau, o.effect, o.willing, optNaturals, optInjuryPenalty}, extra...)...)
}

// ailment is the decoded configuration shared by the ailment mechanics.
type ailment struct {
	s0      int
	willing bool
	// onHealth: a willing victim rolls to contract on H (willing_roll=health).
	onHealth bool
	inj0     int  // injuries at the start, counted with the penalty on
	feedback bool // the effects are injuries and the penalty is on
	kind     effectKind
	n, x     int // n dX per occurrence
	tau      tau
	nat      naturals
}

// decodeAilment reads the configuration an ailment mechanic shares with
// the others: the preset, and whatever is set in its place.
func decodeAilment(c mechanics.Config, o ailmentOptions) ailment {
	pd := presets[o.preset.Of(c)]
	a := ailment{s0: pd.strength, willing: c.Int("willing") == 1, kind: pd.effect, n: pd.n, x: pd.x, tau: pd.tau, nat: optNaturals.Of(c)}
	a.onHealth = a.willing && o.willing.Of(c) == willingRollHealth
	if s := c.Int("s0"); s != strengthFromPreset {
		a.s0 = s
	}
	if n := c.Int("effect_dice"); n != fromPreset {
		a.n = n
	}
	if x := c.Int("effect_sides"); x != 0 {
		a.x = x
	}
	if t := o.tau.Of(c); t != tauPreset {
		a.tau = t
	}
	if e := o.effect.Of(c); e != effectPreset {
		a.kind = e
	}
	if optInjuryPenalty.Of(c) == injuryPenaltyOn {
		a.inj0 = c.Int("injuries")
		a.feedback = a.kind == effectInjuries && a.n > 0
	}
	return a
}

// effectRange is the least and the most one occurrence brings.
func (a ailment) effectRange() (lo, hi int) {
	if a.n == 0 {
		return 0, 0
	}
	return a.n, a.n * a.x
}

// constant reports an effect that is the same every time (then the total
// is that many times the number of effects, and the chains need no total).
func (a ailment) constant() bool { lo, hi := a.effectRange(); return lo == hi }

func (a ailment) effectNode() mechanics.Node { return dice(a.n, a.x) }

func (a ailment) effectUnit() string { return a.kind.unit() }

func (a ailment) willingPenalty() int { return 4 * boolInt(a.willing) }

// reaction is the reaction score of the rolls to contract: H for a
// willing victim with willing_roll=health ("the reaction is health"),
// else R.
func (a ailment) reaction(R, H int) int {
	if a.onHealth {
		return H
	}
	return R
}

// stepDice is the dice of one action time: the reaction roll and the effect
// an occurrence would bring, drawn together as one kernel, in one of three
// forms (kernelForm). Where a roll's target is the same from every state
// (no feedback, or a roll made before any effect), the kernel keeps just
// whether the roll resists, one kernel per chance; where the feedback
// makes the target depend on the state, it keeps the natural, which the
// step compares with the state's target (20 times the values: the exact
// engine maps each of them from each state). The effect varies fastest
// in the kernel's codes, so that every form is dense.
type stepDice struct {
	a           ailment
	rec         *mechanics.Record
	sRoll, sEff mechanics.Slot
	byState     mechanics.Node
}

// kernelForm is the form of an action time's kernel.
type kernelForm int

const (
	// effectOnFailure: the roll at a target the same from every state,
	// the effect drawn only when it fails (a step that resists needs no
	// effect): 1 + E values, E those of an effect.
	effectOnFailure kernelForm = iota
	// effectAlways: the same roll, the effect drawn either way (the
	// victims already ill in the area of a chronic inescapable ailment
	// take it with no roll): 2E values.
	effectAlways
	// byState: the natural, compared with the target of each state: 20E
	// values.
	byState
)

func newStepDice(a ailment) *stepDice {
	lo, hi := a.effectRange()
	d := &stepDice{a: a}
	d.rec = mechanics.NewRecord(
		mechanics.Int("effect", lo, hi, "what an occurrence would bring this action time"),
		mechanics.Int("roll", -1, 20, "the reaction roll: −1 fails, 0 resists (where the target is the same from every state), "+
			"1…20 its natural (where the target depends on the state)"))
	d.sRoll, d.sEff = d.rec.Slot("roll"), d.rec.Slot("effect")
	d.byState = kit.Roll(d.rec, part{Field: "roll", Node: d20}, part{Field: "effect", Node: a.effectNode()})
	return d
}

// kernel is the step's dice in form f for a roll at target (unused by
// byState).
func (d *stepDice) kernel(target int, f kernelForm) mechanics.Node {
	resists := coin(successes(target, d.a.nat))
	switch f {
	case byState:
		return d.byState
	case effectAlways:
		return kit.Roll(d.rec, part{Field: "roll", Node: mechanics.Sum{Terms: []mechanics.Node{resists, mechanics.Const{V: -1}}}},
			part{Field: "effect", Node: d.a.effectNode()})
	}
	failed := kit.Roll(d.rec, part{Field: "roll", Node: mechanics.Const{V: -1}}, part{Field: "effect", Node: d.a.effectNode()})
	return mechanics.Cond{If: resists, Then: mechanics.Const{V: d.sRoll.Set(d.rec.Start(), 0)}, Else: failed}
}

// key names the kernel of a roll at target in form f.
func (d *stepDice) key(target int, f kernelForm) int {
	if f == byState {
		return -1
	}
	return 100*int(f) + successes(target, d.a.nat)
}

// resists reads the roll of kernel value x at target.
func (d *stepDice) resists(x, target int) bool {
	n := d.sRoll.Get(x)
	if n > 0 {
		return roll("", target, d.a.nat).Holds(n)
	}
	return n == 0
}

// effect is the effect of kernel value x (meaningless where it resists in
// the form effectOnFailure).
func (d *stepDice) effect(x int) int { return d.sEff.Get(x) }

// size is the number of values of a kernel of form f (its codes are
// dense).
func (d *stepDice) size(f kernelForm) int {
	lo, hi := d.a.effectRange()
	e := hi - lo + 1
	switch f {
	case byState:
		return 20 * e
	case effectAlways:
		return 2 * e
	}
	return e + 1
}

// cost is the work of mapping a kernel of form f from one state, in
// kernel values: a value by state also compares its natural with the
// state's target, which about doubles its cost.
func (d *stepDice) cost(f kernelForm) int {
	if f == byState {
		return 2 * d.size(f)
	}
	return d.size(f)
}

// next bounds the states one step of form f leads to from a state: one
// per effect on a failure, and one on a success (one per effect where it
// is drawn either way).
func (d *stepDice) next(f kernelForm) int {
	lo, hi := d.a.effectRange()
	if f == effectAlways {
		return 2 * (hi - lo + 1)
	}
	return hi - lo + 2
}

// exactWork adds up the work of the exact engine on a time-dependent
// chain, step by step: the states that can hold mass at the step times
// the kernel's values (one call of the step each) and an overhead, and
// the pass over all S states a step takes. Past maxWork the exact engine
// refuses the chain (Spec.NoExact) and the simulator runs it.
type exactWork struct{ w float64 }

// step adds a step from live states with a kernel of k values, over S
// states.
func (w *exactWork) step(live, k, S int) {
	w.w += float64(live)*float64(k+stateOverhead) + float64(S)/passPerState
}

func (w *exactWork) total() float64 { return w.w }

// passPerState is how many states the pass of a step takes in the time of
// one kernel value.
const passPerState = 8

// canFail reports a roll at target that fails with some probability,
// canResist one that succeeds with some.
func canFail(target int, nat naturals) bool   { return successes(target, nat) < 20 }
func canResist(target int, nat naturals) bool { return successes(target, nat) > 0 }

// stateOverhead is the cost of one state's step beside its kernel values
// (mapping the kernel, holding the outcome), in kernel values.
const stateOverhead = 100

// maxWork is the most exactWork a chain may need: a few seconds of the
// exact engine (it does 20 to 100 million a second on a laptop).
const maxWork = 2e8

// homogeneousWork is the work of the exact engine on a homogeneous chain
// of the form f over L steps, live(t) bounding the states that hold mass
// after t steps: the step from each state a step is taken from, mapped
// once (a kernel and an overhead), then at each step a multiply-add per
// state and next state over the cached steps (about a kernel value each).
func homogeneousWork(d *stepDice, f kernelForm, L int, live func(t int) int) float64 {
	w := float64(live(L-1)) * float64(d.cost(f)+stateOverhead)
	for t := 1; t <= L; t++ {
		w += float64(live(t-1)) * float64(d.next(f))
	}
	return w
}

// checkWork has the exact engine refuse the chain of spec (Spec.NoExact)
// when w, its work on it, is past maxWork.
func checkWork(spec *mechanics.Spec, w float64, a ailment, advice string) {
	if workNoted != nil {
		workNoted(spec.Process, w)
	}
	if w > maxWork {
		spec.NoExact = tooMuchWork(w, a, advice)
	}
}

// workNoted, when set (by the tests, before any model is built), is told
// the work of every chain checkWork checks.
var workNoted func(p *mechanics.Process, w float64)

// tooMuchWork is the reason the exact engine gives for a chain past
// maxWork (the simulator still runs it).
func tooMuchWork(w float64, a ailment, advice string) string {
	if a.feedback {
		advice += " (or turn injury_penalty off)"
	}
	return fmt.Sprintf("the chain would take the exact engine about %.3g steps of a state by a kernel value, more than the %.3g it "+
		"follows (a few seconds); %s", w, maxWork, advice)
}

// penalty is the injury penalty of a state whose total effect is total.
func (a ailment) penalty(total int) int {
	if a.feedback {
		return a.inj0 + total
	}
	return a.inj0
}

// effectVar is a variable in the effect's unit.
func (a ailment) effectVar(name, doc string, e, when expr.Expr, otherwise string) mechanics.Var {
	return mechanics.Var{Name: name, Doc: doc, Unit: a.effectUnit(), Expr: e, When: when, Otherwise: otherwise}
}

// willingDoc is the part of an ailment's doc about a willing victim.
const willingDoc = " A willing victim (willing=1) rolls to contract on the health reaction H, at the extra −4 (the rules: \"the " +
	"reaction is health\"); opt.willing_roll=reaction keeps R."

// given makes v the conditional variable given cond (named label).
func (a ailment) given(v mechanics.Var, cond expr.Expr, label string) mechanics.Var {
	v.Given, v.GivenLabel = cond, label
	return v
}

// workDoc is the part of an ailment's doc about what the exact engine
// takes.
var workDoc = fmt.Sprintf("The exact engine's work is counted before it starts, step by step over the states that can still hold "+
	"mass (none once no victim can be ill): every configuration without feedback or auto-fail runs exactly; one past a few "+
	"seconds of it (feedback under the natural rule, or auto-fail against 10 minutes to an hour, with a large random effect "+
	"and many action times) is refused by the exact engine, with advice, and the simulator runs it; a chain past %d states "+
	"is refused outright.", maxStates)

// feedbackDoc is the part of an ailment's doc about the injury penalty.
const feedbackDoc = " With injury_penalty=on every roll is at a penalty of the injuries the victim has (the injuries parameter, plus the " +
	"effects so far when they are injuries): the chain's state already holds the total effect, so the feedback chain stays exact."

// ailmentMechanics are the mechanics declared in ailment.go.
func ailmentMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		simpleAilment(), chronicAilment(), inescapableAilment(), chronicInescapableAilment(),
	}
}

func simpleAilment() *mechanics.Mechanic {
	const id = "gm.ailment.simple"
	opts := ailmentOptionsOf(id, presetBlackWidow)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "simple ailment: one reaction roll at the strength penalty; on a failure the effect happens once, after the action time",
		Doc: "q = 1 − p(s0 + 4·willing) with p(s) = clamp((R − s)/20, 0, 1); the effect is the mixture (1 − q)·δ₀ + q·E, E = n dX of the " +
			"preset." + willingDoc + feedbackDoc,
		Params:  []mechanics.Param{pR, pHealth, pS0, pWilling, pInj, pDice, pSides},
		Options: opts.declared(),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := decodeAilment(c, opts)
			lo, hi := a.effectRange()
			r := roll("natural", a.reaction(c.Int("R"), c.Int("H"))-a.s0-a.willingPenalty()-a.inj0, a.nat)
			rec := mechanics.NewRecord(mechanics.Int("natural", 1, 20, "the natural d20 of the reaction roll"),
				mechanics.Int("occurrence", lo, hi, "what the effect brings if it happens (n dX)").In(a.effectUnit()))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "occurrence", Node: a.effectNode()})}
			affected := expr.Not(r.Success())
			spec.Vars = []mechanics.Var{
				a.effectVar("effect", "the effect suffered: E on a failed roll, else 0", expr.Cond(affected, field("occurrence"), num(0)), nil, ""),
				a.given(a.effectVar("effect_if_affected", "the effect given that the roll failed: E, its distribution given "+
					"affected (P(E = x | affected), summing to 1)", field("occurrence"), nil, ""), affected, "affected"),
			}
			spec.Var("margin", "the reaction roll's margin: target − N", r.Margin()).
				Event("affected", "the reaction roll fails: the effect happens once, after the action time", affected)
			return spec, nil
		},
	}
}

var (
	optFadeIndex = mechanics.SwitchOf("gm.ailment.chronic", "fade_index",
		"the strength of the throw-off at action time k = 2, 3, …: first_throwoff_at_s0_minus_1 (s0 − (k − 1)), first_throwoff_at_s0 "+
			"(s0 − (k − 2)), s0_minus_k (s0 − k)", fadeFirstAtS0Minus1, fadeFirstAtS0, fadeS0MinusK)
	optWillingPenalty = mechanics.SwitchOf("gm.ailment.chronic", "willing_penalty",
		"contraction_only: the −4 of a willing victim is on the roll to contract; all_rolls: on the throw-offs too (added to the strength)",
		willingContractionOnly, willingAllRolls)
	optThrowoffReaction = mechanics.SwitchOf("gm.ailment.chronic", "throwoff_reaction",
		"health: the throw-offs are health rolls (H; the text); same_as_contraction: rolled on R", throwoffHealth, throwoffSame)
)

// fadedStrength is the strength of the chronic throw-off at action time k ≥ 2.
func fadedStrength(s0, k int, f fadeIndex) int {
	switch f {
	case fadeFirstAtS0:
		return s0 - (k - 2)
	case fadeS0MinusK:
		return s0 - k
	}
	return s0 - (k - 1)
}

func chronicAilment() *mechanics.Mechanic {
	const id = "gm.ailment.chronic"
	opts := ailmentOptionsOf(id, presetFoodPoisoning)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "chronic ailment: once contracted the effect repeats every action time until a health roll throws it off; the strength fades by one per action time",
		Doc: "t = 0: the roll to contract at p(s0 + 4·willing); on a failure effect #1 at τ. At action time kτ (k = 2, 3, …) a health roll " +
			"at strength s_k = s0 − (k − 1) throws it off; a failure brings the effect again. N = number of effects: P(N = n) = " +
			"q₀·Π_{k=2}^{n}(1 − p(s_k))·p(s_{n+1}). A time-inhomogeneous chain (a forward DP, one kernel per chance) on the total " +
			"effect; the time of the cure gives N, so the total Σ_{i ≤ N} E_i (a compound, random-count sum), N and the time are " +
			"exact jointly. time_ill = N action times " +
			"(from the first effect to the cure): S(t) = P(time_ill > t). Absorption is certain unless the naturals switch keeps " +
			"every throw-off at 95% or the feedback outruns the fading; what is still ill at the horizon is reported apart. For the " +
			"family over s0, run each s0 (the CSV of time_ill holds S(t) as its ccdf) or sweep the mean: oddsmith sweep " +
			"gm.ailment.chronic --vary s0=-4..4 --metric mean:time_ill." + willingDoc + feedbackDoc + " With feedback and no natural rule a victim whose throw-offs can no longer succeed (the " +
			"target falls by an effect and rises by one a time) is followed as one state, still ill at the horizon. " + workDoc,
		Params:  []mechanics.Param{pR, pH, pS0, pWilling, pInj, pDice, pSides, pHorizon("action times followed at most (the contraction roll is the first)")},
		Options: opts.declared(optFadeIndex, optWillingPenalty, optThrowoffReaction),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := decodeAilment(c, opts)
			ch := chronic{a: a, R: a.reaction(c.Int("R"), c.Int("H")), H: c.Int("H"), horizon: c.Int("horizon"),
				fade: optFadeIndex.Of(c), allRolls: optWillingPenalty.Of(c) == willingAllRolls}
			if optThrowoffReaction.Of(c) == throwoffSame {
				ch.H = ch.R
			}
			return ch.spec(), nil
		},
	}
}

// chronic is a configuration of gm.ailment.chronic, decoded.
type chronic struct {
	a ailment
	// R is the reaction of the roll to contract (H for a willing victim
	// with willing_roll=health), H that of the throw-offs (R again with
	// throwoff_reaction=same_as_contraction).
	R, H     int
	horizon  int // action times followed, the roll to contract the first
	fade     fadeIndex
	allRolls bool // the willing penalty is on the throw-offs too
}

// contract is the target of the roll to contract (step 1).
func (ch chronic) contract() int { return ch.R - ch.a.s0 - ch.a.willingPenalty() - ch.a.inj0 }

// throwoff is the target of the throw-off at step k ≥ 2 from a state
// with total effect total.
func (ch chronic) throwoff(k, total int) int {
	t := ch.H - fadedStrength(ch.a.s0, k, ch.fade) - ch.a.penalty(total)
	if ch.allRolls {
		t -= ch.a.willingPenalty()
	}
	return t
}

// target is the target of the roll at step t from a state with total
// effect total.
func (ch chronic) target(t, total int) int {
	if t == 1 {
		return ch.contract()
	}
	return ch.throwoff(t, total)
}

// byState reports a step whose target depends on the state: with
// feedback, the throw-offs. The other steps' targets are the same from
// every state, so their kernels are shared by chance.
func (ch chronic) byState(t int) bool { return ch.a.feedback && t > 1 }

// dooms reports a chain that follows a victim beyond recovery as one
// state, the ill one with a total of 0 (with feedback every effect brings
// at least 1): with feedback and no natural rule a throw-off at a target
// of 0 or less fails, and every later one too, since the strength fades
// by one per action time while the total grows by at least one per
// failure. Such a victim is still ill at the horizon, where the outputs
// read no total; the chain no longer follows totals that cannot change
// what it reports.
func (ch chronic) dooms() bool { return ch.a.feedback && ch.a.nat == naturalsNone }

// beyond reports a total beyond recovery at the throw-off of step k.
func (ch chronic) beyond(k, total int) bool {
	return ch.dooms() && successes(ch.throwoff(k, total), ch.a.nat) == 0
}

// work is the work of the exact engine on the chain, over S states (see
// exactWork): step by step, the totals ill victims can hold, an interval
// that moves up by an effect a step, from which the throw-offs that
// cannot fail take the low end (all of it without feedback) and beyond
// recovery the high end. Once no victim can be ill the chain is over.
func (ch chronic) work(d *stepDice, S int) float64 {
	a := ch.a
	elo, ehi := a.effectRange()
	var w exactWork
	w.step(1, d.cost(ch.form(1)), S) // exposed
	lo, hi := elo, ehi               // the totals of the ill after step 1
	if !canFail(ch.contract(), a.nat) {
		lo, hi = 1, 0
	}
	beyond := false
	for t := 2; t <= ch.horizon; t++ {
		live := max(hi-lo+1, 0) + boolInt(beyond)
		if live == 0 {
			break
		}
		w.step(live, d.cost(ch.form(t)), S)
		for lo <= hi && !canFail(ch.throwoff(t, lo), a.nat) {
			lo++
			if !a.feedback {
				lo = hi + 1
			}
		}
		if lo <= hi {
			lo, hi = lo+elo, hi+ehi
		}
		for hi >= lo && ch.beyond(t+1, hi) {
			hi, beyond = hi-1, true
		}
	}
	return w.total()
}

// form is the form of step t's kernel: by state where its target depends
// on the state, else the effect only on a failure.
func (ch chronic) form(t int) kernelForm {
	if ch.byState(t) {
		return byState
	}
	return effectOnFailure
}

// illStates is the block of a chronic chain's states past the roll to
// contract: ill or cured (absorbing), with the total effect so far.
type illStates struct {
	block
	sStatus, sTotal mechanics.Slot
}

// The statuses of illStates.
const statusIll, statusCured = 0, 1

func addIllStates(p *mechanics.Process, tmax int) illStates {
	rec := mechanics.NewRecord(mechanics.Enum("status", "ill, or cured (absorbing)", "ill", "cured"),
		mechanics.Int("total", 0, tmax, "total effect so far"))
	sStatus := rec.Slot("status")
	return illStates{block: addMixed(p, rec, func(code int) bool { return sStatus.Get(code) == statusCured }),
		sStatus: sStatus, sTotal: rec.Slot("total")}
}

// read is the status and total of state s, and whether s is in the block.
func (b illStates) read(s int) (status, total int, ok bool) {
	code, ok := b.code(s)
	return b.sStatus.Get(code), b.sTotal.Get(code), ok
}

// at is the state with the status and the total.
func (b illStates) at(status, total int) int {
	return b.state(b.sTotal.Set(b.sStatus.Set(b.rec.Start(), status), total))
}

// spec is the chain of the ailment: from exposed to resisted, or to ill
// and then cured, with the total effect in the state; the outputs read
// the final state and the time of absorption.
func (ch chronic) spec() *mechanics.Spec {
	a := ch.a
	_, emax := a.effectRange()
	p := &mechanics.Process{Horizon: ch.horizon, TimeUnit: a.tau.unit()}
	exposed := p.Add(false, "exposed")
	resisted := p.Add(true, "resisted")
	illness := addIllStates(p, ch.horizon*emax) // at most one effect per action time
	p.Start = exposed

	d := newStepDice(a)
	p.Kernel = func(t int) mechanics.Node { return d.kernel(ch.target(t, 0), ch.form(t)) }
	p.KernelKey = func(t int) int { return d.key(ch.target(t, 0), ch.form(t)) }
	work := ch.work(d, len(p.States))
	// ill is the state after step t of a victim ill with the total:
	// beyond recovery, or ill with it.
	ill := func(t, total int) int {
		if ch.beyond(t+1, total) {
			return illness.at(statusIll, 0)
		}
		return illness.at(statusIll, total)
	}
	p.Move = func(t, s, x int) int {
		if s == exposed {
			if d.resists(x, ch.contract()) {
				return resisted
			}
			return ill(t, d.effect(x))
		}
		st, total, ok := illness.read(s)
		if !ok || st != statusIll {
			bug("chronic: a step from state %d", s)
		}
		if total == 0 && ch.dooms() {
			return s // beyond recovery: ill to the horizon
		}
		if d.resists(x, ch.throwoff(t, total)) {
			return illness.at(statusCured, total)
		}
		return ill(t, total+d.effect(x))
	}
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	checkWork(spec, work, a, "lower the horizon or the effect dice")
	ch.report(spec, illness)
	return spec
}

// report declares the outputs of the chain of spec.
func (ch chronic) report(spec *mechanics.Spec, illness illStates) {
	p := spec.Process
	total := p.StateTable(func(s int) int { _, t, _ := illness.read(s); return t })
	// The illness block follows exposed and resisted; what is still
	// transient at the horizon is ill (the expressions say so directly,
	// rather than by tables of the states).
	contracted := expr.Ge(field("state"), num(illness.base))
	within := expr.Le(field("time"), num(ch.horizon))
	n := expr.Cond(contracted, expr.Sub(field("time"), num(1)), num(0))
	still := fmt.Sprintf("still ill after %d %ss", ch.horizon, p.TimeUnit)
	spec.Vars = []mechanics.Var{
		{Name: "effects", Doc: "N: the number of effects (0 when resisted; the cure comes at action time N + 1)", Unit: "effects", Expr: n, When: within, Otherwise: still},
		{Name: "effects_if_contracted", Doc: "N given that the ailment was contracted: P(N = n | contracted), summing to 1 with " +
			"P(still ill | contracted)", Unit: "effects", Expr: n, When: within, Otherwise: still, Given: contracted, GivenLabel: "contracted"},
		ch.a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up (stacked magnitudes for temporary effects)", total, within, still),
		{Name: "time_ill", Doc: "N·τ: action times from the first effect to the cure (0 when resisted); S(t) = P(time_ill > t)",
			Unit: p.TimeUnit, Expr: n, When: within, Otherwise: still},
	}
	spec.Event("contract", "the roll to contract fails", contracted).
		Event("still_ill", "not thrown off within the horizon", expr.Not(within)).
		Band("outcome", "how the ailment ends", []string{"resisted", "cured", "still ill"},
			expr.Cond(expr.Not(within), num(2), expr.Cond(contracted, num(1), num(0))))
}

var optIncapacitation = mechanics.SwitchOf("gm.ailment.inescapable", "incapacitation",
	"keep_rolling: the effects do not change later rolls (the rules' example: asleep in the gas, three failures in five rounds); "+
		"auto_fail_when_incapacitated: a victim asleep or paralysed (an effect in sleep or paralysis minutes) for the whole of an "+
		"action time fails its roll. An effect takes place when its action time ends and lasts its minutes, added to what is left "+
		"of earlier ones (cumulative, as the rules' 6d10 minutes for three failures); so it covers the next k action times when it "+
		"lasts at least k action times (a round is a sixth of a minute: 2d10 minutes of sleep outlast every later round, never a "+
		"day)",
	incapKeepRolling, incapAutoFail)

// incapacity is how gm.ailment.inescapable with
// auto_fail_when_incapacitated follows the time the victim is still out:
// in units of a round (a sixth of a minute) for action times of rounds,
// of a minute otherwise.
type incapacity struct {
	tau       int // the action time, in units
	perMinute int // units in a minute of effect
	// limit is the most time left kept: past it the victim is out for
	// every action time still to come in the area, (L − 1)·τ, or the
	// most the effects can leave, whichever is less; τ when every effect
	// lasts an action time or more (once out, out to the end).
	limit int
}

// units is the length of an action time in the units of incapacity.
func (t tau) units() (tau, perMinute int) {
	switch t {
	case tauRound:
		return 1, 6
	case tau2Rounds:
		return 2, 6
	}
	return [...]int{tauMinute: 1, tau10Minutes: 10, tau20Minutes: 20, tau30Minutes: 30, tauHour: 60, tauDay: 1440}[t], 1
}

// newIncapacity is the incapacity of an auto-fail chain over L action
// times; ok is false when no effect can put the victim out for a whole
// action time (then the rolls go on as with keep_rolling).
func newIncapacity(a ailment, L int) (ic incapacity, ok bool) {
	ic.tau, ic.perMinute = a.tau.units()
	lo, hi := a.effectRange()
	lo, hi = lo*ic.perMinute, hi*ic.perMinute
	if hi < ic.tau || L < 2 {
		return ic, false
	}
	if lo >= ic.tau {
		// Out for an action time is out for good: each auto-failed roll
		// brings at least an action time more.
		ic.limit = ic.tau
		return ic, true
	}
	// After j action times the time left is at most hi + (j − 1)(hi − τ),
	// and only the last L − 1 matter.
	ic.limit = min((L-1)*ic.tau, hi+(L-2)*(hi-ic.tau))
	return ic, true
}

// field declares the time left at the start of an action time: 0 when
// less than an action time (the victim rolls, and is clear of it at the
// action time's end), k ≥ 1 for τ + k − 1 units (capped at limit).
func (ic incapacity) field() mechanics.Field {
	return mechanics.Int("out", 0, ic.limit-ic.tau+1, fmt.Sprintf("time still out at the start of the action time, in %s: 0 under an "+
		"action time, k for %d + k − 1 (at most %d: out for every action time left)", ic.unitName(), ic.tau, ic.limit))
}

func (ic incapacity) unitName() string {
	if ic.perMinute == 6 {
		return "rounds"
	}
	return "minutes"
}

// out is whether a victim whose field reads v is out for the whole
// action time (its roll fails).
func (ic incapacity) out(v int) bool { return v > 0 }

// next is the field at the start of the next action time, from v, with an
// effect of e minutes taking place at this one's end (0: none).
func (ic incapacity) next(v, e int) int {
	left := 0 // what is left at this action time's end
	if v > 0 {
		left = v - 1 // τ + v − 1 at its start
	}
	left += e * ic.perMinute
	if left < ic.tau {
		return 0
	}
	return min(left, ic.limit) - ic.tau + 1
}

// keep says what a counting chain's state holds: the number of effects,
// the total effect, or both.
type keep struct{ count, total bool }

// chains lists the chains of a counting ailment. A fixed effect needs only
// the count (the total is that many times the effect). A random one needs
// the total as well; without feedback the two are followed by two chains
// of their own (parts of one model, each exact, not to be read jointly),
// each on one number; with feedback the rolls depend on the total, so one
// chain holds both, which is exact but grows with L × the totals.
func (a ailment) chains() []keep {
	switch {
	case a.constant():
		return []keep{{count: true}}
	case a.feedback:
		return []keep{{count: true, total: true}}
	}
	return []keep{{count: true}, {total: true}}
}

// counter is the state record of a counting chain, and reads and writes
// it: a status, then what the chain keeps: "total" and the count.
type counter struct {
	a          ailment
	rec        *mechanics.Record
	sN, sTotal mechanics.Slot
	keep       keep
	status     mechanics.Slot
}

// newCounter makes the record of a chain that keeps k: a status (one of
// statuses), the extra fields, then "total" in [0, tmax] and the count
// field. The status varies fastest and the total soon after, so that a
// step that adds to the total, or ends, leads to states close by.
func newCounter(a ailment, k keep, statuses []string, count mechanics.Field, tmax int, extra ...mechanics.Field) counter {
	// The extra fields vary next: a step that adds to the total changes
	// them as well (the time out), and its next states stay close.
	fs := append([]mechanics.Field{mechanics.Enum("status", "where the victim stands", statuses...)}, extra...)
	if k.total {
		fs = append(fs, mechanics.Int("total", 0, tmax, "total effect so far"))
	}
	if k.count {
		fs = append(fs, count)
	}
	rec := mechanics.NewRecord(fs...)
	c := counter{a: a, rec: rec, keep: k, status: rec.Slot("status")}
	if k.count {
		c.sN = rec.Slot(count.Name)
	}
	if k.total {
		c.sTotal = rec.Slot("total")
	}
	return c
}

// n is the count of a code (0 where the chain keeps none).
func (c counter) n(code int) int {
	if !c.keep.count {
		return 0
	}
	return c.sN.Get(code)
}

// total is the total effect of a code: its field, or the count of all
// effects so far times a fixed effect.
func (c counter) total(code, effects int) int {
	if !c.keep.total {
		lo, _ := c.a.effectRange()
		return lo * effects
	}
	return c.sTotal.Get(code)
}

// with is the code with count n and total t (what the chain keeps of them).
func (c counter) with(code, n, t int) int {
	if c.keep.count {
		code = c.sN.Set(code, n)
	}
	if c.keep.total {
		code = c.sTotal.Set(code, t)
	}
	return code
}

// countDoc is the part of a counting ailment's doc about its chains.
const countDoc = " A fixed effect needs a chain on the count only; a random one adds the total: without feedback in a second " +
	"part of the model (both exact; their outputs are not joint), with it in the same chain."

// assemble makes the first spec the model and the others its parts.
func assemble(specs []*mechanics.Spec) *mechanics.Spec {
	specs[0].Also = specs[1:]
	return specs[0]
}

func inescapableAilment() *mechanics.Mechanic {
	const id = "gm.ailment.inescapable"
	opts := ailmentOptionsOf(id, presetSleepGas)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "inescapable ailment: a fresh roll every action time in the area; every failure applies the effect again",
		Doc: "No throw-off: one roll per action time in the area (the first at entry) at p(s0 + 4·willing), each failure one more " +
			"effect: N ~ Binomial(L, 1 − p) and the total effect Σ_{i ≤ N} E_i, a compound (random-count) sum (sleep gas: 3 " +
			"failures in 5 rounds → 6d10 minutes). " +
			"Homogeneous chains over L action times. The exposure–response curve E[N] vs L: oddsmith sweep gm.ailment.inescapable " +
			"--vary L=1..20 --metric mean:effects. With opt.incapacitation=auto_fail_when_incapacitated the chains also hold how " +
			"long the victim is still asleep or paralysed, against the action time (see the option): a day's rolls are not " +
			"failed by minutes of sleep, a round's are." +
			willingDoc + countDoc + feedbackDoc + " " + workDoc,
		Params:  []mechanics.Param{pR, pHealth, pS0, pWilling, pInj, pDice, pSides, pL},
		Options: opts.declared(optIncapacitation),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := decodeAilment(c, opts)
			L, R := c.Int("L"), a.reaction(c.Int("R"), c.Int("H"))
			var ic incapacity
			autoFail := optIncapacitation.Of(c) == incapAutoFail && a.kind.incapacitates()
			if autoFail {
				ic, autoFail = newIncapacity(a, L)
			}
			lo, emax := a.effectRange()
			target := func(total int) int { return R - a.s0 - a.willingPenalty() - a.penalty(total) }
			var specs []*mechanics.Spec
			for _, k := range a.chains() {
				var extra []mechanics.Field
				if autoFail {
					extra = append(extra, ic.field())
				}
				cnt := newCounter(a, k, []string{"in the area"}, mechanics.Int("effects", 0, L, "effects so far"), L*emax, extra...)
				rec := cnt.rec
				if rec.Size() > maxStates {
					return nil, tooManyStates(rec.Size(), "lower L or the effect dice (or use keep_rolling)")
				}
				var sOut mechanics.Slot
				outs := 1 // the values of the time out
				if autoFail {
					sOut, outs = rec.Slot("out"), ic.limit-ic.tau+2
				}
				p := &mechanics.Process{Horizon: L, TimeUnit: a.tau.unit(), Homogeneous: true}
				area := addBlock(p, false, rec)
				p.Start = area.state(rec.Start())
				d := newStepDice(a)
				// A victim out for the action time takes the effect
				// whatever the roll: it is drawn either way.
				form := effectOnFailure
				switch {
				case a.feedback:
					form = byState
				case autoFail:
					form = effectAlways
				}
				kernel := d.kernel(target(0), form)
				p.Kernel = func(int) mechanics.Node { return kernel }
				p.Move = func(_, s, x int) int {
					code, ok := area.code(s)
					if !ok {
						bug("inescapable: a step from state %d", s)
					}
					n := cnt.n(code)
					total := cnt.total(code, n)
					out := autoFail && ic.out(sOut.Get(code))
					if !out && d.resists(x, target(total)) {
						if autoFail {
							code = sOut.Set(code, ic.next(sOut.Get(code), 0))
						}
						return area.state(code)
					}
					e := d.effect(x)
					if autoFail {
						code = sOut.Set(code, ic.next(sOut.Get(code), e))
					}
					// L effects take all L action times: no step follows
					// them within the horizon, so the clamps only keep the
					// homogeneous chain's reachable states declared.
					return area.state(cnt.with(code, min(n+1, L), min(total+e, L*emax)))
				}
				spec := &mechanics.Spec{Process: p, Record: p.Record()}
				// A roll that cannot fail from the start never will (the
				// feedback only lowers the targets once something fails).
				live := func(t int) int {
					if !canFail(target(0), a.nat) {
						return 1
					}
					return min(rec.Size(), inescapableLive(a, k, t)*outs)
				}
				checkWork(spec, homogeneousWork(d, form, L, live), a, "lower L or the effect dice")
				if k.count {
					nTab := p.StateTable(func(s int) int { code, _ := area.code(s); return cnt.n(code) })
					affected := expr.Ge(nTab, num(1))
					spec.Vars = []mechanics.Var{
						{Name: "effects", Doc: "N: failed rolls in the L action times, each one more effect", Unit: "effects", Expr: nTab},
						{Name: "effects_if_affected", Doc: "N given at least one failure: P(N = n | affected), summing to 1", Unit: "effects",
							Expr: nTab, Given: affected, GivenLabel: "affected"},
					}
					spec.Event("affected", "at least one roll fails", affected)
				}
				switch {
				case k.total:
					totTab := p.StateTable(func(s int) int { code, _ := area.code(s); return cnt.total(code, 0) })
					spec.Vars = append(spec.Vars, a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up", totTab, nil, ""))
				case a.constant():
					spec.Vars = append(spec.Vars, a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up (N times the fixed effect)",
						expr.Mul(num(lo), field("effects")), nil, ""))
				}
				specs = append(specs, spec)
			}
			return assemble(specs), nil
		},
	}
}

// inescapableLive bounds the (count, total) pairs of an inescapable chain
// that keeps k after t action times: counts 0 to t, each with the totals
// of that many effects, or their hull where the chain keeps no count.
func inescapableLive(a ailment, k keep, t int) int {
	elo, ehi := a.effectRange()
	switch {
	case t == 0:
		return 1
	case !k.total:
		return t + 1
	case !k.count:
		return t*ehi + 1
	}
	n := 0
	for c := 0; c <= t; c++ {
		n += c*(ehi-elo) + 1
	}
	return n
}

var (
	optGrowth = mechanics.SwitchOf("gm.ailment.chronic_inescapable", "growth",
		"from_exposure_start: the strength grows by one per action time for everyone still resisting (roll j at s0 + j); "+
			"after_first_effect: it grows only once it has taken hold (the rolls stay at s0; no roll follows)",
		growthFromExposureStart, growthAfterFirstEffect)
	optExitThrowoff = mechanics.SwitchOf("gm.ailment.chronic_inescapable", "first_throwoff_after_exit",
		"the strength of the first throw-off after leaving (then one less each action time): at_s0_minus_1 or at_s0", exitAtS0Minus1, exitAtS0)
)

func chronicInescapableAilment() *mechanics.Mechanic {
	const id = "gm.ailment.chronic_inescapable"
	opts := ailmentOptionsOf(id, presetCustom)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "chronic inescapable ailment: rolls in the area at a growing strength until it takes hold, then the effect every action time with no roll; after leaving, chronic throw-offs",
		Doc: "In the area (L action times): unaffected victims roll at j = 0…L−1 at strength s0 + j; from the first failure j* the " +
			"effect comes every action time with no roll (L − j* effects). After leaving, the strength returns to s0 and fades like " +
			"a chronic ailment: health throw-offs at s0 − 1, s0 − 2, …, each failure one more effect. N = (L − j*) + N_chronic. A " +
			"forward DP over the area (a time-inhomogeneous chain) then the chronic chain, on the effects in the area (the time of the cure gives those " +
			"after). The victim counts as ill from the first effect; time_ill_after_leaving is the number of failed throw-offs. " +
			"The exposure–response curve E[N] vs L: oddsmith sweep gm.ailment.chronic_inescapable --vary L=1..20 --metric " +
			"mean:effects." + willingDoc + countDoc + feedbackDoc +
			" After leaving, with feedback and no natural rule, a victim whose throw-offs can no longer succeed is followed as one " +
			"state per count, still ill at the horizon. " + workDoc,
		Params: []mechanics.Param{pR, pH, pS0, pWilling, pInj, pDice, pSides, pL,
			pHorizon("action times followed after leaving the area at most")},
		Options: opts.declared(optGrowth, optExitThrowoff),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := decodeAilment(c, opts)
			ci := chronicInescapable{a: a, L: c.Int("L"), R: a.reaction(c.Int("R"), c.Int("H")), H: c.Int("H"), after: c.Int("horizon"),
				growth: optGrowth.Of(c), exit: optExitThrowoff.Of(c)}
			var specs []*mechanics.Spec
			for _, k := range a.chains() {
				spec, err := ci.chain(k)
				if err != nil {
					return nil, err
				}
				specs = append(specs, spec)
			}
			return assemble(specs), nil
		},
	}
}

// chronicInescapable is a configuration of gm.ailment.chronic_inescapable,
// decoded.
type chronicInescapable struct {
	a     ailment
	L     int // action times in the area
	R, H  int // the reactions of the rolls in the area and of the throw-offs
	after int // action times followed after leaving the area, at most
	// growth says whether the strength in the area grows for the victims
	// still resisting, exit where the throw-offs after leaving start.
	growth growth
	exit   exitThrowoff
}

// target is the target of step t from a state with total effect total:
// rolls in the area while unaffected, throw-offs after.
func (ci chronicInescapable) target(t, total int) int {
	a := ci.a
	if t <= ci.L {
		s := a.s0
		if ci.growth == growthFromExposureStart {
			s += t - 1
		}
		return ci.R - s - a.willingPenalty() - a.penalty(0)
	}
	k := t - ci.L // the k-th throw-off
	s := a.s0 - k
	if ci.exit == exitAtS0 {
		s++
	}
	return ci.H - s - a.penalty(total)
}

// byState reports a step whose target depends on the state: with
// feedback, the throw-offs. The rolls in the area come before any effect:
// their targets are the same from every state even with feedback.
func (ci chronicInescapable) byState(t int) bool { return ci.a.feedback && t > ci.L }

// form is the form of step t's kernel: in the area the victims already
// ill take the effect with no roll, so it is drawn either way; after it,
// by state where the target depends on the state, else the effect only
// on a failure.
func (ci chronicInescapable) form(t int) kernelForm {
	switch {
	case t <= ci.L:
		return effectAlways
	case ci.byState(t):
		return byState
	}
	return effectOnFailure
}

// dooms reports a chain that follows a victim beyond recovery after
// leaving the area as one state per count, the ill one with a total of 0
// (see chronic.dooms): with feedback, no natural rule, and the total in
// the state.
func (ci chronicInescapable) dooms(k keep) bool {
	return ci.a.feedback && ci.a.nat == naturalsNone && k.total
}

// beyond reports a total beyond recovery at the throw-off of step t.
func (ci chronicInescapable) beyond(k keep, t, total int) bool {
	return ci.dooms(k) && t > ci.L && successes(ci.target(t, total), ci.a.nat) == 0
}

// work is the work of the exact engine on the chain that keeps k, over S
// states (see exactWork): step by step, for each count in the area (all
// at once where the chain keeps none), the interval of totals the ill can
// hold (one state where it keeps no total); in the area each takes an
// effect and the resisting who can fail join with one, after it the
// throw-offs that cannot fail take the low end of an interval (all of it
// without feedback) and beyond recovery the high end.
func (ci chronicInescapable) work(d *stepDice, k keep, S int) float64 {
	a, L := ci.a, ci.L
	elo, ehi := a.effectRange()
	if !k.total {
		elo, ehi = 0, 0
	}
	type span struct{ lo, hi int }
	none := span{1, 0}
	ill := make([]span, L+1) // by count in the area (0 where the chain keeps none)
	for n := range ill {
		ill[n] = none
	}
	join := func(n int, v span) {
		if v.lo > v.hi {
			return
		}
		if ill[n].lo > ill[n].hi {
			ill[n] = v
			return
		}
		ill[n] = span{min(ill[n].lo, v.lo), max(ill[n].hi, v.hi)}
	}
	resisting, beyond := true, make([]bool, L+1)
	var w exactWork
	for t := 1; t <= L+ci.after; t++ {
		live := boolInt(resisting)
		for n, v := range ill {
			live += max(v.hi-v.lo+1, 0) + boolInt(beyond[n])
		}
		if live == 0 {
			break
		}
		w.step(live, d.cost(ci.form(t)), S)
		if t <= L {
			next := ill
			ill = make([]span, L+1)
			for n := range ill {
				ill[n] = none
			}
			for n, v := range next {
				if v.lo <= v.hi {
					join(min(n+boolInt(k.count), L), span{v.lo + elo, v.hi + ehi})
				}
			}
			if target := ci.target(t, 0); resisting && canFail(target, a.nat) {
				join(boolInt(k.count), span{elo, ehi})
			}
			resisting = resisting && t < L && canResist(ci.target(t, 0), a.nat)
		} else {
			for n, v := range ill {
				for v.lo <= v.hi && !canFail(ci.target(t, v.lo), a.nat) {
					v.lo++
					if !a.feedback {
						v.lo = v.hi + 1
					}
				}
				if v.lo <= v.hi {
					v = span{v.lo + elo, v.hi + ehi}
				}
				ill[n] = v
			}
		}
		for n, v := range ill {
			for v.hi >= v.lo && ci.beyond(k, t+1, v.hi) {
				v.hi, beyond[n] = v.hi-1, true
			}
			ill[n] = v
		}
	}
	return w.total()
}

// chain is the chain that keeps k (the count, the total or both): from
// resisting, through the rolls in the area, to left unaffected, or to ill
// (the effect every action time left in the area, then a throw-off every
// action time) and then cured.
func (ci chronicInescapable) chain(k keep) (*mechanics.Spec, error) {
	a, L := ci.a, ci.L
	_, emax := a.effectRange()
	// One record for the ill and the cured, the status varying fastest: a
	// throw-off leads to the next state or to its cured twin.
	cnt := newCounter(a, k, []string{"ill", "cured"}, mechanics.Int("in_area", 1, L, "effects in the area"), (L+ci.after)*emax)
	rec := cnt.rec
	if n := rec.Size() + 2; n > maxStates {
		return nil, tooManyStates(n, "lower L, horizon or the effect dice (or use a fixed effect)")
	}
	d := newStepDice(a)
	p := &mechanics.Process{Horizon: L + ci.after, TimeUnit: a.tau.unit()}
	resisting := p.Add(false, "resisting")
	unaffected := p.Add(true, "left unaffected")
	illness := addMixed(p, rec, func(code int) bool { return cnt.status.Get(code) == statusCured })
	p.Start = resisting
	work := ci.work(d, k, len(p.States))
	// ill is the ill state after step t with n effects in the area and
	// the total: beyond recovery (total 0), or ill with them.
	ill := func(code, t, n, total int) int {
		if ci.beyond(k, t+1, total) {
			total = 0
		}
		return illness.state(cnt.with(code, n, total))
	}
	p.Kernel = func(t int) mechanics.Node { return d.kernel(ci.target(t, 0), ci.form(t)) }
	p.KernelKey = func(t int) int { return d.key(ci.target(t, 0), ci.form(t)) }
	p.Move = func(t, s, x int) int {
		if s == resisting {
			switch {
			case !d.resists(x, ci.target(t, 0)):
				return ill(rec.Start(), t, 1, d.effect(x))
			case t == L:
				return unaffected
			}
			return resisting
		}
		code, ok := illness.code(s)
		if !ok || cnt.status.Get(code) != statusIll {
			bug("chronic inescapable: a step from state %d", s)
		}
		n := cnt.n(code)
		// All effects so far: n in the area, one per failed throw-off
		// after it (t − L − 1 of them before step t).
		total := cnt.total(code, n+max(0, t-L-1))
		switch {
		case t <= L: // in the area: the effect with no roll
			return ill(code, t, n+1, total+d.effect(x))
		case ci.dooms(k) && total == 0:
			return s // beyond recovery: ill to the horizon
		case d.resists(x, ci.target(t, total)):
			return illness.state(cnt.status.Set(code, statusCured))
		}
		return ill(code, t, n, total+d.effect(x))
	}
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	checkWork(spec, work, a, "lower L, the horizon or the effect dice")
	ci.report(spec, illness, cnt)
	return spec, nil
}

// report declares the outputs of the chain of spec: what cnt keeps of it.
func (ci chronicInescapable) report(spec *mechanics.Spec, illness block, cnt counter) {
	p, L, after := spec.Process, ci.L, ci.after
	lo, _ := ci.a.effectRange()
	within := expr.Le(field("time"), num(L+after))
	still := fmt.Sprintf("still ill %d %ss after leaving", after, ci.a.tau.unit())
	if cnt.keep.count {
		inArea := p.StateTable(func(s int) int {
			if code, ok := illness.code(s); ok {
				return cnt.n(code)
			}
			return 0
		})
		// The illness block follows resisting and left unaffected; its
		// absorbed states are the cured.
		affected := expr.Ge(field("state"), num(illness.base))
		afterLeaving := expr.Cond(expr.And(affected, within), expr.Sub(field("time"), num(L+1)), num(0))
		n := expr.Add(inArea, afterLeaving)
		spec.Vars = []mechanics.Var{
			{Name: "effects", Doc: "N = (L − j*) + N_chronic: every effect, in the area and after it", Unit: "effects", Expr: n, When: within, Otherwise: still},
			{Name: "effects_in_area", Doc: "L − j*: effects while in the area (0 if never affected)", Unit: "effects", Expr: inArea},
			{Name: "effects_if_affected", Doc: "N given that it took hold: P(N = n | affected), summing to 1 with P(still ill | affected)",
				Unit: "effects", Expr: n, When: within, Otherwise: still, Given: affected, GivenLabel: "affected"},
			{Name: "time_ill_after_leaving", Doc: "action times ill after leaving the area: the failed throw-offs, each one more effect " +
				"(0 if never affected, as time_ill of a resisted chronic ailment)", Unit: p.TimeUnit, Expr: afterLeaving, When: within, Otherwise: still},
		}
		if ci.a.constant() {
			spec.Vars = append(spec.Vars, ci.a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up (N times the fixed effect)",
				expr.Mul(num(lo), field("effects")), within, still))
		}
		spec.Event("affected", "some roll in the area fails: it takes hold", affected).
			Event("still_ill", "not thrown off within the horizon after leaving", expr.Not(within))
	}
	if cnt.keep.total {
		total := p.StateTable(func(s int) int {
			if code, ok := illness.code(s); ok {
				return cnt.total(code, 0)
			}
			return 0
		})
		spec.Vars = append(spec.Vars, ci.a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up", total, within, still))
	}
}
