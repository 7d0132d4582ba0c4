package ag

//go:generate go tool stringer -type=averagePenalties,assistGroupCounts,assistBeyond32,woundRows,woundRounding,woundStacking,movement,moveBonus,jumpSurface,jumpDirection,initiativeTie,spell,accFailure,accFloor,accTie,accAbandon,accFumble,dispelResist,chaseFumble,winnerBonus,multipleAttackers,hitLocation,criticalLimb,damageType,attackReport,thresholdCompare -linecomment -output=action_options_string.go

// Option value types of the mechanics of acting (skills.go,
// initiative.go, spells.go, progress.go and combat.go). The names after //
// are the option values as they are set and shown; the first constant of
// each type is its default.

// averagePenalties is ag.take_average.opt.penalties.
type averagePenalties int

// Values of ag.take_average.opt.penalties.
const (
	averagePenaltiesIgnored averagePenalties = iota // ignored
	averagePenaltiesApplied                         // applied
)

// assistGroupCounts is ag.assist.opt.group_counts.
type assistGroupCounts int

// Values of ag.assist.opt.group_counts.
const (
	groupIncludesActor assistGroupCounts = iota // includes_actor
	groupHelpersOnly                            // helpers_only
)

// assistBeyond32 is ag.assist.opt.beyond_32.
type assistBeyond32 int

// Values of ag.assist.opt.beyond_32.
const (
	beyondCap4      assistBeyond32 = iota // cap_4
	beyondExtendLog                       // extend_log
)

// woundRows is ag.wound_penalty.opt.rows: what the seed table's second pair
// of rows means.
type woundRows int

// Values of ag.wound_penalty.opt.rows.
const (
	rowsBruises          woundRows = iota // second_pair_is_bruises
	rowsSubsequentWounds                  // second_pair_is_subsequent_wounds
)

// woundRounding is ag.wound_penalty.opt.rounding.
type woundRounding int

// Values of ag.wound_penalty.opt.rounding.
const (
	woundTruncate    woundRounding = iota // truncate
	woundRoundHalfUp                      // round_half_up
)

// woundStacking is ag.wound_penalty.opt.stacking.
type woundStacking int

// Values of ag.wound_penalty.opt.stacking.
const (
	stackPerWound  woundStacking = iota // per_wound
	stackWorstOnly                      // worst_only
)

// movement is how a character moved this round (ag.jump.movement,
// ag.attack.target_movement).
type movement int

// Movements, in order of speed.
const (
	moveStanding movement = iota // standing
	moveWalk                     // walk
	moveRun                      // run
	moveSprint                   // sprint
)

// movements are the movements in order.
var movements = []movement{moveStanding, moveWalk, moveRun, moveSprint}

// bonus is the movement's defence bonus in an attack (our reading: +0
// standing, +1 walk, +2 run, +3 sprint), or 0 when the move_bonus switch is
// none.
func (m movement) bonus(b moveBonus) int {
	if b == moveBonusNone {
		return 0
	}
	return int(m)
}

// moveBonus is the move_bonus switch of ag.jump and ag.attack.
type moveBonus int

// Values of the move_bonus switches.
const (
	moveBonusSeedReading moveBonus = iota // seed_reading
	moveBonusNone                         // none
)

// jumpSurface is ag.jump.surface.
type jumpSurface int

// Take-off surfaces.
const (
	surfaceStandard jumpSurface = iota // standard
	surfaceRough                       // rough
	surfaceSlippery                    // slippery
	surfaceClimbing                    // climbing
)

// jumpSurfaces are the take-off surfaces in order.
var jumpSurfaces = []jumpSurface{surfaceStandard, surfaceRough, surfaceSlippery, surfaceClimbing}

// tn is the surface's jump TN (docs/mechanics.md#ag-jump): 3, 6, 10, 14.
func (s jumpSurface) tn() int { return [...]int{3, 6, 10, 14}[s] }

// jumpDirection is ag.jump.direction.
type jumpDirection int

// Jump directions.
const (
	jumpHorizontal jumpDirection = iota // horizontal
	jumpVertical                        // vertical
)

// cmPerMoS is the distance one point of MoS buys: 75 cm across, 25 cm up.
func (d jumpDirection) cmPerMoS() int {
	if d == jumpVertical {
		return 25
	}
	return 75
}

// initiativeTie is ag.initiative.opt.tie.
type initiativeTie int

// Values of ag.initiative.opt.tie.
const (
	initiativeCoin         initiativeTie = iota // coin
	initiativeReroll                            // reroll
	initiativeSimultaneous                      // simultaneous
)

// spell is a fixed-TN spell (ag.magic.tn_spell.spell,
// ag.magic.info_level.spell).
type spell int

// The fixed-TN spells.
const (
	spellEntropomancy  spell = iota // entropomancy
	spellShield                     // shield
	spellWard                       // ward
	spellRemoteViewing              // remote_viewing
	spellScrying                    // scrying
	spellInvocate                   // invocate
	spellSummon                     // summon
	spellBolster                    // bolster
	spellHeal                       // heal
)

// tn is the spell's fixed TN (docs/mechanics.md#ag-magic-tn_spell).
func (s spell) tn() int { return [...]int{5, 3, 4, 5, 3, 5, 5, 5, 1}[s] }

// accFailure is ag.accumulated.opt.failure.
type accFailure int

// Values of ag.accumulated.opt.failure.
const (
	accSubtractMoS accFailure = iota // subtract_mos
	accSubtractOne                   // subtract_one
	accNoLoss                        // no_loss
)

// accFloor is ag.accumulated.opt.floor.
type accFloor int

// Values of ag.accumulated.opt.floor.
const (
	accFloorZero accFloor = iota // zero
	accFloorNone                 // none
)

// accTie is ag.accumulated.opt.tie.
type accTie int

// Values of ag.accumulated.opt.tie.
const (
	accTieZero        accTie = iota // zero
	accTieCostPlusOne               // cost_plus_one
)

// accAbandon is ag.accumulated.opt.abandon.
type accAbandon int

// Values of ag.accumulated.opt.abandon.
const (
	accAbandonNever    accAbandon = iota // never
	accAbandonAtMinusQ                   // at_minus_Q
)

// accFumble is ag.accumulated.opt.fumble.
type accFumble int

// Values of ag.accumulated.opt.fumble.
const (
	accFumbleNone  accFumble = iota // none
	accFumbleReset                  // reset
)

// dispelResist is ag.magic.dispel.opt.resist_roll.
type dispelResist int

// Values of ag.magic.dispel.opt.resist_roll.
const (
	resistPsycheRoll dispelResist = iota // psyche_attribute_roll
	resistFixedTN                        // fixed_psyche_tn
)

// chaseFumble is ag.chase.opt.fumble.
type chaseFumble int

// Values of ag.chase.opt.fumble.
const (
	chaseFumbleSpeedPlusResult chaseFumble = iota // speed_plus_result_minus_d6
	chaseFumbleSpeedOnly                          // speed_minus_d6
)

// winnerBonus is ag.chase_obstacle.opt.winner_bonus.
type winnerBonus int

// Values of ag.chase_obstacle.opt.winner_bonus.
const (
	winnerOwnMoS        winnerBonus = iota // own_mos_vs_obstacle
	winnerOpposedMargin                    // opposed_margin
)

// multipleAttackers is ag.attack.opt.multiple_attackers.
type multipleAttackers int

// Values of ag.attack.opt.multiple_attackers.
const (
	multipleSeedRule      multipleAttackers = iota // seed_special_rule
	multipleModifierTable                          // modifier_table
)

// hitLocation is the location choice of ag.attack_damage and ag.magic.harm.
type hitLocation int

// Hit locations.
const (
	locationBody hitLocation = iota // body
	locationHead                    // head
	locationLimb                    // limb
)

// criticalLimb is ag.attack_damage.opt.critical_limb.
type criticalLimb int

// Values of ag.attack_damage.opt.critical_limb.
const (
	limbSeverNoDeath criticalLimb = iota // sever_no_death
	limbDeath                            // death
)

// damageType is the damage_type choice of ag.attack_damage and
// ag.magic.harm.
type damageType int

// Damage types.
const (
	damageWounds  damageType = iota // wounds
	damageBruises                   // bruises
)

// attackReport is the report choice of ag.attack_damage and ag.magic.harm.
type attackReport int

// Reports.
const (
	reportSingleAttack       attackReport = iota // single_attack
	reportUntilIncapacitated                     // until_incapacitated
)

// thresholdCompare is ag.attack_damage.opt.threshold_compare.
type thresholdCompare int

// Values of ag.attack_damage.opt.threshold_compare.
const (
	compareAtLeast     thresholdCompare = iota // at_least
	compareGreaterThan                         // greater_than
)
