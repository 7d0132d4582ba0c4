package grim

//go:generate go tool stringer -type=PvPKind,Naturals,NonattackTie,Weapon,WeaponKind,TargetType,DamageType,CritOrder,YesNo,TogTN,ExtendedRange,Trigger,On3,ExtendedAppliesTo,Surface,FallRow,Below45,DyingTick,Escalation,CorTN,IntAs,KnowledgeRoll,InstabilityDie,ItemKind -linecomment -output=enums_string.go

// The option values of the grim mechanics: the name after // is the value
// as the option spells it (in --set and the docs); the first constant of a type is not always
// the default (the declaration of the option lists the default first).

// PvPKind is grim.pvp.kind.
type PvPKind int

// Values of grim.pvp.kind.
const (
	PvPAttack    PvPKind = iota // attack
	PvPNonattack                // nonattack
)

// Naturals is grim.pvp.opt.naturals.
type Naturals int

// Values of grim.pvp.opt.naturals.
const (
	NaturalsApply  Naturals = iota // attack_naturals_apply
	NaturalsIgnore                 // ignore_naturals
)

// NonattackTie is grim.pvp.opt.nonattack_tie.
type NonattackTie int

// Values of grim.pvp.opt.nonattack_tie.
const (
	TieStatusQuo NonattackTie = iota // status_quo
	TieReroll                        // reroll
)

// Weapon is the weapon dice choice of the damage mechanics.
type Weapon int

// Weapons of the damage mechanics (docs/mechanics.md#grim-damage).
const (
	WeaponD6      Weapon = iota // d6
	WeaponD4                    // d4
	WeaponD8                    // d8
	Weapon2D6                   // 2d6
	WeaponD10                   // d10
	Weapon2D8                   // 2d8
	WeaponD12                   // d12
	WeaponUnarmed               // unarmed
)

// dice is the number of dice and their size (0, 0 for unarmed).
func (w Weapon) dice() (n, sides int) {
	switch w {
	case WeaponD4:
		return 1, 4
	case WeaponD6:
		return 1, 6
	case WeaponD8:
		return 1, 8
	case Weapon2D6:
		return 2, 6
	case WeaponD10:
		return 1, 10
	case Weapon2D8:
		return 2, 8
	case WeaponD12:
		return 1, 12
	}
	return 0, 0
}

// WeaponKind is the weapon_kind choice: melee and thrown add TOG.
type WeaponKind int

// Weapon kinds.
const (
	Melee  WeaponKind = iota // melee
	Thrown                   // thrown
	Ranged                   // ranged
)

// TargetType is the target_type choice: the damage multiplier.
type TargetType int

// Target types.
const (
	Normal    TargetType = iota // normal
	Weak                        // weak
	Resistant                   // resistant
	Immune                      // immune
)

// DamageType is the damage_type choice: armour applies to physical damage.
type DamageType int

// Damage types.
const (
	Physical DamageType = iota // physical
	Other                      // other
)

// CritOrder is grim.damage.opt.crit_order.
type CritOrder int

// Values of grim.damage.opt.crit_order.
const (
	CritBeforeArmour CritOrder = iota // before_armour
	CritAfterArmour                   // after_armour
)

// YesNo is a yes/no switch (grim.damage.opt.min1_after_resist,
// grim.friendly_fire.opt.candidates_include_target, grim.fall.opt.armour).
type YesNo int

// Yes and no.
const (
	Yes YesNo = iota // yes
	No               // no
)

// TogTN is grim.heavy_weapon.opt.tog_tn.
type TogTN int

// Values of grim.heavy_weapon.opt.tog_tn.
const (
	TogTN11            TogTN = iota // 11
	TogTN10PlusDeficit              // 10_plus_deficit
)

// ExtendedRange is grim.friendly_fire.opt.extended_range_naturals.
type ExtendedRange int

// Values of grim.friendly_fire.opt.extended_range_naturals.
const (
	MissAndFF    ExtendedRange = iota // miss_and_ff
	ResolveAndFF                      // resolve_and_ff
)

// Trigger is grim.friendly_fire.opt.trigger.
type Trigger int

// Values of grim.friendly_fire.opt.trigger.
const (
	TriggerAlways        Trigger = iota // always
	TriggerGMProbability                // gm_probability
)

// On3 is grim.shield_block.opt.on_3.
type On3 int

// Values of grim.shield_block.opt.on_3.
const (
	On3BlockFails On3 = iota // block_fails
	On3NoEffect              // no_effect
)

// ExtendedAppliesTo is grim.crafting.opt.extended_applies_to.
type ExtendedAppliesTo int

// Values of grim.crafting.opt.extended_applies_to.
const (
	ExtendedCorOnly   ExtendedAppliesTo = iota // cor_only
	ExtendedBothRolls                          // both_rolls
)

// Surface is the grim.fall.surface choice.
type Surface int

// Surfaces.
const (
	Hard  Surface = iota // hard
	Soft                 // soft
	Water                // water
)

// FallRow is grim.fall.opt.row.
type FallRow int

// Values of grim.fall.opt.row.
const (
	FloorRow        FallRow = iota // floor_row
	NearestRow                     // nearest_row
	InterpolateDice                // interpolate_dice
)

// Below45 is grim.fall.opt.below_4_5m.
type Below45 int

// Values of grim.fall.opt.below_4_5m.
const (
	Below45NoDamage Below45 = iota // no_damage
	Below45FirstRow                // first_row
)

// DyingTick is grim.drowning.opt.dying_tick.
type DyingTick int

// Values of grim.drowning.opt.dying_tick.
const (
	TickStacks       DyingTick = iota // stacks
	TickDrowningOnly                  // drowning_only
)

// Escalation is grim.drowning.opt.escalation.
type Escalation int

// Values of grim.drowning.opt.escalation.
const (
	EscalationNone           Escalation = iota // none
	EscalationMinus1PerRound                   // minus_1_per_round
)

// CorTN is grim.dying.opt.cor_tn.
type CorTN int

// Values of grim.dying.opt.cor_tn.
const (
	CorTN10PlusAbsC CorTN = iota // 10_plus_abs_c
)

// IntAs is grim.dying.opt.int_as.
type IntAs int

// Values of grim.dying.opt.int_as.
const (
	IntAsMND IntAs = iota // MND
)

// KnowledgeRoll is grim.dying.opt.knowledge_roll.
type KnowledgeRoll int

// Values of grim.dying.opt.knowledge_roll.
const (
	KnowledgeOnce        KnowledgeRoll = iota // once
	KnowledgeEachAttempt                      // each_attempt
)

// InstabilityDie is the grim.instability.die choice.
type InstabilityDie int

// Instability dice.
const (
	InstabilityD20 InstabilityDie = iota // d20
	InstabilityD4                        // d4
	InstabilityD6                        // d6
	InstabilityD8                        // d8
	InstabilityD10                       // d10
	InstabilityD12                       // d12
)

// Sides is the die size.
func (d InstabilityDie) Sides() int {
	return [...]int{20, 4, 6, 8, 10, 12}[d]
}

// ItemKind is the grim.instability.item choice.
type ItemKind int

// Item kinds.
const (
	Durable    ItemKind = iota // durable
	Consumable                 // consumable
)
