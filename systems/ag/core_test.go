package ag

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

var defaults = CoreOptions{CritCount: CritExtraCopies, FumbleCrit: FumbleSuppress, UnskilledCrit: UnskilledApply, Tie: TieBand, negativePool: negativeUnskilled}

// TestPoolGolden pins the table of R_n, the pool result of n dice (the
// core roll of doc.go).
func TestPoolGolden(t *testing.T) {
	t.Parallel()
	golden := []struct {
		n                  int
		mean, fumble, crit float64
		pmf                map[int]float64
	}{
		// The golden values of the system, rounded to 4 digits.
		{0, 2.6667, 0.02778, 0.1389, map[int]float64{1: .3056, 2: .2222, 3: .1944, 4: .1389, 5: .0833, 6: .0278, 7: .0278}},
		{1, 3.5, 0.16667, 0, map[int]float64{1: 1. / 6, 2: 1. / 6, 3: 1. / 6, 4: 1. / 6, 5: 1. / 6, 6: 1. / 6}},
		{2, 4.6111, 0.02778, 0.1389, map[int]float64{1: 1. / 36, 2: 2. / 36, 3: 5. / 36, 4: 7. / 36, 5: 9. / 36, 6: 11. / 36, 7: 1. / 36}},
		{3, 5.4213, 0.00463, 0.4398, map[int]float64{1: .0046, 3: .0556, 4: .1435, 5: .2546, 6: .3935, 7: .1435, 8: .0046}},
		{4, 6.1358, 0.00077, 0.7215, map[int]float64{1: .0008, 4: .0571, 5: .1798, 6: .3850, 7: .3218, 8: .0548, 9: .0008}},
		{5, 6.8417, 0.00013, 0.9073, map[int]float64{1: .0001, 5: .0694, 6: .2663, 7: .4361, 8: .2085, 9: .0194, 10: .0001}},
		{6, 7.5696, 0.00002, 0.9845, map[int]float64{6: .1004, 7: .3640, 8: .4078, 9: .1211, 10: .0067, 11: .00002}},
	}
	for _, g := range golden {
		t.Run(fmt.Sprintf("n=%d", g.n), func(t *testing.T) {
			d, _, err := exact.Eval(Pool(g.n, defaults))
			if err != nil {
				t.Fatal(err)
			}
			r, _, err := exact.Eval(mechanics.Map{X: Pool(g.n, defaults), Name: "R", F: rollValue})
			if err != nil {
				t.Fatal(err)
			}
			mechtest.Near(t, "mean R", r.Mean(), g.mean, 5e-5)
			var fum, crit float64
			for i, p := range d.P {
				if rollFumble(d.Lo + i) {
					fum += p
				}
				if rollCrit(d.Lo + i) {
					crit += p
				}
			}
			mechtest.Near(t, "P(fumble)", fum, g.fumble, 5e-6)
			mechtest.Near(t, "P(crit)", crit, g.crit, 5e-5)
			for v, p := range g.pmf {
				mechtest.Near(t, "P(R=v)", r.Prob(v), p, 5e-5)
			}
			if g.n == 6 {
				mechtest.Near(t, "P(R=1), n=6", r.Prob(1), math.Pow(6, -6), 1e-15)
			}
			// Closed forms: P(F) = 6⁻ⁿ, P(crit) = 1 − 6!/((6−n)!·6ⁿ) − 6⁻ⁿ for 2 ≤ n ≤ 6.
			if g.n >= 2 {
				perm := 1.0
				for i := 0; i < g.n; i++ {
					perm *= float64(6-i) / 6
				}
				mechtest.Near(t, "closed-form P(crit)", crit, 1-perm-math.Pow(6, -float64(g.n)), 1e-12)
			}
		})
	}
	// n ≥ 7: pigeonhole, every non-fumble roll crits.
	for _, n := range []int{7, 12, 20} {
		d, _, err := exact.Eval(Pool(n, defaults))
		if err != nil {
			t.Fatal(err)
		}
		crit := 0.0
		for i, p := range d.P {
			if rollCrit(d.Lo + i) {
				crit += p
			}
		}
		mechtest.Near(t, "P(crit), n ≥ 7", crit, 1-math.Pow(6, -float64(n)), 1e-12)
	}
}

// TestPoolOptionsOracle compares every option combination with brute-force
// enumeration of all rolls, exactly (rationals).
func TestPoolOptionsOracle(t *testing.T) {
	t.Parallel()
	for _, cc := range optCritCount.Values() {
		for _, fc := range optFumbleCrit.Values() {
			for _, uc := range optUnskilledCrit.Values() {
				o := CoreOptions{CritCount: cc, FumbleCrit: fc, UnskilledCrit: uc}
				t.Run(fmt.Sprintf("%v %v %v", cc, fc, uc), func(t *testing.T) {
					for n := 0; n <= 5; n++ {
						got, err := exact.EvalRat(Pool(n, o))
						if err != nil {
							t.Fatal(err)
						}
						want := bruteAG(n, o)
						for v, c := range want {
							p := got.Prob(v)
							if p.Num().Int64()*int64(rollCount(n)) != c*p.Denom().Int64() {
								t.Errorf("n=%d: P(%d) = %v; want %d/%d", n, v, p, c, rollCount(n))
							}
						}
						if len(got.Values()) != len(want) {
							t.Errorf("n=%d: support %v; want %d values", n, got.Values(), len(want))
						}
					}
				})
			}
		}
	}
}

// rollCount is the number of equally likely rolls of an n-dice pool, 6ⁿ
// (6² for the unskilled two dice at n ≤ 0).
func rollCount(n int) int {
	if n <= 0 {
		n = 2
	}
	t := 1
	for i := 0; i < n; i++ {
		t *= 6
	}
	return t
}

// bruteAG enumerates every roll and applies the rules of the core roll
// (doc.go) directly.
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
			out[slotFumble.Set(slotRoll.Set(rollRecord.Start(), r), 1)]++
			return
		}
		out[slotCrit.SetBool(slotRoll.Set(rollRecord.Start(), kept+bonus), bonus > 0)]++
	}
	rec(0)
	return out
}

func TestSkillTestGolden(t *testing.T) {
	t.Parallel()
	// The golden values of the system: skill 2 + attribute 2 vs TN 5.
	r := mechtest.MustExact(t, registry, "ag.skill_test", "skill=2", "attribute=2", "tn=5")
	want := map[int]float64{-2: 1, -1: 2, 0: 5, 1: 7, 2: 9, 3: 11, 4: 1}
	mos := r.Var("mos")
	for v, n := range want {
		mechtest.Near(t, "P(MoS=v)", mos.P[v-mos.Lo], n/36, 1e-12)
	}
	mechtest.Near(t, "P(success)", r.Event("success").P, 28.0/36, 1e-12)
	mechtest.Near(t, "P(tie)", r.Event("tie").P, 5.0/36, 1e-12)
	mechtest.Near(t, "E[MoS]", mos.Stats.Mean, 1.6111, 5e-5)
	mechtest.Near(t, "sd MoS", mos.Stats.SD, 1.400, 5e-4)
	mechtest.Near(t, "P(crit)", r.Event("crit").P, 5.0/36, 1e-12)
	mechtest.Near(t, "P(fumble)", r.Event("fumble").P, 1.0/36, 1e-12)
	// Tie readings move P(success) by P(tie).
	mechtest.Near(t, "P(success), cost_accepted", mechtest.MustExact(t, registry, "ag.skill_test", "opt.tie=cost_accepted").Event("success").P, 33.0/36, 1e-12)
	mechtest.Near(t, "P(success), success", mechtest.MustExact(t, registry, "ag.skill_test", "ag.core.opt.tie=success").Event("success").P, 33.0/36, 1e-12)
	mechtest.Near(t, "P(success), failure", mechtest.MustExact(t, registry, "ag.skill_test", "opt.tie=failure").Event("success").P, 28.0/36, 1e-12)
	// The clamp at 0: skill 1, no attribute, modifier −4 vs TN 1: T = 0 for
	// R ≤ 4 (not negative), a tie on 5, a success only on 6.
	cl := mechtest.MustExact(t, registry, "ag.skill_test", "skill=1", "attribute=0", "modifier=-4", "tn=1")
	mechtest.Near(t, "clamped success", cl.Event("success").P, 1.0/6, 1e-12)
	mechtest.Near(t, "clamped tie", cl.Event("tie").P, 1.0/6, 1e-12)
	tot := cl.Var("total")
	mechtest.Near(t, "P(T=0)", tot.P[0-tot.Lo], 4.0/6, 1e-12)
	// Attribute test is the two-dice pool.
	a := mechtest.MustExact(t, registry, "ag.attribute_test", "attribute=2", "tn=5")
	mechtest.Near(t, "attribute test P(success)", a.Event("success").P, 28.0/36, 1e-12)
}

func TestOpposedGolden(t *testing.T) {
	t.Parallel()
	// The golden values of the system: 3 dice + 2 vs 2 dice + 2.
	r := mechtest.MustExact(t, registry, "ag.opposed", "skill=3", "attribute=2", "opp_skill=2", "opp_attribute=2")
	mechtest.Near(t, "P(actor MoS ≥ 1)", r.Event("success").P, 0.5491, 5e-5)
	mechtest.Near(t, "P(tie)", r.Event("tie").P, 0.2236, 5e-5)
	mechtest.Near(t, "P(win)+P(tie)+P(lose)", r.Event("success").P+r.Event("tie").P+r.Event("opponent_wins").P, 1, 1e-12)
	// Symmetric sides tie as often as either wins... and each wins equally.
	s := mechtest.MustExact(t, registry, "ag.opposed", "skill=3", "opp_skill=3")
	mechtest.Near(t, "symmetric", s.Event("success").P, s.Event("opponent_wins").P, 1e-12)
}

// TestCrossCheckCatchesWrongRule: simulate the default crit rule against
// the exact distribution of another rule; the check must reject it.
func TestCrossCheckCatchesWrongRule(t *testing.T) {
	t.Parallel()
	o := defaults
	o.CritCount = CritRepeatedFaces
	d, _, _ := exact.Eval(Pool(4, o))
	h, err := sim.Outcomes(t.Context(), &mechanics.Spec{Outcome: Pool(4, defaults)}, sim.Options{Trials: 200_000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a := engine.ChiSquare(h.Lo, h.Counts, d); a.P > 1e-6 && a.Impossible == 0 {
		t.Fatalf("a wrong crit rule passed: %+v", a)
	}
}

func TestBadConfig(t *testing.T) {
	t.Parallel()
	m := lookup(t, "ag.skill_test")
	for _, set := range []string{"skill=-1", "skill=41", "skill=2.5", "tn=0", "tn=abc", "opt.tie=maybe", "colour=red", "skill"} {
		t.Run(set, func(t *testing.T) {
			if _, err := m.Configure([]string{set}); err == nil {
				t.Errorf("Configure(%q) accepted bad input", set)
			}
		})
	}
}

// TestExactRationals: small models carry exact fractions that match the
// floats and the golden values.
func TestExactRationals(t *testing.T) {
	t.Parallel()
	r := mechtest.MustExact(t, registry, "ag.skill_test", "skill=2", "attribute=2", "tn=5")
	mos := r.Var("mos")
	want := map[int]string{-2: "1/36", -1: "1/18", 0: "5/36", 1: "7/36", 2: "1/4", 3: "11/36", 4: "1/36"}
	for v, w := range want {
		if got := mos.Exact[v-mos.Lo]; got != w {
			t.Errorf("exact P(MoS=%d) = %s; want %s", v, got, w)
		}
	}
	if big := mechtest.MustExact(t, registry, "ag.skill_test", "skill=30"); big.Var("mos").Exact != nil {
		t.Error("rationals computed for a 30-die pool (too costly)")
	}
}
