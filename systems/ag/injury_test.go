package ag

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestInjuryGoldens(t *testing.T) {
	t.Parallel()
	// The golden values of the system: Body 2, P(blackout at test 1…7).
	s := mechtest.MustExact(t, registry, "ag.suffocation", "body=2")
	tm := s.Var("time")
	for j, want := range []float64{0, .0278, .0810, .1980, .2888, .2696, .1310} {
		got := 0.0
		if v := j + 1 - tm.Lo; v >= 0 && v < len(tm.P) {
			got = tm.P[v]
		}
		mechtest.Near(t, "P(blackout at test j)", got, want, 5e-5)
	}
	// Panic: Psyche 2 + two dice vs TN 3 fails on T ≤ 3, i.e. R = 1 (1/36).
	mechtest.Near(t, "P(panic)", s.Event("panic").P, 1.0/36, 1e-12)
	mechtest.Near(t, "P(panic), Psyche 0", mechtest.MustExact(t, registry, "ag.suffocation", "psyche=0").Event("panic").P, 1.0/36+2.0/36+5.0/36, 1e-12)
	// Fever lethality floor: P(fumble)·(1 − (5/6)⁷) ≈ .0200 whatever the Body.
	for _, body := range []string{"0", "3", "6"} {
		mechtest.Near(t, "P(death per exposure, aid)", mechtest.MustExact(t, registry, "ag.disease", "body="+body).Event("died").P, (1-math.Pow(5.0/6, 7))/36, 1e-12)
	}
	mechtest.Near(t, "P(death, no aid)", mechtest.MustExact(t, registry, "ag.disease", "aid=0").Event("died").P, (1-math.Pow(2.0/3, 7))/36, 1e-12)
	// Stabilising: a bleeding patient is saved by one success in two attempts.
	st := mechtest.MustExact(t, registry, "ag.stabilize", "bleeding_out=1", "skill=1", "logic=0", "patient_body=0", "patient_penalty=0")
	// Skill 1 + 0 vs TN 1 succeeds on 2..6 (5/6); the fumble (1/6) adds a
	// flesh wound, so the second attempt is at −1 and needs 3..6 (4/6).
	mechtest.Near(t, "P(saved)", st.Event("absorbed:saved").P, 5.0/6+(1.0/6)*(4.0/6), 1e-12)
	// Recovery: two flesh bruises (2d6 hours) beside one aided flesh wound (72 h): the wound decides.
	mechtest.Near(t, "recovery hours", mechtest.MustExact(t, registry, "ag.recovery", "deep_bruises=0").Var("hours").Stats.Mean, 72, 1e-12)
}

// TestDiseaseSixRolls: opt.fever_day_count=6_rolls changes only the number
// of death rolls (defect: it also shortened the fever to six days).
// Virulence 9, Body 2: T = R + 2 ≤ 9, so no MoS ≥ −5 row lasts 24 or 25
// days; a fever survivor is ill 7 + (8 + 6) + 4 = 25 days.
func TestDiseaseSixRolls(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		set   string
		rolls float64
	}{{"opt.fever_day_count=7_rolls", 7}, {"opt.fever_day_count=6_rolls", 6}} {
		t.Run(tc.set, func(t *testing.T) {
			r := mechtest.MustExact(t, registry, "ag.disease", tc.set)
			days := r.Var("days_ill")
			at := func(v int) float64 {
				if i := v - days.Lo; i >= 0 && i < len(days.P) {
					return days.P[i]
				}
				return 0
			}
			mechtest.Near(t, "P(fever survivor, 25 days)", at(25), math.Pow(5.0/6, tc.rolls)/36, 1e-12)
			mechtest.Near(t, "P(24 days)", at(24), 0, 0)
			mechtest.Near(t, "P(died)", r.Event("died").P, (1-math.Pow(5.0/6, tc.rolls))/36, 1e-12)
			mechtest.Near(t, "P(death on the last roll)", at(int(tc.rolls)), math.Pow(5.0/6, tc.rolls-1)/6/36, 1e-12)
		})
	}
}
