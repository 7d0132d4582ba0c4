package exact_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/systems"
)

// TestEventAndBandFractions: where the exact engine gives a variable's
// distribution as fractions, it gives its events' and bands' too (they
// were never computed), each the probability it reports, and a band's
// summing to 1 when nothing is left out. ag.skill_test at skill 2: P(success)
// = 7/9, the band mos_band 0, 1/36, 1/18, 5/36, 7/36, 1/4, 1/3.
func TestEventAndBandFractions(t *testing.T) {
	t.Parallel()
	m, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Configure([]string{"skill=2"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := exact.Run(m, c)
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Event("success"); e == nil || e.Exact != "7/9" {
		t.Errorf("success: %+v; want the fraction 7/9", e)
	}
	if got, want := r.Bands[0].Exact, []string{"0", "1/36", "1/18", "5/36", "7/36", "1/4", "1/3"}; len(got) != len(want) || got[1] != want[1] || got[6] != want[6] || got[0] != "0" {
		t.Errorf("mos_band fractions %v; want %v", got, want)
	}
	checked := 0
	for _, m := range systems.Default.All() {
		if m.MCOnly {
			continue
		}
		r, err := exact.Run(m, m.DefaultConfig())
		if err != nil || r.Vars == nil || r.Vars[0].Exact == nil {
			continue
		}
		checked++
		for _, e := range r.Events {
			if e.Exact == "" {
				t.Errorf("%s: event %s has no fraction, though %s has", m.ID, e.Name, r.Vars[0].Name)
				continue
			}
			if q := ratFloat(t, e.Exact); math.Abs(q-e.P) > 1e-12 {
				t.Errorf("%s: event %s: P %v, fraction %s = %v", m.ID, e.Name, e.P, e.Exact, q)
			}
		}
		for _, b := range r.Bands {
			if len(b.Exact) != len(b.Labels) {
				t.Errorf("%s: band %s has %d fractions for %d labels", m.ID, b.Name, len(b.Exact), len(b.Labels))
				continue
			}
			sum := new(big.Rat)
			for i, s := range b.Exact {
				q, _ := new(big.Rat).SetString(s)
				sum.Add(sum, q)
				if f, _ := q.Float64(); math.Abs(f-b.P[i]) > 1e-12 {
					t.Errorf("%s: band %s, %s: P %v, fraction %s", m.ID, b.Name, b.Labels[i], b.P[i], s)
				}
			}
			if r.Truncated == 0 && sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s: band %s sums to %s", m.ID, b.Name, sum.RatString())
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d mechanics have fractions at their defaults", checked)
	}
}

func ratFloat(t *testing.T, s string) float64 {
	t.Helper()
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad fraction %q", s)
	}
	f, _ := q.Float64()
	return f
}
