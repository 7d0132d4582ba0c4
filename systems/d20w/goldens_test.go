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
	// An Easy task is not rolled unless conditions are Extreme (TestModtrackEasy).
	mechtest.Near(t, "easy", run(t, "d20w.modtrack", "task=easy", "mod=-10").Event("success").P, 1, 1e-12)
	mechtest.Near(t, "easy, Extreme penalty", run(t, "d20w.modtrack", "task=easy", "minor_bonuses=0", "extreme_penalties=1", "mod=8").Event("success").P, 6.0/20, 1e-12)
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

// An Easy task (task=easy) is not rolled, so it succeeds, unless conditions
// are Extreme: by default a net Extreme penalty (opt.easy_rolls=
// extreme_penalty), so bonuses never lower its success; any_extreme keeps
// the reading in which a net Extreme bonus rolls it too. Without the track
// nothing is Extreme, so success_without_track is the unrolled success.
func TestModtrackEasy(t *testing.T) {
	t.Parallel()
	// The example: three Minor bonuses leave the task unrolled,
	// a fourth (a net Extreme bonus) must not make it fail 30% of the time.
	for _, b := range []int{3, 4, 5} {
		r := run(t, "d20w.modtrack", "task=easy", set("minor_bonuses", b), "dc=15")
		mechtest.Near(t, fmt.Sprintf("easy, %d Minor bonuses", b), r.Event("success").P, 1, 1e-12)
		mechtest.Near(t, fmt.Sprintf("easy, %d Minor bonuses, without the track", b), r.Event("success_without_track").P, 1, 1e-12)
	}
	mechtest.Near(t, "easy, 4 Minor bonuses, any_extreme", run(t, "d20w.modtrack", "task=easy", "minor_bonuses=4", "dc=15", "opt.easy_rolls=any_extreme").Event("success").P, 0.7, 1e-12)
	mechtest.Near(t, "easy, Extreme bonus, any_extreme", run(t, "d20w.modtrack", "task=easy", "minor_bonuses=0", "extreme_bonuses=1", "mod=-8", "opt.easy_rolls=any_extreme").Event("success").P, 6.0/20, 1e-12)
	// The rule applied to every net stack of a grid, from the text: p net
	// points, the doubling values ±2/±4/±8 (capped), N + mod + v ≥ DC when
	// rolled; without the track the Easy task is never rolled.
	value := func(p int) int {
		v := []int{0, 2, 4, 4, 8}[min(abs(p), 4)]
		if p < 0 {
			return -v
		}
		return v
	}
	for _, rule := range []string{"extreme_penalty", "any_extreme"} {
		for bon := 0; bon <= 6; bon++ {
			for _, pen := range []int{0, 2, 3, 4, 6} {
				for _, mod := range []int{-6, 0, 7} {
					p := bon - pen
					rolled := p <= -4 || (rule == "any_extreme" && p >= 4)
					want := 1.0
					if rolled {
						want = float64(count(20, func(i int) bool { return i+1+mod+value(p) >= 15 }).n) / 20
					}
					r := run(t, "d20w.modtrack", "task=easy", "opt.easy_rolls="+rule, set("minor_bonuses", bon), set("minor_penalties", pen), set("mod", mod))
					what := fmt.Sprintf("%s: %d bonuses, %d penalties, mod %d", rule, bon, pen, mod)
					mechtest.Near(t, what+": success", r.Event("success").P, want, 1e-12)
					mechtest.Near(t, what+": success without the track", r.Event("success_without_track").P, 1, 1e-12)
				}
			}
		}
	}
	// Under the default reading a further bonus never lowers the success.
	for _, mod := range []int{-10, 0, 5} {
		prev := 0.0
		for bon := 0; bon <= 10; bon++ {
			p := run(t, "d20w.modtrack", "task=easy", set("minor_bonuses", bon), "minor_penalties=5", set("mod", mod)).Event("success").P
			if p < prev-1e-12 {
				t.Errorf("mod %d: %d Minor bonuses against 5 penalties: P(success) %v < %v with one fewer", mod, bon, p, prev)
			}
			prev = p
		}
	}
	// A rolled task keeps the roll without the track: N + mod ≥ DC.
	mechtest.Near(t, "rolled, without the track", run(t, "d20w.modtrack", "minor_bonuses=4", "mod=2").Event("success_without_track").P, 8.0/20, 1e-12)
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
