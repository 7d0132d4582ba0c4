package gm

//go:generate go tool stringer -type=Naturals,InjuryPenalty,Movement,Terrain,Contributor,Preset,Tau,EffectKind,FadeIndex,WillingPenalty,ThrowoffReaction,Incapacitation,Growth,ExitThrowoff,EvasionLimit,InjuriesWhenHalved,Size,JumpKind,Escalation,Route,WillpowerPenalty,Material,AttackForm,Table -linecomment -output=enums_string.go

// The option values of the gm mechanics: the name after // is the value as
// it is set on the command line (opt.naturals=1_succeeds_20_fails, or the
// value a named choice is set to: movement=dash); docs/mechanics.md lists
// them by mechanic. The declaration of each option lists its default first.

// Naturals is gm.core.opt.naturals: whether a natural 1 or 20 decides a
// roll whatever the target (none in the sources).
type Naturals int

// Values of gm.core.opt.naturals.
const (
	NaturalsNone             Naturals = iota // none
	Naturals1Succeeds20Fails                 // 1_succeeds_20_fails
)

// InjuryPenalty is gm.core.opt.injury_penalty: whether current injuries
// penalise every roll (the author's Q&A; not in the seed).
type InjuryPenalty int

// Values of gm.core.opt.injury_penalty.
const (
	InjuryPenaltyOff InjuryPenalty = iota // off
	InjuryPenaltyOn                       // on
)

// Movement is the speed a character moves at while rolling (the seed's
// movement table).
type Movement int

// Speeds of the movement table with a reaction penalty.
const (
	MoveNone   Movement = iota // none
	MoveDash                   // dash
	MoveWalk                   // walk
	MoveJog                    // jog
	MoveRun                    // run
	MoveSprint                 // sprint
)

// Terrain says whether the movement penalties are shifted up one row
// (outdoors on roads and similar, outside dangerous places).
type Terrain int

// Terrains of the movement table.
const (
	TerrainDangerous Terrain = iota // dangerous
	TerrainOutdoors                 // outdoors
)

// Contributor is how much of a contributing ability's bonus a roll adds.
type Contributor int

// Contributor kinds.
const (
	ContributorNone  Contributor = iota // none
	ContributorMajor                    // major
	ContributorMinor                    // minor
)

// Preset is an ailment of the seed's example table (custom: none).
type Preset int

// The seed's example ailments.
const (
	PresetCustom        Preset = iota // custom
	PresetAlcohol                     // alcohol
	PresetCommonCold                  // common_cold
	PresetFoodPoisoning               // food_poisoning
	PresetBlackWidow                  // black_widow
	PresetGiantSpider                 // giant_spider
	PresetHugeSpider                  // huge_spider
	PresetLargeSpider                 // large_spider
	PresetShadowSpider                // shadow_spider
	PresetSleepGas                    // sleep_gas
)

// Tau is an ailment's action time: a label for the step of its chain.
type Tau int

// Action times.
const (
	TauPreset    Tau = iota // preset
	TauRound                // round
	Tau2Rounds              // 2_rounds
	TauMinute               // minute
	Tau10Minutes            // 10_minutes
	Tau20Minutes            // 20_minutes
	Tau30Minutes            // 30_minutes
	TauHour                 // hour
	TauDay                  // day
)

// EffectKind is what one occurrence of an ailment's effect is counted in.
type EffectKind int

// Effect kinds; only injuries feed the injury penalty back.
const (
	EffectPreset    EffectKind = iota // preset
	EffectInjuries                    // injuries
	EffectSleep                       // sleep_minutes
	EffectParalysis                   // paralysis_minutes
	EffectPenalty                     // penalty_points
)

// FadeIndex is gm.ailment.chronic.opt.fade_index: the strength of the
// throw-off roll at action time k (k = 2, 3, …).
type FadeIndex int

// Values of gm.ailment.chronic.opt.fade_index.
const (
	FadeFirstAtS0Minus1 FadeIndex = iota // first_throwoff_at_s0_minus_1
	FadeFirstAtS0                        // first_throwoff_at_s0
	FadeS0MinusK                         // s0_minus_k
)

// WillingPenalty is gm.ailment.chronic.opt.willing_penalty: which rolls
// the −4 of a willing victim applies to.
type WillingPenalty int

// Values of gm.ailment.chronic.opt.willing_penalty.
const (
	WillingContractionOnly WillingPenalty = iota // contraction_only
	WillingAllRolls                              // all_rolls
)

// ThrowoffReaction is gm.ailment.chronic.opt.throwoff_reaction.
type ThrowoffReaction int

// Values of gm.ailment.chronic.opt.throwoff_reaction.
const (
	ThrowoffHealth ThrowoffReaction = iota // health
	ThrowoffSame                           // same_as_contraction
)

// Incapacitation is gm.ailment.inescapable.opt.incapacitation.
type Incapacitation int

// Values of gm.ailment.inescapable.opt.incapacitation.
const (
	IncapKeepRolling Incapacitation = iota // keep_rolling
	IncapAutoFail                          // auto_fail_when_incapacitated
)

// Growth is gm.ailment.chronic_inescapable.opt.growth.
type Growth int

// Values of gm.ailment.chronic_inescapable.opt.growth.
const (
	GrowthFromExposureStart Growth = iota // from_exposure_start
	GrowthAfterFirstEffect                // after_first_effect
)

// ExitThrowoff is gm.ailment.chronic_inescapable.opt.first_throwoff_after_exit.
type ExitThrowoff int

// Values of gm.ailment.chronic_inescapable.opt.first_throwoff_after_exit.
const (
	ExitAtS0Minus1 ExitThrowoff = iota // at_s0_minus_1
	ExitAtS0                           // at_s0
)

// EvasionLimit is gm.fall.opt.evasion_limit.
type EvasionLimit int

// Values of gm.fall.opt.evasion_limit.
const (
	EvasionBelow20ft EvasionLimit = iota // below_20ft
	EvasionUpTo20ft                      // up_to_20ft
)

// InjuriesWhenHalved is gm.fall.opt.injuries_when_halved.
type InjuriesWhenHalved int

// Values of gm.fall.opt.injuries_when_halved.
const (
	HalvedNoInjuries  InjuriesWhenHalved = iota // none
	HalvedHalfTheDice                           // half_the_dice
)

// Size is a creature's size for gm.jump.
type Size int

// Sizes of the jumping rule.
const (
	SizeMedium   Size = iota // medium
	SizeLarge                // large
	SizeHuge                 // huge
	SizeGigantic             // gigantic
	SizeTitanic              // titanic
	SizeSmall                // small
	SizeTiny                 // tiny
	SizeFine                 // fine
)

// JumpKind is jumping up (feet) or leaping across (yards).
type JumpKind int

// Kinds of jump.
const (
	JumpUp     JumpKind = iota // up
	JumpAcross                 // across
)

// Escalation is gm.daily_push.opt.earlier_rolls: whether each earlier
// push since the last rest day penalises the next roll by 2.
type Escalation int

// Values of gm.daily_push.opt.earlier_rolls.
const (
	EscalationNone   Escalation = iota // no_penalty
	EscalationMinus2                   // minus_2_each
)

// Route is how a character tries to disbelieve an illusion.
type Route int

// Routes of gm.disbelieve.
const (
	RoutePerception Route = iota // perception
	RouteWillpower               // willpower
)

// WillpowerPenalty is gm.disbelieve.opt.willpower_penalty: how the
// phantasm's penalty is halved on the willpower route.
type WillpowerPenalty int

// Values of gm.disbelieve.opt.willpower_penalty.
const (
	WillpowerHalfFloor WillpowerPenalty = iota // half_floor
	WillpowerHalfCeil                          // half_ceil
	WillpowerFull                              // full
)

// Material is an item's material for gm.item_reaction.
type Material int

// Materials of the seed's table.
const (
	MaterialGlass Material = iota // glass
	MaterialIce                   // ice
	MaterialMetal                 // metal
	MaterialPaper                 // paper
	MaterialStone                 // stone
	MaterialWood                  // wood
)

// AttackForm is the attack an item reacts to.
type AttackForm int

// Attack forms of the seed's table.
const (
	AttackFire     AttackForm = iota // fire
	AttackBludgeon                   // bludgeon
	AttackAcid                       // acid
)

// Table is gm.item_reaction.opt.table: the reading of the material table.
type Table int

// Values of gm.item_reaction.opt.table.
const (
	TableLeftToRight Table = iota // left_to_right
	TableUser                     // user
)
