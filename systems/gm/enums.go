package gm

//go:generate go tool stringer -type=naturals,injuryPenalty,movement,terrain,preset,tau,effectKind,fadeIndex,willingPenalty,willingRoll,throwoffReaction,incapacitation,growth,exitThrowoff,evasionLimit,injuriesWhenHalved,size,jumpKind,escalation,route,willpowerPenalty,material,attackForm,table,blankCell -linecomment -output=enums_string.go

// The option values of the gm mechanics: the name after // is the value as
// it is set on the command line (opt.naturals=1_succeeds_20_fails, or the
// value a named choice is set to: movement=dash); docs/mechanics.md lists
// them by mechanic. The declaration of each option lists its default first.

// naturals is gm.core.opt.naturals: whether a natural 1 or 20 decides a
// roll whatever the target (none in the sources).
type naturals int

// Values of gm.core.opt.naturals.
const (
	naturalsNone             naturals = iota // none
	naturals1Succeeds20Fails                 // 1_succeeds_20_fails
)

// injuryPenalty is gm.core.opt.injury_penalty: whether current injuries
// penalise every roll (the author's Q&A; not in the seed).
type injuryPenalty int

// Values of gm.core.opt.injury_penalty.
const (
	injuryPenaltyOff injuryPenalty = iota // off
	injuryPenaltyOn                       // on
)

// movement is the speed a character moves at while rolling (the seed's
// movement table).
type movement int

// Speeds of the movement table with a reaction penalty.
const (
	moveNone   movement = iota // none
	moveDash                   // dash
	moveWalk                   // walk
	moveJog                    // jog
	moveRun                    // run
	moveSprint                 // sprint
)

// terrain says whether the movement penalties are shifted up one row
// (outdoors on roads and similar, outside dangerous places).
type terrain int

// Terrains of the movement table.
const (
	terrainDangerous terrain = iota // dangerous
	terrainOutdoors                 // outdoors
)

// preset is an ailment of the seed's example table (custom: none).
type preset int

// The seed's example ailments.
const (
	presetCustom        preset = iota // custom
	presetAlcohol                     // alcohol
	presetCommonCold                  // common_cold
	presetFoodPoisoning               // food_poisoning
	presetBlackWidow                  // black_widow
	presetGiantSpider                 // giant_spider
	presetHugeSpider                  // huge_spider
	presetLargeSpider                 // large_spider
	presetShadowSpider                // shadow_spider
	presetSleepGas                    // sleep_gas
)

// tau is an ailment's action time: a label for the step of its chain.
type tau int

// Action times.
const (
	tauPreset    tau = iota // preset
	tauRound                // round
	tau2Rounds              // 2_rounds
	tauMinute               // minute
	tau10Minutes            // 10_minutes
	tau20Minutes            // 20_minutes
	tau30Minutes            // 30_minutes
	tauHour                 // hour
	tauDay                  // day
)

// effectKind is what one occurrence of an ailment's effect is counted in.
type effectKind int

// Effect kinds; only injuries feed the injury penalty back.
const (
	effectPreset    effectKind = iota // preset
	effectInjuries                    // injuries
	effectSleep                       // sleep_minutes
	effectParalysis                   // paralysis_minutes
	effectPenalty                     // penalty_points
)

// fadeIndex is gm.ailment.chronic.opt.fade_index: the strength of the
// throw-off roll at action time k (k = 2, 3, …).
type fadeIndex int

// Values of gm.ailment.chronic.opt.fade_index.
const (
	fadeFirstAtS0Minus1 fadeIndex = iota // first_throwoff_at_s0_minus_1
	fadeFirstAtS0                        // first_throwoff_at_s0
	fadeS0MinusK                         // s0_minus_k
)

// willingPenalty is gm.ailment.chronic.opt.willing_penalty: which rolls
// the −4 of a willing victim applies to.
type willingPenalty int

// Values of gm.ailment.chronic.opt.willing_penalty.
const (
	willingContractionOnly willingPenalty = iota // contraction_only
	willingAllRolls                              // all_rolls
)

// willingRoll is gm.ailment.*.opt.willing_roll: the reaction a willing
// victim rolls to contract the ailment on.
type willingRoll int

// Values of gm.ailment.*.opt.willing_roll.
const (
	willingRollHealth   willingRoll = iota // health
	willingRollReaction                    // reaction
)

// throwoffReaction is gm.ailment.chronic.opt.throwoff_reaction.
type throwoffReaction int

// Values of gm.ailment.chronic.opt.throwoff_reaction.
const (
	throwoffHealth throwoffReaction = iota // health
	throwoffSame                           // same_as_contraction
)

// incapacitation is gm.ailment.inescapable.opt.incapacitation.
type incapacitation int

// Values of gm.ailment.inescapable.opt.incapacitation.
const (
	incapKeepRolling incapacitation = iota // keep_rolling
	incapAutoFail                          // auto_fail_when_incapacitated
)

// growth is gm.ailment.chronic_inescapable.opt.growth.
type growth int

// Values of gm.ailment.chronic_inescapable.opt.growth.
const (
	growthFromExposureStart growth = iota // from_exposure_start
	growthAfterFirstEffect                // after_first_effect
)

// exitThrowoff is gm.ailment.chronic_inescapable.opt.first_throwoff_after_exit.
type exitThrowoff int

// Values of gm.ailment.chronic_inescapable.opt.first_throwoff_after_exit.
const (
	exitAtS0Minus1 exitThrowoff = iota // at_s0_minus_1
	exitAtS0                           // at_s0
)

// evasionLimit is gm.fall.opt.evasion_limit.
type evasionLimit int

// Values of gm.fall.opt.evasion_limit.
const (
	evasionBelow20ft evasionLimit = iota // below_20ft
	evasionUpTo20ft                      // up_to_20ft
)

// injuriesWhenHalved is gm.fall.opt.injuries_when_halved.
type injuriesWhenHalved int

// Values of gm.fall.opt.injuries_when_halved.
const (
	halvedNoInjuries  injuriesWhenHalved = iota // none
	halvedHalfTheDice                           // half_the_dice
)

// size is a creature's size for gm.jump.
type size int

// Sizes of the jumping rule.
const (
	sizeMedium   size = iota // medium
	sizeLarge                // large
	sizeHuge                 // huge
	sizeGigantic             // gigantic
	sizeTitanic              // titanic
	sizeSmall                // small
	sizeTiny                 // tiny
	sizeFine                 // fine
)

// jumpKind is jumping up (feet) or leaping across (yards).
type jumpKind int

// Kinds of jump.
const (
	jumpUp     jumpKind = iota // up
	jumpAcross                 // across
)

// escalation is gm.daily_push.opt.earlier_rolls: whether each earlier
// push since the last rest day penalises the next roll by 2.
type escalation int

// Values of gm.daily_push.opt.earlier_rolls.
const (
	escalationNone   escalation = iota // no_penalty
	escalationMinus2                   // minus_2_each
)

// route is how a character tries to disbelieve an illusion.
type route int

// Routes of gm.disbelieve.
const (
	routePerception route = iota // perception
	routeWillpower               // willpower
)

// willpowerPenalty is gm.disbelieve.opt.willpower_penalty: how the
// phantasm's penalty is halved on the willpower route.
type willpowerPenalty int

// Values of gm.disbelieve.opt.willpower_penalty.
const (
	willpowerHalfFloor willpowerPenalty = iota // half_floor
	willpowerHalfCeil                          // half_ceil
	willpowerFull                              // full
)

// material is an item's material for gm.item_reaction.
type material int

// Materials of the seed's table.
const (
	materialGlass material = iota // glass
	materialIce                   // ice
	materialMetal                 // metal
	materialPaper                 // paper
	materialStone                 // stone
	materialWood                  // wood
)

// attackForm is the attack an item reacts to.
type attackForm int

// Attack forms of the seed's table.
const (
	attackFire     attackForm = iota // fire
	attackBludgeon                   // bludgeon
	attackAcid                       // acid
)

// table is gm.item_reaction.opt.table: the reading of the material table.
type table int

// Values of gm.item_reaction.opt.table.
const (
	tableLeftToRight table = iota // left_to_right
	tableUser                     // user
)

// blankCell is gm.item_reaction.opt.blank: what a blank cell of the
// material table means.
type blankCell int

// Values of gm.item_reaction.opt.blank.
const (
	blankNoRoll blankCell = iota // no_roll
	blankZero                    // zero
)
