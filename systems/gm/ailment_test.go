package gm

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

// TestWillingRollsOnHealth: a victim who accepts the ailment rolls to
// contract it on health ("the reaction is health"), at −4, in every
// ailment mechanic; opt.willing_roll=reaction keeps R. R = 18 and H = 6,
// strength 0: on H the roll at 6 − 4 = 2 resists with P = 2/20, on R at
// 18 − 4 = 14 with P = 14/20. One action time in the area (L = 1) makes the
// inescapable ailments one roll too.
func TestWillingRollsOnHealth(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, event string }{
		{"gm.ailment.simple", "affected"},
		{"gm.ailment.chronic", "contract"},
		{"gm.ailment.inescapable", "affected"},
		{"gm.ailment.chronic_inescapable", "affected"},
	} {
		sets := []string{"willing=1", "R=18", "H=6", "s0=0"}
		if c.id == "gm.ailment.inescapable" || c.id == "gm.ailment.chronic_inescapable" {
			sets = append(sets, "L=1")
		}
		mechtest.Near(t, c.id+" willing, on health", mechtest.MustExact(t, registry, c.id, sets...).Event(c.event).P, 0.9, 1e-15)
		mechtest.Near(t, c.id+" willing, willing_roll=reaction", mechtest.MustExact(t, registry, c.id, append(sets, "opt.willing_roll=reaction")...).Event(c.event).P, 0.3, 1e-15)
		// An unwilling victim rolls on R whatever the switch says.
		unwilling := append([]string{"willing=0"}, sets[1:]...)
		mechtest.Near(t, c.id+" unwilling", mechtest.MustExact(t, registry, c.id, unwilling...).Event(c.event).P, 0.1, 1e-15)
	}
}

// TestIncapacitationAgainstActionTime: with auto_fail_when_incapacitated a
// roll fails only while the victim is still out (asleep, paralysed) for
// the whole of its action time. Sleep gas (2d10 minutes, even odds, L = 5):
// a day between rolls outlasts every sleep, so the rolls go on as with
// keep_rolling, N ~ Binomial(5, ½); a round (a sixth of a minute) never
// outlasts one, so the first failure at j leaves the victim out for the
// L − j − 1 rolls after it: P(N = L − j) = (½)^(j+1).
func TestIncapacitationAgainstActionTime(t *testing.T) {
	t.Parallel()
	day := pmf(mechtest.MustExact(t, registry, "gm.ailment.inescapable", "opt.incapacitation=auto_fail_when_incapacitated", "tau=day").Var("effects"))
	for k, want := range []float64{1, 5, 10, 10, 5, 1} {
		mechtest.Near(t, "day: P(N = k)", day[float64(k)], want/32, 1e-12)
	}
	round := pmf(mechtest.MustExact(t, registry, "gm.ailment.inescapable", "opt.incapacitation=auto_fail_when_incapacitated", "tau=round").Var("effects"))
	mechtest.Near(t, "round: P(N = 0)", round[0], 1.0/32, 1e-12)
	for j := range 5 {
		mechtest.Near(t, "round: P(N = L − j)", round[float64(5-j)], 1/float64(int(2)<<j), 1e-12)
	}
	// 10-minute action times: 2d10 minutes cover the next one when they
	// come to 10 or more (P = 64/100), and the one after when 20.
	ten := mechtest.MustExact(t, registry, "gm.ailment.inescapable", "opt.incapacitation=auto_fail_when_incapacitated", "tau=10_minutes", "L=2")
	// N = 2: the first roll fails (½) and the second fails, by the sleep
	// (0.64) or by the roll (0.36 × ½).
	mechtest.Near(t, "10 minutes, L = 2: P(N = 2)", pmf(ten.Var("effects"))[2], 0.5*(0.64+0.36*0.5), 1e-12)
}

// works holds the work of every chain built (checkWork), by process.
var works sync.Map

func init() {
	workNoted = func(p *mechanics.Process, w float64) { works.Store(p, w) }
}

// noted is the work checkWork found for the chain of spec.
func noted(t *testing.T, spec *mechanics.Spec) float64 {
	t.Helper()
	w, ok := works.Load(spec.Process)
	if !ok {
		t.Fatalf("no work noted for a chain of %d states", len(spec.Process.States))
	}
	return w.(float64)
}

// corner is one configuration at the corners of an ailment's parameters;
// spec is true where the exact engine must take it: without feedback
// (injury_penalty=off) and without auto_fail_when_incapacitated (whose
// chains the rules leave to the simulator or a two-state chain).
type corner struct {
	id   string
	sets []string
	spec bool
}

// ailmentCorners lists every corner of the declared ranges of the ailment
// mechanics' parameters (s0 from −98, the effect from 0 dice of 1 side:
// the values below take the preset's), with the natural rule off and on,
// the injury penalty off and on (the effect in injuries: feedback), and
// for gm.ailment.inescapable auto_fail_when_incapacitated on sleep
// against a round, 10 minutes, an hour and a day; the other options go
// through their values from corner to corner. short keeps willing and
// injuries at their maximum.
func ailmentCorners(short bool) []corner {
	var out []corner
	for _, id := range []string{"gm.ailment.simple", "gm.ailment.chronic", "gm.ailment.inescapable", "gm.ailment.chronic_inescapable"} {
		m, _ := registry.Lookup(id)
		var axes [][]string
		for _, p := range m.Params {
			lo := p.Min
			switch p.Name {
			case "s0":
				lo = strengthFromPreset + 1
			case "effect_dice":
				lo = 0
			case "effect_sides":
				lo = 1
			}
			vals := []string{mechanics.FormatNum(lo), mechanics.FormatNum(p.Max)}
			if short && (p.Name == "willing" || p.Name == "injuries") {
				vals = vals[1:]
			}
			var axis []string
			for _, v := range vals {
				axis = append(axis, p.Name+"="+v)
			}
			axes = append(axes, axis)
		}
		modes := [][]string{{"effect_kind=injuries", "opt.injury_penalty=off"}, {"effect_kind=injuries", "opt.injury_penalty=on"}}
		if id == "gm.ailment.inescapable" {
			for _, tau := range []string{"round", "10_minutes", "hour", "day"} {
				modes = append(modes, []string{"effect_kind=sleep_minutes", "opt.incapacitation=auto_fail_when_incapacitated", "tau=" + tau})
			}
		}
		n := 0
		for _, params := range product(axes) {
			for _, nat := range []string{"none", "1_succeeds_20_fails"} {
				for i, mode := range modes {
					sets := append(append(append([]string{"preset=custom", "opt.naturals=" + nat}, params...), mode...), cycled(m, n)...)
					out = append(out, corner{id: id, sets: sets, spec: i == 0})
					n++
				}
			}
		}
	}
	return out
}

// product is every choice of one value from each axis.
func product(axes [][]string) [][]string {
	out := [][]string{nil}
	for _, axis := range axes {
		var next [][]string
		for _, p := range out {
			for _, v := range axis {
				next = append(next, append(append([]string(nil), p...), v))
			}
		}
		out = next
	}
	return out
}

// cycled sets the switches of m that ailmentCorners does not go through
// to their values in turn, the n-th corner to value n modulo their count.
func cycled(m *mechanics.Mechanic, n int) []string {
	var out []string
	for _, o := range m.Options {
		switch {
		case !strings.Contains(o.Name, ".opt."), strings.HasPrefix(o.Name, "gm.core."), strings.HasSuffix(o.Name, ".opt.incapacitation"):
			continue
		}
		out = append(out, o.Name+"="+o.Values[n%len(o.Values)])
	}
	return out
}

// TestAilmentCorners: at every corner of the ailments' parameters the model
// builds, and the exact engine takes every configuration the rules' model
// calls exact: the work of each chain (checkWork: the states that can
// hold mass at each step times the kernel's values) stays within maxWork,
// and the states within maxStates. Before, a chronic ailment of 4d20
// injuries a time was refused (about 1e8 steps estimated, as if no victim
// were ever cured). Feedback and auto-fail chains may be refused, as bad
// input (too many states) or by the exact engine alone (the simulator
// runs them).
func TestAilmentCorners(t *testing.T) {
	t.Parallel()
	corners := ailmentCorners(testing.Short())
	refused := 0
	for _, c := range corners {
		m, cfg, err := registry.Configure(c.id, c.sets)
		if err != nil {
			t.Fatalf("%s %v: %v", c.id, c.sets, err)
		}
		spec, err := m.Model(cfg)
		switch {
		case err != nil && (c.spec || !mechanics.IsInput(err)):
			t.Errorf("%s %v: %v", c.id, c.sets, err)
			continue
		case err != nil:
			refused++
			continue
		}
		for _, part := range spec.Parts() {
			if !c.spec {
				continue
			}
			if part.NoExact != "" {
				t.Errorf("%s %v: refused by the exact engine: %s", c.id, c.sets, part.NoExact)
			}
			if part.Process != nil {
				if w := noted(t, part); w > maxWork {
					t.Errorf("%s %v: work %.3g past %.3g", c.id, c.sets, w, maxWork)
				}
			}
		}
	}
	t.Logf("%d corners, %d refused as too large (feedback or auto-fail)", len(corners), refused)
}

// TestAilmentCornersCountedWork runs the exact engine at the heaviest
// corners it takes (4d20 a time, every roll to contract failing, the
// throw-offs on H = 0 at strength 20 fading the slowest, L = 50, a horizon
// of 100; the natural rule, which keeps every chain going to the horizon,
// outside -short), counts the kernel values its steps map (every call of
// Move) and checks them against the work checkWork found, which is within
// maxWork: the bound is on counted work, not on time. Where it is cheap,
// the simulator agrees.
func TestAilmentCornersCountedWork(t *testing.T) {
	t.Parallel()
	heavy := []string{"preset=custom", "R=0", "H=0", "s0=20", "willing=1", "effect_dice=4", "effect_sides=20"}
	cases := []struct {
		id   string
		sets []string
		long bool // outside -short only
	}{
		{"gm.ailment.chronic", []string{"horizon=100"}, false},
		{"gm.ailment.chronic_inescapable", []string{"L=50", "horizon=100"}, false},
		{"gm.ailment.inescapable", []string{"L=50"}, false},
		// Feedback: beyond recovery after the first effect.
		{"gm.ailment.chronic", []string{"horizon=100", "effect_kind=injuries", "opt.injury_penalty=on", "injuries=60"}, false},
		{"gm.ailment.chronic_inescapable", []string{"L=5", "horizon=100", "effect_kind=injuries", "opt.injury_penalty=on", "H=40"}, false},
		{"gm.ailment.chronic", []string{"horizon=100", "opt.naturals=1_succeeds_20_fails"}, true},
		{"gm.ailment.chronic_inescapable", []string{"L=50", "horizon=100", "opt.naturals=1_succeeds_20_fails"}, true},
		{"gm.ailment.chronic_inescapable", []string{"L=1", "horizon=100", "opt.naturals=1_succeeds_20_fails", "R=40"}, true},
		{"gm.ailment.inescapable", []string{"L=50", "opt.incapacitation=auto_fail_when_incapacitated", "effect_kind=sleep_minutes", "tau=round"}, true},
	}
	for _, c := range cases {
		sets := append(append([]string(nil), heavy...), c.sets...)
		what := c.id + joinSets(sets)
		if c.long && testing.Short() {
			continue
		}
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			spec := mechtest.MustModel(t, registry, c.id, sets...)
			for _, part := range spec.Parts() {
				if part.NoExact != "" {
					t.Fatalf("refused: %s", part.NoExact)
				}
				w := noted(t, part)
				p := *part.Process
				var calls atomic.Int64
				move := p.Move
				p.Move = func(t, s, x int) int { calls.Add(1); return move(t, s, x) }
				if _, err := exact.SolveProcess(&p); err != nil {
					t.Fatal(err)
				}
				if n := float64(calls.Load()); n > w || w > maxWork {
					t.Errorf("%d states: %g kernel values mapped, work found %.3g, most taken %.3g", len(p.States), n, w, maxWork)
				} else {
					t.Logf("%d states: %g kernel values mapped, work found %.3g", len(p.States), n, w)
				}
			}
			if c.long || c.id != "gm.ailment.chronic" {
				return
			}
			report, err := crosscheck.Spec(t.Context(), spec, mechtest.Trials(t), crosscheck.Standard)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range report {
				t.Error(line)
			}
		})
	}
}

// with is sets and more, in a slice of its own.
func with(sets []string, more ...string) []string {
	return append(append([]string(nil), sets...), more...)
}

// TestAilmentCornersOracle: at corners of the parameters with a fixed
// effect (4 a time), where enumeration is cheap, the exact engine agrees
// with the oracles: rolls that always fail or always resist, the slowest
// fading, a horizon of 100, 50 action times in the area, with the natural
// rule and with feedback.
func TestAilmentCornersOracle(t *testing.T) {
	t.Parallel()
	for _, nat := range []bool{false, true} {
		for _, fb := range []bool{false, true} {
			sets := []string{"preset=custom", "effect_dice=4", "effect_sides=1", "effect_kind=injuries", "s0=20", "willing=1"}
			inj := 0
			if nat {
				sets = append(sets, "opt.naturals=1_succeeds_20_fails")
			}
			if fb {
				sets, inj = append(sets, "opt.injury_penalty=on", "injuries=60"), 60
			}
			// The willing contract on H = 0 (R = 40 does not count), and
			// the throw-offs on the same reaction fail until the natural
			// rule or the fading lets one succeed.
			ch := chronicCase{sets: with(sets, "R=40", "H=0", "opt.throwoff_reaction=same_as_contraction", "horizon=100"), R: 40, H: 0, s0: 20,
				willing: true, same: true, n: 4, x: 1, inj0: inj, feedback: fb, nat: nat, horizon: 100}
			t.Run("chronic"+joinSets(ch.sets), func(t *testing.T) {
				t.Parallel()
				r := mechtest.MustExact(t, registry, "gm.ailment.chronic", ch.sets...)
				n, total, still := chronicOracle(ch)
				samePMF(t, "chronic", r.Var("effects"), n.floats(), 1e-12)
				samePMF(t, "chronic", r.Var("total_effect"), total.floats(), 1e-12)
				mechtest.Near(t, "P(still ill)", r.Event("still_ill").P, f64(still), 1e-12)
			})
			in := inescapableCase{sets: with(sets, "R=0", "H=40", "L=50"), R: 0, H: 40, s0: 20, L: 50, n: 4, x: 1, willing: true, inj0: inj, feedback: fb, nat: nat}
			t.Run("inescapable"+joinSets(in.sets), func(t *testing.T) {
				t.Parallel()
				r := mechtest.MustExact(t, registry, "gm.ailment.inescapable", in.sets...)
				n, total := inescapableOracle(in)
				samePMF(t, "inescapable", r.Var("effects"), n.floats(), 1e-12)
				samePMF(t, "inescapable", r.Var("total_effect"), total.floats(), 1e-12)
			})
			ci := chronicInescapableCase{sets: with(sets, "R=40", "H=40", "L=50", "horizon=100", "s0=-4"), R: 40, H: 40, s0: -4, L: 50, horizon: 100,
				n: 4, x: 1, willing: true, inj0: inj, feedback: fb, nat: nat}
			t.Run("chronic inescapable"+joinSets(ci.sets), func(t *testing.T) {
				t.Parallel()
				r := mechtest.MustExact(t, registry, "gm.ailment.chronic_inescapable", ci.sets...)
				o := chronicInescapableOracle(ci)
				samePMF(t, "chronic inescapable", r.Var("effects"), o.n.floats(), 1e-12)
				samePMF(t, "chronic inescapable", r.Var("total_effect"), o.total.floats(), 1e-12)
				samePMF(t, "chronic inescapable", r.Var("effects_in_area"), o.inArea.floats(), 1e-12)
				mechtest.Near(t, "P(still ill)", r.Event("still_ill").P, f64(o.still), 1e-12)
			})
		}
	}
}
