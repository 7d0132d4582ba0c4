package sim

import (
	"context"
	"reflect"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// OnOutcomes hands over each part's counts, the very ones Outcomes gives
// for the part's seed, before they are summarized.
func TestOnOutcomesGivesEachPartsCounts(t *testing.T) {
	t.Parallel()
	part := func(n int) *mechanics.Spec {
		rec := mechanics.NewRecord(mechanics.Int("roll", 1, n, "the roll"))
		roll := rec.Slot("roll")
		return (&mechanics.Spec{Record: rec, Outcome: mechanics.Map{X: mechanics.D(n), F: func(v int) int { return roll.Set(rec.Start(), v) }}}).Report("roll")
	}
	spec := part(6)
	also := part(8)
	also.Vars[0].Name = "other"
	spec.Also = []*mechanics.Spec{also}
	m := &mechanics.Mechanic{ID: "test.parts", Build: func(mechanics.Config) (*mechanics.Spec, error) { return spec, nil }}
	var got []Hist
	opt := Options{Trials: 100_000, Seed: 3, OnOutcomes: func(i int, h Hist) {
		if i != len(got) {
			t.Errorf("part %d given after %d parts", i, len(got))
		}
		got = append(got, h)
	}}
	if _, err := Run(context.Background(), m, m.DefaultConfig(), opt); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d parts given, want 2", len(got))
	}
	for i, p := range spec.Parts() {
		po := opt
		po.Seed, po.OnOutcomes = PartSeed(opt.Seed, i), nil
		want, err := Outcomes(context.Background(), p, po)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], want) || got[i].Total() != opt.Trials {
			t.Errorf("part %d: given %v, Outcomes %v", i, got[i], want)
		}
	}
}
