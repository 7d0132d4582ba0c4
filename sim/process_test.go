package sim_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/fixtures"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/sim"
)

// ruin is an unregistered mechanic around the gambler's-ruin chain, to test
// the whole path of a Process through both engines and the reports.
var ruin = &mechanics.Mechanic{
	ID: "test.ruin",
	Params: []mechanics.Param{
		{Name: "goal", Default: 8, Min: 2, Max: 50},
		{Name: "start", Default: 3, Min: 1, Max: 49},
		{Name: "horizon", Default: 60, Min: 1, Max: 1000},
	},
	Build: func(c mechanics.Config) (*mechanics.Spec, error) {
		p := fixtures.GamblersRuin(c.Int("goal"), c.Int("start"), 2, 3)
		p.Horizon = c.Int("horizon")
		return mechanics.ProcessSpec(p), nil
	},
}

func TestProcessMechanicBothEngines(t *testing.T) {
	c := ruin.DefaultConfig()
	ex, err := exact.Run(ruin, c)
	if err != nil {
		t.Fatal(err)
	}
	pr := ex.Process
	if pr == nil || !pr.Unbounded {
		t.Fatalf("no process result: %+v", pr)
	}
	// Closed form for the unlimited horizon (r = q/p = 1.5).
	goal := (1 - math.Pow(1.5, 3)) / (1 - math.Pow(1.5, 8))
	if math.Abs(pr.AbsorbedUnbounded[1]-goal) > 1e-12 {
		t.Errorf("P(goal) unbounded = %v; want %v", pr.AbsorbedUnbounded[1], goal)
	}
	// Within the horizon: absorbed + not absorbed = 1, S(t) falls to P(not absorbed).
	tot := pr.Undecided
	for _, a := range pr.Absorbed {
		tot += a
	}
	if math.Abs(tot-1) > 1e-12 || pr.Survival[0] != 1 || math.Abs(pr.Survival[pr.Horizon]-pr.Undecided) > 1e-12 {
		t.Errorf("process result inconsistent: total %v, S(0) %v, S(H) %v vs %v", tot, pr.Survival[0], pr.Survival[pr.Horizon], pr.Undecided)
	}
	for i := 1; i < len(pr.Survival); i++ {
		if pr.Survival[i] > pr.Survival[i-1]+1e-15 {
			t.Fatalf("S(t) increases at %d", i)
		}
	}
	if math.Abs(ex.Event("absorbed:goal").P-pr.Absorbed[1]) > 1e-12 {
		t.Errorf("event and process result disagree")
	}

	sm, err := sim.Run(context.Background(), ruin, c, sim.Options{Trials: trialsFor(200_000, 1_000_000), Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range sm.Events {
		p := ex.Events[i].P
		w := e.CI[1] - e.CI[0]
		if p < e.CI[0]-1.25*w || p > e.CI[1]+1.25*w {
			t.Errorf("event %s: exact %v outside simulated %v", e.Name, p, e.CI)
		}
	}
	for _, r := range []*engine.Result{ex, sm} {
		var buf bytes.Buffer
		if err := reports.WriteCSV(&buf, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "survival,time,") || !strings.Contains(buf.String(), "process,absorbed,goal") {
			t.Errorf("%s CSV lacks the process tables", r.Engine)
		}
		buf.Reset()
		if err := reports.WriteTable(&buf, r); err != nil || !strings.Contains(buf.String(), "absorbed within 60 bets") {
			t.Errorf("%s table lacks the process summary: %v\n%s", r.Engine, err, buf.String())
		}
	}
}

func trialsFor(short, long int64) int64 {
	if testing.Short() {
		return short
	}
	return long
}
