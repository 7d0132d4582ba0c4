package ag

// Option value types of the mechanics of harm (hazards, injury over time,
// radiation, wound degeneration). The names after // are the option values
// as they are set and shown; the first constant of each type is its default.

//go:generate go tool stringer -type=fallSurface,fallDVSteps,fallCapOrder,fallFeetRule,fallDamageRoll,fallAthletics,fireExposure,fireDice,fireHalving,vehicleVictim,shockTrigger,shockTN,shockPenalty,zeroMoS,suffFirstTest,suffPenaltyIndex,diseaseIncap,diseaseSuccess,diseaseOnset,diseaseFever,stabBodySign,stabBleedNeeds,stabDeadline,recoveryQueues,radTrigger,radThreshold,radIllness,radTreatment,radOnset,degFailureAdds,degFumble,degFirstTest,degPeriodUpdate,degPenalties,degClock -linecomment -output=harm_options_string.go

// fallSurface is ag.fall_damage.surface.
type fallSurface int

// Landing surfaces.
const (
	fallConcrete     fallSurface = iota // concrete
	fallGrass                           // grass
	fallDirt                            // dirt
	fallSand                            // sand
	fallShallowWater                    // shallow_water
	fallDeepWater                       // deep_water
	fallCrashPads                       // crash_pads
)

// fallDVSteps is ag.fall_damage.opt.dv_per_3m.
type fallDVSteps int

// Values of ag.fall_damage.opt.dv_per_3m.
const (
	fallDVFloor fallDVSteps = iota // floor
	fallDVCeil                     // ceil
	fallDVReal                     // real
)

// fallCapOrder is ag.fall_damage.opt.cap_order.
type fallCapOrder int

// Values of ag.fall_damage.opt.cap_order.
const (
	fallCapAfter  fallCapOrder = iota // cap_after_reduction
	fallCapBefore                     // cap_before_reduction
)

// fallFeetRule is ag.fall_damage.opt.feet_rule.
type fallFeetRule int

// Values of ag.fall_damage.opt.feet_rule.
const (
	fallFeetGreater fallFeetRule = iota // strictly_greater
	fallFeetAtLeast                     // at_least
)

// fallDamageRoll is ag.fall_damage.opt.damage_roll.
type fallDamageRoll int

// Values of ag.fall_damage.opt.damage_roll.
const (
	fallKeepHighCrit   fallDamageRoll = iota // two_dice_keep_high_with_crit
	fallKeepHighNoCrit                       // two_dice_keep_high_no_crit
	fallSum2d6                               // sum_2d6
)

// fallAthletics is ag.fall_damage.opt.athletics.
type fallAthletics int

// Values of ag.fall_damage.opt.athletics.
const (
	fallAthleticsRolled   fallAthletics = iota // always_rolled
	fallAthleticsOptional                      // optional
)

// fireExposure is ag.fire.exposure and ag.electricity.exposure.
type fireExposure int

// Values of the exposure choices.
const (
	fireFull    fireExposure = iota // full
	firePartial                     // partial
)

// fireDice is ag.fire.opt.dice.
type fireDice int

// Values of ag.fire.opt.dice.
const (
	fireKeepHigh2 fireDice = iota // keep_high_2
	fireSum2d6                    // sum_2d6
)

// fireHalving is ag.fire.opt.halving_stack.
type fireHalving int

// Values of ag.fire.opt.halving_stack.
const (
	fireHalvingMultiply fireHalving = iota // multiply
	fireHalvingOnce                        // once
)

// vehicleVictim is ag.fire_vehicle.victim.
type vehicleVictim int

// Values of ag.fire_vehicle.victim.
const (
	victimVehicle   vehicleVictim = iota // vehicle
	victimOccupants                      // occupants
)

// shockTrigger is ag.electricity.opt.test_trigger.
type shockTrigger int

// Values of ag.electricity.opt.test_trigger.
const (
	shockAnyWound shockTrigger = iota // any_wound
	shockAlways                       // always
)

// shockTN is ag.electricity.opt.tn_dv.
type shockTN int

// Values of ag.electricity.opt.tn_dv.
const (
	shockTNEffective shockTN = iota // effective
	shockTNListed                   // listed
)

// shockPenalty is ag.electricity.opt.wound_penalty_in_test.
type shockPenalty int

// Values of ag.electricity.opt.wound_penalty_in_test.
const (
	shockPenaltyYes shockPenalty = iota // yes
	shockPenaltyNo                      // no
)

// zeroMoS is the single-valued tie switch of ag.suffocation,
// ag.radiation and ag.wound_degeneration: MoS 0 fails.
type zeroMoS int

// The one value.
const (
	zeroMoSFails zeroMoS = iota // failure
)

// suffFirstTest is ag.suffocation.opt.first_test.
type suffFirstTest int

// Values of ag.suffocation.opt.first_test.
const (
	suffFirst90s  suffFirstTest = iota // 90s
	suffFirst150s                      // 150s
)

// suffPenaltyIndex is ag.suffocation.opt.penalty_index.
type suffPenaltyIndex int

// Values of ag.suffocation.opt.penalty_index.
const (
	suffJMinus1 suffPenaltyIndex = iota // j_minus_1
	suffJ                               // j
)

// diseaseIncap is ag.disease.opt.incap_days.
type diseaseIncap int

// Values of ag.disease.opt.incap_days.
const (
	incapAbsPlus6    diseaseIncap = iota // abs_mos_plus_6
	incapSignedPlus6                     // signed_mos_plus_6
	incapMinusMinus4                     // minus_mos_minus_4
)

// diseaseSuccess is ag.disease.opt.success_effect.
type diseaseSuccess int

// Values of ag.disease.opt.success_effect.
const (
	diseaseTableApplies diseaseSuccess = iota // table_applies
	diseaseImmune                             // success_immune
)

// diseaseOnset is ag.disease.opt.onset_divisor.
type diseaseOnset int

// The one value of ag.disease.opt.onset_divisor.
const (
	onsetAbsMoSMin1 diseaseOnset = iota // abs_mos_min_1
)

// diseaseFever is ag.disease.opt.fever_day_count.
type diseaseFever int

// Values of ag.disease.opt.fever_day_count.
const (
	fever7Rolls diseaseFever = iota // 7_rolls
	fever6Rolls                     // 6_rolls
)

// stabBodySign is ag.stabilize.opt.body_sign.
type stabBodySign int

// Values of ag.stabilize.opt.body_sign.
const (
	stabPlusBody  stabBodySign = iota // plus_body
	stabMinusBody                     // minus_body
)

// stabBleedNeeds is ag.stabilize.opt.bleed_out_needs.
type stabBleedNeeds int

// Values of ag.stabilize.opt.bleed_out_needs.
const (
	stabOneSuccess stabBleedNeeds = iota // one_success
	stabAllWounds                        // all_wounds
)

// stabDeadline is ag.stabilize.opt.deadline_attempts.
type stabDeadline int

// Values of ag.stabilize.opt.deadline_attempts.
const (
	stabDeadline2 stabDeadline = iota // 2
	stabDeadline1                     // 1
)

// recoveryQueues is ag.recovery.opt.queues.
type recoveryQueues int

// Values of ag.recovery.opt.queues.
const (
	queuesParallel recoveryQueues = iota // bruises_and_wounds_in_parallel
	queuesSingle                         // single_queue
)

// radTrigger is ag.radiation.opt.trigger.
type radTrigger int

// Values of ag.radiation.opt.trigger.
const (
	radDailyIfIncreased radTrigger = iota // daily_if_increased
	radBandCrossing                       // band_crossing_only
)

// radThreshold is ag.radiation.opt.threshold.
type radThreshold int

// Values of ag.radiation.opt.threshold.
const (
	radAtLeast7 radThreshold = iota // at_least_7
	radAbove7                       // above_7
)

// radIllness is ag.radiation.opt.illness_stack.
type radIllness int

// Values of ag.radiation.opt.illness_stack.
const (
	radWorstOnly  radIllness = iota // worst_only
	radAccumulate                   // accumulate_penalties
)

// radTreatment is ag.radiation.opt.treatment.
type radTreatment int

// Values of ag.radiation.opt.treatment.
const (
	radBonusOnTest  radTreatment = iota // bonus_on_test
	radBonusOnLater                     // bonus_on_later_tests
)

// radOnset is ag.radiation.opt.penalty_onset.
type radOnset int

// Values of ag.radiation.opt.penalty_onset.
const (
	radOnsetTestHours radOnset = iota // test_result_hours
	radOnsetImmediate                 // immediate
)

// degFailureAdds is ag.wound_degeneration.opt.failure_adds.
type degFailureAdds int

// Values of ag.wound_degeneration.opt.failure_adds.
const (
	degAddsFlesh    degFailureAdds = iota // flesh
	degAddsSameType                       // same_type
)

// degFumble is ag.wound_degeneration.opt.fumble.
type degFumble int

// Values of ag.wound_degeneration.opt.fumble.
const (
	degDeepInstead    degFumble = iota // deep_instead
	degDeepInAddition                  // deep_in_addition
)

// degFirstTest is ag.wound_degeneration.opt.first_test.
type degFirstTest int

// Values of ag.wound_degeneration.opt.first_test.
const (
	degAfterOnePeriod degFirstTest = iota // after_one_period
	degImmediately                        // immediately
)

// degPeriodUpdate is ag.wound_degeneration.opt.period_update.
type degPeriodUpdate int

// Values of ag.wound_degeneration.opt.period_update.
const (
	degAtNextTest degPeriodUpdate = iota // at_next_test
	degOnChange                          // immediately_on_change
)

// degPenalties is ag.wound_degeneration.opt.penalties.
type degPenalties int

// Values of ag.wound_degeneration.opt.penalties.
const (
	degPenaltiesOn  degPenalties = iota // on
	degPenaltiesOff                     // off
)

// degClock is ag.wound_degeneration.opt.clock.
type degClock int

// Values of ag.wound_degeneration.opt.clock.
const (
	degDeterministic degClock = iota // deterministic
	degExponential                   // exponential
)
