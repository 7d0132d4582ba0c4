package ag

import (
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

// registry holds the system's mechanics for its tests.
var registry = mechanics.NewRegistry(Mechanics()...)

// runExact computes the registered mechanic id exactly at the settings
// (the test fails on an error).
func runExact(t *testing.T, id string, sets ...string) *engine.Result {
	t.Helper()
	r, err := mechtest.Exact(registry, id, sets...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// lookup is the registered mechanic id (the test fails without one).
func lookup(t *testing.T, id string) *mechanics.Mechanic {
	t.Helper()
	m, err := registry.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
