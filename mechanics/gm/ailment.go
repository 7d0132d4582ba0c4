package gm

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// §3.3: ailments (poison, disease, drugs). A reaction roll at a penalty of
// the ailment's strength s resists it: p(s) = clamp((R − s)/20, 0, 1). An
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
// The chains carry the total effect in their state, so the total is the
// exact compound distribution Σ_{i ≤ N} E_i (K9), joint with the number of
// effects and the time; with injury_penalty=on and an effect in injuries,
// the total is also the penalty of the later rolls (a feedback chain, exact
// as well: the state does not grow).

// presetData is one row of the seed's example table. Cells the seed leaves
// blank (the strength of the black widow and of sleep gas, every type but
// the chronic ones) are filled as mechanics.md §3.3 says: strength 0, the
// type from the text.
type presetData struct {
	kind     string // the seed's type
	strength int
	tau      Tau
	effect   EffectKind
	n, x     int // n dX per occurrence
	what     string
}

var presets = map[Preset]presetData{
	PresetCustom:        {"custom", 0, TauPreset, EffectInjuries, 1, 1, "1 injury"},
	PresetAlcohol:       {"chronic", -1, Tau20Minutes, EffectPenalty, 1, 1, "−1 agility, concentration, evasion, fortitude"},
	PresetCommonCold:    {"chronic", 1, TauDay, EffectPenalty, 1, 1, "−1 concentration, evasion, fortitude"},
	PresetFoodPoisoning: {"chronic", 3, TauHour, EffectInjuries, 1, 1, "1 injury"},
	PresetBlackWidow:    {"simple", 0, Tau30Minutes, EffectInjuries, 1, 2, "d2 injuries"},
	PresetGiantSpider:   {"simple", 4, TauRound, EffectParalysis, 1, 4, "d4 minutes paralysis"},
	PresetHugeSpider:    {"simple", 2, TauRound, EffectInjuries, 1, 3, "d3 injuries"},
	PresetLargeSpider:   {"simple", 1, TauRound, EffectInjuries, 1, 2, "d2 injuries"},
	PresetShadowSpider:  {"simple", 1, Tau2Rounds, EffectInjuries, 1, 6, "d6 injuries"},
	PresetSleepGas:      {"inescapable", 0, TauRound, EffectSleep, 2, 10, "sleep 2d10 minutes"},
}

// presetsDoc lists the preset library for the docs.
func presetsDoc() string {
	var b strings.Builder
	for p := PresetAlcohol; p <= PresetSleepGas; p++ {
		d := presets[p]
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%s, strength %d, %s, %s)", p, d.kind, d.strength, d.tau.unit(), d.what)
	}
	return b.String()
}

// unit names one action time, for the time axis of a chain.
func (t Tau) unit() string {
	return [...]string{TauPreset: "action time", TauRound: "round", Tau2Rounds: "2-round span", TauMinute: "minute",
		Tau10Minutes: "10-minute span", Tau20Minutes: "20-minute span", Tau30Minutes: "30-minute span", TauHour: "hour", TauDay: "day"}[t]
}

// unit names what an effect is counted in.
func (e EffectKind) unit() string {
	return [...]string{EffectPreset: "", EffectInjuries: "injuries", EffectSleep: "minutes asleep", EffectParalysis: "minutes paralysed",
		EffectPenalty: "penalty points"}[e]
}

// incapacitates reports an effect that leaves the victim unable to act.
func (e EffectKind) incapacitates() bool { return e == EffectSleep || e == EffectParalysis }

// fromPreset marks a parameter left to the preset.
const (
	fromPreset         = -1
	strengthFromPreset = -99
)

// The shared parameters of the ailments.
var (
	pR = score("R", 10, "reaction score of the roll to resist: health when willing; perception when knowing could avoid it (poisoned wine); "+
		"evasion when forced on an unwilling victim (a poisoned sword)")
	pH       = score("H", 10, "health reaction score of the throw-off rolls")
	pS0      = ip("s0", strengthFromPreset, strengthFromPreset, 20, "strength s0: a penalty on the reaction rolls (−4…+4 typical, 0 most poisons); −99, the default, takes the preset's")
	pWilling = ip("willing", 0, 0, 1, "1: the victim drinks, injects or accepts it: a penalty of 4 on the roll to contract (the reaction should then be health)")
	pInj     = ip("injuries", 0, 0, 60, "injuries the victim already has (a penalty on every roll with injury_penalty=on)")
	pDice    = ip("effect_dice", fromPreset, fromPreset, 4, "n of the effect per occurrence, n dX (0: no effect); −1, the default, takes the preset's")
	pSides   = ip("effect_sides", fromPreset, fromPreset, 20, "X of the effect per occurrence, n dX (1: a fixed n); −1, the default, takes the preset's")
	pL       = ip("L", 5, 1, 50, "action times spent in the area (the first roll at entry)")
)

func pHorizon(doc string) mechanics.Param {
	return ip("horizon", 100, 1, 100, doc)
}

// ailmentOptions are the choices every ailment mechanic declares, named
// after it.
type ailmentOptions struct {
	preset mechanics.OptionOf[Preset]
	tau    mechanics.OptionOf[Tau]
	effect mechanics.OptionOf[EffectKind]
}

func ailmentOptionsOf(id string, def Preset) ailmentOptions {
	order := []Preset{def}
	for p := PresetCustom; p <= PresetSleepGas; p++ {
		if p != def {
			order = append(order, p)
		}
	}
	return ailmentOptions{
		preset: mechanics.ChoiceOf(id, "preset", "an ailment of the seed's table: it gives the strength, the action time and the effect "+
			"wherever s0, tau, effect_kind, effect_dice or effect_sides is left at its default: "+presetsDoc()+"; custom: strength 0, 1 injury", order...),
		tau: mechanics.ChoiceOf(id, "tau", "the action time (a label for the chain's step; preset: the preset's)",
			TauPreset, TauRound, Tau2Rounds, TauMinute, Tau10Minutes, Tau20Minutes, Tau30Minutes, TauHour, TauDay),
		effect: mechanics.ChoiceOf(id, "effect_kind", "what an occurrence is counted in (only injuries feed the injury penalty back; "+
			"preset: the preset's)", EffectPreset, EffectInjuries, EffectSleep, EffectParalysis, EffectPenalty),
	}
}

func (o ailmentOptions) declared(extra ...mechanics.Declared) []mechanics.Option {
	return mechanics.Options(append([]mechanics.Declared{o.preset, o.tau, o.effect, optNaturals, optInjuryPenalty}, extra...)...)
}

// ailment is the decoded configuration shared by the ailment mechanics.
type ailment struct {
	s0       int
	willing  bool
	inj0     int  // injuries at the start, counted with the penalty on
	feedback bool // the effects are injuries and the penalty is on
	kind     EffectKind
	n, x     int // n dX per occurrence
	tau      Tau
	nat      Naturals
}

func decodeAilment(c mechanics.Config, o ailmentOptions) (ailment, error) {
	pd := presets[o.preset.Of(c)]
	a := ailment{s0: pd.strength, willing: c.Int("willing") == 1, kind: pd.effect, n: pd.n, x: pd.x, tau: pd.tau, nat: optNaturals.Of(c)}
	if s := c.Int("s0"); s != strengthFromPreset {
		a.s0 = s
	}
	if n := c.Int("effect_dice"); n != fromPreset {
		a.n = n
	}
	if x := c.Int("effect_sides"); x != fromPreset {
		a.x = x
	}
	if a.x < 1 {
		return a, fmt.Errorf("effect_sides=%d: a die needs at least one side (1 for a fixed effect; −1 for the preset's)", a.x)
	}
	if t := o.tau.Of(c); t != TauPreset {
		a.tau = t
	}
	if e := o.effect.Of(c); e != EffectPreset {
		a.kind = e
	}
	if optInjuryPenalty.Of(c) == InjuryPenaltyOn {
		a.inj0 = c.Int("injuries")
		a.feedback = a.kind == EffectInjuries && a.n > 0
	}
	return a, nil
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

// stepDice is the dice of one action time: the reaction roll and the effect
// an occurrence would bring, drawn together as one kernel. Without
// feedback a roll's chance depends on the step only, so the kernel keeps
// just whether the roll resists (a coin with the roll's chance, one kernel
// per chance); with feedback it keeps the natural, which the step compares
// with the target of the state.
type stepDice struct {
	a        ailment
	rec      *mechanics.Record
	sNat     mechanics.Slot // feedback: the natural
	sResists mechanics.Slot // otherwise: whether the roll resists
	sEffect  mechanics.Slot
	fixed    mechanics.Node // the feedback kernel
}

func newStepDice(a ailment) *stepDice {
	lo, hi := a.effectRange()
	d := &stepDice{a: a}
	eff := mechanics.Int("effect", lo, hi, "what an occurrence would bring this action time")
	if a.feedback {
		d.rec = mechanics.NewRecord(mechanics.Int("natural", 1, 20, "the natural d20 of this action time's reaction roll"), eff)
		d.sNat = d.rec.Slot("natural")
		d.fixed = roll(d.rec, part{"natural", d20}, part{"effect", a.effectNode()})
	} else {
		d.rec = mechanics.NewRecord(mechanics.Flag("resists", "this action time's reaction roll succeeds"), eff)
		d.sResists = d.rec.Slot("resists")
	}
	d.sEffect = d.rec.Slot("effect")
	return d
}

// kernel is the step's dice when the roll is at target (a target that
// depends on the state only through the feedback).
func (d *stepDice) kernel(target int) mechanics.Node {
	if d.a.feedback {
		return d.fixed
	}
	return roll(d.rec, part{"resists", coin(successes(target, d.a.nat))}, part{"effect", d.a.effectNode()})
}

// key names the kernel of a roll at target.
func (d *stepDice) key(target int) int {
	if d.a.feedback {
		return 0
	}
	return successes(target, d.a.nat)
}

// resists reads the roll of kernel value x at target.
func (d *stepDice) resists(x, target int) bool {
	if d.a.feedback {
		return Roll("", target, d.a.nat).Holds(d.sNat.Get(x))
	}
	return d.sResists.Bool(x)
}

func (d *stepDice) effect(x int) int { return d.sEffect.Get(x) }

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

// feedbackDoc is the part of an ailment's doc about the injury penalty.
const feedbackDoc = " With injury_penalty=on every roll is at a penalty of the injuries the victim has (the injuries parameter, plus the " +
	"effects so far when they are injuries): the chain's state already holds the total effect, so the feedback chain stays exact."

func init() {
	register(simpleAilment(), chronicAilment(), inescapableAilment(), chronicInescapableAilment())
}

func simpleAilment() *mechanics.Mechanic {
	const id = "gm.ailment.simple"
	opts := ailmentOptionsOf(id, PresetBlackWidow)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "simple ailment: one reaction roll at the strength penalty; on a failure the effect happens once, after the action time",
		Doc: "q = 1 − p(s0 + 4·willing) with p(s) = clamp((R − s)/20, 0, 1); the effect is the mixture (1 − q)·δ₀ + q·E, E = n dX of the " +
			"preset (mechanics.md §3.3)." + feedbackDoc,
		Params:  []mechanics.Param{pR, pS0, pWilling, pInj, pDice, pSides},
		Options: opts.declared(),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, err := decodeAilment(c, opts)
			if err != nil {
				return nil, err
			}
			lo, hi := a.effectRange()
			r := Roll("natural", c.Int("R")-a.s0-a.willingPenalty()-a.inj0, a.nat)
			rec := mechanics.NewRecord(mechanics.Int("natural", 1, 20, "the natural d20 of the reaction roll"),
				mechanics.Int("occurrence", lo, hi, "what the effect brings if it happens (n dX)").In(a.effectUnit()))
			spec := &mechanics.Spec{Record: rec, Outcome: roll(rec, part{"natural", d20}, part{"occurrence", a.effectNode()})}
			affected := expr.Not(r.Success())
			spec.Vars = []mechanics.Var{
				a.effectVar("effect", "the effect suffered: E on a failed roll, else 0", expr.Cond(affected, field("occurrence"), num(0)), nil, ""),
				a.effectVar("effect_if_affected", "the effect given that the roll failed (E)", field("occurrence"), affected, "resisted"),
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
			"(s0 − (k − 2)), s0_minus_k (s0 − k)", FadeFirstAtS0Minus1, FadeFirstAtS0, FadeS0MinusK)
	optWillingPenalty = mechanics.SwitchOf("gm.ailment.chronic", "willing_penalty",
		"contraction_only: the −4 of a willing victim is on the roll to contract; all_rolls: on the throw-offs too (added to the strength)",
		WillingContractionOnly, WillingAllRolls)
	optThrowoffReaction = mechanics.SwitchOf("gm.ailment.chronic", "throwoff_reaction",
		"health: the throw-offs are health rolls (H; the text); same_as_contraction: rolled on R", ThrowoffHealth, ThrowoffSame)
)

// fadedStrength is the strength of the chronic throw-off at action time k ≥ 2.
func fadedStrength(s0, k int, f FadeIndex) int {
	switch f {
	case FadeFirstAtS0:
		return s0 - (k - 2)
	case FadeS0MinusK:
		return s0 - k
	}
	return s0 - (k - 1)
}

func chronicAilment() *mechanics.Mechanic {
	const id = "gm.ailment.chronic"
	opts := ailmentOptionsOf(id, PresetFoodPoisoning)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "chronic ailment: once contracted the effect repeats every action time until a health roll throws it off; the strength fades by one per action time",
		Doc: "t = 0: the roll to contract at p(s0 + 4·willing); on a failure effect #1 at τ. At action time kτ (k = 2, 3, …) a health roll " +
			"at strength s_k = s0 − (k − 1) throws it off; a failure brings the effect again. N = number of effects: P(N = n) = " +
			"q₀·Π_{k=2}^{n}(1 − p(s_k))·p(s_{n+1}). A time-inhomogeneous chain (K7, one kernel per chance) on the total effect; the " +
			"time of the cure gives N, so the total Σ_{i ≤ N} E_i (K9), N and the time are exact jointly. time_ill = N action times " +
			"(from the first effect to the cure): S(t) = P(time_ill > t). Absorption is certain unless the naturals switch keeps " +
			"every throw-off at 95% or the feedback outruns the fading; what is still ill at the horizon is reported apart " +
			"(mechanics.md §3.3)." + feedbackDoc,
		Params:  []mechanics.Param{pR, pH, pS0, pWilling, pInj, pDice, pSides, pHorizon("action times followed at most (the contraction roll is the first)")},
		Options: opts.declared(optFadeIndex, optWillingPenalty, optThrowoffReaction),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, err := decodeAilment(c, opts)
			if err != nil {
				return nil, err
			}
			R, H, horizon := c.Int("R"), c.Int("H"), c.Int("horizon")
			fade, allRolls := optFadeIndex.Of(c), optWillingPenalty.Of(c) == WillingAllRolls
			if optThrowoffReaction.Of(c) == ThrowoffSame {
				H = R
			}
			contract := R - a.s0 - a.willingPenalty() - a.inj0
			throwoff := func(k, total int) int {
				t := H - fadedStrength(a.s0, k, fade) - a.penalty(total)
				if allRolls {
					t -= a.willingPenalty()
				}
				return t
			}
			_, emax := a.effectRange()
			tmax := horizon * emax // at most one effect per action time

			p := &mechanics.Process{Horizon: horizon, TimeUnit: a.tau.unit()}
			exposed := p.Add(false, "exposed")
			resisted := p.Add(true, "resisted")
			illRec := mechanics.NewRecord(mechanics.Enum("status", "ill or cured", "ill"), mechanics.Int("total", 0, tmax, "total effect so far"))
			curedRec := mechanics.NewRecord(mechanics.Enum("status", "ill or cured", "cured"), mechanics.Int("total", 0, tmax, "total effect suffered"))
			ill, cured := addBlock(p, false, illRec), addBlock(p, true, curedRec)
			sIll, sCured := illRec.Slot("total"), curedRec.Slot("total")
			p.Start = exposed

			d := newStepDice(a)
			// Without feedback the target of step t is the same from
			// every state: the kernels are shared by chance.
			target := func(t, total int) int {
				if t == 1 {
					return contract
				}
				return throwoff(t, total)
			}
			p.Kernel = func(t int) mechanics.Node { return d.kernel(target(t, 0)) }
			p.KernelKey = func(t int) int { return d.key(target(t, 0)) }
			p.Move = func(t, s, x int) int {
				if s == exposed {
					if d.resists(x, contract) {
						return resisted
					}
					return ill.state(sIll.Set(illRec.Start(), d.effect(x)))
				}
				code, ok := ill.code(s)
				if !ok {
					bug("chronic: a step from state %d", s)
				}
				total := sIll.Get(code)
				if d.resists(x, throwoff(t, total)) {
					return cured.state(sCured.Set(curedRec.Start(), total))
				}
				return ill.state(sIll.Set(code, total+d.effect(x)))
			}

			total := p.StateTable(func(s int) int {
				if code, ok := ill.code(s); ok {
					return sIll.Get(code)
				}
				if code, ok := cured.code(s); ok {
					return sCured.Get(code)
				}
				return 0
			})
			contracted := p.StateSet(func(s int) bool { return ill.has(s) || cured.has(s) })
			within := expr.Le(field("time"), num(horizon))
			n := expr.Cond(contracted, expr.Sub(field("time"), num(1)), num(0))
			still := fmt.Sprintf("still ill after %d %ss", horizon, p.TimeUnit)
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{
				{Name: "effects", Doc: "N: the number of effects (0 when resisted; the cure comes at action time N + 1)", Unit: "effects", Expr: n, When: within, Otherwise: still},
				{Name: "effects_if_contracted", Doc: "N given that the ailment was contracted (its mean is E[N | contracted])", Unit: "effects",
					Expr: n, When: expr.And(contracted, within), Otherwise: "resisted, or " + still},
				a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up (stacked magnitudes for temporary effects)", total, within, still),
				{Name: "time_ill", Doc: "N·τ: action times from the first effect to the cure (0 when resisted); S(t) = P(time_ill > t)",
					Unit: p.TimeUnit, Expr: n, When: within, Otherwise: still},
			}
			spec.Event("contract", "the roll to contract fails", contracted).
				Event("still_ill", "not thrown off within the horizon", p.StateSet(ill.has)).
				Band("outcome", "how the ailment ends", []string{"resisted", "cured", "still ill"},
					p.StateTable(func(s int) int {
						switch {
						case cured.has(s):
							return 1
						case ill.has(s):
							return 2
						}
						return 0
					}))
			return spec, nil
		},
	}
}

var optIncapacitation = mechanics.SwitchOf("gm.ailment.inescapable", "incapacitation",
	"keep_rolling: the effects do not change later rolls; auto_fail_when_incapacitated: once an effect that incapacitates "+
		"(sleep, paralysis) has taken hold, every later roll in the area fails (the effect lasts minutes, the action time a round)",
	IncapKeepRolling, IncapAutoFail)

// countRecord is the state of a chain that counts effects (and adds up a
// random effect): "effects" in [nlo, nhi] and, unless the effect is fixed,
// "total" in [0, tmax].
func countRecord(a ailment, status, name, doc string, nlo, nhi, tmax int) *mechanics.Record {
	fs := []mechanics.Field{mechanics.Enum("status", "where the victim stands", status), mechanics.Int(name, nlo, nhi, doc)}
	if !a.constant() {
		fs = append(fs, mechanics.Int("total", 0, tmax, "total effect so far"))
	}
	return mechanics.NewRecord(fs...)
}

// counter reads and writes a countRecord.
type counter struct {
	a      ailment
	rec    *mechanics.Record
	sN     mechanics.Slot
	sTotal *mechanics.Slot
}

func newCounter(a ailment, rec *mechanics.Record, name string) counter {
	c := counter{a: a, rec: rec, sN: rec.Slot(name)}
	if !a.constant() {
		s := rec.Slot("total")
		c.sTotal = &s
	}
	return c
}

// n is the counted effects of a code; total its total effect, or the count
// times the fixed effect when there is no total field (effects gives the
// count of all effects so far where the record counts only some).
func (c counter) n(code int) int { return c.sN.Get(code) }

func (c counter) total(code, effects int) int {
	if c.sTotal == nil {
		lo, _ := c.a.effectRange()
		return lo * effects
	}
	return c.sTotal.Get(code)
}

// with is the code with count n and total t.
func (c counter) with(code, n, t int) int {
	code = c.sN.Set(code, n)
	if c.sTotal != nil {
		code = c.sTotal.Set(code, t)
	}
	return code
}

func inescapableAilment() *mechanics.Mechanic {
	const id = "gm.ailment.inescapable"
	opts := ailmentOptionsOf(id, PresetSleepGas)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "inescapable ailment: a fresh roll every action time in the area; every failure applies the effect again",
		Doc: "No throw-off: one roll per action time in the area (the first at entry) at p(s0 + 4·willing), each failure one more " +
			"effect: N ~ Binomial(L, 1 − p) and the total effect Σ_{i ≤ N} E_i (K9; sleep gas: 3 failures in 5 rounds → 6d10 minutes). " +
			"A homogeneous chain over L action times on the count and the total. Sweep L for the exposure–response curve E[N] vs L " +
			"(mechanics.md §3.3)." + feedbackDoc,
		Params:  []mechanics.Param{pR, pS0, pWilling, pInj, pDice, pSides, pL},
		Options: opts.declared(optIncapacitation),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, err := decodeAilment(c, opts)
			if err != nil {
				return nil, err
			}
			L, R := c.Int("L"), c.Int("R")
			autoFail := optIncapacitation.Of(c) == IncapAutoFail && a.kind.incapacitates()
			_, emax := a.effectRange()
			rec := countRecord(a, "in the area", "effects", "effects so far", 0, L, L*emax)
			if rec.Size() > maxStates {
				return nil, tooManyStates(rec.Size(), "lower L or the effect dice")
			}
			cnt := newCounter(a, rec, "effects")
			target := func(total int) int { return R - a.s0 - a.willingPenalty() - a.penalty(total) }

			p := &mechanics.Process{Horizon: L, TimeUnit: a.tau.unit(), Homogeneous: true}
			area := addBlock(p, false, rec)
			p.Start = area.state(rec.Start())
			d := newStepDice(a)
			kernel := d.kernel(target(0))
			p.Kernel = func(int) mechanics.Node { return kernel }
			p.Move = func(_, s, x int) int {
				code, ok := area.code(s)
				if !ok {
					bug("inescapable: a step from state %d", s)
				}
				n := cnt.n(code)
				total := cnt.total(code, n)
				if !(autoFail && n > 0) && d.resists(x, target(total)) {
					return s
				}
				// L effects take all L action times: no step follows them
				// within the horizon, so the clamp only keeps the
				// homogeneous chain's reachable states declared.
				return area.state(cnt.with(code, min(n+1, L), min(total+d.effect(x), L*emax)))
			}
			nTab := p.StateTable(func(s int) int { code, _ := area.code(s); return cnt.n(code) })
			totTab := p.StateTable(func(s int) int { code, _ := area.code(s); return cnt.total(code, cnt.n(code)) })
			affected := expr.Ge(nTab, num(1))
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{
				{Name: "effects", Doc: "N: failed rolls in the L action times, each one more effect", Unit: "effects", Expr: nTab},
				a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up", totTab, nil, ""),
				{Name: "effects_if_affected", Doc: "N given at least one failure", Unit: "effects", Expr: nTab, When: affected, Otherwise: "never affected"},
			}
			spec.Event("affected", "at least one roll fails", affected)
			return spec, nil
		},
	}
}

var (
	optGrowth = mechanics.SwitchOf("gm.ailment.chronic_inescapable", "growth",
		"from_exposure_start: the strength grows by one per action time for everyone still resisting (roll j at s0 + j); "+
			"after_first_effect: it grows only once it has taken hold (the rolls stay at s0; no roll follows)",
		GrowthFromExposureStart, GrowthAfterFirstEffect)
	optExitThrowoff = mechanics.SwitchOf("gm.ailment.chronic_inescapable", "first_throwoff_after_exit",
		"the strength of the first throw-off after leaving (then one less each action time): at_s0_minus_1 or at_s0", ExitAtS0Minus1, ExitAtS0)
)

func chronicInescapableAilment() *mechanics.Mechanic {
	const id = "gm.ailment.chronic_inescapable"
	opts := ailmentOptionsOf(id, PresetCustom)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "chronic inescapable ailment: rolls in the area at a growing strength until it takes hold, then the effect every action time with no roll; after leaving, chronic throw-offs",
		Doc: "In the area (L action times): unaffected victims roll at j = 0…L−1 at strength s0 + j; from the first failure j* the " +
			"effect comes every action time with no roll (L − j* effects). After leaving, the strength returns to s0 and fades like " +
			"a chronic ailment: health throw-offs at s0 − 1, s0 − 2, …, each failure one more effect. N = (L − j*) + N_chronic. A " +
			"forward DP over the area (K7) then the chronic chain, on the effects in the area and the total effect. The victim " +
			"counts as ill from the first effect; time_ill_after_leaving is the number of failed throw-offs. Sweep L for the " +
			"exposure–response curve E[N] vs L (mechanics.md §3.3)." + feedbackDoc,
		Params: []mechanics.Param{pR, pH, pS0, pWilling, pInj, pDice, pSides, pL,
			pHorizon("action times followed after leaving the area at most")},
		Options: opts.declared(optGrowth, optExitThrowoff),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, err := decodeAilment(c, opts)
			if err != nil {
				return nil, err
			}
			L, R, H, after := c.Int("L"), c.Int("R"), c.Int("H"), c.Int("horizon")
			growth, exit := optGrowth.Of(c), optExitThrowoff.Of(c)
			_, emax := a.effectRange()
			tmax := (L + after) * emax
			illRec := countRecord(a, "ill", "in_area", "effects in the area", 1, L, tmax)
			curedRec := countRecord(a, "cured", "in_area", "effects in the area", 1, L, tmax)
			if n := 2*illRec.Size() + 2; n > maxStates {
				return nil, tooManyStates(n, "lower L, horizon or the effect dice (or use a fixed effect)")
			}
			cIll, cCured := newCounter(a, illRec, "in_area"), newCounter(a, curedRec, "in_area")
			// The target of step t from a state with total effect total:
			// rolls in the area while unaffected, throw-offs after.
			target := func(t, total int) int {
				if t <= L {
					s := a.s0
					if growth == GrowthFromExposureStart {
						s += t - 1
					}
					return R - s - a.willingPenalty() - a.penalty(0)
				}
				k := t - L // the k-th throw-off
				s := a.s0 - k
				if exit == ExitAtS0 {
					s++
				}
				return H - s - a.penalty(total)
			}

			p := &mechanics.Process{Horizon: L + after, TimeUnit: a.tau.unit()}
			resisting := p.Add(false, "resisting")
			unaffected := p.Add(true, "left unaffected")
			ill, cured := addBlock(p, false, illRec), addBlock(p, true, curedRec)
			p.Start = resisting
			d := newStepDice(a)
			p.Kernel = func(t int) mechanics.Node { return d.kernel(target(t, 0)) }
			p.KernelKey = func(t int) int { return d.key(target(t, 0)) }
			p.Move = func(t, s, x int) int {
				if s == resisting {
					switch {
					case !d.resists(x, target(t, 0)):
						return ill.state(cIll.with(illRec.Start(), 1, d.effect(x)))
					case t == L:
						return unaffected
					}
					return resisting
				}
				code, ok := ill.code(s)
				if !ok {
					bug("chronic inescapable: a step from state %d", s)
				}
				n := cIll.n(code)
				// All effects so far: n in the area, one per failed
				// throw-off after it (t − L − 1 of them before step t).
				all := n + max(0, t-L-1)
				total := cIll.total(code, all)
				switch {
				case t <= L: // in the area: the effect with no roll
					return ill.state(cIll.with(code, n+1, total+d.effect(x)))
				case d.resists(x, target(t, total)):
					return cured.state(cCured.with(curedRec.Start(), n, total))
				}
				return ill.state(cIll.with(code, n, total+d.effect(x)))
			}

			within := expr.Le(field("time"), num(L+after))
			inArea := p.StateTable(func(s int) int {
				if code, ok := ill.code(s); ok {
					return cIll.n(code)
				}
				if code, ok := cured.code(s); ok {
					return cCured.n(code)
				}
				return 0
			})
			isCured, affected := p.StateSet(cured.has), p.StateSet(func(s int) bool { return ill.has(s) || cured.has(s) })
			afterLeaving := expr.Cond(isCured, expr.Sub(field("time"), num(L+1)), num(0))
			n := expr.Add(inArea, afterLeaving)
			var total expr.Expr
			if a.constant() {
				lo, _ := a.effectRange()
				total = expr.Mul(num(lo), n)
			} else {
				total = p.StateTable(func(s int) int {
					if code, ok := ill.code(s); ok {
						return cIll.total(code, 0)
					}
					if code, ok := cured.code(s); ok {
						return cCured.total(code, 0)
					}
					return 0
				})
			}
			still := fmt.Sprintf("still ill %d %ss after leaving", after, p.TimeUnit)
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{
				{Name: "effects", Doc: "N = (L − j*) + N_chronic: every effect, in the area and after it", Unit: "effects", Expr: n, When: within, Otherwise: still},
				{Name: "effects_in_area", Doc: "L − j*: effects while in the area (0 if never affected)", Unit: "effects", Expr: inArea},
				{Name: "effects_if_affected", Doc: "N given that it took hold", Unit: "effects", Expr: n, When: expr.And(affected, within),
					Otherwise: "never affected, or " + still},
				a.effectVar("total_effect", "Σ_{i ≤ N} E_i: the effects added up", total, within, still),
				{Name: "time_ill_after_leaving", Doc: "action times ill after leaving the area: the failed throw-offs, each one more effect",
					Unit: p.TimeUnit, Expr: afterLeaving, When: expr.And(affected, within), Otherwise: "never affected, or " + still},
			}
			spec.Event("affected", "some roll in the area fails: it takes hold", affected).
				Event("still_ill", "not thrown off within the horizon after leaving", p.StateSet(ill.has))
			return spec, nil
		},
	}
}
