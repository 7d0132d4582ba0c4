package bd

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/sim"
)

// TestHostileSatProcesses cross-checks bd.vigor and bd.shock_and_aid (process
// kernels on settled-count tables: plain, weighted and pair kernels, on the
// block, jump and Move engines) at random settings. HOSTILE_BD_N sets the
// number of settings per mechanic (default 6).
func TestHostileSatProcesses(t *testing.T) {
	t.Parallel()
	n := 6
	if s := os.Getenv("HOSTILE_BD_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 2
	}
	r := rand.New(rand.NewPCG(3, 5))
	ranks := []int{4, 6, 8, 10, 12, 20}
	gen := map[string]func() []string{
		"bd.vigor": func() []string {
			return []string{
				fmt.Sprintf("vigor=%d", r.IntN(60)), fmt.Sprintf("stamina=%d", r.IntN(40)), fmt.Sprintf("defend=%d", r.IntN(2)),
				fmt.Sprintf("attacks=%d", 1+r.IntN(8)), fmt.Sprintf("rounds=%d", 1+r.IntN(60)), fmt.Sprintf("k=%d", r.IntN(7)),
				fmt.Sprintf("rank=%d", ranks[r.IntN(len(ranks))]), fmt.Sprintf("guard=%d", r.IntN(70)),
				fmt.Sprintf("charges=%d", r.IntN(4)), fmt.Sprintf("challenges=%d", r.IntN(4)), fmt.Sprintf("wounded=%d", r.IntN(2)),
				fmt.Sprintf("opt.decide_after_roll=%s", []string{"yes", "no"}[r.IntN(2)]),
				fmt.Sprintf("opt.spend_below_cost=%s", []string{"forbidden", "allowed_to_zero"}[r.IntN(2)]),
				fmt.Sprintf("opt.above_d20=%s", []string{"cap", "extra_die"}[r.IntN(2)]),
			}
		},
		"bd.shock_and_aid": func() []string {
			return []string{
				fmt.Sprintf("k=%d", r.IntN(11)), fmt.Sprintf("rank=%d", ranks[r.IntN(len(ranks))]), fmt.Sprintf("vs=%d", r.IntN(90)),
				fmt.Sprintf("stamina=%d", 1+r.IntN(60)), fmt.Sprintf("attempts=%d", r.IntN(5)),
				fmt.Sprintf("charges=%d", r.IntN(5)), fmt.Sprintf("challenges=%d", r.IntN(5)), fmt.Sprintf("wounded=%d", r.IntN(2)),
				fmt.Sprintf("opt.above_d20=%s", []string{"cap", "extra_die"}[r.IntN(2)]),
			}
		},
	}
	checked := 0
	for _, id := range []string{"bd.vigor", "bd.shock_and_aid"} {
		m, err := registry.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			sets := gen[id]()
			c, err := m.Configure(sets)
			if err != nil {
				t.Logf("%s %v: %v", id, sets, err)
				continue
			}
			spec, err := m.Model(c)
			if err != nil {
				t.Logf("%s %v: %v", id, sets, err)
				continue
			}
			rep, err := crosscheck.Spec(context.Background(), spec, sim.Options{Trials: 400_000, Seed: 13}, crosscheck.Bounds{MinP: 1e-6, Widen: 1.5})
			if err != nil {
				t.Errorf("%s %v: %v", id, sets, err)
				continue
			}
			checked++
			for _, l := range rep {
				t.Errorf("%s %v: %s", id, sets, l)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no random setting could be cross-checked")
	}
	t.Logf("%d settings checked", checked)
}
