package bd

//go:generate go tool stringer -type=vsCompare,aboveD20,yesNo,feebleDie,visibility,size,coverKind,minimum,overflowRule,spendBelowCost,damageType,ignoredArmor -linecomment -output=enums_string.go

// The option values of the bd mechanics: the name after // is the value
// as the option spells it (in --set and the docs); the declaration of an option lists its
// default first.

// vsCompare is bd.core.opt.vs_compare: how a total meets a victory sum.
type vsCompare int

// Values of bd.core.opt.vs_compare.
const (
	atLeast     vsCompare = iota // at_least
	greaterThan                  // greater_than
)

// aboveD20 is bd.core.opt.above_d20: what a charge past the top rung does.
type aboveD20 int

// Values of bd.core.opt.above_d20.
const (
	aboveCap      aboveD20 = iota // cap
	aboveExtraDie                 // extra_die
)

// yesNo is a yes/no switch (bd.core.opt.wounded_cancellable,
// bd.defense.opt.decide_after_roll, bd.damage.opt.weapon_dice_burst).
type yesNo int

// Yes and no.
const (
	yes yesNo = iota // yes
	no               // no
)

// feebleDie is bd.damage.opt.feeble_die: the die of an untrained unarmed
// attack.
type feebleDie int

// Values of bd.damage.opt.feeble_die.
const (
	feebleD4 feebleDie = iota // d4
	feebleD6                  // d6
)

// sides is the die size.
func (f feebleDie) sides() int { return [...]int{4, 6}[f] }

// visibility is the bd.check.visibility choice: the VS penalty of driving,
// navigation and ranged attacks.
type visibility int

// Visibilities.
const (
	visNormal  visibility = iota // normal
	visReduced                   // reduced
	visLow                       // low
	visZero                      // zero
)

// penalty is the VS increase.
func (v visibility) penalty() int { return 5 * int(v) }

// size is a size category (bd.attack.size_a, bd.attack.size_t).
type size int

// The seven size categories, smallest first.
const (
	tiny     size = iota // tiny
	small                // small
	medium               // medium
	large                // large
	huge                 // huge
	massive              // massive
	colossal             // colossal
)

// sizes lists the categories with the default (medium) first.
var sizes = []size{medium, tiny, small, large, huge, massive, colossal}

// coverKind is the cover choice of bd.attack and bd.armor.
type coverKind int

// Covers.
const (
	coverNone    coverKind = iota // none
	coverLight                    // light
	coverPartial                  // partial
	coverFull                     // full
)

// guard is the guard bonus of the cover against direct ranged attacks.
func (c coverKind) guard() int { return [...]int{0, 10, 3, 5}[c] }

// armorRank is the armour-rank bonus of the cover.
func (c coverKind) armorRank() int { return [...]int{0, 0, 5, 10}[c] }

// minimum is bd.armor.opt.minimum: the least damage a hit that is not
// stopped by immunity does after armour.
type minimum int

// Values of bd.armor.opt.minimum.
const (
	minZero minimum = iota // zero
	minOne                 // one
)

// overflowRule is bd.track.opt.overflow: what becomes of the damage of the hit
// that breaks Durability beyond what was left of it.
type overflowRule int

// Values of bd.track.opt.overflow.
const (
	overflowCarries overflowRule = iota // carries
	overflowLost                        // lost
)

// spendBelowCost is bd.vigor.opt.spend_below_cost.
type spendBelowCost int

// Values of bd.vigor.opt.spend_below_cost.
const (
	forbidden     spendBelowCost = iota // forbidden
	allowedToZero                       // allowed_to_zero
)

// damageType is the bd.armor.damage_type choice: normal armour stops
// physical damage only.
type damageType int

// Damage types.
const (
	physical damageType = iota // physical
	energy                     // energy
)

// ignoredArmor is bd.armor.opt.ignored_armor: what a weapon three or more
// steps above the armour (heroic or better) ignores.
type ignoredArmor int

// Values of bd.armor.opt.ignored_armor.
const (
	ignoresWorn         ignoredArmor = iota // worn
	ignoresWornAndCover                     // worn_and_cover
)
