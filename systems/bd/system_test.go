package bd

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestSystem runs the checks every game system shares: declarations and
// docs, option coverage, both engines at the defaults and at extraConfigs
// (bd.skirmish, simulated only, must simulate cleanly), every parameter at
// its limits and random configurations.
func TestSystem(t *testing.T) {
	mechtest.CheckSystem(t, mechtest.System{Name: "bd", Mechanics: Mechanics(), Extra: extraConfigs,
		CheckedElsewhere: map[string]string{
			"bd.skirmish": "TestSkirmishAgreesWithTrack: with Vigor to spare, or no reactions, its mean attacks to shock is bd.track's exact one",
		}})
}

// extraConfigs are the settings beyond the defaults that the cross-check
// also runs; with the defaults they set every value of every option.
// bd.track and bd.skirmish simulate slowly (each trial follows a chain of
// attacks), so they have few: bd.skirmish one, with every option's other
// value.
var extraConfigs = map[string][][]string{
	"bd.core.burst": {{"rank=4"}, {"rank=20", "challenges=1"}, {"opt.wounded_cancellable=no", "wounded=1", "charges=3", "rank=12"}},
	"bd.core.check": {{"opt.vs_compare=greater_than", "k=3", "vs=25"}, {"opt.above_d20=extra_die", "charges=4", "k=1", "vs=40"},
		{"opt.wounded_cancellable=no", "wounded=1", "charges=2"}, {"k=0", "vs=15"}},
	"bd.check": {{"visibility=reduced"}, {"visibility=low", "overwatch=1"}, {"visibility=zero", "opt.vs_compare=greater_than", "rank=6"},
		{"opt.above_d20=extra_die", "charges=3", "k=1"}, {"opt.wounded_cancellable=no", "wounded=1"},
		{"opt.above_d20=extra_die", "opt.wounded_cancellable=no", "wounded=1", "charges=3", "rank=20", "k=1", "vs=45"}},
	"bd.attack": {{"size_a=colossal", "size_t=tiny"}, {"size_a=huge", "size_t=small", "cover=light"},
		{"size_a=massive", "size_t=large", "cover=partial", "behind_unaware=1"}, {"size_a=small", "size_t=huge", "cover=full", "prone=1"},
		{"size_a=tiny", "size_t=massive", "off_hand=1", "opt.above_d20=extra_die", "charges=5"},
		{"size_a=large", "size_t=colossal", "opt.wounded_cancellable=no", "wounded=1"}},
	"bd.defense": {{"opt.decide_after_roll=no"}, {"prone_d=1", "k_d=5", "wounded_d=1"}, {"opt.above_d20=extra_die", "charges=3", "k=1", "rank_d=6"},
		{"opt.wounded_cancellable=no", "wounded=1", "charges_d=1", "challenges_d=2"}},
	"bd.damage": {{"k_b=3"}, {"opt.weapon_dice_burst=yes", "dv=2", "quality=6"}, {"unarmed=1"}, {"unarmed=1", "opt.feeble_die=d6"},
		{"opt.above_d20=extra_die", "charges=3"}, {"opt.wounded_cancellable=no", "wounded=1", "off_hand=1"}},
	"bd.armor": {{"cover=partial", "opt.minimum=one", "ar=8"}, {"cover=full", "damage_type=energy"}, {"cover=light", "quality=20", "armor_quality=8"},
		{"cover=full", "quality=20", "armor_quality=8", "damage_type=energy"}, {"cover=partial", "quality=12", "armor_quality=4", "opt.ignored_armor=worn_and_cover"},
		{"durability_quality=12", "quality=10"}, {"opt.weapon_dice_burst=yes"}, {"opt.above_d20=extra_die", "charges=2", "rank=20"},
		{"opt.wounded_cancellable=no", "wounded=1"}},
	"bd.track": {{"opt.overflow=lost"}, {"opt.weapon_dice_burst=yes", "react=0", "ar=2"}, {"durability=8", "health=5", "attacks=3", "rounds=5"}},
	"bd.vigor": {{"opt.spend_below_cost=allowed_to_zero", "vigor=12"}, {"opt.decide_after_roll=no", "stamina=20"},
		{"opt.above_d20=extra_die", "charges=3", "attacks=3"}, {"opt.wounded_cancellable=no", "wounded=1", "defend=1"}},
	"bd.shock_and_aid": {{"opt.vs_compare=greater_than", "attempts=2", "stamina=3"}, {"opt.above_d20=extra_die", "charges=3", "k=1"},
		{"opt.wounded_cancellable=no", "wounded=1", "attempts=0"}},
	"bd.skirmish": {{"opt.overflow=lost", "opt.decide_after_roll=no", "opt.spend_below_cost=allowed_to_zero", "opt.weapon_dice_burst=yes",
		"vigor=12", "reserve=2", "defend=1"}},
}
