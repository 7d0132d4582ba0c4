package grim

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestSystem runs the checks every game system shares: declarations and
// docs, option coverage, both engines at the defaults and at extraConfigs,
// every parameter at its limits and random configurations.
func TestSystem(t *testing.T) {
	mechtest.CheckSystem(t, mechtest.System{Name: "grim", Mechanics: Mechanics(), Extra: extraConfigs})
}

// extraConfigs are the settings beyond the defaults that the cross-check
// also runs; with the defaults they set every value of every option.
var extraConfigs = map[string][][]string{
	"grim.core.check":  {{"attribute=-3", "tn=15"}, {"attribute=10", "tn=5"}},
	"grim.core.attack": {{"attribute=4", "tn=12", "ff_threshold=3"}},
	"grim.pvp":         {{"kind=nonattack"}, {"kind=nonattack", "opt.nonattack_tie=reroll"}, {"opt.naturals=ignore_naturals", "opp_attribute=6"}},
	"grim.assist":      {{"helpers=0"}, {"helpers=4", "helper_attribute=-2", "tn=16"}},
	"grim.damage": {{"weapon=2d8", "armour=3", "target_type=resistant", "opt.resist_rounding=ceil", "opt.min1_after_resist=no"},
		{"weapon=unarmed", "tog=-2", "target_type=weak", "opt.crit_order=after_armour", "armour=2"},
		{"weapon_kind=ranged", "damage_type=other", "target_type=immune"},
		{"weapon=d4", "weapon_kind=thrown"}, {"weapon=d8", "tog=-4"}, {"weapon=2d6", "armour=6", "target_type=weak"},
		{"weapon=d10", "target_type=resistant"}, {"weapon=d12", "opt.crit_order=after_armour", "armour=4"}},
	"grim.light_attacks": {{"cor=6", "weapon=d4", "frenzy=1"}, {"cor=10", "armour=2"},
		{"weapon=d8", "weapon_kind=thrown", "target_type=resistant", "opt.resist_rounding=ceil", "opt.min1_after_resist=no", "armour=3"},
		{"weapon=2d6", "weapon_kind=ranged", "damage_type=other", "target_type=weak", "cor=3"}, {"weapon=d10", "target_type=immune"},
		{"weapon=2d8", "opt.crit_order=after_armour", "cor=5", "frenzy=1"}, {"weapon=d12", "cor=0"}, {"weapon=unarmed", "tog=-3", "cor=7"}},
	"grim.heavy_weapon": {{"tog=1", "requirement=4", "opt.tog_tn=10_plus_deficit", "weapon=2d8"},
		{"weapon=d4", "weapon_kind=thrown", "target_type=weak", "tog=-2"}, {"weapon=d6", "weapon_kind=ranged", "damage_type=other"},
		{"weapon=d8", "target_type=resistant", "opt.resist_rounding=ceil", "opt.min1_after_resist=no", "armour=2"}, {"weapon=2d6", "target_type=immune"},
		{"weapon=d10", "opt.crit_order=after_armour", "armour=3"}, {"weapon=d12", "tog=4"}, {"weapon=unarmed", "requirement=-10"}},
	"grim.friendly_fire": {{"tog=1", "requirement=3", "attacks=3", "allies=2", "candidates=4"},
		{"frenzy=1", "opt.extended_range_naturals=resolve_and_ff", "opt.trigger=gm_probability", "gm_percent=40", "avoid=0"}},
	"grim.shield_block": {{"opt.on_3=no_effect", "die=4", "bonus=6"}, {"agl=-3", "tn=18", "die=6"}},
	"grim.crafting":     {{"extended=1", "opt.extended_applies_to=both_rolls", "mnd=5", "cor=-1"}, {"known=1", "extended=1"}},
	"grim.fall": {{"distance=50", "surface=soft"}, {"distance=20", "surface=water", "opt.half=ceil"}, {"distance=50", "surface=water"},
		{"distance=3", "opt.row=nearest_row"}, {"distance=14", "opt.row=nearest_row"}, {"distance=7", "agl=2", "opt.row=interpolate_dice"},
		{"distance=100", "opt.row=interpolate_dice", "condition=40"}, {"distance=2", "opt.below_4_5m=first_row"}, {"distance=8", "intentional=1"}},
	"grim.burning":  {{"escape_percent=30", "turns=10", "condition=25"}, {"escape_percent=100", "turns=5"}},
	"grim.drowning": {{"opt.escalation=minus_1_per_round", "opt.dying_tick=drowning_only", "mnd=4"}, {"condition=3", "rescue_round=1", "mnd=-2"}},
	"grim.dying": {{"medkit=0"}, {"medkit=0", "attempts=2", "condition=-4"}, {"medkit=0", "opt.knowledge_roll=each_attempt", "attempts=2"},
		{"attempts=2", "helper_cor=6"}},
	"grim.burnout": {{"start_level=2", "resolve_percent=10", "rest_percent=50", "days=60"}},
	"grim.terror":  {{"mnd=-3", "tn=14"}},
	"grim.instability": {{"die=d4", "uses=12"}, {"die=d6", "uses=40"}, {"die=d8"}, {"die=d10"}, {"die=d12", "uses=30"}, {"item=consumable"},
		{"item=consumable", "die=d4"}},
	"grim.splash":  {{"dice=4", "die=10", "agl=-2", "tn=9"}},
	"grim.grapple": {{"grapplers=5", "attribute=6", "grappler_attribute=-1"}},
	"grim.shove":   {{"cor=5", "hit_tn=15", "tog=-1", "tog_tn=9", "target_agl=4", "agl_tn=14"}},
}
