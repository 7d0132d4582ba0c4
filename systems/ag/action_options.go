package ag

//go:generate go tool stringer -type=AveragePenalties,AssistGroupCounts,AssistBeyond32,WoundRows,WoundRounding,WoundStacking,Movement,MoveBonus,JumpSurface,JumpDirection,InitiativeTie,Spell,AccFailure,AccFloor,AccTie,AccAbandon,AccFumble,DispelResist,ChaseFumble,WinnerBonus,MultipleAttackers,HitLocation,CriticalLimb,DamageType,AttackReport,ThresholdCompare -linecomment -output=action_options_string.go

// The typed options of the mechanics of tests.go, progress.go and combat.go.
// The names after // are the option values as they are set and shown.

// AveragePenalties is ag.take_average.opt.penalties.
type AveragePenalties int

// Values of ag.take_average.opt.penalties.
const (
	AveragePenaltiesIgnored AveragePenalties = iota // ignored
	AveragePenaltiesApplied                         // applied
)

// AssistGroupCounts is ag.assist.opt.group_counts.
type AssistGroupCounts int

// Values of ag.assist.opt.group_counts.
const (
	GroupIncludesActor AssistGroupCounts = iota // includes_actor
	GroupHelpersOnly                            // helpers_only
)

// AssistBeyond32 is ag.assist.opt.beyond_32.
type AssistBeyond32 int

// Values of ag.assist.opt.beyond_32.
const (
	BeyondCap4      AssistBeyond32 = iota // cap_4
	BeyondExtendLog                       // extend_log
)

// WoundRows is ag.wound_penalty.opt.rows: what the seed table's second pair
// of rows means.
type WoundRows int

// Values of ag.wound_penalty.opt.rows.
const (
	RowsBruises          WoundRows = iota // second_pair_is_bruises
	RowsSubsequentWounds                  // second_pair_is_subsequent_wounds
)

// WoundRounding is ag.wound_penalty.opt.rounding.
type WoundRounding int

// Values of ag.wound_penalty.opt.rounding.
const (
	WoundTruncate    WoundRounding = iota // truncate
	WoundRoundHalfUp                      // round_half_up
)

// WoundStacking is ag.wound_penalty.opt.stacking.
type WoundStacking int

// Values of ag.wound_penalty.opt.stacking.
const (
	StackPerWound  WoundStacking = iota // per_wound
	StackWorstOnly                      // worst_only
)

// Movement is how a character moved this round (ag.jump.movement,
// ag.attack.target_movement).
type Movement int

// Movements, in order of speed.
const (
	MoveStanding Movement = iota // standing
	MoveWalk                     // walk
	MoveRun                      // run
	MoveSprint                   // sprint
)

// Bonus is the movement's defence bonus in an attack (our reading: +0
// standing, +1 walk, +2 run, +3 sprint), or 0 when the move_bonus switch is
// none.
func (m Movement) Bonus(b MoveBonus) int {
	if b == MoveBonusNone {
		return 0
	}
	return int(m)
}

// MoveBonus is the move_bonus switch of ag.jump and ag.attack.
type MoveBonus int

// Values of the move_bonus switches.
const (
	MoveBonusSeedReading MoveBonus = iota // seed_reading
	MoveBonusNone                         // none
)

// JumpSurface is ag.jump.surface.
type JumpSurface int

// Take-off surfaces.
const (
	SurfaceStandard JumpSurface = iota // standard
	SurfaceRough                       // rough
	SurfaceSlippery                    // slippery
	SurfaceClimbing                    // climbing
)

// TN is the surface's jump TN (docs/mechanics.md#ag-jump): 3, 6, 10, 14.
func (s JumpSurface) TN() int { return [...]int{3, 6, 10, 14}[s] }

// JumpDirection is ag.jump.direction.
type JumpDirection int

// Jump directions.
const (
	JumpHorizontal JumpDirection = iota // horizontal
	JumpVertical                        // vertical
)

// CmPerMoS is the distance one point of MoS buys: 75 cm across, 25 cm up.
func (d JumpDirection) CmPerMoS() int {
	if d == JumpVertical {
		return 25
	}
	return 75
}

// InitiativeTie is ag.initiative.opt.tie.
type InitiativeTie int

// Values of ag.initiative.opt.tie.
const (
	InitiativeCoin         InitiativeTie = iota // coin
	InitiativeReroll                            // reroll
	InitiativeSimultaneous                      // simultaneous
)

// Spell is a fixed-TN spell (ag.magic.tn_spell.spell,
// ag.magic.info_level.spell).
type Spell int

// The fixed-TN spells.
const (
	SpellEntropomancy  Spell = iota // entropomancy
	SpellShield                     // shield
	SpellWard                       // ward
	SpellRemoteViewing              // remote_viewing
	SpellScrying                    // scrying
	SpellInvocate                   // invocate
	SpellSummon                     // summon
	SpellBolster                    // bolster
	SpellHeal                       // heal
)

// TN is the spell's fixed TN (docs/mechanics.md#ag-magic-tn_spell).
func (s Spell) TN() int { return [...]int{5, 3, 4, 5, 3, 5, 5, 5, 1}[s] }

// AccFailure is ag.accumulated.opt.failure.
type AccFailure int

// Values of ag.accumulated.opt.failure.
const (
	AccSubtractMoS AccFailure = iota // subtract_mos
	AccSubtractOne                   // subtract_one
	AccNoLoss                        // no_loss
)

// AccFloor is ag.accumulated.opt.floor.
type AccFloor int

// Values of ag.accumulated.opt.floor.
const (
	AccFloorZero AccFloor = iota // zero
	AccFloorNone                 // none
)

// AccTie is ag.accumulated.opt.tie.
type AccTie int

// Values of ag.accumulated.opt.tie.
const (
	AccTieZero        AccTie = iota // zero
	AccTieCostPlusOne               // cost_plus_one
)

// AccAbandon is ag.accumulated.opt.abandon.
type AccAbandon int

// Values of ag.accumulated.opt.abandon.
const (
	AccAbandonNever    AccAbandon = iota // never
	AccAbandonAtMinusQ                   // at_minus_Q
)

// AccFumble is ag.accumulated.opt.fumble.
type AccFumble int

// Values of ag.accumulated.opt.fumble.
const (
	AccFumbleNone  AccFumble = iota // none
	AccFumbleReset                  // reset
)

// DispelResist is ag.magic.dispel.opt.resist_roll.
type DispelResist int

// Values of ag.magic.dispel.opt.resist_roll.
const (
	ResistPsycheRoll DispelResist = iota // psyche_attribute_roll
	ResistFixedTN                        // fixed_psyche_tn
)

// ChaseFumble is ag.chase.opt.fumble.
type ChaseFumble int

// Values of ag.chase.opt.fumble.
const (
	ChaseFumbleSpeedPlusResult ChaseFumble = iota // speed_plus_result_minus_d6
	ChaseFumbleSpeedOnly                          // speed_minus_d6
)

// WinnerBonus is ag.chase_obstacle.opt.winner_bonus.
type WinnerBonus int

// Values of ag.chase_obstacle.opt.winner_bonus.
const (
	WinnerOwnMoS        WinnerBonus = iota // own_mos_vs_obstacle
	WinnerOpposedMargin                    // opposed_margin
)

// MultipleAttackers is ag.attack.opt.multiple_attackers.
type MultipleAttackers int

// Values of ag.attack.opt.multiple_attackers.
const (
	MultipleSeedRule      MultipleAttackers = iota // seed_special_rule
	MultipleModifierTable                          // modifier_table
)

// HitLocation is the location choice of ag.attack_damage and ag.magic.harm.
type HitLocation int

// Hit locations.
const (
	LocationBody HitLocation = iota // body
	LocationHead                    // head
	LocationLimb                    // limb
)

// CriticalLimb is ag.attack_damage.opt.critical_limb.
type CriticalLimb int

// Values of ag.attack_damage.opt.critical_limb.
const (
	LimbSeverNoDeath CriticalLimb = iota // sever_no_death
	LimbDeath                            // death
)

// DamageType is the damage_type choice of ag.attack_damage and
// ag.magic.harm.
type DamageType int

// Damage types.
const (
	DamageWounds  DamageType = iota // wounds
	DamageBruises                   // bruises
)

// AttackReport is the report choice of ag.attack_damage and ag.magic.harm.
type AttackReport int

// Reports.
const (
	ReportSingleAttack       AttackReport = iota // single_attack
	ReportUntilIncapacitated                     // until_incapacitated
)

// ThresholdCompare is ag.attack_damage.opt.threshold_compare.
type ThresholdCompare int

// Values of ag.attack_damage.opt.threshold_compare.
const (
	CompareAtLeast     ThresholdCompare = iota // at_least
	CompareGreaterThan                         // greater_than
)
