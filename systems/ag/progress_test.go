package ag

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

func TestAccumulatedGolden(t *testing.T) {
	t.Parallel()
	// The golden values of the system: skill 2 + attr 2 vs TN 5, Q = 6, floor at 0.
	r := mechtest.MustExact(t, registry, "ag.accumulated", "skill=2", "attribute=2", "tn=5", "q=6")
	mechtest.Near(t, "E[tests]", r.Process.MeanTimeUnbounded, 4.0758, 5e-5)
	for i, want := range []float64{0.125, 0.4376, 0.6863, 0.8365} {
		mechtest.Near(t, "P(done by t)", 1-r.Process.Survival[i+2], want, 5e-5)
	}
	// Dispel is accumulated damage with Q = 6: it ends, sooner with more skill.
	lo := mechtest.MustExact(t, registry, "ag.magic.dispel", "skill=1").Process.MeanTimeUnbounded
	hi := mechtest.MustExact(t, registry, "ag.magic.dispel", "skill=5").Process.MeanTimeUnbounded
	if !(hi < lo) {
		t.Errorf("dispel: mean attempts %v at skill 5, %v at skill 1", hi, lo)
	}
	// Hurrying: a k = 2 character takes more tests than k = 0, and at
	// k = 4 (−4 to the roll) skill 2 never finishes: no time at all.
	k0 := mechtest.MustExact(t, registry, "ag.acting_fast", "k=0").Var("time").Stats.Mean
	k2 := mechtest.MustExact(t, registry, "ag.acting_fast", "k=2").Var("time").Stats.Mean
	if !(k2 > k0) {
		t.Errorf("acting fast: %v tests at k=2, %v at k=0", k2, k0)
	}
	k4 := mechtest.MustExact(t, registry, "ag.acting_fast", "k=4").Var("time")
	if k4.Undefined != 1 || len(k4.P) != 0 || k4.UndefinedLabel != "not absorbed within 100 tests" {
		t.Errorf("acting fast k=4: time %+v; want all of it not absorbed", k4)
	}
}

func TestChaseSanity(t *testing.T) {
	t.Parallel()
	// Equal runners from the middle: symmetric chances of capture and escape.
	r := mechtest.MustExact(t, registry, "ag.chase", "gap=15", "escape_gap=30", "rounds=200")
	mechtest.Near(t, "P(caught)-P(escaped)", r.Event("absorbed:caught").P-r.Event("absorbed:escaped").P, 0, 1e-3)
	// A much faster pursuer almost always catches.
	f := mechtest.MustExact(t, registry, "ag.chase", "pursuer_speed=30")
	if p := f.Event("absorbed:caught").P; p < 0.99 {
		t.Errorf("faster pursuer catches with %v", p)
	}
}

// The time of absorption is defined only within the horizon: the mass not
// absorbed is reported apart, and the statistics are over the rest (never
// a time of horizon+1 mixed into the mean).
func TestTimeWithinTheHorizon(t *testing.T) {
	t.Parallel()
	r := mechtest.MustExact(t, registry, "ag.accumulated", "skill=2", "attribute=2", "tn=5", "q=6", "horizon=12")
	v := r.Var("time")
	sum, mean := 0.0, 0.0
	for i, p := range v.P {
		sum += p
		mean += p * v.Value(i)
	}
	mechtest.Near(t, "P(not absorbed)", v.Undefined, r.Process.Undecided, 1e-15)
	mechtest.Near(t, "P(time defined)", sum, 1-v.Undefined, 1e-12)
	mechtest.Near(t, "mean time given absorbed", v.Stats.Mean, mean/sum, 1e-12)
	if v.Lo+len(v.P)-1 != 12 || v.UndefinedLabel != "not absorbed within 12 tests" {
		t.Errorf("time runs to %d, undefined %q", v.Lo+len(v.P)-1, v.UndefinedLabel)
	}
	// The simulator reports the same split.
	m := lookup(t, "ag.accumulated")
	c, err := m.Configure([]string{"skill=2", "attribute=2", "tn=5", "q=6", "horizon=12"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.Run(t.Context(), m, c, sim.Options{Trials: 200_000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	sv := s.Var("time")
	if sv.UndefinedCount == 0 || math.Abs(sv.Undefined-v.Undefined) > 0.001 {
		t.Errorf("simulated undefined %v (%d trials); exact %v", sv.Undefined, sv.UndefinedCount, v.Undefined)
	}
}

// TestActingFast: acting fast at k is ag.accumulated at modifier −k, with
// the wall-clock time tests × base × 2^−k (here 7 min / 8 = 52.5 s a test,
// rounded half up) and a deadline of 6 minutes reached within 6 tests
// (315 s; 7 tests take 367.5 s).
func TestActingFast(t *testing.T) {
	t.Parallel()
	af := mechtest.MustExact(t, registry, "ag.acting_fast", "k=3", "base_minutes=7", "deadline_minutes=6", "q=3", "skill=3")
	acc := mechtest.MustExact(t, registry, "ag.accumulated", "modifier=-3", "q=3", "skill=3")
	at, ct := af.Var("time"), acc.Var("time")
	if at.Lo != ct.Lo || len(at.P) != len(ct.P) {
		t.Fatalf("time support [%d, +%d); want [%d, +%d)", at.Lo, len(at.P), ct.Lo, len(ct.P))
	}
	el := af.Var("elapsed_s")
	for i, p := range ct.P {
		mechtest.Near(t, "P(time)", at.P[i], p, 1e-12)
		if p == 0 {
			continue
		}
		s := int(math.Round(52.5 * float64(ct.Lo+i)))
		mechtest.Near(t, fmt.Sprintf("P(elapsed_s = %d)", s), el.P[s-el.Lo], p, 1e-12)
	}
	mechtest.Near(t, "P(done by the deadline)", af.Event("done_by_deadline").P, 1-acc.Process.Survival[6], 1e-12)
}

// TestChaseObstacle: without an obstacle inside the round limit the chase
// is ag.chase; with one every round the chain is homogeneous, and its
// unlimited-horizon mean matches a long horizon.
func TestChaseObstacle(t *testing.T) {
	t.Parallel()
	plain := mechtest.MustExact(t, registry, "ag.chase")
	none := mechtest.MustExact(t, registry, "ag.chase_obstacle", "obstacle_every=11")
	for _, e := range plain.Events {
		mechtest.Near(t, "chase without obstacles: "+e.Name, none.Event(e.Name).P, e.P, 1e-12)
	}
	long := mechtest.MustExact(t, registry, "ag.chase_obstacle", "obstacle_every=1", "rounds=200")
	if !long.Process.Unbounded {
		t.Fatal("an obstacle every round: no unlimited-horizon solution")
	}
	mechtest.Near(t, "P(undecided after 200 rounds)", long.Event("not_absorbed").P, 0, 1e-9)
	mechtest.Near(t, "mean rounds", long.Var("time").Stats.Mean, long.Process.MeanTimeUnbounded, 1e-6)
	for i, s := range long.Process.AbsorbingStates {
		mechtest.Near(t, "P(absorbed:"+s+")", long.Event("absorbed:"+s).P, long.Process.AbsorbedUnbounded[i], 1e-9)
	}
}

// TestTabulateMove: a kernel value outside the declared range is a model
// error, never a silent move to another state.
func TestTabulateMove(t *testing.T) {
	t.Parallel()
	p := &mechanics.Process{Horizon: 1}
	p.Add(false, "a", "b")
	tabulateMove(p, -1, 1, func(s, x int) int { return (s + x + 2) % 2 })
	if got := p.Move(1, 1, 1); got != 0 {
		t.Errorf("Move(1, 1) = %d; want 0", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a kernel value outside [-1, 1] did not panic")
		}
	}()
	p.Move(1, 0, 2)
}
