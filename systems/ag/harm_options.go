package ag

// Option value types of the mechanics of harm (hazards, injury over time,
// radiation, wound degeneration). The names after // are the option values
// as they are set and shown; the first constant of each type is its default.

//go:generate go tool stringer -type=FallSurface,FallDV,FallCapOrder,FallFeetRule,FallDamageRoll,FallAthletics,FireExposure,FireDice,FireHalving,VehicleVictim,ShockTrigger,ShockTN,ShockPenalty,ZeroMoS,SuffFirstTest,SuffPenaltyIndex,DiseaseIncap,DiseaseSuccess,DiseaseOnset,DiseaseFever,StabBodySign,StabBleedNeeds,StabDeadline,RecoveryQueues,RadTrigger,RadThreshold,RadIllness,RadTreatment,RadOnset,DegFailureAdds,DegFumble,DegFirstTest,DegPeriodUpdate,DegPenalties,DegClock -linecomment -output=harm_options_string.go

// FallSurface is ag.fall_damage.surface.
type FallSurface int

// Landing surfaces.
const (
	FallConcrete     FallSurface = iota // concrete
	FallGrass                           // grass
	FallDirt                            // dirt
	FallSand                            // sand
	FallShallowWater                    // shallow_water
	FallDeepWater                       // deep_water
	FallCrashPads                       // crash_pads
)

// FallDV is ag.fall_damage.opt.dv_per_3m.
type FallDV int

// Values of ag.fall_damage.opt.dv_per_3m.
const (
	FallDVFloor FallDV = iota // floor
	FallDVCeil                // ceil
	FallDVReal                // real
)

// FallCapOrder is ag.fall_damage.opt.cap_order.
type FallCapOrder int

// Values of ag.fall_damage.opt.cap_order.
const (
	FallCapAfter  FallCapOrder = iota // cap_after_reduction
	FallCapBefore                     // cap_before_reduction
)

// FallFeetRule is ag.fall_damage.opt.feet_rule.
type FallFeetRule int

// Values of ag.fall_damage.opt.feet_rule.
const (
	FallFeetGreater FallFeetRule = iota // strictly_greater
	FallFeetAtLeast                     // at_least
)

// FallDamageRoll is ag.fall_damage.opt.damage_roll.
type FallDamageRoll int

// Values of ag.fall_damage.opt.damage_roll.
const (
	FallKeepHighCrit   FallDamageRoll = iota // two_dice_keep_high_with_crit
	FallKeepHighNoCrit                       // two_dice_keep_high_no_crit
	FallSum2d6                               // sum_2d6
)

// FallAthletics is ag.fall_damage.opt.athletics.
type FallAthletics int

// Values of ag.fall_damage.opt.athletics.
const (
	FallAthleticsRolled   FallAthletics = iota // always_rolled
	FallAthleticsOptional                      // optional
)

// FireExposure is ag.fire.exposure and ag.electricity.exposure.
type FireExposure int

// Values of the exposure choices.
const (
	FireFull    FireExposure = iota // full
	FirePartial                     // partial
)

// FireDice is ag.fire.opt.dice.
type FireDice int

// Values of ag.fire.opt.dice.
const (
	FireKeepHigh2 FireDice = iota // keep_high_2
	FireSum2d6                    // sum_2d6
)

// FireHalving is ag.fire.opt.halving_stack.
type FireHalving int

// Values of ag.fire.opt.halving_stack.
const (
	FireHalvingMultiply FireHalving = iota // multiply
	FireHalvingOnce                        // once
)

// VehicleVictim is ag.fire_vehicle.victim.
type VehicleVictim int

// Values of ag.fire_vehicle.victim.
const (
	VictimVehicle   VehicleVictim = iota // vehicle
	VictimOccupants                      // occupants
)

// ShockTrigger is ag.electricity.opt.test_trigger.
type ShockTrigger int

// Values of ag.electricity.opt.test_trigger.
const (
	ShockAnyWound ShockTrigger = iota // any_wound
	ShockAlways                       // always
)

// ShockTN is ag.electricity.opt.tn_dv.
type ShockTN int

// Values of ag.electricity.opt.tn_dv.
const (
	ShockTNEffective ShockTN = iota // effective
	ShockTNListed                   // listed
)

// ShockPenalty is ag.electricity.opt.wound_penalty_in_test.
type ShockPenalty int

// Values of ag.electricity.opt.wound_penalty_in_test.
const (
	ShockPenaltyYes ShockPenalty = iota // yes
	ShockPenaltyNo                      // no
)

// ZeroMoS is the single-valued tie switch of ag.suffocation,
// ag.radiation and ag.wound_degeneration: MoS 0 fails.
type ZeroMoS int

// The one value.
const (
	ZeroMoSFails ZeroMoS = iota // failure
)

// SuffFirstTest is ag.suffocation.opt.first_test.
type SuffFirstTest int

// Values of ag.suffocation.opt.first_test.
const (
	SuffFirst90s  SuffFirstTest = iota // 90s
	SuffFirst150s                      // 150s
)

// SuffPenaltyIndex is ag.suffocation.opt.penalty_index.
type SuffPenaltyIndex int

// Values of ag.suffocation.opt.penalty_index.
const (
	SuffJMinus1 SuffPenaltyIndex = iota // j_minus_1
	SuffJ                               // j
)

// DiseaseIncap is ag.disease.opt.incap_days.
type DiseaseIncap int

// Values of ag.disease.opt.incap_days.
const (
	IncapAbsPlus6    DiseaseIncap = iota // abs_mos_plus_6
	IncapSignedPlus6                     // signed_mos_plus_6
	IncapMinusMinus4                     // minus_mos_minus_4
)

// DiseaseSuccess is ag.disease.opt.success_effect.
type DiseaseSuccess int

// Values of ag.disease.opt.success_effect.
const (
	DiseaseTableApplies DiseaseSuccess = iota // table_applies
	DiseaseImmune                             // success_immune
)

// DiseaseOnset is ag.disease.opt.onset_divisor.
type DiseaseOnset int

// The one value of ag.disease.opt.onset_divisor.
const (
	OnsetAbsMoSMin1 DiseaseOnset = iota // abs_mos_min_1
)

// DiseaseFever is ag.disease.opt.fever_day_count.
type DiseaseFever int

// Values of ag.disease.opt.fever_day_count.
const (
	Fever7Rolls DiseaseFever = iota // 7_rolls
	Fever6Rolls                     // 6_rolls
)

// StabBodySign is ag.stabilize.opt.body_sign.
type StabBodySign int

// Values of ag.stabilize.opt.body_sign.
const (
	StabPlusBody  StabBodySign = iota // plus_body
	StabMinusBody                     // minus_body
)

// StabBleedNeeds is ag.stabilize.opt.bleed_out_needs.
type StabBleedNeeds int

// Values of ag.stabilize.opt.bleed_out_needs.
const (
	StabOneSuccess StabBleedNeeds = iota // one_success
	StabAllWounds                        // all_wounds
)

// StabDeadline is ag.stabilize.opt.deadline_attempts.
type StabDeadline int

// Values of ag.stabilize.opt.deadline_attempts.
const (
	StabDeadline2 StabDeadline = iota // 2
	StabDeadline1                     // 1
)

// RecoveryQueues is ag.recovery.opt.queues.
type RecoveryQueues int

// Values of ag.recovery.opt.queues.
const (
	QueuesParallel RecoveryQueues = iota // bruises_and_wounds_in_parallel
	QueuesSingle                         // single_queue
)

// RadTrigger is ag.radiation.opt.trigger.
type RadTrigger int

// Values of ag.radiation.opt.trigger.
const (
	RadDailyIfIncreased RadTrigger = iota // daily_if_increased
	RadBandCrossing                       // band_crossing_only
)

// RadThreshold is ag.radiation.opt.threshold.
type RadThreshold int

// Values of ag.radiation.opt.threshold.
const (
	RadAtLeast7 RadThreshold = iota // at_least_7
	RadAbove7                       // above_7
)

// RadIllness is ag.radiation.opt.illness_stack.
type RadIllness int

// Values of ag.radiation.opt.illness_stack.
const (
	RadWorstOnly  RadIllness = iota // worst_only
	RadAccumulate                   // accumulate_penalties
)

// RadTreatment is ag.radiation.opt.treatment.
type RadTreatment int

// Values of ag.radiation.opt.treatment.
const (
	RadBonusOnTest  RadTreatment = iota // bonus_on_test
	RadBonusOnLater                     // bonus_on_later_tests
)

// RadOnset is ag.radiation.opt.penalty_onset.
type RadOnset int

// Values of ag.radiation.opt.penalty_onset.
const (
	RadOnsetTestHours RadOnset = iota // test_result_hours
	RadOnsetImmediate                 // immediate
)

// DegFailureAdds is ag.wound_degeneration.opt.failure_adds.
type DegFailureAdds int

// Values of ag.wound_degeneration.opt.failure_adds.
const (
	DegAddsFlesh    DegFailureAdds = iota // flesh
	DegAddsSameType                       // same_type
)

// DegFumble is ag.wound_degeneration.opt.fumble.
type DegFumble int

// Values of ag.wound_degeneration.opt.fumble.
const (
	DegDeepInstead    DegFumble = iota // deep_instead
	DegDeepInAddition                  // deep_in_addition
)

// DegFirstTest is ag.wound_degeneration.opt.first_test.
type DegFirstTest int

// Values of ag.wound_degeneration.opt.first_test.
const (
	DegAfterOnePeriod DegFirstTest = iota // after_one_period
	DegImmediately                        // immediately
)

// DegPeriodUpdate is ag.wound_degeneration.opt.period_update.
type DegPeriodUpdate int

// Values of ag.wound_degeneration.opt.period_update.
const (
	DegAtNextTest DegPeriodUpdate = iota // at_next_test
	DegOnChange                          // immediately_on_change
)

// DegPenalties is ag.wound_degeneration.opt.penalties.
type DegPenalties int

// Values of ag.wound_degeneration.opt.penalties.
const (
	DegPenaltiesOn  DegPenalties = iota // on
	DegPenaltiesOff                     // off
)

// DegClock is ag.wound_degeneration.opt.clock.
type DegClock int

// Values of ag.wound_degeneration.opt.clock.
const (
	DegDeterministic DegClock = iota // deterministic
	DegExponential                   // exponential
)
