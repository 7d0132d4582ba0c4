package d20w

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

func run(t *testing.T, id string, sets ...string) *engine.Result {
	t.Helper()
	r, err := mechtest.Exact(registry, id, sets...)
	if err != nil {
		t.Fatalf("%s %v: %v", id, sets, err)
	}
	return r
}

func set(name string, v int) string { return fmt.Sprintf("%s=%d", name, v) }

// The golden values of the d20w mechanics (run as the commands of the brief:
// `oddsmith exact <id> --set …` applies the same settings to the defaults).
func TestGoldens(t *testing.T) {
	t.Parallel()
	// d20w.core.opposed: +5 vs +3, match or beat: 247/400.
	op := run(t, "d20w.core.opposed", "mod_a=5", "mod_o=3")
	mechtest.Near(t, "opposed +5 vs +3", op.Event("success").P, 247.0/400, 1e-12)
	if got := op.Var("margin").Exact[0]; got != "1/400" {
		t.Errorf("P(margin = −17) = %s; want 1/400", got)
	}
	// d20w.attack: PC +5 vs NPC Defence +3: 13/20; NPC +5 vs PC +3: 12/20, and with w = 2 a crit 2/20.
	mechtest.Near(t, "attack pc_npc", run(t, "d20w.attack", "attack=5", "defence=3", "pairing=pc_npc").Event("hit").P, 0.65, 1e-12)
	mechtest.Near(t, "attack npc_pc", run(t, "d20w.attack", "attack=5", "defence=3", "pairing=npc_pc").Event("hit").P, 0.60, 1e-12)
	mechtest.Near(t, "attack npc_pc crit w=2", run(t, "d20w.attack", "attack=5", "defence=3", "pairing=npc_pc", "threat=2").Event("crit").P, 0.10, 1e-12)
	// d20w.cm: PC CMA +4 vs NPC CMD +6 (target 16): N ∈ {12..20}: 9/20.
	mechtest.Near(t, "cm pc_npc", run(t, "d20w.cm", "cma=4", "cmd=6", "pairing=pc_npc").Event("success").P, 0.45, 1e-12)
	// d20w.core.opposed, take 10: PC→NPC P = clamp((11 + a − b)/20, 0, 1); NPC→PC P(resist) = clamp((10 + d − b)/20, 0, 1).
	clamp := func(x float64) float64 { return math.Min(1, math.Max(0, x)) }
	for _, a := range []int{-12, -3, 0, 4, 9, 25} {
		for _, b := range []int{-5, 0, 3, 11} {
			mechtest.Near(t, fmt.Sprintf("PC %+d vs NPC %+d", a, b), run(t, "d20w.core.opposed", "pairing=pc_npc", set("mod_a", a), set("mod_o", b)).Event("success").P,
				clamp(float64(11+a-b)/20), 1e-12)
			mechtest.Near(t, fmt.Sprintf("NPC %+d vs PC %+d: resist", b, a), run(t, "d20w.core.opposed", "pairing=npc_pc", set("mod_a", b), set("mod_o", a)).Event("resisted").P,
				clamp(float64(10+a-b)/20), 1e-12)
		}
	}
	// NPC vs NPC is certain and flagged.
	nn := run(t, "d20w.core.opposed", "pairing=npc_npc", "mod_a=2", "mod_o=3")
	mechtest.Near(t, "npc vs npc", nn.Event("success").P, 0, 1e-12)
	mechtest.Near(t, "npc vs npc deterministic", nn.Event("deterministic").P, 1, 1e-12)
}

// The examples of the modifier track on the page, and the values of the
// presets and options.
func TestModtrackTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		sets  []string
		value int
		level string
	}{
		{[]string{"minor_bonuses=2"}, 4, "major_bonus"},                                              // Minor + Minor = Major
		{[]string{"minor_bonuses=2", "major_bonuses=1"}, 8, "extreme_bonus"},                         // Major + Minor + Minor = Extreme
		{[]string{"minor_bonuses=0", "major_bonuses=2"}, 8, "extreme_bonus"},                         // Major + Major = Extreme
		{[]string{"minor_bonuses=1", "minor_penalties=1"}, 0, "none"},                                // a Minor penalty cancels a Minor bonus
		{[]string{"minor_bonuses=0", "major_bonuses=1", "minor_penalties=1"}, 2, "minor_bonus"},      // … and reduces a Major bonus to a Minor
		{[]string{"minor_bonuses=0", "major_penalties=1", "minor_penalties=1"}, -4, "major_penalty"}, // 3 points stay Major
		{[]string{"minor_bonuses=0", "major_penalties=1", "minor_penalties=1", "opt.major_plus_minor=interpolate"}, -6, "major_penalty"},
		{[]string{"minor_bonuses=0", "extreme_bonuses=2"}, 8, "extreme_bonus"}, // capped
		{[]string{"minor_bonuses=0", "extreme_bonuses=2", "opt.cap=open"}, 16, "extreme_bonus"},
		{[]string{"minor_bonuses=0", "extreme_bonuses=1", "minor_bonuses=1", "opt.cap=open", "opt.values=d20_circumstance"}, 12, "extreme_bonus"},
		{[]string{"minor_bonuses=1", "opt.values=d20_circumstance"}, 2, "minor_bonus"},
		{[]string{"major_bonuses=1", "minor_bonuses=0", "opt.values=d20_circumstance"}, 5, "major_bonus"},
		{[]string{"major_bonuses=1", "minor_bonuses=1", "opt.values=d20_circumstance", "opt.major_plus_minor=interpolate"}, 6, "major_bonus"},
		{[]string{"minor_bonuses=0", "extreme_penalties=1", "opt.values=d20_circumstance"}, -10, "extreme_penalty"},
		{[]string{"minor_bonuses=0", "major_penalties=1", "opt.values=custom", "minor_value=1", "major_value=3", "extreme_value=7"}, -3, "major_penalty"},
		// The same source does not stack: a second laser sight adds nothing …
		{[]string{"minor_bonuses=1", "repeated_minor_bonuses=1"}, 2, "minor_bonus"},
		// … and a Minor from the source of a counted Major is dropped too …
		{[]string{"minor_bonuses=0", "major_bonuses=1", "repeated_minor_bonuses=1"}, 4, "major_bonus"},
		// … unless the GM lets them stack.
		{[]string{"minor_bonuses=1", "repeated_minor_bonuses=1", "opt.same_source=stack"}, 4, "major_bonus"},
		{[]string{"minor_bonuses=0", "major_penalties=1", "repeated_minor_penalties=2", "opt.same_source=stack"}, -8, "extreme_penalty"},
	}
	for _, c := range cases {
		r := run(t, "d20w.modtrack", c.sets...)
		v := r.Var("net_value")
		if v.Stats.Min != float64(c.value) || v.Stats.Max != float64(c.value) {
			t.Errorf("%v: net value %v..%v; want %d", c.sets, v.Stats.Min, v.Stats.Max, c.value)
		}
		b := band(t, r, "level")
		for i, l := range b.Labels {
			want := 0.0
			if l == c.level {
				want = 1
			}
			if math.Abs(b.P[i]-want) > 1e-12 {
				t.Errorf("%v: P(level %s) = %v; want %v", c.sets, l, b.P[i], want)
			}
		}
		// The check it modifies: N + mod + value ≥ DC, mod 0, DC 15.
		mechtest.Near(t, fmt.Sprint(c.sets, " success"), r.Event("success").P, math.Min(1, math.Max(0, float64(6+c.value)/20)), 1e-12)
	}
	// An Easy task is not rolled unless conditions are Extreme.
	mechtest.Near(t, "easy", run(t, "d20w.modtrack", "task=easy", "mod=-10").Event("success").P, 1, 1e-12)
	mechtest.Near(t, "easy, Extreme penalty", run(t, "d20w.modtrack", "task=easy", "minor_bonuses=0", "extreme_penalties=1", "mod=8").Event("success").P, 6.0/20, 1e-12)
	mechtest.Near(t, "easy, Extreme bonus", run(t, "d20w.modtrack", "task=easy", "minor_bonuses=0", "extreme_bonuses=1", "mod=-8").Event("success").P, 6.0/20, 1e-12)
	// A repeat without a counted source of its size is refused as bad input.
	m, _ := registry.Lookup("d20w.modtrack")
	cfg, err := m.Configure([]string{"minor_bonuses=3", "repeated_major_bonuses=1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Model(cfg); err == nil || !mechanics.IsInput(err) {
		t.Errorf("a repeated Major bonus without a Major source: %v; want bad input", err)
	}
}

func band(t *testing.T, r *engine.Result, name string) *engine.BandResult {
	t.Helper()
	for i := range r.Bands {
		if r.Bands[i].Name == name {
			return &r.Bands[i]
		}
	}
	t.Fatalf("%s reports no band %s", r.Mechanic, name)
	return nil
}
