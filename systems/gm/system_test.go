package gm

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestSystem is the shared test of a game system (mechtest.CheckSystem):
// declarations and docs, option coverage, both engines at the defaults and
// at extraConfigs, every parameter at its limits and random configurations.
// gm has no simulation-only mechanic, so nothing is checked elsewhere.
func TestSystem(t *testing.T) {
	mechtest.CheckSystem(t, mechtest.System{Name: "gm", Mechanics: Mechanics(), Extra: extraConfigs})
}

// extraConfigs are the settings beyond the defaults that the cross-check
// runs: together they take every option of every mechanic through every
// value.
var extraConfigs = withEveryPreset(map[string][][]string{
	"gm.core.roll": {
		{"movement=dash", "opt.naturals=1_succeeds_20_fails", "score=3"},
		{"movement=walk", "terrain=outdoors", "major=2", "minor=-3"},
		{"movement=jog", "group=9"},
		{"movement=run", "terrain=outdoors", "opt.injury_penalty=on", "injuries=3"},
		{"movement=sprint", "score=18", "modifier=5"},
	},
	"gm.contest": {
		{"a_score=14", "b_score=7", "opt.naturals=1_succeeds_20_fails"},
		{"a_score=20", "b_score=20", "rounds=5"},
		{"a_group=4", "b_modifier=-3", "b_score=12"},
	},
	"gm.chase": {
		{"movement_difference=-10", "opt.naturals=1_succeeds_20_fails"},
		{"movement_difference=9", "quarry_group=3", "pursuer_score=6"},
	},
	"gm.fall": {
		{"height=5"},
		{"height=15", "opt.halving=ceil", "opt.injuries_when_halved=half_the_dice"},
		{"height=20", "opt.evasion_limit=up_to_20ft"},
		{"height=20"},
		{"height=9.5", "opt.naturals=1_succeeds_20_fails", "evasion=25"},
		{"height=600", "survival=30"},
	},
	"gm.jump": {
		{"kind=across", "running=6", "target=5"},
		{"size=large", "target=9"},
		{"size=huge"},
		{"size=gigantic", "target=40"},
		{"size=titanic"},
		{"size=small", "target=3"},
		{"size=tiny", "target=1"},
		{"size=fine", "agility=3"},
		{"opt.naturals=1_succeeds_20_fails", "target=7", "strength_bonus=3"},
	},
	"gm.suffocation": {
		{"prepared=1", "endurance=14", "minutes=8"},
		{"at_rest=1", "minutes=20", "endurance_bonus=5"},
		{"opt.injury_penalty=on", "injuries=2", "k=3"},
		{"opt.naturals=1_succeeds_20_fails", "endurance_bonus=-8", "minutes=3", "k=2"},
	},
	"gm.forced_march": {
		{"movement_given_up=3", "water=2", "earlier_rolls=1", "pushes=6"},
		{"opt.injury_penalty=on", "injuries=1", "pushes=8"},
		{"opt.naturals=1_succeeds_20_fails", "health=4"},
	},
	"gm.daily_push": {
		{"opt.earlier_rolls=minus_2_each", "days=6"},
		{"opt.injury_penalty=on", "days=10", "health=14"},
		{"opt.naturals=1_succeeds_20_fails", "health=19", "modifier=5"},
	},
	"gm.concentration": {
		{"opt.naturals=1_succeeds_20_fails", "evasion=20", "hits=30"},
		{"evasion=6", "hits=12"},
	},
	"gm.semiconscious": {
		{"opt.naturals=1_succeeds_20_fails", "willpower=0"},
		{"willpower=16", "modifier=-3"},
	},
	"gm.disbelieve": {
		{"route=willpower", "penalty=5"},
		{"route=willpower", "penalty=5", "opt.willpower_penalty=half_ceil"},
		{"route=willpower", "penalty=5", "opt.willpower_penalty=full", "opt.naturals=1_succeeds_20_fails"},
		{"penalty=7", "bonus=2", "phantasmal_damage=23"},
	},
	"gm.item_reaction": {
		{"material=ice", "attack=bludgeon"},
		{"material=glass", "attack=acid", "opt.blank=zero"},
		{"material=metal", "attack=acid", "thickness=0.5"},
		{"material=paper", "attack=acid", "thickness=0.25"},
		{"material=stone", "attack=bludgeon", "thickness=4"},
		{"material=wood", "weight=20"},
		{"opt.table=user", "user_bonus=3", "user_base_thickness=0.3", "thickness=2.5"},
		{"opt.naturals=1_succeeds_20_fails", "modifier=-10"},
	},
	"gm.tracking": {
		{"covers=1", "days=3", "group=6"},
		{"covers=1", "opt.naturals=1_succeeds_20_fails", "quarry_perception=2"},
	},
	"gm.ailment.simple": {
		{"willing=1", "R=14", "opt.injury_penalty=on", "injuries=2", "opt.naturals=1_succeeds_20_fails"},
		{"effect_dice=3", "effect_sides=6", "s0=-2", "effect_kind=sleep_minutes", "tau=minute"},
		{"willing=1", "R=14", "H=5", "opt.willing_roll=reaction"},
	},
	"gm.ailment.chronic": {
		{"R=12", "H=12", "s0=3"},
		{"opt.fade_index=first_throwoff_at_s0", "willing=1", "opt.willing_penalty=all_rolls"},
		{"opt.fade_index=s0_minus_k", "opt.throwoff_reaction=same_as_contraction", "R=8", "H=15"},
		{"preset=black_widow", "opt.injury_penalty=on", "injuries=1", "s0=4", "tau=day"},
		{"preset=alcohol", "opt.naturals=1_succeeds_20_fails", "horizon=20"},
		{"effect_kind=injuries", "preset=common_cold", "opt.injury_penalty=on", "H=15"},
		{"willing=1", "R=15", "H=7", "opt.willing_roll=reaction", "opt.throwoff_reaction=same_as_contraction"},
	},
	"gm.ailment.inescapable": {
		{"opt.incapacitation=auto_fail_when_incapacitated", "L=6"},
		{"preset=huge_spider", "opt.injury_penalty=on", "L=8", "R=13"},
		{"effect_kind=paralysis_minutes", "opt.incapacitation=auto_fail_when_incapacitated", "preset=giant_spider", "willing=1", "R=16"},
		{"opt.naturals=1_succeeds_20_fails", "s0=5", "L=10"},
		{"willing=1", "R=16", "H=9", "opt.willing_roll=reaction", "L=4"},
		// Sleep that may or may not outlast a 10-minute action time, and
		// paralysis that never outlasts a day.
		{"opt.incapacitation=auto_fail_when_incapacitated", "tau=10_minutes", "L=7", "R=12"},
		{"opt.incapacitation=auto_fail_when_incapacitated", "preset=giant_spider", "tau=day", "L=4", "s0=0"},
	},
	"gm.ailment.chronic_inescapable": {
		{"opt.growth=after_first_effect", "L=8", "R=14"},
		{"opt.first_throwoff_after_exit=at_s0", "s0=2", "L=3"},
		{"preset=large_spider", "opt.injury_penalty=on", "L=4", "H=14"},
		{"preset=sleep_gas", "L=3", "opt.naturals=1_succeeds_20_fails", "horizon=30"},
		{"willing=1", "R=17", "H=8", "opt.willing_roll=reaction", "L=3"},
		// A random effect with feedback that outruns the fading: the
		// throw-offs stop succeeding within a few action times (P(still
		// ill) is 0.973 at a horizon of 20, 30 or 100), and every later
		// action time only adds work; 30 instead of the default 100
		// costs about a sixteenth.
		{"willing=1", "R=15", "effect_dice=2", "effect_sides=3", "opt.injury_penalty=on", "injuries=1", "horizon=30"},
	},
})

// withEveryPreset adds to extra, for each ailment mechanic, one
// configuration per preset, which also takes tau and effect_kind through
// every value (the preset's index modulo their number of values). The
// area of the inescapable ailments is kept short (L=3).
func withEveryPreset(extra map[string][][]string) map[string][][]string {
	for _, id := range []string{"gm.ailment.simple", "gm.ailment.chronic", "gm.ailment.inescapable", "gm.ailment.chronic_inescapable"} {
		for p := presetCustom; p <= presetSleepGas; p++ {
			sets := []string{"preset=" + p.String(), "tau=" + tau(int(p)%int(tauDay+1)).String(),
				"effect_kind=" + effectKind(int(p)%int(effectPenalty+1)).String()}
			if id == "gm.ailment.chronic_inescapable" || id == "gm.ailment.inescapable" {
				sets = append(sets, "L=3")
			}
			extra[id] = append(extra[id], sets)
		}
	}
	return extra
}
