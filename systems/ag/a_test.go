package ag

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// The mechanics of tests.go, progress.go and combat.go.
var agAIDs = []string{
	"ag.take_average", "ag.assist", "ag.multi_action", "ag.wound_penalty", "ag.swim", "ag.social", "ag.jump",
	"ag.initiative", "ag.surprise", "ag.magic.tn_spell", "ag.magic.info_level", "ag.magic.banish",
	"ag.accumulated", "ag.acting_fast", "ag.magic.dispel", "ag.chase", "ag.chase_obstacle",
	"ag.attack", "ag.attack_damage", "ag.magic.harm",
}

// agAConfigs are the configurations beyond the defaults that the
// cross-checks run for these mechanics: every value of every option on its
// own, and the combinations where an option only matters beside another.
func agAConfigs() map[string][][]string {
	out := map[string][][]string{
		"ag.take_average": {{"opt.penalties=applied", "modifier=-3", "skill=1"}, {"skill=0", "tn=2"}},
		"ag.assist":       {{"group=1"}, {"group=2", "opt.group_counts=helpers_only"}, {"group=200", "opt.beyond_32=extend_log", "tn=12"}},
		"ag.multi_action": {{"actions=1"}, {"actions=10", "skill=1", "tn=3"}},
		"ag.wound_penalty": {{"flesh_wounds=0"}, {"flesh_wounds=3", "deep_wounds=2", "flesh_bruises=3", "deep_bruises=1", "opt.rounding=round_half_up", "opt.stacking=worst_only"},
			{"flesh_wounds=20", "deep_wounds=20", "flesh_bruises=20", "deep_bruises=20"}},
		"ag.social": {{"deception=0", "intimidation=0", "negotiation=0", "wrangle=1"}, {"deception=1", "intimidation=1", "negotiation=1", "wrangle=1", "opt.tie=cost_accepted"}},
		"ag.jump": {{"gap_cm=0"}, {"gap_cm=0", "surface=slippery", "movement=sprint"}, {"gap_cm=0", "surface=slippery", "movement=sprint", "opt.tie=cost_accepted"},
			{"gap_cm=0", "surface=slippery", "movement=sprint", "opt.tie=failure"}, {"gap_cm=76"}, {"gap_cm=25", "direction=vertical"},
			{"surface=climbing", "athletics=8", "body=4", "movement=walk"}},
		"ag.initiative": {{"combatants=3"}, {"combatants=4", "opt.tie=simultaneous"}, {"combatants=4", "third_skill=3", "fourth_attribute=0", "opt.tie=reroll"},
			{"combatants=3", "skill=0", "other_modifier=2", "opt.tie=simultaneous"}},
		"ag.surprise":         {{"victim_skill=0", "ambusher_skill=5", "attack_modifier=-2"}},
		"ag.magic.info_level": {{"skill=6", "attribute=4"}, {"skill=0", "spell=scrying"}},
		"ag.magic.banish":     {{"skill=0", "spirit_psyche=0"}},
		"ag.accumulated": {{"opt.floor=none"}, {"opt.floor=none", "opt.abandon=at_minus_Q"}, {"opt.floor=none", "opt.failure=subtract_one", "lower_limit=10"},
			{"opt.fumble=reset", "skill=1"}, {"opt.fumble=reset", "opt.floor=none", "lower_limit=8", "skill=1"},
			{"opt.fumble=reset", "opt.floor=none", "opt.abandon=at_minus_Q", "skill=1", "q=4"},
			{"opt.tie=cost_plus_one", "q=3", "tn=6"}, {"skill=0", "q=2", "horizon=20"}, {"skill=5", "q=30", "tn=7", "horizon=40"},
			{"opt.failure=no_loss", "opt.floor=none", "q=1"}},
		"ag.acting_fast": {{"k=0"}, {"k=4", "deadline_minutes=60", "base_minutes=45"}, {"k=3", "base_minutes=7", "deadline_minutes=200"},
			{"k=2", "opt.floor=none", "opt.abandon=at_minus_Q"}},
		"ag.magic.dispel": {{"skill=4", "caster_psyche=5"}, {"skill=0", "horizon=10"}},
		"ag.chase": {{"opt.fumble=speed_minus_d6", "quarry_skill=1"}, {"gap=0"}, {"gap=40"}, {"pursuer_speed=25", "gap=5", "escape_gap=15", "rounds=30"},
			{"quarry_skill=0", "pursuer_skill=4", "pursuer_speed=0"}},
		"ag.chase_obstacle": {{"obstacle_every=1"}, {"obstacle_every=2", "obstacle_tn=6", "opt.winner_bonus=opposed_margin"},
			{"opt.fumble=speed_minus_d6", "quarry_skill=1", "pursuer_skill=1", "obstacle_every=1"}, {"obstacle_every=20", "rounds=25"}},
		"ag.attack": {{"fixed_defence=1"}, {"deception=2"}, {"deception=3", "opt.negative_pool=auto_fail"}, {"deception=4", "skill=3"}, {"aiming=2"},
			{"attacker_number=6"}, {"attacker_number=6", "opt.multiple_attackers=modifier_table"}, {"target_movement=sprint"},
			{"target_movement=run", "opt.move_bonus=none"}},
		"ag.attack_damage": {{"location=head"}, {"location=head", "opt.threshold_compare=greater_than", "dv=5"}, {"report=until_incapacitated"},
			{"report=until_incapacitated", "damage_type=bruises", "bruise_boxes=3", "wound_boxes=4"}, {"report=until_incapacitated", "location=limb"},
			{"report=until_incapacitated", "location=limb", "opt.critical_limb=death"}, {"location=limb"}, {"location=limb", "damage_type=bruises"},
			{"damage_type=bruises"}, {"fixed_defence=1", "dv=4"}, {"dv=0"}, {"report=until_incapacitated", "location=head", "dv=5", "opt.threshold_compare=greater_than"},
			{"report=until_incapacitated", "deception=3", "opt.negative_pool=auto_fail"}},
		"ag.magic.harm": {{"location=head"}, {"report=until_incapacitated"}, {"damage_type=bruises", "report=until_incapacitated"}, {"skill=4", "attribute=4"},
			{"location=limb", "report=until_incapacitated", "attribute=6"}},
	}
	for _, id := range agAIDs {
		m, err := registry.Lookup(id)
		if err != nil {
			panic(err)
		}
		for _, o := range m.Options {
			for _, v := range o.Values[1:] {
				out[id] = append(out[id], []string{o.Name + "=" + v})
			}
		}
	}
	return out
}

func init() {
	for id, sets := range agAConfigs() {
		extraConfigs[id] = append(extraConfigs[id], sets...)
	}
}

// r2 is the two-dice roll R₂ of §1.1 by hand: the higher die, +1 on a
// double, and 1 for double ones.
func r2(a, b int) int {
	switch {
	case a == 1 && b == 1:
		return 1
	case a == b:
		return a + 1
	}
	return max(a, b)
}

// TestJumpGap: P(clear a gap g) = P(MoS ≥ ⌈g / 0.75 m⌉) (mechanics.md §1.5),
// so a gap of 0 needs MoS ≥ 0 — before the fix it needed a positive
// distance, MoS ≥ 1 (P = 12/36 instead of 21/36 below). Brute force over
// the two dice.
func TestJumpGap(t *testing.T) {
	// Athletics 2 + Body 2 + sprint 3 against the slippery TN 10: MoS = R₂ − 5.
	atLeast := func(mos int) float64 {
		n := 0
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				if r2(a, b)-5 >= mos {
					n++
				}
			}
		}
		return float64(n) / 36
	}
	base := []string{"athletics=2", "body=2", "movement=sprint", "surface=slippery"}
	for _, tc := range []struct {
		sets []string
		need int // ⌈g / per⌉
	}{
		{[]string{"gap_cm=0"}, 0},
		{[]string{"gap_cm=1"}, 1},
		{[]string{"gap_cm=75"}, 1},
		{[]string{"gap_cm=76"}, 2},
		{[]string{"gap_cm=0", "direction=vertical"}, 0},
		{[]string{"gap_cm=26", "direction=vertical"}, 2},
		// A tie that fails still clears no gap at all: the formula is on MoS.
		{[]string{"gap_cm=0", "opt.tie=failure"}, 0},
	} {
		got := runExact(t, "ag.jump", append(base, tc.sets...)...).Event("clears_gap").P
		near(t, fmt.Sprintf("P(clears_gap) %v", tc.sets), got, atLeast(tc.need), 1e-12)
	}
	// With opt.tie=cost_accepted a raw MoS 0 is taken as MoS 1: it jumps
	// 75 cm and clears a 75 cm gap.
	got := runExact(t, "ag.jump", append(base, "gap_cm=75", "opt.tie=cost_accepted")...).Event("clears_gap").P
	near(t, "P(clears 75 cm), cost_accepted", got, atLeast(0), 1e-12)
	if p := runExact(t, "ag.jump", append(base, "gap_cm=0")...).Var("distance_cm"); p.P[0-p.Lo] != 1-atLeast(1) {
		t.Errorf("P(distance 0) = %v; want P(MoS ≤ 0) = %v", p.P[0-p.Lo], 1-atLeast(1))
	}
}

// TestActingFast: acting fast at k is ag.accumulated at modifier −k, with
// the wall-clock time tests × base × 2^−k (here 7 min / 8 = 52.5 s a test,
// rounded half up) and a deadline of 6 minutes reached within 6 tests
// (315 s; 7 tests take 367.5 s).
func TestActingFast(t *testing.T) {
	af := runExact(t, "ag.acting_fast", "k=3", "base_minutes=7", "deadline_minutes=6", "q=3", "skill=3")
	acc := runExact(t, "ag.accumulated", "modifier=-3", "q=3", "skill=3")
	at, ct := af.Var("time"), acc.Var("time")
	if at.Lo != ct.Lo || len(at.P) != len(ct.P) {
		t.Fatalf("time support [%d, +%d); want [%d, +%d)", at.Lo, len(at.P), ct.Lo, len(ct.P))
	}
	el := af.Var("elapsed_s")
	for i, p := range ct.P {
		near(t, "P(time)", at.P[i], p, 1e-12)
		if p == 0 {
			continue
		}
		s := int(math.Round(52.5 * float64(ct.Lo+i)))
		near(t, fmt.Sprintf("P(elapsed_s = %d)", s), el.P[s-el.Lo], p, 1e-12)
	}
	near(t, "P(done by the deadline)", af.Event("done_by_deadline").P, 1-acc.Process.Survival[6], 1e-12)
}

func band(t *testing.T, r *engine.Result, name string) *engine.BandResult {
	t.Helper()
	for i := range r.Bands {
		if r.Bands[i].Name == name {
			return &r.Bands[i]
		}
	}
	t.Fatalf("%s has no band %s", r.Mechanic, name)
	return nil
}

// TestAttackDamageHeadShot: a head shot compares the damage with the halved
// thresholds 2.5 / 5 / 10 exactly (DV 5: damage 5 is deep at least, flesh
// with greater_than; 10 is critical or deep).
func TestAttackDamageHeadShot(t *testing.T) {
	body := runExact(t, "ag.attack_damage", "dv=5").Var("damage")
	for _, strict := range []bool{false, true} {
		want := make([]float64, 4)
		for i, p := range body.P {
			d, cat := float64(body.Lo+i), 0
			for _, cut := range []float64{2.5, 5, 10} {
				if d > cut || (!strict && d == cut) {
					cat++
				}
			}
			want[cat] += p
		}
		sets := []string{"dv=5", "location=head"}
		if strict {
			sets = append(sets, "opt.threshold_compare=greater_than")
		}
		got := band(t, runExact(t, "ag.attack_damage", sets...), "category")
		for k := range want {
			near(t, fmt.Sprintf("P(%s) %v", got.Labels[k], sets), got.P[k], want[k], 1e-12)
		}
	}
}

// TestInitiativeOrderBruteForce enumerates every combination of totals and
// every tie-breaking order by hand.
func TestInitiativeOrderBruteForce(t *testing.T) {
	for _, sets := range [][]string{
		{"combatants=3", "skill=3", "other_skill=1", "other_attribute=3", "third_skill=0", "third_attribute=4"},
		{"combatants=4", "skill=2", "other_skill=1", "third_modifier=-1", "fourth_skill=3", "fourth_attribute=1", "opt.tie=simultaneous"},
	} {
		m, _ := registry.Lookup("ag.initiative")
		c, err := m.Configure(sets)
		if err != nil {
			t.Fatal(err)
		}
		k := c.Int("combatants")
		coin := c.Options["ag.initiative.opt.tie"] != "simultaneous"
		var dists []map[int]float64
		for _, prefix := range []string{"", "other_", "third_", "fourth_"}[:k] {
			s := sideOf(c, prefix)
			d, _, err := exact.Eval(Pool(s.n, defaults))
			if err != nil {
				t.Fatal(err)
			}
			tot := map[int]float64{}
			for i, p := range d.P {
				if p > 0 {
					tot[Total(d.Lo+i, s.a, s.m)] += p
				}
			}
			dists = append(dists, tot)
		}
		orders := permutations(k)
		if !coin {
			orders = [][]int{nil}
		}
		first := make([]float64, k)
		var tieFirst float64
		pos := make([]float64, k+1)
		tot := make([]int, k)
		var walk func(i int, p float64)
		walk = func(i int, p float64) {
			if i < k {
				for v, q := range dists[i] {
					tot[i] = v
					walk(i+1, p*q)
				}
				return
			}
			for _, order := range orders {
				q := p / float64(len(orders))
				rank := make([]int, k)
				for place, who := range order {
					rank[who] = place
				}
				before := func(i, j int) bool {
					return tot[i] > tot[j] || (coin && tot[i] == tot[j] && rank[i] < rank[j])
				}
				var tops []int
				for i := 0; i < k; i++ {
					top := true
					for j := 0; j < k; j++ {
						if j != i && before(j, i) {
							top = false
						}
					}
					if top {
						tops = append(tops, i)
					}
				}
				if len(tops) == 1 {
					first[tops[0]] += q
				} else {
					tieFirst += q
				}
				place := 1
				for j := 1; j < k; j++ {
					if before(j, 0) {
						place++
					}
				}
				pos[place] += q
			}
		}
		walk(0, 1)
		r := runExact(t, "ag.initiative", sets...)
		for i := 0; i < k; i++ {
			name := combatantNames[i] + "_first"
			near(t, fmt.Sprintf("%v %s", sets, name), r.Event(name).P, first[i], 1e-12)
		}
		near(t, fmt.Sprintf("%v tie_for_first", sets), r.Event("tie_for_first").P, tieFirst, 1e-12)
		ap := r.Var("a_position")
		for place := 1; place <= k; place++ {
			got := 0.0
			if i := place - ap.Lo; i >= 0 && i < len(ap.P) {
				got = ap.P[i]
			}
			near(t, fmt.Sprintf("%v P(a_position = %d)", sets, place), got, pos[place], 1e-12)
		}
	}
}

// TestChaseObstacle: without an obstacle inside the round limit the chase
// is ag.chase; with one every round the chain is homogeneous, and its
// unlimited-horizon mean matches a long horizon.
func TestChaseObstacle(t *testing.T) {
	plain := runExact(t, "ag.chase")
	none := runExact(t, "ag.chase_obstacle", "obstacle_every=11")
	for _, e := range plain.Events {
		near(t, "chase without obstacles: "+e.Name, none.Event(e.Name).P, e.P, 1e-12)
	}
	long := runExact(t, "ag.chase_obstacle", "obstacle_every=1", "rounds=200")
	if !long.Process.Unbounded {
		t.Fatal("an obstacle every round: no unlimited-horizon solution")
	}
	near(t, "P(undecided after 200 rounds)", long.Event("not_absorbed").P, 0, 1e-9)
	near(t, "mean rounds", long.Var("time").Stats.Mean, long.Process.MeanTimeUnbounded, 1e-6)
	for i, s := range long.Process.AbsorbingStates {
		near(t, "P(absorbed:"+s+")", long.Event("absorbed:"+s).P, long.Process.AbsorbedUnbounded[i], 1e-9)
	}
}

// TestTabulateMove: a kernel value outside the declared range is a model
// error, never a silent move to another state.
func TestTabulateMove(t *testing.T) {
	p := &mechanics.Process{Horizon: 1}
	p.Add(false, "a", "b")
	tabulateMove(p, -1, 1, func(s, x int) int { return (s + x + 2) % 2 })
	if got := p.Move(1, 1, 1); got != 0 {
		t.Errorf("Move(1, 1) = %d; want 0", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a kernel value outside [-1, 1] did not panic")
		}
	}()
	p.Move(1, 0, 2)
}

// TestAgADeclared: every configuration builds a declared model (a record,
// expressions) whose outputs all have a doc.
func TestAgADeclared(t *testing.T) {
	cfgs := agAConfigs()
	for _, id := range agAIDs {
		m, _ := registry.Lookup(id)
		for _, sets := range append([][]string{nil}, cfgs[id]...) {
			c, err := m.Configure(sets)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := m.Model(c)
			if err != nil {
				t.Fatalf("%s %v: %v", id, sets, err)
			}
			if spec.Record == nil {
				t.Errorf("%s %v: no record", id, sets)
			}
			for _, v := range spec.Vars {
				if v.Doc == "" || v.Expr == nil {
					t.Errorf("%s %v: variable %s has no doc or no expression", id, sets, v.Name)
				}
			}
			for _, e := range spec.Events {
				if e.Doc == "" || e.Expr == nil {
					t.Errorf("%s %v: event %s has no doc or no expression", id, sets, e.Name)
				}
			}
			for _, b := range spec.Bands {
				if b.Doc == "" || b.Expr == nil {
					t.Errorf("%s %v: band %s has no doc or no expression", id, sets, b.Name)
				}
			}
		}
	}
}
