package bd

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The combat mechanics: the attack against Guard, the defender's counter-roll, damage
// dice with bursting bonus dice, and armour.

// combatMechanics are the mechanics declared in combat.go.
func combatMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{attack(), defense(), damage(), armor()}
}

var (
	optSizeA = mechanics.ChoiceOf("bd.attack", "size_a", "the attacker's size category", sizes...)
	optSizeT = mechanics.ChoiceOf("bd.attack", "size_t",
		fmt.Sprintf("the target's size category: a smaller target's Guard rises by %d per category of difference", guardPerSize), sizes...)
	optCover = mechanics.ChoiceOf("bd.attack", "cover", "the target's cover against direct ranged attacks: "+coverGuards("Guard"),
		coverNone, coverLight, coverPartial, coverFull)
)

// guardPerSize is what a target's Guard rises by per size category the
// attacker is larger.
const guardPerSize = 5

// guardOf is the Guard of a target (docs/mechanics.md#bd-attack): G = base +
// guardPerSize·max(0, size_a − size_t) + cover, halved and rounded up
// against an attack from behind on an unaware target.
func guardOf(base int, attacker, target size, cover coverKind, behindUnaware bool) int {
	g := base + guardPerSize*max(0, int(attacker)-int(target)) + cover.guard()
	if behindUnaware {
		g = (g + 1) / 2 // ⌈G/2⌉ for G ≥ 0
	}
	return g
}

func attack() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.attack",
		Summary: "attack roll: d20 + bonus dice must beat the target's Guard (strictly), before reactions",
		Doc: fmt.Sprintf("T_a = d20 + k bonus dice (Agility for weapons and unarmed, Soul for spells, Speed for techniques); hit before "+
			"reactions ⇔ T_a > G with G = guard + %d·max(0, size_a − size_t) + cover (%s against "+
			"direct ranged attacks); from behind an unaware target G becomes ⌈G/2⌉ (%d → %d). A prone target shot at puts one "+
			"challenge on the attack's bonus dice, an off-hand attack two.", guardPerSize, coverGuards(""),
			int(pGuard.Default), guardOf(int(pGuard.Default), medium, medium, coverNone, true)),
		Params: params(pK, pRank, pGuard,
			ip("behind_unaware", 0, 0, 1, "1: attacking from behind a target that is unaware (Guard halved, rounded up)"),
			ip("prone", 0, 0, 1, "1: a ranged attack on a prone target (one challenge)"),
			ip("off_hand", 0, 0, 1, "1: an off-hand attack (two challenges; costs 8 Vigor)"),
			pCharges, pChallenges, pWounded),
		Options: mechanics.Options(optSizeA, optSizeT, optCover, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			b, err := bonusOf(c, c.Int("prone")+2*c.Int("off_hand"))
			if err != nil {
				return nil, err
			}
			g := guardOf(c.Int("guard"), optSizeA.Of(c), optSizeT.Of(c), optCover.Of(c), c.Int("behind_unaware") == 1)
			rec := mechanics.NewRecord(totalField("total", "T_a = d20 + "+b.String(), b))
			t := field("total")
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("total"), actionRoll(b))}
			spec.Var("total", "T_a = d20 + "+b.String(), t).
				Var("margin", fmt.Sprintf("T_a − G (G = %d)", g), expr.Sub(t, num(g))).
				Event("hit", fmt.Sprintf("T_a > G = %d: the attack beats Guard (before any reaction)", g), beatsGuard(t, g))
			return spec, nil
		},
	}
}

var optDecideAfterRoll = mechanics.SwitchOf("bd.defense", "decide_after_roll",
	"yes: the defender sees the attack roll and reacts only to attacks that beat Guard; no: it must commit first, so it reacts "+
		"to every attack (P(hit) is the same; reactions, and Vigor, are spent on misses too)",
	yes, no)

// Defence bands: the defender's counter-roll T_d against the attack's T_a.
const (
	defLower = iota
	defTie
	defHigher
)

var defenceLabels = []string{"lower", "tie", "higher"}

func defense() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.defense",
		Summary: "counter-roll reaction: the defender's d20 + Speed dice must beat the attack roll; ties go to the attacker",
		Doc: "After the attack is rolled the defender may spend a reaction (Dodge/Deflect/Block: " + reactionPrice("a Defend action") + ") to " +
			"roll d20 + k_d Speed bonus dice; only a strictly higher total avoids the attack. Default policy: react to attacks " +
			"that beat Guard, so P(hit) = Σ_t P(T_a = t)·[t > G]·P(T_d ≤ t). The defender's dice are stepped by its own charges, " +
			"challenges and wounds; prone, its Speed counts a quarter: ⌊k_d/4⌋ dice. Reported: P(hit) without and with the " +
			"reaction, the reaction's value ΔP(hit) (per attack and per reaction spent) and P(defence succeeds | attack beat " +
			"Guard).",
		Params: params(pK, pRank, pGuard, pCharges, pChallenges, pWounded,
			ip("k_d", 2, 0, 10, "the defender's Speed bonus dice"),
			ip("rank_d", 10, 4, 20, "die of the defender's bonus dice before any step: "+ladderSizes()),
			ip("charges_d", 0, 0, 10, "charges on the defence roll"),
			ip("challenges_d", 0, 0, 10, "challenges on the defence roll"),
			ip("wounded_d", 0, 0, 1, "1: the defender is wounded (its Speed dice step down)"),
			ip("prone_d", 0, 0, 1, "1: the defender is prone: its Speed counts a quarter, ⌊k_d/4⌋ dice")),
		Options: mechanics.Options(optDecideAfterRoll, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			ba, err := bonusOf(c, 0)
			if err != nil {
				return nil, err
			}
			baseD, err := rungOf("rank_d", c.Int("rank_d"))
			if err != nil {
				return nil, err
			}
			kd := c.Int("k_d")
			if c.Int("prone_d") == 1 {
				kd /= 4
			}
			bDef := ladderOf(c).bonus(kd, baseD, steps{charges: c.Int("charges_d"), challenges: c.Int("challenges_d"), wounded: c.Int("wounded_d") == 1})
			g, after := c.Int("guard"), optDecideAfterRoll.Of(c) == yes

			rec := mechanics.NewRecord(
				mechanics.Enum("defence", "the defence roll T_d against the attack roll T_a", defenceLabels...),
				totalField("attack_total", "T_a = d20 + "+ba.String(), ba))
			sBand, sTotal := rec.Slot("defence"), rec.Slot("attack_total")
			start := rec.Start()
			out := mechanics.Combine{X: actionRoll(ba), Y: actionRoll(bDef), Name: "attack and defence", F: func(a, d int) int {
				band := defTie
				switch {
				case d < a:
					band = defLower
				case d > a:
					band = defHigher
				}
				return sTotal.Set(sBand.Set(start, band), a)
			}}
			t, band := field("attack_total"), field("defence")
			beats := beatsGuard(t, g)
			parried := expr.Eq(band, num(defHigher))
			var reacted expr.Expr = num(1)
			if after {
				reacted = beats
			}
			saves := expr.And(beats, parried)
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Var("attack_total", "T_a = d20 + "+ba.String(), t).
				Report("defence").
				Event("hit_no_reaction", fmt.Sprintf("T_a > G = %d: the hit without a reaction", g), beats).
				Event("hit", "T_a > G and T_d ≤ T_a: the hit with the reaction (ties go to the attacker)", expr.And(beats, expr.Not(parried))).
				Event("tie", "T_d = T_a (the attacker wins it)", expr.Eq(band, num(defTie))).
				Event("reacted", "a reaction is spent on the attack (only when it beats Guard unless the defender must commit first)", reacted).
				Event("reaction_saves", "the reaction turns a hit into a miss: P = ΔP(hit), the reaction's value per attack", saves)
			spec.Vars = append(spec.Vars,
				mechanics.Var{Name: "value_per_reaction", Doc: "1 when the reaction spent saves a hit: its mean is ΔP(hit) per reaction (" + reactionPrice("Defend") + ")",
					Expr: expr.Cond(saves, num(1), num(0)), When: reacted, Otherwise: "no reaction spent"},
				mechanics.Var{Name: "defence_given_beaten", Doc: "1 when T_d > T_a: its mean is P(defence succeeds | attack beat Guard)",
					Expr: expr.Cond(parried, num(1), num(0)), When: beats, Otherwise: "the attack did not beat Guard"})
			return spec, nil
		},
	}
}

// weapon is the weapon part of a damage roll: n dice of sides faces (the
// Damage Value and the quality rank), bursting or not.
type weapon struct {
	n, sides int
	bursts   bool
}

func (w weapon) terms() []mechanics.Node {
	out := make([]mechanics.Node, w.n)
	for i := range out {
		if w.bursts {
			out[i] = mechanics.Explode{Die: mechanics.D(w.sides)}
		} else {
			out[i] = mechanics.D(w.sides)
		}
	}
	return out
}

func (w weapon) max() int {
	if w.bursts {
		return w.n * burstMax(w.sides)
	}
	return w.n * w.sides
}

func (w weapon) String() string {
	if w.n == 0 {
		return "no weapon dice"
	}
	bang := ""
	if w.bursts {
		bang = "!"
	}
	return fmt.Sprintf("%dd%d%s", w.n, w.sides, bang)
}

// node is the sum of the weapon dice (0 without dice).
func (w weapon) node() mechanics.Node {
	if w.n == 0 {
		return mechanics.Const{V: 0}
	}
	return mechanics.Sum{Terms: w.terms()}
}

// damageRoll is D = Σ_DV d_q + Σ_{k_b} d_b!.
type damageRoll struct {
	w weapon
	b bonusDice
}

func (d damageRoll) String() string { return d.w.String() + " + " + d.b.String() }

// node is D as one sum (the fast form, when bursts need not be told).
func (d damageRoll) node() mechanics.Node {
	terms := append(d.w.terms(), d.b.terms()...)
	if len(terms) == 0 {
		return mechanics.Const{V: 0}
	}
	return mechanics.Sum{Terms: terms}
}

// record is the damage record: bonus dice that burst, then D.
func (d damageRoll) record() *mechanics.Record {
	hi, doc := d.w.max()+d.b.max(), "D = "+d.String()
	return mechanics.NewRecord(mechanics.Int("bursts", 0, d.b.n, "damage bonus dice that burst (any burst is a critical hit)"),
		mechanics.Int("damage", d.w.n, hi, doc))
}

func (d damageRoll) outcome(rec *mechanics.Record) mechanics.Node {
	return withBursts(rec, d.w.node(), d.b, "damage")
}

var (
	optWeaponDiceBurst = mechanics.SwitchOf("bd.damage", "weapon_dice_burst", "no: only bonus dice burst; yes: the weapon's dice burst too (never a critical hit)", no, yes)
	optFeebleDie       = mechanics.SwitchOf("bd.damage", "feeble_die",
		fmt.Sprintf("the feeble die of an untrained unarmed attack: d%d (feeble below d%d on the ladder) or d%d", feebleD4.sides(), feebleD6.sides(), feebleD6.sides()),
		feebleD4, feebleD6)
)

var (
	pDV      = ip("dv", 1, 0, 10, "Damage Value: the number of weapon dice")
	pQuality = ip("quality", 8, 4, 20, fmt.Sprintf("the weapon's quality rank as its die: %s (%s below ordinary)", qualities(ordinary), belowOrdinary()))
	pKB      = ip("k_b", 1, 0, 10, "damage bonus dice (Strength for melee, unarmed and pull bows; Skill for crossbows, modern weapons and magic projectiles)")
)

// damageOf reads the damage roll of bd.damage and bd.armor: weapon dice
// (or one feeble die unarmed) and k_b bonus dice of the stepped rank.
// Bonus dice on effect rolls take charges, the wound step and only the
// challenges a rule names (the challenges parameter, two for off-hand).
func damageOf(c mechanics.Config, unarmed bool, offHand int) (damageRoll, error) {
	q, err := rungOf("quality", c.Int("quality"))
	if err != nil {
		return damageRoll{}, err
	}
	base, err := rungOf("rank", c.Int("rank"))
	if err != nil {
		return damageRoll{}, err
	}
	w := weapon{n: c.Int("dv"), sides: ladder[q], bursts: optWeaponDiceBurst.Of(c) == yes}
	if unarmed {
		w.n, w.sides = 1, optFeebleDie.Of(c).sides()
	}
	s := stepsOf(c)
	s.challenges += 2 * offHand
	return damageRoll{w: w, b: ladderOf(c).bonus(c.Int("k_b"), base, s)}, nil
}

var damageParams = []mechanics.Param{pDV, pQuality, pKB,
	ip("rank", 10, 4, 20, "die of the damage bonus dice before any step: "+ladderSizes()),
	ip("charges", 0, 0, 10, "charges on the effect roll (they step the bonus dice up)"),
	ip("challenges", 0, 0, 10, "challenges a rule puts on the damage bonus dice (effect rolls suffer only those)"),
	pWounded}

func damage() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.damage",
		Summary: "damage: DV weapon dice of the quality's rank + bursting bonus dice; any burst on a bonus die is a critical hit",
		Doc: "D = Σ_DV d_q + Σ_{k_b} d_b!: the Damage Value is the number of weapon dice, the die the weapon's quality (ordinary d" + kit.Num(ladder[ordinary]) + ", heroic d" + kit.Num(ladder[heroic]) + ", …); melee, unarmed and pull-bow hits add Strength bonus dice, crossbows, modern weapons and magic " +
			"projectiles Skill bonus dice. All bonus dice burst; any burst on a damage bonus die is a critical hit: P(crit) = " +
			"1 − (1 − 1/S_b)^k_b (d10: .10, .19, .271 for k_b = 1, 2, 3). Untrained unarmed attacks deal 1 feeble die.",
		Params: append(append([]mechanics.Param(nil), damageParams...),
			ip("off_hand", 0, 0, 1, "1: an off-hand attack (two challenges on the damage bonus dice)"),
			ip("unarmed", 0, 0, 1, "1: an untrained unarmed attack: one feeble die instead of the weapon dice")),
		Options: mechanics.Options(optWeaponDiceBurst, optFeebleDie, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			d, err := damageOf(c, c.Int("unarmed") == 1, c.Int("off_hand"))
			if err != nil {
				return nil, err
			}
			rec := d.record()
			spec := &mechanics.Spec{Record: rec, Outcome: d.outcome(rec)}
			spec.Var("damage", "D = "+d.String(), field("damage")).
				Report("bursts").
				Event("crit", "a critical hit: at least one damage bonus die burst", expr.Ge(field("bursts"), num(1)))
			return spec, nil
		},
	}
}

var (
	optArmorCover = mechanics.ChoiceOf("bd.armor", "cover",
		fmt.Sprintf("the target's cover: partial %s armour rank, full %s (light cover stops nothing)", kit.Signed(coverPartial.armorRank()), kit.Signed(coverFull.armorRank())),
		coverNone, coverLight, coverPartial, coverFull)
	optDamageType = mechanics.ChoiceOf("bd.armor", "damage_type", "physical (normal armour applies) or energy (fire, lightning…: worn armour does not)", physical, energy)
	optMinimum    = mechanics.SwitchOf("bd.armor", "minimum", "zero: armour can stop a hit entirely (no minimum is stated); one: a hit does at least 1", minZero, minOne)
	optIgnored    = mechanics.SwitchOf("bd.armor", "ignored_armor",
		"what a heroic or better weapon three or more steps above the armour's quality ignores. worn: the worn armour only, "+
			"the cover's rank still counts (the rules say such a weapon \"ignores that armor\": the armour whose quality it "+
			"outranks; cover has no quality); worn_and_cover: the cover's rank too, so nothing is subtracted, whatever the "+
			"damage type (an earlier reading)",
		ignoresWorn, ignoresWornAndCover)
)

// armour is the reading of the armour rules for one weapon
// (docs/mechanics.md#bd-armor): what the hit's damage loses, and what the
// worn armour takes.
type armour struct {
	// effective is AR_eff, subtracted from the damage.
	effective int
	// worn is the part of AR_eff the worn armour provides (it takes that
	// much of the damage).
	worn int
	// immune: the creature's Durability quality is above the weapon's.
	immune bool
	// unharmed: the weapon is three or more steps below the armour.
	unharmed bool
}

// armourOf applies the quality rules: a weapon of heroic quality or better
// ignores armour three or more steps below it (the worn armour, and with
// ignoresWornAndCover the cover's rank too); armour is unharmed by weapons
// three or more steps below it; a creature with heroic or better
// Durability is immune to weapons of lower quality. Worn armour counts its
// highest rank and stops physical damage only; cover adds its rank.
func armourOf(weaponRung, armourRung, durabilityRung, ar int, cover coverKind, dt damageType, ig ignoredArmor) armour {
	a := armour{immune: durabilityRung >= heroic && weaponRung < durabilityRung, unharmed: weaponRung <= armourRung-3}
	ignored := weaponRung >= heroic && armourRung <= weaponRung-3
	if ignored && ig == ignoresWornAndCover {
		return a // AR_eff = 0
	}
	if dt == physical && !ignored {
		a.worn = ar
	}
	a.effective = a.worn + cover.armorRank()
	return a
}

func armor() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.armor",
		Summary: "armour rank subtracted from damage, with the quality rules (superior weapons ignore armour, superior Durability is immune)",
		Doc: "D_after = max(0, D − AR_eff) with AR_eff = the highest worn armour rank (physical damage only) + the cover's rank; " +
			"a weapon of heroic quality or better ignores armour three or more steps below it: the worn armour's rank drops out " +
			"and the cover's still counts (bd.armor.opt.ignored_armor); armour takes the damage it stops unless the weapon is " +
			"three or more steps below it; a creature with heroic, epic or legendary Durability takes nothing from weapons " +
			"below that quality. D is the bd.damage roll.",
		Params: append(append([]mechanics.Param(nil), damageParams...),
			ip("ar", 3, 0, 100, "armour rank of the worn armour"),
			ip("ar_second", 0, 0, 100, "a second armour rank (natural armour, a shield…): only the highest counts"),
			ip("armor_quality", 8, 4, 20, "the armour's quality rank as a die: "+qualities(ordinary)),
			ip("durability_quality", 8, 4, 20, fmt.Sprintf("the creature's Durability quality as a die: %s (below %d: no immunity)", qualities(heroic), ladder[heroic]))),
		Options: mechanics.Options(optArmorCover, optDamageType, optMinimum, optIgnored, optWeaponDiceBurst, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			d, err := damageOf(c, false, 0)
			if err != nil {
				return nil, err
			}
			wq, _ := rungOf("quality", c.Int("quality"))
			aq, err := rungOf("armor_quality", c.Int("armor_quality"))
			if err != nil {
				return nil, err
			}
			dq, err := rungOf("durability_quality", c.Int("durability_quality"))
			if err != nil {
				return nil, err
			}
			a := armourOf(wq, aq, dq, max(c.Int("ar"), c.Int("ar_second")), optArmorCover.Of(c), optDamageType.Of(c), optIgnored.Of(c))
			floor := 0
			if optMinimum.Of(c) == minOne {
				floor = 1
			}
			rec := d.record()
			D := field("damage")
			var after expr.Expr = num(0)
			if !a.immune {
				after = expr.Cond(expr.Gt(D, num(0)), expr.Max(num(floor), expr.Sub(D, num(a.effective))), num(0))
			}
			var taken expr.Expr = num(0)
			if !a.unharmed {
				taken = expr.Min(D, num(a.worn))
			}
			spec := &mechanics.Spec{Record: rec, Outcome: d.outcome(rec)}
			spec.Var("damage_after", fmt.Sprintf("damage after armour: max(%d, D − AR_eff) (AR_eff = %d)%s", floor, a.effective, immuneNote(a.immune)), after).
				Var("damage", "D = "+d.String(), D).
				Var("armour_damage", "damage the worn armour takes: what its rank stops (0 from weapons three steps below it, from energy damage and when the weapon ignores it)", taken).
				Event("gets_through", "D_after > 0", expr.Gt(after, num(0))).
				Event("crit", "a critical hit: at least one damage bonus die burst", expr.Ge(field("bursts"), num(1)))
			return spec, nil
		},
	}
}

func immuneNote(immune bool) string {
	if immune {
		return "; the creature is immune to this weapon's quality"
	}
	return ""
}
