package gm

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/reports"
)

// TestChronicGolden is the worked example of gm.ailment.chronic, food
// poisoning (s0 = 3, one injury per effect), R = H = 12, not willing — the
// settings of `oddsmith exact gm.ailment.chronic --set R=12 --set H=12
// --set s0=3` — and its figures worked out by hand: P(contract) = 11/20;
// given contracted, P(N = 1…5) = .5, .275, .135, .0585, .0221; E[N |
// contracted] = 1.8589. effects_if_contracted is that conditional
// distribution, summing to 1, and the table and the CSV print it so.
func TestChronicGolden(t *testing.T) {
	t.Parallel()
	r := mechtest.MustExact(t, registry, "gm.ailment.chronic", "R=12", "H=12", "s0=3")
	mechtest.Near(t, "P(contract)", r.Event("contract").P, 0.55, 1e-12)
	n := pmf(r.Var("effects"))
	mechtest.Near(t, "P(N = 0)", n[0], 0.45, 1e-12)
	given := r.Var("effects_if_contracted")
	c := pmf(given)
	golden := []float64{0.5, 0.275, 0.135, 0.0585, 0.0221} // four decimals
	for k, want := range []float64{0.5, 0.5 * 0.55, 0.5 * 0.45 * 0.6, 0.5 * 0.45 * 0.4 * 0.65, 0.5 * 0.45 * 0.4 * 0.35 * 0.7} {
		mechtest.Near(t, "P(N = k | contracted)", c[float64(k+1)], want, 1e-12)
		mechtest.Near(t, "P(N = k, contracted)", n[float64(k+1)], 0.55*want, 1e-12)
		mechtest.Near(t, "P(N = k | contracted), four decimals", c[float64(k+1)], golden[k], 5e-5+1e-12) // .02205 → .0221
	}
	mechtest.Near(t, "E[N | contracted]", given.Stats.Mean, 1.8589, 5e-5)
	mechtest.Near(t, "P(still ill | contracted)", given.Undefined, 0, 0)
	mechtest.Near(t, "P(contracted), the condition", given.GivenP, 0.55, 1e-12)
	// One injury per effect: the total is N.
	mechtest.Near(t, "E[total]", r.Var("total_effect").Stats.Mean, r.Var("effects").Stats.Mean, 1e-12)
	mechtest.Near(t, "P(still ill)", r.Event("still_ill").P, 0, 0)

	// As printed: the table's conditional distribution and the CSV rows.
	var table, csv strings.Builder
	if err := reports.WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteCSV(&csv, r); err != nil {
		t.Fatal(err)
	}
	block := table.String()[strings.Index(table.String(), "x = effects_if_contracted | contracted"):]
	for k, p := range []string{"0.5000", "0.2750", "0.1350", "0.0585", "0.0221"} {
		if !regexp.MustCompile(`(?m)^` + strconv.Itoa(k+1) + ` +` + regexp.QuoteMeta(p) + ` `).MatchString(block) {
			t.Errorf("the table does not print P(N = %d | contracted) = %s:\n%s", k+1, p, block)
		}
	}
	for k, p := range []string{"0.5", "0.275", "0.135", "0.0585", "0.02205"} {
		if row := "\npmf,effects_if_contracted," + strconv.Itoa(k+1) + "," + p + ","; !strings.Contains(csv.String(), row) {
			t.Errorf("the CSV has no row %q", row[1:])
		}
	}
	if !strings.Contains(csv.String(), "# given effects_if_contracted: its pmf, undefined and stat rows are given contracted, which has probability 0.55\n") {
		t.Errorf("the CSV does not say that effects_if_contracted is given contracted")
	}
}

// gm.core.roll: P(success) = clamp((score + modifier)/20, 0, 1), and the
// margin is uniform on S′ − 20 … S′ − 1.
func TestCoreRollGolden(t *testing.T) {
	t.Parallel()
	for _, score := range []int{0, 1, 3, 10, 18, 20, 33, 40} {
		for _, mod := range []int{-40, -7, 0, 4, 25} {
			r := mechtest.MustExact(t, registry, "gm.core.roll", "score="+strconv.Itoa(score), "modifier="+strconv.Itoa(mod))
			want := math.Min(math.Max(float64(score+mod)/20, 0), 1)
			mechtest.Near(t, "P(success) score "+strconv.Itoa(score)+" modifier "+strconv.Itoa(mod), r.Event("success").P, want, 1e-15)
			m := r.Var("margin")
			if m.Lo != score+mod-20 || len(m.P) != 20 || m.Exact[0] != "1/20" || m.Exact[19] != "1/20" {
				t.Errorf("margin at score %d modifier %d: Lo %d, %d values, %v", score, mod, m.Lo, len(m.P), m.Exact)
			}
		}
	}
	// The naturals switch keeps every roll within 5–95%.
	mechtest.Near(t, "impossible roll, naturals", mechtest.MustExact(t, registry, "gm.core.roll", "score=0", "opt.naturals=1_succeeds_20_fails").Event("success").P, 0.05, 1e-15)
	mechtest.Near(t, "certain roll, naturals", mechtest.MustExact(t, registry, "gm.core.roll", "score=30", "opt.naturals=1_succeeds_20_fails").Event("success").P, 0.95, 1e-15)
	// Score 10, major +3, minor −3 (→ −1), a group of 5 (+2), jogging
	// outdoors (−2), 4 injuries with the penalty on: S′ = 8.
	r := mechtest.MustExact(t, registry, "gm.core.roll", "major=3", "minor=-3", "group=5", "movement=jog", "terrain=outdoors", "injuries=4", "opt.injury_penalty=on")
	mechtest.Near(t, "P(success), every term", r.Event("success").P, 0.4, 1e-15)
	mechtest.Near(t, "injuries without the penalty", mechtest.MustExact(t, registry, "gm.core.roll", "injuries=4").Event("success").P, 0.5, 1e-15)
}

// gm.fall: d6 per band; evasion negates under 10 ft and halves under 20 ft.
func TestFallGolden(t *testing.T) {
	t.Parallel()
	// 30 ft: 3d6, evasion does nothing, 3 injuries.
	r := mechtest.MustExact(t, registry, "gm.fall", "height=30", "evasion=12")
	mechtest.Near(t, "E[damage] 30 ft", r.Var("damage").Stats.Mean, 10.5, 1e-12)
	mechtest.Near(t, "injuries 30 ft", r.Var("injuries").Stats.Mean, 3, 0)
	// 5 ft, evasion 12: negated with P = 0.6, else d6 with 1 injury.
	r = mechtest.MustExact(t, registry, "gm.fall", "height=5", "evasion=12")
	mechtest.Near(t, "P(damage = 0) 5 ft", pmf(r.Var("damage"))[0], 0.6, 1e-12)
	mechtest.Near(t, "E[injuries] 5 ft", r.Var("injuries").Stats.Mean, 0.4, 1e-12)
	// 600 ft: 7d6 (no increase past 320 ft), 7 + 150/150 s aloft.
	mechtest.Near(t, "E[damage] 600 ft (7d6, no increase)", mechtest.MustExact(t, registry, "gm.fall", "height=600").Var("damage").Stats.Mean, 24.5, 1e-12)
	mechtest.Near(t, "time aloft 600 ft", mechtest.MustExact(t, registry, "gm.fall", "height=600").Var("seconds_aloft").Stats.Mean, 8, 1e-12)
	mechtest.Near(t, "time aloft 20 ft", mechtest.MustExact(t, registry, "gm.fall", "height=20").Var("seconds_aloft").Stats.Mean, 3, 0)
}
