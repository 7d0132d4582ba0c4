package bd

//go:generate go tool stringer -type=VsCompare,AboveD20,YesNo,FeebleDie,Visibility,Size,Cover,Minimum,Overflow,SpendBelowCost,DamageType -linecomment -output=enums_string.go

// The option values of the bd mechanics: the name after // is the value
// as the option spells it (in --set and the docs); the declaration of an option lists its
// default first.

// VsCompare is bd.core.opt.vs_compare: how a total meets a victory sum.
type VsCompare int

// Values of bd.core.opt.vs_compare.
const (
	AtLeast     VsCompare = iota // at_least
	GreaterThan                  // greater_than
)

// AboveD20 is bd.core.opt.above_d20: what a charge past the top rung does.
type AboveD20 int

// Values of bd.core.opt.above_d20.
const (
	Cap      AboveD20 = iota // cap
	ExtraDie                 // extra_die
)

// YesNo is a yes/no switch (bd.core.opt.wounded_cancellable,
// bd.defense.opt.decide_after_roll, bd.damage.opt.weapon_dice_burst).
type YesNo int

// Yes and no.
const (
	Yes YesNo = iota // yes
	No               // no
)

// FeebleDie is bd.damage.opt.feeble_die: the die of an untrained unarmed
// attack.
type FeebleDie int

// Values of bd.damage.opt.feeble_die.
const (
	FeebleD4 FeebleDie = iota // d4
	FeebleD6                  // d6
)

// Sides is the die size.
func (f FeebleDie) Sides() int { return [...]int{4, 6}[f] }

// Visibility is the bd.check.visibility choice: the VS penalty of driving,
// navigation and ranged attacks.
type Visibility int

// Visibilities.
const (
	VisNormal  Visibility = iota // normal
	VisReduced                   // reduced
	VisLow                       // low
	VisZero                      // zero
)

// Penalty is the VS increase.
func (v Visibility) Penalty() int { return 5 * int(v) }

// Size is a size category (bd.attack.size_a, bd.attack.size_t).
type Size int

// The seven size categories, smallest first.
const (
	Tiny     Size = iota // tiny
	Small                // small
	Medium               // medium
	Large                // large
	Huge                 // huge
	Massive              // massive
	Colossal             // colossal
)

// sizes lists the categories with the default (medium) first.
var sizes = []Size{Medium, Tiny, Small, Large, Huge, Massive, Colossal}

// Cover is the cover choice of bd.attack and bd.armor.
type Cover int

// Covers.
const (
	CoverNone    Cover = iota // none
	CoverLight                // light
	CoverPartial              // partial
	CoverFull                 // full
)

// Guard is the Guard bonus of the cover against direct ranged attacks.
func (c Cover) Guard() int { return [...]int{0, 10, 3, 5}[c] }

// ArmorRank is the armour-rank bonus of the cover.
func (c Cover) ArmorRank() int { return [...]int{0, 0, 5, 10}[c] }

// Minimum is bd.armor.opt.minimum: the least damage a hit that is not
// stopped by immunity does after armour.
type Minimum int

// Values of bd.armor.opt.minimum.
const (
	MinZero Minimum = iota // zero
	MinOne                 // one
)

// Overflow is bd.track.opt.overflow: what becomes of the damage of the hit
// that breaks Durability beyond what was left of it.
type Overflow int

// Values of bd.track.opt.overflow.
const (
	Carries Overflow = iota // carries
	Lost                    // lost
)

// SpendBelowCost is bd.vigor.opt.spend_below_cost.
type SpendBelowCost int

// Values of bd.vigor.opt.spend_below_cost.
const (
	Forbidden     SpendBelowCost = iota // forbidden
	AllowedToZero                       // allowed_to_zero
)

// DamageType is the bd.armor.damage_type choice: normal armour stops
// physical damage only.
type DamageType int

// Damage types.
const (
	Physical DamageType = iota // physical
	Energy                     // energy
)
