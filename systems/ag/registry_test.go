package ag

import (
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// registry holds the system's mechanics for its tests.
var registry = mechanics.NewRegistry(Mechanics()...)

// lookup is the registered mechanic id (the test fails without one).
func lookup(t *testing.T, id string) *mechanics.Mechanic {
	t.Helper()
	m, err := registry.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
