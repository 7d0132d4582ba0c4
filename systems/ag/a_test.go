package ag

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// r2 is the two-dice roll R₂ of §1.1 by hand: the higher die, +1 on a
// double, and 1 for double ones.
func r2(a, b int) int {
	switch {
	case a == 1 && b == 1:
		return 1
	case a == b:
		return a + 1
	}
	return max(a, b)
}

// TestJumpGap: P(clear a gap g) = P(MoS ≥ ⌈g / 0.75 m⌉) (mechanics.md §1.5),
// so a gap of 0 needs MoS ≥ 0 — before the fix it needed a positive
// distance, MoS ≥ 1 (P = 12/36 instead of 21/36 below). Brute force over
// the two dice.
func TestJumpGap(t *testing.T) {
	// Athletics 2 + Body 2 + sprint 3 against the slippery TN 10: MoS = R₂ − 5.
	atLeast := func(mos int) float64 {
		n := 0
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				if r2(a, b)-5 >= mos {
					n++
				}
			}
		}
		return float64(n) / 36
	}
	base := []string{"athletics=2", "body=2", "movement=sprint", "surface=slippery"}
	for _, tc := range []struct {
		sets []string
		need int // ⌈g / per⌉
	}{
		{[]string{"gap_cm=0"}, 0},
		{[]string{"gap_cm=1"}, 1},
		{[]string{"gap_cm=75"}, 1},
		{[]string{"gap_cm=76"}, 2},
		{[]string{"gap_cm=0", "direction=vertical"}, 0},
		{[]string{"gap_cm=26", "direction=vertical"}, 2},
		// A tie that fails still clears no gap at all: the formula is on MoS.
		{[]string{"gap_cm=0", "opt.tie=failure"}, 0},
	} {
		got := runExact(t, "ag.jump", append(base, tc.sets...)...).Event("clears_gap").P
		near(t, fmt.Sprintf("P(clears_gap) %v", tc.sets), got, atLeast(tc.need), 1e-12)
	}
	// With opt.tie=cost_accepted a raw MoS 0 is taken as MoS 1: it jumps
	// 75 cm and clears a 75 cm gap.
	got := runExact(t, "ag.jump", append(base, "gap_cm=75", "opt.tie=cost_accepted")...).Event("clears_gap").P
	near(t, "P(clears 75 cm), cost_accepted", got, atLeast(0), 1e-12)
	if p := runExact(t, "ag.jump", append(base, "gap_cm=0")...).Var("distance_cm"); p.P[0-p.Lo] != 1-atLeast(1) {
		t.Errorf("P(distance 0) = %v; want P(MoS ≤ 0) = %v", p.P[0-p.Lo], 1-atLeast(1))
	}
}

// TestActingFast: acting fast at k is ag.accumulated at modifier −k, with
// the wall-clock time tests × base × 2^−k (here 7 min / 8 = 52.5 s a test,
// rounded half up) and a deadline of 6 minutes reached within 6 tests
// (315 s; 7 tests take 367.5 s).
func TestActingFast(t *testing.T) {
	af := runExact(t, "ag.acting_fast", "k=3", "base_minutes=7", "deadline_minutes=6", "q=3", "skill=3")
	acc := runExact(t, "ag.accumulated", "modifier=-3", "q=3", "skill=3")
	at, ct := af.Var("time"), acc.Var("time")
	if at.Lo != ct.Lo || len(at.P) != len(ct.P) {
		t.Fatalf("time support [%d, +%d); want [%d, +%d)", at.Lo, len(at.P), ct.Lo, len(ct.P))
	}
	el := af.Var("elapsed_s")
	for i, p := range ct.P {
		near(t, "P(time)", at.P[i], p, 1e-12)
		if p == 0 {
			continue
		}
		s := int(math.Round(52.5 * float64(ct.Lo+i)))
		near(t, fmt.Sprintf("P(elapsed_s = %d)", s), el.P[s-el.Lo], p, 1e-12)
	}
	near(t, "P(done by the deadline)", af.Event("done_by_deadline").P, 1-acc.Process.Survival[6], 1e-12)
}

func band(t *testing.T, r *engine.Result, name string) *engine.BandResult {
	t.Helper()
	for i := range r.Bands {
		if r.Bands[i].Name == name {
			return &r.Bands[i]
		}
	}
	t.Fatalf("%s has no band %s", r.Mechanic, name)
	return nil
}

// TestAttackDamageHeadShot: a head shot compares the damage with the halved
// thresholds 2.5 / 5 / 10 exactly (DV 5: damage 5 is deep at least, flesh
// with greater_than; 10 is critical or deep).
func TestAttackDamageHeadShot(t *testing.T) {
	body := runExact(t, "ag.attack_damage", "dv=5").Var("damage")
	for _, strict := range []bool{false, true} {
		want := make([]float64, 4)
		for i, p := range body.P {
			d, cat := float64(body.Lo+i), 0
			for _, cut := range []float64{2.5, 5, 10} {
				if d > cut || (!strict && d == cut) {
					cat++
				}
			}
			want[cat] += p
		}
		sets := []string{"dv=5", "location=head"}
		if strict {
			sets = append(sets, "opt.threshold_compare=greater_than")
		}
		got := band(t, runExact(t, "ag.attack_damage", sets...), "category")
		for k := range want {
			near(t, fmt.Sprintf("P(%s) %v", got.Labels[k], sets), got.P[k], want[k], 1e-12)
		}
	}
}

// TestInitiativeOrderBruteForce enumerates every combination of totals and
// every tie-breaking order by hand.
func TestInitiativeOrderBruteForce(t *testing.T) {
	for _, sets := range [][]string{
		{"combatants=3", "skill=3", "other_skill=1", "other_attribute=3", "third_skill=0", "third_attribute=4"},
		{"combatants=4", "skill=2", "other_skill=1", "third_modifier=-1", "fourth_skill=3", "fourth_attribute=1", "opt.tie=simultaneous"},
	} {
		m, _ := registry.Lookup("ag.initiative")
		c, err := m.Configure(sets)
		if err != nil {
			t.Fatal(err)
		}
		k := c.Int("combatants")
		coin := c.Options["ag.initiative.opt.tie"] != "simultaneous"
		var dists []map[int]float64
		for _, prefix := range []string{"", "other_", "third_", "fourth_"}[:k] {
			s := sideOf(c, prefix)
			d, _, err := exact.Eval(Pool(s.n, defaults))
			if err != nil {
				t.Fatal(err)
			}
			tot := map[int]float64{}
			for i, p := range d.P {
				if p > 0 {
					tot[Total(d.Lo+i, s.a, s.m)] += p
				}
			}
			dists = append(dists, tot)
		}
		orders := permutations(k)
		if !coin {
			orders = [][]int{nil}
		}
		first := make([]float64, k)
		var tieFirst float64
		pos := make([]float64, k+1)
		tot := make([]int, k)
		var walk func(i int, p float64)
		walk = func(i int, p float64) {
			if i < k {
				for v, q := range dists[i] {
					tot[i] = v
					walk(i+1, p*q)
				}
				return
			}
			for _, order := range orders {
				q := p / float64(len(orders))
				rank := make([]int, k)
				for place, who := range order {
					rank[who] = place
				}
				before := func(i, j int) bool {
					return tot[i] > tot[j] || (coin && tot[i] == tot[j] && rank[i] < rank[j])
				}
				var tops []int
				for i := 0; i < k; i++ {
					top := true
					for j := 0; j < k; j++ {
						if j != i && before(j, i) {
							top = false
						}
					}
					if top {
						tops = append(tops, i)
					}
				}
				if len(tops) == 1 {
					first[tops[0]] += q
				} else {
					tieFirst += q
				}
				place := 1
				for j := 1; j < k; j++ {
					if before(j, 0) {
						place++
					}
				}
				pos[place] += q
			}
		}
		walk(0, 1)
		r := runExact(t, "ag.initiative", sets...)
		for i := 0; i < k; i++ {
			name := combatantNames[i] + "_first"
			near(t, fmt.Sprintf("%v %s", sets, name), r.Event(name).P, first[i], 1e-12)
		}
		near(t, fmt.Sprintf("%v tie_for_first", sets), r.Event("tie_for_first").P, tieFirst, 1e-12)
		ap := r.Var("a_position")
		for place := 1; place <= k; place++ {
			got := 0.0
			if i := place - ap.Lo; i >= 0 && i < len(ap.P) {
				got = ap.P[i]
			}
			near(t, fmt.Sprintf("%v P(a_position = %d)", sets, place), got, pos[place], 1e-12)
		}
	}
}

// TestChaseObstacle: without an obstacle inside the round limit the chase
// is ag.chase; with one every round the chain is homogeneous, and its
// unlimited-horizon mean matches a long horizon.
func TestChaseObstacle(t *testing.T) {
	plain := runExact(t, "ag.chase")
	none := runExact(t, "ag.chase_obstacle", "obstacle_every=11")
	for _, e := range plain.Events {
		near(t, "chase without obstacles: "+e.Name, none.Event(e.Name).P, e.P, 1e-12)
	}
	long := runExact(t, "ag.chase_obstacle", "obstacle_every=1", "rounds=200")
	if !long.Process.Unbounded {
		t.Fatal("an obstacle every round: no unlimited-horizon solution")
	}
	near(t, "P(undecided after 200 rounds)", long.Event("not_absorbed").P, 0, 1e-9)
	near(t, "mean rounds", long.Var("time").Stats.Mean, long.Process.MeanTimeUnbounded, 1e-6)
	for i, s := range long.Process.AbsorbingStates {
		near(t, "P(absorbed:"+s+")", long.Event("absorbed:"+s).P, long.Process.AbsorbedUnbounded[i], 1e-9)
	}
}

// TestTabulateMove: a kernel value outside the declared range is a model
// error, never a silent move to another state.
func TestTabulateMove(t *testing.T) {
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
