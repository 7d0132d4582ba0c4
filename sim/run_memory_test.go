package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// A refusal names the mechanic, like the exact engine's, and stays bad
// input.
func TestRunMemoryErrorNamesTheMechanic(t *testing.T) {
	c, err := ruin.Configure([]string{"goal=50", "start=25", "horizon=1000"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.Run(context.Background(), ruin, c, sim.Options{Trials: 10_000, Seed: 1, MemoryBytes: 4 << 10})
	if !engine.IsMemory(err) || !mechanics.IsInput(err) || !strings.HasPrefix(err.Error(), "test.ruin: ") {
		t.Fatalf("error %v; want a MemoryError about test.ruin", err)
	}
	if _, err := sim.Run(context.Background(), ruin, c, sim.Options{Trials: 10_000, Seed: 1}); err != nil {
		t.Errorf("within the default budget: %v", err)
	}
}
