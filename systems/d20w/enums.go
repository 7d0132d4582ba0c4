package d20w

//go:generate go tool stringer -type=pairing,npcSaves,critNeedsHit,pvpCritSource,npcPair,heroic,oaCanCrit,critPolicy,weapon,trackValues,trackCap,majorPlusMinor,sameSource,babIsBcb,defenderNaturals,manoeuvre,stanceKind,stanceMax,task,easyRolls -linecomment -output=enums_string.go

// The typed options and choices of the d20w mechanics beyond
// d20w.core.check. The name after // is the value as it is set and as
// docs/mechanics.md lists it (the page's word where it gives one); the
// first constant of a type is not always the default: each declaration
// lists its default first.

// pairing says who acts against whom: a player character rolls its d20, a
// non-player character never rolls and counts as a 10 (take 10).
type pairing int

// Pairings, actor first.
const (
	pcVsNPC  pairing = iota // pc_npc
	npcVsPC                 // npc_pc
	pcVsPC                  // pc_pc
	npcVsNPC                // npc_npc
)

// actorRolls reports whether the acting side rolls a d20.
func (p pairing) actorRolls() bool { return p == pcVsNPC || p == pcVsPC }

// targetRolls reports whether the opposing side rolls a d20.
func (p pairing) targetRolls() bool { return p == npcVsPC || p == pcVsPC }

// npcSaves is d20w.core.opt.npc_saves: whether an NPC rolls its saving
// throws (the page lists only attack, defence and manoeuvres as take-10).
type npcSaves int

// Values of d20w.core.opt.npc_saves.
const (
	npcSavesRoll   npcSaves = iota // roll
	npcSavesTake10                 // take_10
)

// critNeedsHit is d20w.attack.opt.crit_needs_hit.
type critNeedsHit int

// Values of d20w.attack.opt.crit_needs_hit.
const (
	critNeedsHitYes critNeedsHit = iota // yes
	critAutoHit                         // auto_hit
)

// pvpCritSource is d20w.attack.opt.pvp_crit_source.
type pvpCritSource int

// Values of d20w.attack.opt.pvp_crit_source.
const (
	critSourceAttacker pvpCritSource = iota // attacker_natural
	critSourceEither                        // either
)

// npcPair is d20w.attack.opt.npc_vs_npc.
type npcPair int

// Values of d20w.attack.opt.npc_vs_npc.
const (
	npcDeterministic npcPair = iota // deterministic
	npcBothRoll                     // both_roll
)

// heroic is the d20w.attack.heroic choice: whether the defender has heroic
// class levels (and adds its BCB to Defence).
type heroic int

// Values of d20w.attack.heroic.
const (
	heroicNo  heroic = iota // no
	heroicYes               // yes
)

// oaCanCrit is d20w.crit_choice.opt.oa_can_crit.
type oaCanCrit int

// Values of d20w.crit_choice.opt.oa_can_crit.
const (
	oaCanCritYes oaCanCrit = iota // yes
	oaCanCritNo                   // no
)

// critPolicy is d20w.crit_choice.opt.policy: what the attacker takes on a
// critical hit.
type critPolicy int

// Values of d20w.crit_choice.opt.policy.
const (
	policyOAFirst        critPolicy = iota // oa_first
	policyCrippleFirst                     // cripple_first
	policyManoeuvreFirst                   // manoeuvre_first
)

// weapon is the d20w.crit_choice.weapon choice: no opportunity attack with
// a ranged weapon.
type weapon int

// Values of d20w.crit_choice.weapon.
const (
	weaponMelee  weapon = iota // melee
	weaponRanged               // ranged
)

// trackValues is d20w.modtrack.opt.values: the numbers of the Minor, Major
// and Extreme steps.
type trackValues int

// Values of d20w.modtrack.opt.values.
const (
	valuesDoubling        trackValues = iota // doubling
	valuesD20Circumstance                    // d20_circumstance
	valuesCustom                             // custom
)

// trackCap is d20w.modtrack.opt.cap.
type trackCap int

// Values of d20w.modtrack.opt.cap.
const (
	capExtreme trackCap = iota // extreme
	capOpen                    // open
)

// majorPlusMinor is d20w.modtrack.opt.major_plus_minor: the value of 3
// net points.
type majorPlusMinor int

// Values of d20w.modtrack.opt.major_plus_minor.
const (
	threePointsMajor       majorPlusMinor = iota // major
	threePointsInterpolate                       // interpolate
)

// sameSource is d20w.modtrack.opt.same_source: whether modifiers from one
// source combine (the page: "usually not").
type sameSource int

// Values of d20w.modtrack.opt.same_source.
const (
	sameSourceKeepLargest sameSource = iota // keep_largest
	sameSourceStack                         // stack
)

// babIsBcb is d20w.cm.opt.bab_is_bcb.
type babIsBcb int

// Values of d20w.cm.opt.bab_is_bcb.
const (
	babIsBcbYes babIsBcb = iota // yes
	babIsBcbNo                  // no
)

// defenderNaturals is d20w.cm.opt.defender_naturals.
type defenderNaturals int

// Values of d20w.cm.opt.defender_naturals.
const (
	defenderMirror defenderNaturals = iota // mirror
	defenderNone                           // none
)

// manoeuvre is the d20w.cm.manoeuvre choice: escaping bonds gets no
// automatic success on a natural 20.
type manoeuvre int

// Values of d20w.cm.manoeuvre.
const (
	manoeuvreStandard    manoeuvre = iota // standard
	manoeuvreEscapeBonds                  // escape_bonds
)

// stanceKind is the d20w.stance.stance choice: which roll gets the bonus and
// which the equal penalty.
type stanceKind int

// Stances (the page names four; the others are the remaining pairs and the
// combination it gives as an example).
const (
	stanceAggressive         stanceKind = iota // aggressive
	stanceDefensive                            // defensive
	stancePrecision                            // precision
	stanceReckless                             // reckless
	stancePower                                // power
	stanceGuarded                              // guarded
	stanceAggressiveReckless                   // aggressive_reckless
	stanceNeutral                              // neutral
)

// shifts are the multiples of s a stance adds to attack, defence and
// damage.
func (s stanceKind) shifts() (attack, defence, damage int) {
	switch s {
	case stanceAggressive:
		return 1, -1, 0
	case stanceDefensive:
		return -1, 1, 0
	case stancePrecision:
		return 1, 0, -1
	case stanceReckless:
		return 0, -1, 1
	case stancePower:
		return -1, 0, 1
	case stanceGuarded:
		return 0, 1, -1
	case stanceAggressiveReckless:
		return 1, -2, 1
	}
	return 0, 0, 0
}

// stanceMax is d20w.stance.opt.max: the largest adjustment a BCB allows
// (the page's table is empty).
type stanceMax int

// Values of d20w.stance.opt.max.
const (
	maxBCB     stanceMax = iota // bcb
	maxHalfBCB                  // half_bcb
	maxCustom                   // custom
)

// task is the d20w.modtrack.task choice: an Easy task is not rolled unless
// conditions are Extreme.
type task int

// Values of d20w.modtrack.task.
const (
	taskRolled task = iota // rolled
	taskEasy               // easy
)

// easyRolls is d20w.modtrack.opt.easy_rolls: which Extreme conditions make
// an Easy task rolled.
type easyRolls int

// Values of d20w.modtrack.opt.easy_rolls.
const (
	easyRollsExtremePenalty easyRolls = iota // extreme_penalty
	easyRollsAnyExtreme                      // any_extreme
)
