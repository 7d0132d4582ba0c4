package ag

import (
	"context"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/sim"
)

// extraConfigs are settings beyond the defaults that every cross-check also
// runs: other sizes and every option value that changes the model.
var extraConfigs = map[string][][]string{
	"ag.skill_test": {{"skill=2", "attribute=2", "tn=5"}, {"skill=0", "attribute=1", "tn=3"}, {"skill=5", "attribute=3", "modifier=-2", "tn=9"},
		{"skill=9", "attribute=1", "tn=11"}, {"skill=4", "opt.crit_count=repeated_faces", "opt.fumble_crit=stack", "opt.tie=cost_accepted"},
		{"skill=4", "opt.crit_count=kept_only"}, {"skill=0", "opt.unskilled_crit=none", "opt.tie=success"}},
	"ag.attribute_test": {{"attribute=3", "tn=6"}, {"attribute=0", "modifier=-3", "tn=2", "opt.tie=failure"}},
	"ag.opposed": {{"skill=3", "attribute=2", "opp_skill=2", "opp_attribute=2"}, {"skill=0", "opp_skill=4", "opp_modifier=-2"},
		{"skill=6", "opp_skill=5", "opt.crit_count=repeated_faces"}},
	"ag.take_average":     {{"skill=4", "attribute=4", "tn=7", "opt.penalties=applied", "modifier=-2"}},
	"ag.assist":           {{"group=9", "opt.group_counts=helpers_only"}, {"group=40", "opt.beyond_32=extend_log", "tn=9"}},
	"ag.multi_action":     {{"actions=4", "skill=5", "tn=6"}},
	"ag.wound_penalty":    {{"flesh_wounds=3", "deep_bruises=1", "flesh_bruises=1", "opt.rounding=round_half_up"}, {"deep_wounds=2", "opt.rows=second_pair_is_subsequent_wounds", "opt.stacking=worst_only"}},
	"ag.swim":             {{"skill=5", "athletics=1", "encumbrance=1", "tn=3"}},
	"ag.social":           {{"deception=0", "intimidation=3", "negotiation=1", "wrangle=2", "disposition_tn=6", "tn_modifier=2"}},
	"ag.jump":             {{"movement=sprint", "surface=rough", "direction=vertical", "gap_cm=50"}, {"movement=run", "opt.move_bonus=none"}},
	"ag.initiative":       {{"other_skill=4", "opt.tie=simultaneous"}},
	"ag.surprise":         {{"victim_skill=4", "ambusher_skill=1", "defence_combat_modifier=3"}},
	"ag.magic.tn_spell":   {{"spell=heal", "skill=0"}, {"spell=ward", "skill=4"}},
	"ag.magic.info_level": {{"spell=scrying", "skill=5"}},
	"ag.magic.banish":     {{"skill=4", "spirit_psyche=5"}},
}

// TestEveryMechanicBothEngines: every registered ag mechanic, with its
// defaults and its extra configurations, is computed by both engines, which
// must agree (chi-square p > 1e-6 and every event inside a widened Wilson
// interval); exact probabilities must sum to 1.
func TestEveryMechanicBothEngines(t *testing.T) {
	n := int64(1_000_000)
	if testing.Short() {
		n = 100_000
	}
	ms := registry.System("ag")
	if len(ms) < 2 {
		t.Fatalf("only %d mechanics registered", len(ms))
	}
	report, err := mechtest.CheckMechanics(context.Background(), ms, extraConfigs, sim.Options{Trials: n, Seed: 77})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range report {
		t.Error(r)
	}
}
