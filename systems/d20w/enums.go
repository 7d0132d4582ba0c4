package d20w

//go:generate go tool stringer -type=Pairing,NPCSaves,CritNeedsHit,PvPCritSource,NPCPair,Heroic,OACanCrit,Policy,Weapon,TrackValues,TrackCap,MajorPlusMinor,SameSource,BabIsBcb,DefenderNaturals,Manoeuvre,Stance,StanceMax,Task -linecomment -output=enums_string.go

// The typed options and choices of the d20w mechanics beyond
// d20w.core.check. The name after // is the value as it is set and as
// docs/mechanics.md lists it (the page's word where it gives one); the
// first constant of a type is not always the default: each declaration
// lists its default first.

// Pairing says who acts against whom: a player character rolls its d20, a
// non-player character never rolls and counts as a 10 (take 10).
type Pairing int

// Pairings, actor first.
const (
	PCvsNPC  Pairing = iota // pc_npc
	NPCvsPC                 // npc_pc
	PCvsPC                  // pc_pc
	NPCvsNPC                // npc_npc
)

// actorRolls reports whether the acting side rolls a d20.
func (p Pairing) actorRolls() bool { return p == PCvsNPC || p == PCvsPC }

// targetRolls reports whether the opposing side rolls a d20.
func (p Pairing) targetRolls() bool { return p == NPCvsPC || p == PCvsPC }

// NPCSaves is d20w.core.opt.npc_saves: whether an NPC rolls its saving
// throws (the page lists only attack, defence and manoeuvres as take-10).
type NPCSaves int

// Values of d20w.core.opt.npc_saves.
const (
	NPCSavesRoll   NPCSaves = iota // roll
	NPCSavesTake10                 // take_10
)

// CritNeedsHit is d20w.attack.opt.crit_needs_hit.
type CritNeedsHit int

// Values of d20w.attack.opt.crit_needs_hit.
const (
	CritNeedsHitYes CritNeedsHit = iota // yes
	CritAutoHit                         // auto_hit
)

// PvPCritSource is d20w.attack.opt.pvp_crit_source.
type PvPCritSource int

// Values of d20w.attack.opt.pvp_crit_source.
const (
	CritSourceAttacker PvPCritSource = iota // attacker_natural
	CritSourceEither                        // either
)

// NPCPair is d20w.attack.opt.npc_vs_npc.
type NPCPair int

// Values of d20w.attack.opt.npc_vs_npc.
const (
	NPCDeterministic NPCPair = iota // deterministic
	NPCBothRoll                     // both_roll
)

// Heroic is the d20w.attack.heroic choice: whether the defender has heroic
// class levels (and adds its BCB to Defence).
type Heroic int

// Values of d20w.attack.heroic.
const (
	HeroicNo  Heroic = iota // no
	HeroicYes               // yes
)

// OACanCrit is d20w.crit_choice.opt.oa_can_crit.
type OACanCrit int

// Values of d20w.crit_choice.opt.oa_can_crit.
const (
	OACanCritYes OACanCrit = iota // yes
	OACanCritNo                   // no
)

// Policy is d20w.crit_choice.opt.policy: what the attacker takes on a
// critical hit.
type Policy int

// Values of d20w.crit_choice.opt.policy.
const (
	PolicyOAFirst        Policy = iota // oa_first
	PolicyCrippleFirst                 // cripple_first
	PolicyManoeuvreFirst               // manoeuvre_first
)

// Weapon is the d20w.crit_choice.weapon choice: no opportunity attack with
// a ranged weapon.
type Weapon int

// Values of d20w.crit_choice.weapon.
const (
	WeaponMelee  Weapon = iota // melee
	WeaponRanged               // ranged
)

// TrackValues is d20w.modtrack.opt.values: the numbers of the Minor, Major
// and Extreme steps.
type TrackValues int

// Values of d20w.modtrack.opt.values.
const (
	ValuesDoubling        TrackValues = iota // doubling
	ValuesD20Circumstance                    // d20_circumstance
	ValuesCustom                             // custom
)

// TrackCap is d20w.modtrack.opt.cap.
type TrackCap int

// Values of d20w.modtrack.opt.cap.
const (
	CapExtreme TrackCap = iota // extreme
	CapOpen                    // open
)

// MajorPlusMinor is d20w.modtrack.opt.major_plus_minor: the value of 3
// net points.
type MajorPlusMinor int

// Values of d20w.modtrack.opt.major_plus_minor.
const (
	ThreePointsMajor       MajorPlusMinor = iota // major
	ThreePointsInterpolate                       // interpolate
)

// SameSource is d20w.modtrack.opt.same_source: whether modifiers from one
// source combine (the page: "usually not").
type SameSource int

// Values of d20w.modtrack.opt.same_source.
const (
	SameSourceKeepLargest SameSource = iota // keep_largest
	SameSourceStack                         // stack
)

// BabIsBcb is d20w.cm.opt.bab_is_bcb.
type BabIsBcb int

// Values of d20w.cm.opt.bab_is_bcb.
const (
	BabIsBcbYes BabIsBcb = iota // yes
	BabIsBcbNo                  // no
)

// DefenderNaturals is d20w.cm.opt.defender_naturals.
type DefenderNaturals int

// Values of d20w.cm.opt.defender_naturals.
const (
	DefenderMirror DefenderNaturals = iota // mirror
	DefenderNone                           // none
)

// Manoeuvre is the d20w.cm.manoeuvre choice: escaping bonds gets no
// automatic success on a natural 20.
type Manoeuvre int

// Values of d20w.cm.manoeuvre.
const (
	ManoeuvreStandard    Manoeuvre = iota // standard
	ManoeuvreEscapeBonds                  // escape_bonds
)

// Stance is the d20w.stance.stance choice: which roll gets the bonus and
// which the equal penalty.
type Stance int

// Stances (the page names four; the others are the remaining pairs and the
// combination it gives as an example).
const (
	StanceAggressive         Stance = iota // aggressive
	StanceDefensive                        // defensive
	StancePrecision                        // precision
	StanceReckless                         // reckless
	StancePower                            // power
	StanceGuarded                          // guarded
	StanceAggressiveReckless               // aggressive_reckless
	StanceNeutral                          // neutral
)

// shifts are the multiples of s a stance adds to attack, defence and
// damage.
func (s Stance) shifts() (attack, defence, damage int) {
	switch s {
	case StanceAggressive:
		return 1, -1, 0
	case StanceDefensive:
		return -1, 1, 0
	case StancePrecision:
		return 1, 0, -1
	case StanceReckless:
		return 0, -1, 1
	case StancePower:
		return -1, 0, 1
	case StanceGuarded:
		return 0, 1, -1
	case StanceAggressiveReckless:
		return 1, -2, 1
	}
	return 0, 0, 0
}

// StanceMax is d20w.stance.opt.max: the largest adjustment a BCB allows
// (the page's table is empty).
type StanceMax int

// Values of d20w.stance.opt.max.
const (
	MaxBCB     StanceMax = iota // bcb
	MaxHalfBCB                  // half_bcb
	MaxCustom                   // custom
)

// Task is the d20w.modtrack.task choice: an Easy task is not rolled unless
// conditions are Extreme.
type Task int

// Values of d20w.modtrack.task.
const (
	TaskRolled Task = iota // rolled
	TaskEasy               // easy
)
