package ag

import (
	"context"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

var defaults = CoreOptions{CritCount: CritExtraCopies, FumbleCrit: FumbleSuppress, UnskilledCrit: UnskilledApply, Tie: TieBand, NegativePool: NegativeUnskilled}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f; want %.6f (±%g)", what, got, want, tol)
	}
}

// TestPoolGolden pins the R_n table of mechanics.md §1.1.
func TestPoolGolden(t *testing.T) {
	golden := []struct {
		n                  int
		mean, fumble, crit float64
		pmf                map[int]float64
	}{
		// mechanics.md §1.1 golden values (4-digit rounding)
		{0, 2.6667, 0.02778, 0.1389, map[int]float64{1: .3056, 2: .2222, 3: .1944, 4: .1389, 5: .0833, 6: .0278, 7: .0278}},
		{1, 3.5, 0.16667, 0, map[int]float64{1: 1. / 6, 2: 1. / 6, 3: 1. / 6, 4: 1. / 6, 5: 1. / 6, 6: 1. / 6}},
		{2, 4.6111, 0.02778, 0.1389, map[int]float64{1: 1. / 36, 2: 2. / 36, 3: 5. / 36, 4: 7. / 36, 5: 9. / 36, 6: 11. / 36, 7: 1. / 36}},
		{3, 5.4213, 0.00463, 0.4398, map[int]float64{1: .0046, 3: .0556, 4: .1435, 5: .2546, 6: .3935, 7: .1435, 8: .0046}},
		{4, 6.1358, 0.00077, 0.7215, map[int]float64{1: .0008, 4: .0571, 5: .1798, 6: .3850, 7: .3218, 8: .0548, 9: .0008}},
		{5, 6.8417, 0.00013, 0.9073, map[int]float64{1: .0001, 5: .0694, 6: .2663, 7: .4361, 8: .2085, 9: .0194, 10: .0001}},
		{6, 7.5696, 0.00002, 0.9845, map[int]float64{6: .1004, 7: .3640, 8: .4078, 9: .1211, 10: .0067, 11: .00002}},
	}
	for _, g := range golden {
		d, _, err := exact.Eval(Pool(g.n, defaults))
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := exact.Eval(mechanics.Map{X: Pool(g.n, defaults), Name: "R", F: rollValue})
		if err != nil {
			t.Fatal(err)
		}
		near(t, "mean R", r.Mean(), g.mean, 5e-5)
		var fum, crit float64
		for i, p := range d.P {
			if rollFumble(d.Lo + i) {
				fum += p
			}
			if rollCrit(d.Lo + i) {
				crit += p
			}
		}
		near(t, "P(fumble)", fum, g.fumble, 5e-6)
		near(t, "P(crit)", crit, g.crit, 5e-5)
		for v, p := range g.pmf {
			near(t, "P(R=v)", r.Prob(v), p, 5e-5)
		}
		if g.n == 6 {
			near(t, "P(R=1), n=6", r.Prob(1), math.Pow(6, -6), 1e-15)
		}
		// Closed forms: P(F) = 6⁻ⁿ, P(crit) = 1 − 6!/((6−n)!·6ⁿ) − 6⁻ⁿ for 2 ≤ n ≤ 6.
		if g.n >= 2 {
			perm := 1.0
			for i := 0; i < g.n; i++ {
				perm *= float64(6-i) / 6
			}
			near(t, "closed-form P(crit)", crit, 1-perm-math.Pow(6, -float64(g.n)), 1e-12)
		}
	}
	// n ≥ 7: pigeonhole, every non-fumble roll crits.
	for _, n := range []int{7, 12, 20} {
		d, _, _ := exact.Eval(Pool(n, defaults))
		crit := 0.0
		for i, p := range d.P {
			if rollCrit(d.Lo + i) {
				crit += p
			}
		}
		near(t, "P(crit), n ≥ 7", crit, 1-math.Pow(6, -float64(n)), 1e-12)
	}
}

// TestPoolOptionsOracle compares every option combination with brute-force
// enumeration of all rolls, exactly (rationals).
func TestPoolOptionsOracle(t *testing.T) {
	for _, cc := range optCritCount.Values() {
		for _, fc := range optFumbleCrit.Values() {
			for _, uc := range optUnskilledCrit.Values() {
				o := CoreOptions{CritCount: cc, FumbleCrit: fc, UnskilledCrit: uc}
				for n := 0; n <= 5; n++ {
					got, err := exact.EvalRat(Pool(n, o))
					if err != nil {
						t.Fatal(err)
					}
					want := bruteAG(n, o)
					for v, c := range want {
						p := got.Prob(v)
						if p.Num().Int64()*int64(total(n)) != c*p.Denom().Int64() {
							t.Errorf("n=%d %+v: P(%d) = %v; want %d/%d", n, o, v, p, c, total(n))
						}
					}
					if len(got.Values()) != len(want) {
						t.Errorf("n=%d %+v: support %v; want %d values", n, o, got.Values(), len(want))
					}
				}
			}
		}
	}
}

func total(n int) int {
	if n <= 0 {
		n = 2
	}
	t := 1
	for i := 0; i < n; i++ {
		t *= 6
	}
	return t
}

// bruteAG enumerates every roll and applies the rules of §1.1 directly.
func bruteAG(n int, o CoreOptions) map[int]int64 {
	dice := n
	keepLow := n <= 0
	if keepLow {
		dice = 2
	}
	out := map[int]int64{}
	roll := make([]int, dice)
	var rec func(i int)
	rec = func(i int) {
		if i < dice {
			for f := 1; f <= 6; f++ {
				roll[i] = f
				rec(i + 1)
			}
			return
		}
		var count [7]int
		kept := roll[0]
		for _, f := range roll {
			count[f]++
			if keepLow {
				kept = min(kept, f)
			} else {
				kept = max(kept, f)
			}
		}
		distinct, rep := 0, 0
		for f := 1; f <= 6; f++ {
			if count[f] > 0 {
				distinct++
			}
			if count[f] >= 2 {
				rep++
			}
		}
		bonus := map[CritCount]int{CritExtraCopies: dice - distinct, CritRepeatedFaces: rep, CritKeptOnly: count[kept] - 1}[o.CritCount]
		if keepLow && o.UnskilledCrit == UnskilledNone {
			bonus = 0
		}
		if count[1] == dice {
			r := 1
			if o.FumbleCrit == FumbleStack {
				r += bonus
			}
			out[slotFumble.Set(slotRoll.Set(RollRecord.Start(), r), 1)]++
			return
		}
		out[slotCrit.SetBool(slotRoll.Set(RollRecord.Start(), kept+bonus), bonus > 0)]++
	}
	rec(0)
	return out
}

func runExact(t *testing.T, id string, sets ...string) *engine.Result {
	t.Helper()
	r, err := mechtest.Exact(registry, id, sets...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSkillTestGolden(t *testing.T) {
	// mechanics.md §1.2: skill 2 + attribute 2 vs TN 5.
	r := runExact(t, "ag.skill_test", "skill=2", "attribute=2", "tn=5")
	want := map[int]float64{-2: 1, -1: 2, 0: 5, 1: 7, 2: 9, 3: 11, 4: 1}
	mos := r.Var("mos")
	for v, n := range want {
		near(t, "P(MoS=v)", mos.P[v-mos.Lo], n/36, 1e-12)
	}
	near(t, "P(success)", r.Event("success").P, 28.0/36, 1e-12)
	near(t, "P(tie)", r.Event("tie").P, 5.0/36, 1e-12)
	near(t, "E[MoS]", mos.Stats.Mean, 1.6111, 5e-5)
	near(t, "sd MoS", mos.Stats.SD, 1.400, 5e-4)
	near(t, "P(crit)", r.Event("crit").P, 5.0/36, 1e-12)
	near(t, "P(fumble)", r.Event("fumble").P, 1.0/36, 1e-12)
	// Tie readings move P(success) by P(tie).
	near(t, "P(success), cost_accepted", runExact(t, "ag.skill_test", "opt.tie=cost_accepted").Event("success").P, 33.0/36, 1e-12)
	near(t, "P(success), success", runExact(t, "ag.skill_test", "ag.core.opt.tie=success").Event("success").P, 33.0/36, 1e-12)
	near(t, "P(success), failure", runExact(t, "ag.skill_test", "opt.tie=failure").Event("success").P, 28.0/36, 1e-12)
	// The clamp at 0: skill 1, no attribute, modifier −4 vs TN 1: T = 0 for
	// R ≤ 4 (not negative), a tie on 5, a success only on 6.
	cl := runExact(t, "ag.skill_test", "skill=1", "attribute=0", "modifier=-4", "tn=1")
	near(t, "clamped success", cl.Event("success").P, 1.0/6, 1e-12)
	near(t, "clamped tie", cl.Event("tie").P, 1.0/6, 1e-12)
	tot := cl.Var("total")
	near(t, "P(T=0)", tot.P[0-tot.Lo], 4.0/6, 1e-12)
	// Attribute test is the two-dice pool.
	a := runExact(t, "ag.attribute_test", "attribute=2", "tn=5")
	near(t, "attribute test P(success)", a.Event("success").P, 28.0/36, 1e-12)
}

func TestOpposedGolden(t *testing.T) {
	// mechanics.md §1.3: 3 dice + 2 vs 2 dice + 2.
	r := runExact(t, "ag.opposed", "skill=3", "attribute=2", "opp_skill=2", "opp_attribute=2")
	near(t, "P(actor MoS ≥ 1)", r.Event("success").P, 0.5491, 5e-5)
	near(t, "P(tie)", r.Event("tie").P, 0.2236, 5e-5)
	near(t, "P(win)+P(tie)+P(lose)", r.Event("success").P+r.Event("tie").P+r.Event("opponent_wins").P, 1, 1e-12)
	// Symmetric sides tie as often as either wins... and each wins equally.
	s := runExact(t, "ag.opposed", "skill=3", "opp_skill=3")
	near(t, "symmetric", s.Event("success").P, s.Event("opponent_wins").P, 1e-12)
}

// TestCrossCheckCatchesWrongRule: simulate the default crit rule against
// the exact distribution of another rule; the check must reject it.
func TestCrossCheckCatchesWrongRule(t *testing.T) {
	o := defaults
	o.CritCount = CritRepeatedFaces
	d, _, _ := exact.Eval(Pool(4, o))
	h, err := sim.Outcomes(context.Background(), &mechanics.Spec{Outcome: Pool(4, defaults)}, sim.Options{Trials: 200_000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a := engine.ChiSquare(h.Lo, h.Counts, d); a.P > 1e-6 && a.Impossible == 0 {
		t.Fatalf("a wrong crit rule passed: %+v", a)
	}
}

func TestBadConfig(t *testing.T) {
	m, _ := registry.Lookup("ag.skill_test")
	for _, set := range []string{"skill=-1", "skill=41", "skill=2.5", "tn=0", "tn=abc", "opt.tie=maybe", "colour=red", "skill"} {
		if _, err := m.Configure([]string{set}); err == nil {
			t.Errorf("Configure(%q) accepted bad input", set)
		}
	}
}

func TestAccumulatedGolden(t *testing.T) {
	// mechanics.md §1.3: skill 2 + attr 2 vs TN 5, Q = 6, floor at 0.
	r := runExact(t, "ag.accumulated", "skill=2", "attribute=2", "tn=5", "q=6")
	near(t, "E[tests]", r.Process.MeanTimeUnbounded, 4.0758, 5e-5)
	for i, want := range []float64{0.125, 0.4376, 0.6863, 0.8365} {
		near(t, "P(done by t)", 1-r.Process.Survival[i+2], want, 5e-5)
	}
	// Dispel is accumulated damage with Q = 6: it ends, sooner with more skill.
	lo := runExact(t, "ag.magic.dispel", "skill=1").Process.MeanTimeUnbounded
	hi := runExact(t, "ag.magic.dispel", "skill=5").Process.MeanTimeUnbounded
	if !(hi < lo) {
		t.Errorf("dispel: mean attempts %v at skill 5, %v at skill 1", hi, lo)
	}
	// Hurrying: a k = 2 character takes more tests than k = 0, and at
	// k = 4 (−4 to the roll) skill 2 never finishes: no time at all.
	k0 := runExact(t, "ag.acting_fast", "k=0").Var("time").Stats.Mean
	k2 := runExact(t, "ag.acting_fast", "k=2").Var("time").Stats.Mean
	if !(k2 > k0) {
		t.Errorf("acting fast: %v tests at k=2, %v at k=0", k2, k0)
	}
	k4 := runExact(t, "ag.acting_fast", "k=4").Var("time")
	if k4.Undefined != 1 || len(k4.P) != 0 || k4.UndefinedLabel != "not absorbed within 100 tests" {
		t.Errorf("acting fast k=4: time %+v; want all of it not absorbed", k4)
	}
}

func TestChaseSanity(t *testing.T) {
	// Equal runners from the middle: symmetric chances of capture and escape.
	r := runExact(t, "ag.chase", "gap=15", "escape_gap=30", "rounds=200")
	near(t, "P(caught)-P(escaped)", r.Event("absorbed:caught").P-r.Event("absorbed:escaped").P, 0, 1e-3)
	// A much faster pursuer almost always catches.
	f := runExact(t, "ag.chase", "pursuer_speed=30")
	if p := f.Event("absorbed:caught").P; p < 0.99 {
		t.Errorf("faster pursuer catches with %v", p)
	}
}

func TestAttackDamageGolden(t *testing.T) {
	// mechanics.md §1.4: 3 dice + 2 vs 2 dice + 2, DV 3.
	r := runExact(t, "ag.attack_damage", "skill=3", "attribute=2", "defence_skill=2", "defence_attribute=2", "dv=3")
	d := r.Var("damage")
	for i, want := range []float64{.4509, .2149, .1587, .1019, .0498, .0195, .0044} {
		near(t, "P(D = 3i)", d.P[3*i-d.Lo], want, 5e-5)
	}
	// The attack alone is the opposed golden.
	near(t, "P(hit)", runExact(t, "ag.attack", "skill=3", "defence_skill=2").Event("hit").P, 0.5491, 5e-5)
	// Bigger guns incapacitate sooner.
	a := runExact(t, "ag.attack_damage", "report=until_incapacitated", "dv=2").Process.MeanTimeUnbounded
	b := runExact(t, "ag.attack_damage", "report=until_incapacitated", "dv=6").Process.MeanTimeUnbounded
	if !(b < a) {
		t.Errorf("mean attacks to incapacitate: DV 6 %v, DV 2 %v", b, a)
	}
}

func TestHazardGoldens(t *testing.T) {
	// mechanics.md §1.6, athletics 2 + agility 2.
	ge := func(r *engine.Result, v int) float64 {
		d := r.Var("damage")
		s := 0.0
		for i, p := range d.P {
			if d.Lo+i >= v {
				s += p
			}
		}
		return s
	}
	c9 := runExact(t, "ag.fall_damage", "athletics=2", "agility=2", "height=9", "surface=concrete")
	near(t, "9 m concrete P(0)", c9.Event("no_damage").P, .5833, 5e-5)
	near(t, "9 m concrete E[D]", c9.Var("damage").Stats.Mean, 4.099, 5e-4)
	near(t, "9 m concrete P(D ≥ 10)", ge(c9, 10), .2523, 5e-5)
	near(t, "9 m concrete P(D ≥ 20)", ge(c9, 20), .0162, 5e-5)
	near(t, "9 m grass E[D]", runExact(t, "ag.fall_damage", "height=9", "surface=grass").Var("damage").Stats.Mean, 2.049, 5e-4)
	c15 := runExact(t, "ag.fall_damage", "height=15", "surface=concrete")
	near(t, "15 m concrete E[D]", c15.Var("damage").Stats.Mean, 22.54, 5e-3)
	near(t, "15 m concrete P(D ≥ 20)", ge(c15, 20), .6682, 5e-5)
	// Bonfire, full round.
	f := runExact(t, "ag.fire", "dv=2")
	near(t, "fire E[D]", f.Var("damage").Stats.Mean, 9.194, 5e-4)
	for v, n := range map[int]float64{1: 1, 4: 2, 6: 5, 8: 7, 10: 9, 12: 11, 14: 1} {
		d := f.Var("damage")
		near(t, "fire P(D=v)", d.P[v-d.Lo], n/36, 1e-12)
	}
	// Electricity, Body 3, no wound penalties; the golden values hold with
	// the listed DV in the TN (with the default effective DV a fumbled damage
	// roll halves the TN too).
	el := func(dv string) *engine.Result {
		return runExact(t, "ag.electricity", "body=3", "dv="+dv, "opt.test_trigger=always", "opt.wound_penalty_in_test=no", "opt.tn_dv=listed")
	}
	near(t, "DV 1 KO", el("1").Event("ko_or_worse").P, 1.0/36, 1e-12)
	near(t, "DV 2 KO", el("2").Event("ko_or_worse").P, .9722, 5e-5)
	near(t, "DV 2 coma", el("2").Event("coma_or_worse").P, .0833, 5e-5)
	near(t, "DV 4 coma", el("4").Event("coma_or_worse").P, 1, 1e-12)
	near(t, "DV 4 death", el("4").Event("death").P, 1.0/36, 1e-12)
}

func TestInjuryGoldens(t *testing.T) {
	// mechanics.md §1.6: Body 2, P(blackout at test 1…7).
	s := runExact(t, "ag.suffocation", "body=2")
	tm := s.Var("time")
	for j, want := range []float64{0, .0278, .0810, .1980, .2888, .2696, .1310} {
		got := 0.0
		if v := j + 1 - tm.Lo; v >= 0 && v < len(tm.P) {
			got = tm.P[v]
		}
		near(t, "P(blackout at test j)", got, want, 5e-5)
	}
	// Panic: Psyche 2 + two dice vs TN 3 fails on T ≤ 3, i.e. R = 1 (1/36).
	near(t, "P(panic)", s.Event("panic").P, 1.0/36, 1e-12)
	near(t, "P(panic), Psyche 0", runExact(t, "ag.suffocation", "psyche=0").Event("panic").P, 1.0/36+2.0/36+5.0/36, 1e-12)
	// Fever lethality floor: P(fumble)·(1 − (5/6)⁷) ≈ .0200 whatever the Body.
	for _, body := range []string{"0", "3", "6"} {
		near(t, "P(death per exposure, aid)", runExact(t, "ag.disease", "body="+body).Event("died").P, (1-math.Pow(5.0/6, 7))/36, 1e-12)
	}
	near(t, "P(death, no aid)", runExact(t, "ag.disease", "aid=0").Event("died").P, (1-math.Pow(2.0/3, 7))/36, 1e-12)
	// Stabilising: a bleeding patient is saved by one success in two attempts.
	st := runExact(t, "ag.stabilize", "bleeding_out=1", "skill=1", "logic=0", "patient_body=0", "patient_penalty=0")
	// Skill 1 + 0 vs TN 1 succeeds on 2..6 (5/6); the fumble (1/6) adds a
	// flesh wound, so the second attempt is at −1 and needs 3..6 (4/6).
	near(t, "P(saved)", st.Event("absorbed:saved").P, 5.0/6+(1.0/6)*(4.0/6), 1e-12)
	// Recovery: two flesh bruises (2d6 hours) beside one aided flesh wound (72 h): the wound decides.
	near(t, "recovery hours", runExact(t, "ag.recovery", "deep_bruises=0").Var("hours").Stats.Mean, 72, 1e-12)
}

func TestRadiation(t *testing.T) {
	x := DosePath(0, 15, 2, 1.5, 30)
	near(t, "X_2", x[2], 20, 1e-12)
	near(t, "X_16 (shed 1 per 14 days)", x[16], 19, 1e-9)
	if y := DosePath(20, 0, 0, 1, 400); y[400] < 2-1e-12 {
		t.Errorf("dose shed below a tenth of the peak: %v", y[400])
	}
	// One acute 90 dGy dose, Body 3: one test at TN 16; fatal on MoS ≤ −10 (R ≤ 3).
	r := runExact(t, "ag.radiation", "acute_dose=90", "body=3")
	near(t, "P(fatal)", r.Event("absorbed:fatal").P, 8.0/36, 1e-12)
	// Survivors failed by 1…9: T = R + 3 is the onset in hours, penalty capped at −4.
	on := r.Var("first_onset_h")
	near(t, "P(onset 7 h)", on.P[7-on.Lo], 7.0/36, 1e-12) // T = 7: R = 4
	near(t, "P(immediate −4)", r.Var("immediate_penalty").P[-4-r.Var("immediate_penalty").Lo], 28.0/36, 1e-12)
	im := runExact(t, "ag.radiation", "acute_dose=90", "body=3", "opt.penalty_onset=immediate").Var("first_onset_h")
	near(t, "immediate onset", im.P[0-im.Lo], 28.0/36, 1e-12)
	// A house (RSF 15) keeps 90 dGy under the test threshold.
	near(t, "sheltered", runExact(t, "ag.radiation", "acute_dose=90", "rsf=15").Event("any_illness").P, 0, 0)
}

func TestWoundDegeneration(t *testing.T) {
	// Body 6 and one flesh wound: the TN 1 test fails only on a fumble; tests at 24 h and 48 h.
	r := runExact(t, "ag.wound_degeneration", "flesh=1", "deep=0", "body=6", "hours=48")
	near(t, "P(worse)", r.Event("got_worse").P, 1-math.Pow(35.0/36, 2), 1e-12)
	// Penalty feedback accelerates bleeding out.
	on := runExact(t, "ag.wound_degeneration", "body=2", "hours=24").Event("bled_out").P
	off := runExact(t, "ag.wound_degeneration", "body=2", "hours=24", "opt.penalties=off").Event("bled_out").P
	if !(on > off) {
		t.Errorf("bleed-out within 24 h: %v with penalties, %v without", on, off)
	}
	// The memoryless clock has the same mean test rate: one flesh wound, Body 6
	// (only fumbles matter), 48 h: P(no fumble) ≈ exp(−2/36) for Poisson
	// clocks; per-minute steps are within 1e-4 of it.
	ex := runExact(t, "ag.wound_degeneration", "flesh=1", "deep=0", "body=6", "hours=48", "opt.clock=exponential")
	near(t, "P(worse), exponential clock", ex.Event("got_worse").P, 1-math.Exp(-2.0/36), 1e-4)
	m, _ := registry.Lookup("ag.wound_degeneration")
	c, _ := m.Configure([]string{"flesh=2", "deep=2"})
	if _, err := m.Build(c); err == nil {
		t.Error("a full track at the start was accepted")
	}
}

func TestInitiativeOrder(t *testing.T) {
	// Identical combatants: each is first with probability 1/k.
	for _, k := range []string{"3", "4"} {
		r := runExact(t, "ag.initiative", "combatants="+k)
		kk := float64(k[0] - '0')
		for _, e := range r.Events[:int(kk)] {
			near(t, e.Name, e.P, 1/kk, 1e-12)
		}
	}
	// With two combatants the full ordering agrees with the pairwise margin.
	two := runExact(t, "ag.initiative", "skill=3")
	three := runExact(t, "ag.initiative", "skill=3", "combatants=3", "third_skill=0", "third_attribute=0", "third_modifier=-20")
	near(t, "A first", three.Event("a_first").P, two.Event("a_first").P, 1e-12)
}

// TestExactRationals: small models carry exact fractions that match the
// floats and the mechanics.md goldens.
func TestExactRationals(t *testing.T) {
	r := runExact(t, "ag.skill_test", "skill=2", "attribute=2", "tn=5")
	mos := r.Var("mos")
	want := map[int]string{-2: "1/36", -1: "1/18", 0: "5/36", 1: "7/36", 2: "1/4", 3: "11/36", 4: "1/36"}
	for v, w := range want {
		if got := mos.Exact[v-mos.Lo]; got != w {
			t.Errorf("exact P(MoS=%d) = %s; want %s", v, got, w)
		}
	}
	if big := runExact(t, "ag.skill_test", "skill=30"); big.Var("mos").Exact != nil {
		t.Error("rationals computed for a 30-die pool (too costly)")
	}
}

// The time of absorption is defined only within the horizon: the mass not
// absorbed is reported apart, and the statistics are over the rest (never
// a time of horizon+1 mixed into the mean).
func TestTimeWithinTheHorizon(t *testing.T) {
	r := runExact(t, "ag.accumulated", "skill=2", "attribute=2", "tn=5", "q=6", "horizon=12")
	v := r.Var("time")
	sum, mean := 0.0, 0.0
	for i, p := range v.P {
		sum += p
		mean += p * v.Value(i)
	}
	near(t, "P(not absorbed)", v.Undefined, r.Process.Undecided, 1e-15)
	near(t, "P(time defined)", sum, 1-v.Undefined, 1e-12)
	near(t, "mean time given absorbed", v.Stats.Mean, mean/sum, 1e-12)
	if v.Lo+len(v.P)-1 != 12 || v.UndefinedLabel != "not absorbed within 12 tests" {
		t.Errorf("time runs to %d, undefined %q", v.Lo+len(v.P)-1, v.UndefinedLabel)
	}
	// The simulator reports the same split.
	m, _ := registry.Lookup("ag.accumulated")
	c, _ := m.Configure([]string{"skill=2", "attribute=2", "tn=5", "q=6", "horizon=12"})
	s, err := sim.Run(context.Background(), m, c, sim.Options{Trials: 200_000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	sv := s.Var("time")
	if sv.UndefinedCount == 0 || math.Abs(sv.Undefined-v.Undefined) > 0.001 {
		t.Errorf("simulated undefined %v (%d trials); exact %v", sv.Undefined, sv.UndefinedCount, v.Undefined)
	}
}
