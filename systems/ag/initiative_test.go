package ag

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

func TestInitiativeOrder(t *testing.T) {
	t.Parallel()
	// Identical combatants: each is first with probability 1/k.
	for _, k := range []int{3, 4} {
		t.Run(fmt.Sprintf("combatants=%d", k), func(t *testing.T) {
			r := mechtest.MustExact(t, registry, "ag.initiative", fmt.Sprintf("combatants=%d", k))
			for _, e := range r.Events[:k] {
				mechtest.Near(t, e.Name, e.P, 1/float64(k), 1e-12)
			}
		})
	}
	// With two combatants the full ordering agrees with the pairwise margin.
	two := mechtest.MustExact(t, registry, "ag.initiative", "skill=3")
	three := mechtest.MustExact(t, registry, "ag.initiative", "skill=3", "combatants=3", "third_skill=0", "third_attribute=0", "third_modifier=-20")
	mechtest.Near(t, "A first", three.Event("a_first").P, two.Event("a_first").P, 1e-12)
}

// initiativeBrute is the initiative order computed by hand: every
// combination of the combatants' totals and every tie-breaking order.
type initiativeBrute struct {
	first    []float64 // P(combatant i is first, alone)
	tieFirst float64   // P(two or more share the first place)
	pos      []float64 // P(A's place is p), p = 1..k
}

func bruteInitiative(t *testing.T, c mechanics.Config) initiativeBrute {
	t.Helper()
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
				tot[rollTotal(d.Lo+i, s.a, s.m)] += p
			}
		}
		dists = append(dists, tot)
	}
	orders := permutations(k)
	if !coin {
		orders = [][]int{nil}
	}
	b := initiativeBrute{first: make([]float64, k), pos: make([]float64, k+1)}
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
				b.first[tops[0]] += q
			} else {
				b.tieFirst += q
			}
			place := 1
			for j := 1; j < k; j++ {
				if before(j, 0) {
					place++
				}
			}
			b.pos[place] += q
		}
	}
	walk(0, 1)
	return b
}

// TestInitiativeOrderBruteForce compares the ordering of three and four
// combatants with bruteInitiative.
func TestInitiativeOrderBruteForce(t *testing.T) {
	t.Parallel()
	m := lookup(t, "ag.initiative")
	for _, sets := range [][]string{
		{"combatants=3", "skill=3", "other_skill=1", "other_attribute=3", "third_skill=0", "third_attribute=4"},
		{"combatants=4", "skill=2", "other_skill=1", "third_modifier=-1", "fourth_skill=3", "fourth_attribute=1", "opt.tie=simultaneous"},
	} {
		t.Run(fmt.Sprint(sets), func(t *testing.T) {
			c, err := m.Configure(sets)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteInitiative(t, c)
			r := mechtest.MustExact(t, registry, "ag.initiative", sets...)
			for i := range want.first {
				name := combatantNames[i] + "_first"
				mechtest.Near(t, name, r.Event(name).P, want.first[i], 1e-12)
			}
			mechtest.Near(t, "tie_for_first", r.Event("tie_for_first").P, want.tieFirst, 1e-12)
			ap := r.Var("a_position")
			for place := 1; place < len(want.pos); place++ {
				got := 0.0
				if i := place - ap.Lo; i >= 0 && i < len(ap.P) {
					got = ap.P[i]
				}
				mechtest.Near(t, fmt.Sprintf("P(a_position = %d)", place), got, want.pos[place], 1e-12)
			}
		})
	}
}
