package d20w

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestSystem runs the checks every game system shares
// (mechtest.CheckSystem): the declarations, the coverage of every option
// value, both engines at the defaults and at each extra configuration,
// every parameter at its limits, and random configurations.
func TestSystem(t *testing.T) {
	t.Parallel()
	mechtest.CheckSystem(t, mechtest.System{
		Name:      "d20w",
		Mechanics: Mechanics(),
		Extra:     extraConfigs,
		CheckedElsewhere: map[string]string{
			"d20w.initiative.crowd": "TestCrowdMatchesExact compares it with the exact orderings of four combatants",
		},
	})
}

// extraConfigs are the configurations beyond the defaults that the
// cross-check of the two engines runs: together with the defaults they
// set every value of every option and choice, and the combinations where
// an option only matters beside another.
var extraConfigs = map[string][][]string{
	"d20w.core.check": {{"opt.naturals=all_rolls", "mod=12"}, {"opt.naturals=none", "dc=3"}},
	"d20w.core.opposed": {
		{"pairing=pc_npc", "mod_a=3"}, {"pairing=npc_pc", "mod_o=4", "opt.naturals=all_rolls"}, {"pairing=npc_npc", "mod_a=-1"},
		{"opt.naturals=all_rolls", "mod_a=12"}, {"opt.naturals=none", "pairing=pc_npc", "mod_o=25"},
	},
	"d20w.attack": {
		{"pairing=npc_pc", "threat=2"}, {"pairing=pc_pc", "opt.pvp_crit_source=either", "threat=3"}, {"pairing=npc_npc"},
		{"pairing=npc_npc", "opt.npc_vs_npc=both_roll", "opt.crit_needs_hit=auto_hit", "attack=-2", "defence=10", "threat=4"},
		{"heroic=yes", "opt.naturals=all_rolls", "attack=15"},
		{"pairing=npc_pc", "opt.naturals=all_rolls", "opt.crit_needs_hit=auto_hit", "threat=3", "defence=14"},
		{"opt.naturals=none", "attack=30"},
	},
	"d20w.flatfooted": {
		{"pairing=npc_pc"}, {"opt.npc_saves=take_10", "reflex=5"}, {"pairing=pc_pc", "opt.pvp_crit_source=either", "opt.crit_needs_hit=auto_hit", "threat=3"},
		{"pairing=npc_npc", "opt.npc_vs_npc=both_roll", "opt.naturals=all_rolls"}, {"pairing=npc_npc", "opt.naturals=none", "dex=-2"},
	},
	"d20w.cm": {
		{"pairing=npc_pc"}, {"pairing=npc_pc", "opt.defender_naturals=none", "manoeuvre=escape_bonds", "cmd=-5"},
		{"pairing=pc_pc", "attacker_size=-3", "attacker_dex=3", "defender_size=2"}, {"pairing=npc_npc"},
		{"opt.bab_is_bcb=no", "defender_bab=3", "defender_bcb=5", "cma=10", "margin_width=3"},
		{"opt.naturals=none", "manoeuvre=escape_bonds", "cma=20"}, {"opt.naturals=all_rolls", "pairing=pc_pc"},
	},
	"d20w.modtrack": {
		{"opt.values=d20_circumstance", "major_bonuses=1", "minor_bonuses=1"},
		{"opt.values=custom", "minor_value=1", "major_value=3", "extreme_value=6", "extreme_penalties=1", "minor_penalties=2"},
		{"opt.cap=open", "extreme_bonuses=2"}, {"opt.major_plus_minor=interpolate", "major_bonuses=1", "minor_bonuses=1"},
		{"opt.same_source=stack", "repeated_minor_bonuses=2"}, {"opt.naturals=all_rolls", "mod=20"}, {"opt.naturals=none"},
		{"task=easy"}, {"task=easy", "minor_bonuses=0", "extreme_penalties=1", "mod=8"}, {"task=easy", "minor_bonuses=4"},
		{"task=easy", "opt.easy_rolls=any_extreme", "minor_bonuses=4", "mod=-3"}, {"task=easy", "opt.easy_rolls=any_extreme", "minor_penalties=6"},
	},
	"d20w.initiative": {
		{"combatants=3"}, {"combatants=4"}, {"combatants=4", "mod_a=0", "mod_b=0", "mod_c=0", "mod_d=0"},
		{"combatants=3", "mod_a=5", "mod_b=1", "mod_c=9"},
	},
	"d20w.crit_choice": {
		{"opt.policy=cripple_first"}, {"opt.policy=manoeuvre_first", "threat=5"}, {"opt.oa_can_crit=no", "budget=3", "threat=4"},
		{"weapon=ranged", "threat=3"}, {"budget=4", "threat=5", "attack=12"},
		{"pairing=npc_pc", "opt.npc_saves=take_10", "threat=3", "budget=2"},
		{"pairing=pc_pc", "opt.pvp_crit_source=either", "opt.crit_needs_hit=auto_hit", "threat=3", "opt.policy=manoeuvre_first", "opt.defender_naturals=none"},
		{"pairing=npc_pc", "opt.policy=manoeuvre_first", "threat=5", "opt.defender_naturals=none"},
		{"pairing=npc_npc", "opt.npc_vs_npc=both_roll", "opt.naturals=all_rolls", "threat=2"}, {"pairing=npc_npc"},
		{"opt.naturals=none", "budget=0", "threat=2"},
	},
	"d20w.crippling": {
		{"threat=3"}, {"opt.values=d20_circumstance", "threat=5", "attacks=10"},
		{"opt.values=custom", "opt.cap=open", "opt.major_plus_minor=interpolate", "threat=5", "attacks=12", "save=-5"},
		{"opt.npc_saves=take_10", "threat=4"}, {"pairing=npc_pc", "opt.crit_needs_hit=auto_hit", "threat=4"},
		{"pairing=pc_pc", "opt.pvp_crit_source=either", "threat=3"},
		{"pairing=npc_npc", "opt.npc_vs_npc=both_roll", "opt.naturals=all_rolls", "threat=3"}, {"pairing=npc_npc"},
		{"opt.naturals=none", "attacks=0"},
	},
	"d20w.stance": {
		{"stance=defensive"}, {"stance=precision", "pairing=pc_pc"}, {"stance=reckless", "pairing=npc_pc"}, {"stance=power"},
		{"stance=guarded", "opt.max=half_bcb"}, {"stance=aggressive_reckless", "opt.max=custom", "custom_max=3", "s=3"}, {"stance=neutral"},
	},
}
