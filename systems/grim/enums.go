package grim

//go:generate go tool stringer -type=pvpKind,naturalsRule,nonattackTie,weaponDice,weaponKind,targetType,damageType,critOrder,yesNo,togTN,extendedRange,trigger,on3,extendedAppliesTo,fallSurface,rowRule,below45,dyingTick,escalation,corTN,intAs,knowledgeRoll,instabilityDie,itemKind -linecomment -output=enums_string.go

// The option values of the grim mechanics: the name after // is the value
// as the option spells it (in --set and the docs); the first constant of a
// type is not always the default (the declaration of the option lists the
// default first).

// pvpKind is grim.pvp.kind.
type pvpKind int

// Values of grim.pvp.kind.
const (
	pvpAttack    pvpKind = iota // attack
	pvpNonattack                // nonattack
)

// naturalsRule is grim.pvp.opt.naturals.
type naturalsRule int

// Values of grim.pvp.opt.naturals.
const (
	naturalsApply  naturalsRule = iota // attack_naturals_apply
	naturalsIgnore                     // ignore_naturals
)

// nonattackTie is grim.pvp.opt.nonattack_tie.
type nonattackTie int

// Values of grim.pvp.opt.nonattack_tie.
const (
	tieStatusQuo nonattackTie = iota // status_quo
	tieReroll                        // reroll
)

// weaponDice is the weapon dice choice of the damage mechanics.
type weaponDice int

// Weapons of the damage mechanics (docs/mechanics.md#grim-damage).
const (
	weaponD6      weaponDice = iota // d6
	weaponD4                        // d4
	weaponD8                        // d8
	weapon2D6                       // 2d6
	weaponD10                       // d10
	weapon2D8                       // 2d8
	weaponD12                       // d12
	weaponUnarmed                   // unarmed
)

// dice is the number of dice and their size (0, 0 for unarmed).
func (w weaponDice) dice() (n, sides int) {
	switch w {
	case weaponD4:
		return 1, 4
	case weaponD6:
		return 1, 6
	case weaponD8:
		return 1, 8
	case weapon2D6:
		return 2, 6
	case weaponD10:
		return 1, 10
	case weapon2D8:
		return 2, 8
	case weaponD12:
		return 1, 12
	}
	return 0, 0
}

// weaponKind is the weapon_kind choice: melee and thrown add TOG.
type weaponKind int

// Weapon kinds.
const (
	melee  weaponKind = iota // melee
	thrown                   // thrown
	ranged                   // ranged
)

// targetType is the target_type choice: the damage multiplier.
type targetType int

// Target types.
const (
	targetNormal    targetType = iota // normal
	targetWeak                        // weak
	targetResistant                   // resistant
	targetImmune                      // immune
)

// damageType is the damage_type choice: armour applies to physical damage.
type damageType int

// Damage types.
const (
	damagePhysical damageType = iota // physical
	damageOther                      // other
)

// critOrder is grim.damage.opt.crit_order.
type critOrder int

// Values of grim.damage.opt.crit_order.
const (
	critBeforeArmour critOrder = iota // before_armour
	critAfterArmour                   // after_armour
)

// yesNo is a yes/no switch (grim.damage.opt.min1_after_resist,
// grim.friendly_fire.opt.candidates_include_target, grim.fall.opt.armour).
type yesNo int

// Yes and no.
const (
	yes yesNo = iota // yes
	no               // no
)

// togTN is grim.heavy_weapon.opt.tog_tn.
type togTN int

// Values of grim.heavy_weapon.opt.tog_tn.
const (
	togTN11            togTN = iota // 11
	togTN10PlusDeficit              // 10_plus_deficit
)

// extendedRange is grim.friendly_fire.opt.extended_range_naturals.
type extendedRange int

// Values of grim.friendly_fire.opt.extended_range_naturals.
const (
	missAndFF    extendedRange = iota // miss_and_ff
	resolveAndFF                      // resolve_and_ff
)

// trigger is grim.friendly_fire.opt.trigger.
type trigger int

// Values of grim.friendly_fire.opt.trigger.
const (
	triggerAlways        trigger = iota // always
	triggerGMProbability                // gm_probability
)

// on3 is grim.shield_block.opt.on_3.
type on3 int

// Values of grim.shield_block.opt.on_3.
const (
	on3BlockFails on3 = iota // block_fails
	on3NoEffect              // no_effect
)

// extendedAppliesTo is grim.crafting.opt.extended_applies_to.
type extendedAppliesTo int

// Values of grim.crafting.opt.extended_applies_to.
const (
	extendedCorOnly   extendedAppliesTo = iota // cor_only
	extendedBothRolls                          // both_rolls
)

// fallSurface is the grim.fall.surface choice.
type fallSurface int

// Surfaces.
const (
	surfaceHard  fallSurface = iota // hard
	surfaceSoft                     // soft
	surfaceWater                    // water
)

// rowRule is grim.fall.opt.row.
type rowRule int

// Values of grim.fall.opt.row.
const (
	floorRow        rowRule = iota // floor_row
	nearestRow                     // nearest_row
	interpolateDice                // interpolate_dice
)

// below45 is grim.fall.opt.below_4_5m.
type below45 int

// Values of grim.fall.opt.below_4_5m.
const (
	below45NoDamage below45 = iota // no_damage
	below45FirstRow                // first_row
)

// dyingTick is grim.drowning.opt.dying_tick.
type dyingTick int

// Values of grim.drowning.opt.dying_tick.
const (
	tickStacks       dyingTick = iota // stacks
	tickDrowningOnly                  // drowning_only
)

// escalation is grim.drowning.opt.escalation.
type escalation int

// Values of grim.drowning.opt.escalation.
const (
	escalationNone           escalation = iota // none
	escalationMinus1PerRound                   // minus_1_per_round
)

// corTN is grim.dying.opt.cor_tn.
type corTN int

// Values of grim.dying.opt.cor_tn.
const (
	corTN10PlusAbsC corTN = iota // 10_plus_abs_c
)

// intAs is grim.dying.opt.int_as.
type intAs int

// Values of grim.dying.opt.int_as.
const (
	intAsMND intAs = iota // MND
)

// knowledgeRoll is grim.dying.opt.knowledge_roll.
type knowledgeRoll int

// Values of grim.dying.opt.knowledge_roll.
const (
	knowledgeOnce        knowledgeRoll = iota // once
	knowledgeEachAttempt                      // each_attempt
)

// instabilityDie is the grim.instability.die choice.
type instabilityDie int

// Instability dice.
const (
	instabilityD20 instabilityDie = iota // d20
	instabilityD4                        // d4
	instabilityD6                        // d6
	instabilityD8                        // d8
	instabilityD10                       // d10
	instabilityD12                       // d12
)

// sides is the die size.
func (d instabilityDie) sides() int {
	return [...]int{20, 4, 6, 8, 10, 12}[d]
}

// itemKind is the grim.instability.item choice.
type itemKind int

// Item kinds.
const (
	durable    itemKind = iota // durable
	consumable                 // consumable
)
