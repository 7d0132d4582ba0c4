package gm

import (
	"errors"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// TestTooLongForExactStillSimulates: a feedback chain past what the exact
// engine follows is refused by it (bad input, advice to simulate) and runs
// in the simulator. Under the natural rule no throw-off is ever certain to
// fail or to succeed, so the totals of 4d20 injuries a time spread over
// the whole horizon, every state rolling its own target (about 1.2e9
// kernel values; without the rule a victim beyond recovery is one state
// and the chain is cheap).
func TestTooLongForExactStillSimulates(t *testing.T) {
	t.Parallel()
	sets := []string{"opt.injury_penalty=on", "preset=custom", "effect_kind=injuries", "effect_dice=4", "effect_sides=20",
		"horizon=100", "H=40", "R=0", "opt.naturals=1_succeeds_20_fails"}
	_, err := mechtest.Exact(registry, "gm.ailment.chronic", sets...)
	var in *mechanics.InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "oddsmith sim") {
		t.Fatalf("exact = %v; want a refusal advising the simulator", err)
	}
	spec := mechtest.MustModel(t, registry, "gm.ailment.chronic", sets...)
	s, err := sim.NewSampler(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunChunk(1, 0, 2000); err != nil {
		t.Fatal(err)
	}
}
