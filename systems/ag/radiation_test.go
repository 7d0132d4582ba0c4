package ag

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

func TestRadiation(t *testing.T) {
	t.Parallel()
	x := dosePathFloats(t, 0, 15, 2, 1.5, 30)
	mechtest.Near(t, "X_2", x[2], 20, 1e-12)
	mechtest.Near(t, "X_16 (shed 1 per 14 days)", x[16], 19, 1e-9)
	if y := dosePathFloats(t, 20, 0, 0, 1, 400); y[400] < 2-1e-12 {
		t.Errorf("dose shed below a tenth of the peak: %v", y[400])
	}
	// One acute 90 dGy dose, Body 3: one test at TN 16; fatal on MoS ≤ −10 (R ≤ 3).
	r := mechtest.MustExact(t, registry, "ag.radiation", "acute_dose=90", "body=3")
	mechtest.Near(t, "P(fatal)", r.Event("absorbed:fatal").P, 8.0/36, 1e-12)
	// Survivors failed by 1…9: T = R + 3 is the onset in hours, penalty capped at −4.
	on := r.Var("first_onset_h")
	mechtest.Near(t, "P(onset 7 h)", on.P[7-on.Lo], 7.0/36, 1e-12) // T = 7: R = 4
	mechtest.Near(t, "P(immediate −4)", r.Var("immediate_penalty").P[-4-r.Var("immediate_penalty").Lo], 28.0/36, 1e-12)
	im := mechtest.MustExact(t, registry, "ag.radiation", "acute_dose=90", "body=3", "opt.penalty_onset=immediate").Var("first_onset_h")
	mechtest.Near(t, "immediate onset", im.P[0-im.Lo], 28.0/36, 1e-12)
	// A house (RSF 15) keeps 90 dGy under the test threshold.
	mechtest.Near(t, "sheltered", mechtest.MustExact(t, registry, "ag.radiation", "acute_dose=90", "rsf=15").Event("any_illness").P, 0, 0)
}

// TestRadiationShed: the body sheds 1 dGy every two weeks, also while
// exposed (defect: it shed only on days without a dose, by 1/14 a day). A
// daily dose of 1 for 25 days: X_t = t up to day 14, the shed on day 15
// holds X at 14 (no test that day), then X_t = t − 1 up to 24 on day 25.
func TestRadiationShed(t *testing.T) {
	t.Parallel()
	x := dosePathFloats(t, 0, 1, 25, 1, 40)
	for day, want := range map[int]float64{7: 7, 14: 14, 15: 14, 16: 15, 25: 24, 28: 24, 29: 23, 40: 23} {
		mechtest.Near(t, "X_t", x[day], float64(want), 1e-12)
	}
	// Body 3 + two dice (T = R + 3 ≥ 4) never reaches MoS ≤ −10 at TN ≤ 12,
	// so only a fumble (1/36) is fatal: tests on days 7–14 and 16–25, 18 of
	// them (19 without the shed).
	r := mechtest.MustExact(t, registry, "ag.radiation", "acute_dose=0", "daily_dose=1", "exposure_days=25", "body=3", "days=30")
	mechtest.Near(t, "P(alive)", r.Event("not_absorbed").P, math.Pow(35.0/36, 18), 1e-12)
	tm := r.Var("time")
	for day := 1; day <= 30; day++ {
		want := 0.0
		if (day >= 7 && day <= 14) || (day >= 16 && day <= 25) {
			k := day - 7 // tests before this day
			if day > 15 {
				k--
			}
			want = math.Pow(35.0/36, float64(k)) / 36
		}
		got := 0.0
		if i := day - tm.Lo; i >= 0 && i < len(tm.P) {
			got = tm.P[i]
		}
		mechtest.Near(t, "P(fatal test on day)", got, want, 1e-12)
	}
	// The floor: a tenth of the peak.
	y := dosePathFloats(t, 20, 0, 0, 1, 400)
	mechtest.Near(t, "floor", y[400], 2, 1e-12)
	mechtest.Near(t, "X_15", y[15], 19, 1e-12)
}

// decimal is the exact rational of a decimal value (the test fails on one
// that has none).
func decimal(t *testing.T, v float64) expr.Rat {
	t.Helper()
	r, err := expr.Decimal(v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// dosePathFloats is dosePath for decimal inputs, as floats: X_t in dGy for
// t = 0..days.
func dosePathFloats(t *testing.T, acute, daily float64, exposureDays int, rsf float64, days int) []float64 {
	x := dosePath(decimal(t, acute), decimal(t, daily), exposureDays, decimal(t, rsf), days)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i], _ = v.Float64()
	}
	return out
}
